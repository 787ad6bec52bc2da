"""Who may run each gate command: one table, enforced here and printed by `a2a rules`.

The caller is the user or a managed session of one launch role (`identity.Caller`). `writer`
stands for the attempt's recorded writer, whatever its role. Commands that only read (card show
and list, status, events, target show) and `recover` (which records facts it reads, and runs
before every gate command anyway) are open to every caller.
"""

from __future__ import annotations

from typing import Any

from a2a_tui.errors import A2AError

USER = "user"
WRITER = "writer"

GATE_ROLES: dict[str, tuple[str, ...]] = {
    # The ideation controller writes cards and marks them ready (its role rules say so).
    "card add": (USER, "ideation", "executive"),
    "card ready": (USER, "ideation", "executive"),
    "claim": (USER, "executive"),
    "submit": (USER, WRITER),
    # Verification is the gate's deterministic checks, started by whoever supervises the work,
    # never by the worker whose candidate it judges (seed 001: verification is independent).
    "verify": (USER, "executive"),
    # A verdict comes from the reviewer session launched for the SHA (gate/review.py checks
    # the rest); the user decides about a review with dispositions, an override, or approve.
    "review start": (USER, "executive"),
    "review verdict": ("reviewer",),
    "review dispose": (USER, "executive"),
    "review override": (USER,),
    "approve": (USER,),
    "integrate": (USER, "executive"),
    "abandon": (USER, "executive"),
    "reclaim": (USER, "executive"),
    # Decisions only the user can make: what an unknown outcome was, and what a moved target is.
    "resolve": (USER,),
    "target adopt": (USER,),
    "target restore": (USER,),
}

_WHO = {USER: "the user", WRITER: "the attempt's writer", "executive": "the executive controller",
        "ideation": "the ideation controller", "reviewer": "a reviewer session",
        "worker": "a worker"}


def who_may(command: str, writer: str | None = None) -> str:
    """The people allowed to run `command`, in words ("the executive controller or the user")."""
    names = []
    for who in sorted(GATE_ROLES[command], key=lambda w: w == USER):  # the user last
        name = _WHO[who]
        if who == WRITER and writer:
            name += f" ({'the user' if writer == USER else writer})"
        names.append(name)
    if names == ["the user"]:
        return "the user only"
    return ", ".join(names[:-1]) + (" or " if len(names) > 1 else "") + names[-1]


def table() -> list[dict[str, Any]]:
    """The table as rows, for `a2a rules`."""
    return [{"command": c, "who": list(w), "text": who_may(c)} for c, w in GATE_ROLES.items()]


def require_role(g, command: str, *, attempt=None) -> None:
    """Refuse `command` unless the caller may run it; a refusal is recorded (`role_forbidden`).

    `attempt` (a row) is needed where the writer counts (submit).
    """
    allowed = GATE_ROLES[command]
    caller = g.caller
    writer = attempt["writer"] if attempt is not None else None
    if caller.is_user and USER in allowed:
        return
    if not caller.is_user and (caller.role in allowed
                               or (WRITER in allowed and caller.actor == writer)):
        return
    target = f" {attempt['id']}" if attempt is not None else ""
    message = (f"{command}{target} is for {who_may(command, writer)}: {caller.describe()}"
               " may not run it (`a2a rules` prints who may run what)")
    with g.store.write() as tx:
        tx.append("role_forbidden", actor=caller.actor, session=caller.session,
                  task=attempt["card_id"] if attempt is not None else None,
                  attempt=attempt["id"] if attempt is not None else None,
                  payload={"command": command, "role": caller.role or USER,
                           "allowed": list(allowed), "message": message})
    raise A2AError("role_forbidden", message)


def admit(g, command: str, attempt_id: str):
    """The attempt's row, once the gate is intact for its card (`ledger.require_intact`) and
    the caller may run `command` on it."""
    # lazy: the ledger (and the board it raises items on) for a gate write only; the role
    # table itself is read by every command's rules (cli/output.py)
    from a2a_tui.gate import ledger

    att = g.attempt(attempt_id)
    ledger.require_intact(g, att["card_id"])
    require_role(g, command, attempt=att)
    return att
