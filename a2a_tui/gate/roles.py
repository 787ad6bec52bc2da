"""Who may run each command: one table, enforced here and printed by `a2a rules`.

The caller is the user or a managed session of one launch role (`identity.Caller`). `writer`
stands for the attempt's recorded writer, whatever its role. `GATE_ROLES` are the gate's
commands (each checks its caller itself, `require_role`, also when the workbench runs it);
`ROLE_TABLE` has a row for every command of the CLI (tests/gate/test_gate_roles_every_command.py
walks the parser), and the CLI refuses a caller a row does not name before the command runs
(`cli/context.py`). Commands that only read are open to every caller, an unidentified one too
(`EVERYONE`); so are `recover` (it records facts it reads, and runs before every gate command
anyway) and the stand-in agent CLI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads.boundary import RoleForbidden

if TYPE_CHECKING:  # annotations only: every command reads the role table, few an attempt
    from a2a_tui.gate.ledger.records import AttemptRecord

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
    # A verdict comes from the reviewer session launched for the SHA (gate/reviews/verdict.py checks
    # the rest); the user decides about a review with dispositions, an override, or approve.
    "review start": (USER, "executive"),
    "review verdict": ("reviewer",),
    "review dispose": (USER, "executive"),
    "review override": (USER,),
    "approve": (USER,),
    "integrate": (USER, "executive"),
    "abandon": (USER, "executive"),
    "reclaim": (USER, "executive"),
    # Taking an attempt from a writer that is not done with it (busy, or its work unsubmitted:
    # gate/attempts/handback.py): `abandon`, `claim --supersede`, `reclaim` with --force.
    "force": (USER,),
    # An attempt's lease (gate/attempts/leases.py): read it, or take an isolated one back.
    "lease": (USER, "executive"),
    # A spot check of an integration (gate/integration/spotchecks.py) is the user's judgement.
    "spot-check": (USER,),
    # Decisions only the user can make: what an unknown outcome was, and what a moved target is.
    "resolve": (USER,),
    "target adopt": (USER,),
    "target restore": (USER,),
    # The rules a2a enforces are the user's: a rule file changed by anyone takes effect only
    # when the user accepts it (gate/cards/gate_rules.py).
    "gate-rules accept": (USER,),
}

EVERYONE = "anyone"
CONTROLLERS = ("ideation", "executive")
SESSIONS = ("ideation", "executive", "worker", "reviewer", "retro")

# Every other command of the CLI. A session is started, revived or forked by the user or the
# executive controller (who supervises execution); the CLI options given after `--` that set
# what the session may do (`profiles/permissions.PERMISSION_OPTIONS`) are the user's alone. A
# prompt typed into another session's pane is the user's or the executive's (it dispatches);
# holding a pane's queue, releasing a pane, ending a session are the user's.
OTHER_ROLES: dict[str, tuple[str, ...]] = {
    "spawn": (USER, "executive"),
    "spawn permission options": (USER,),
    "session new": (USER, "executive"),
    "session restart": (USER, "executive"),
    "session revive": (USER, "executive"),
    "session fork": (USER, "executive"),
    "session end": (USER,),
    "inject": (USER, "executive"),
    "inject own": (USER, *SESSIONS),
    "pause": (USER,),
    "resume": (USER,),
    "release": (USER,),
    "serve": (USER,),
    "up": (USER,),
    "workbench": (USER,),
    "down": (USER,),
    "demo": (USER,),
    "demo-director": (USER,),
    "init": (USER,),
    "store rebuild": (USER,),
    "store reseal": (USER,),
    # A backup is written where its caller names; a restore replaces the store.
    "store backup": (USER,),
    "store restore": (USER,),
    # `card edit` opens the user's editor on a card file (a session writes a card and `card
    # add`s it); a controller may print the template (`card new --print`, the only form the
    # broker runs for a session: broker/commands.py ONLY).
    "card new": (USER, *CONTROLLERS),
    "card edit": (USER,),
    "feedback more": (USER,),   # more rounds of automatic feedback: the user grants them
    "comment": (USER,),
    "say": (USER,),
    "input confirm": (USER,),
    "board answer": (USER,),
    "board send": (USER,),
    "board ask": (USER, *CONTROLLERS),
    "board close": (USER, *CONTROLLERS),
    "board report": (USER, *SESSIONS),
    "inbox post": (USER, *CONTROLLERS),
    "retro": (USER, "executive"),   # it starts a retro session, as `spawn` starts one
    "retro save": (USER, "retro"),
    "profile confirm": (USER,),   # the project's profile is what the user confirms
    # Reads, and what records only facts it reads: every caller.
    **{c: (EVERYONE,) for c in (
        "status", "events", "metrics", "recover", "card show", "card list", "log", "rules",
        "whoami", "sessions", "input list", "input show", "inbox list", "inbox show",
        "board list", "board show", "target show", "config show", "gate-rules", "doctor",
        "review show", "comment list", "store verify", "demo-agent", "diff", "show",
        "attention", "profile")},
}
# The rows the CLI enforces before the command runs (cli/context.py); every other row is
# enforced by its command itself (the gate's `require_role`, the inbox and board rules of
# collab/roles.py, the user's own commands' `user_only`), which says more precisely why.
ENFORCED_AT_ENTRY = frozenset({
    "spawn", "session new", "session restart", "session revive", "session fork", "session end",
    "inject", "pause", "resume", "release", "serve", "up", "workbench", "down", "demo",
    "demo-director", "init", "retro", "gate-rules accept", "card new", "card edit",
    "store backup", "store restore", "profile confirm"})
ROLE_TABLE: dict[str, tuple[str, ...]] = {**GATE_ROLES, **OTHER_ROLES}
# Rows that qualify a command rather than name one.
QUALIFIERS = frozenset({"spawn permission options", "inject own", "comment list",
                        "force"})
# a2a's own processes: never started for a session, whatever their rows say (the broker refuses
# them, a2a_tui/broker/commands.py).
A2A_PROCESSES = frozenset({"serve", "up", "down", "workbench", "demo", "demo-director",
                           "demo-agent"})


def for_sessions(command: str) -> bool:
    """Whether the table lets some managed session run `command` (the broker then runs it for
    one; the row still decides which)."""
    who = set(ROLE_TABLE[command])
    return command not in A2A_PROCESSES and bool(who & {EVERYONE, WRITER, *SESSIONS})

_WHO = {USER: "the user", WRITER: "the attempt's writer", "executive": "the executive controller",
        "ideation": "the ideation controller", "reviewer": "a reviewer session",
        "worker": "a worker", "retro": "a retro session", EVERYONE: "anyone"}


def who_may(command: str, writer: str | None = None) -> str:
    """The people allowed to run `command`, in words ("the executive controller or the user")."""
    if ROLE_TABLE[command] == (EVERYONE,):
        return "anyone"
    if set(SESSIONS) <= set(ROLE_TABLE[command]):
        return "any session or the user"
    names = []
    for who in sorted(ROLE_TABLE[command], key=lambda w: w == USER):  # the user last
        name = _WHO[who]
        if who == WRITER and writer:
            name += f" ({'the user' if writer == USER else writer})"
        names.append(name)
    if names == ["the user"]:
        return "the user only"
    return ", ".join(names[:-1]) + (" or " if len(names) > 1 else "") + names[-1]


def table() -> list[JsonObject]:
    """The table as rows, for `a2a rules`."""
    return [{"command": c, "who": list(w), "text": who_may(c)} for c, w in ROLE_TABLE.items()]


def allows(command: str, caller, writer: str | None = None) -> bool:
    """Whether the table lets `caller` run `command` (`writer`: the attempt's, where it counts)."""
    allowed = ROLE_TABLE[command]
    if EVERYONE in allowed:
        return True
    if caller.unidentified is not None:
        return False
    if caller.is_user:
        return USER in allowed
    return caller.role in allowed or (WRITER in allowed and caller.actor == writer)


def require_role(g, command: str, *, attempt: AttemptRecord | None = None,
                 detail: str = "") -> None:
    """Refuse `command` unless the caller may run it; a refusal is recorded (`role_forbidden`).

    `attempt` (its record) is needed where the writer counts (submit). `detail` says more of what
    was refused (the options given, the session aimed at).
    """
    caller = g.caller
    writer = attempt.writer if attempt is not None else None
    if allows(command, caller, writer):
        return
    refuse(g.store, caller, command, attempt=attempt, detail=detail)


def refuse(store, caller, command: str, *, attempt: AttemptRecord | None = None,
           detail: str = "") -> NoReturn:
    """Record and raise the refusal of `command` to `caller` (`role_forbidden`)."""
    allowed = ROLE_TABLE[command]
    writer = attempt.writer if attempt is not None else None
    target = f" {attempt.id}" if attempt is not None else ""
    message = (f"{command}{target}{detail} is for {who_may(command, writer)}:"
               f" {caller.describe()} may not run it (`a2a rules` prints who may run what)")
    with store.write() as tx:
        tx.append("role_forbidden", actor=caller.actor, session=caller.session,
                  task=attempt.card_id if attempt is not None else None,
                  attempt=attempt.id if attempt is not None else None,
                  payload=RoleForbidden(command=command, role=caller.role or USER,
                                        allowed=list(allowed), message=message))
    raise A2AError("role_forbidden", message)


def admit(g, command: str, attempt_id: str) -> AttemptRecord:
    """The attempt, once the gate is intact for its card (`ledger.require_intact`) and
    the caller may run `command` on it."""
    # lazy: the ledger (and the board it raises items on) for a gate write only; the role
    # table itself is read by every command's rules (cli/output.py)
    from a2a_tui.gate import ledger

    att = g.attempt(attempt_id)
    ledger.require_intact(g, att.card_id)
    require_role(g, command, attempt=att)
    return att
