"""The sessions view: what a reader sees of each managed session and its dispatch queue.

One model for every reader: `a2a sessions`, `a2a status` and the workbench's Sessions panel
all read `sessions()`. It takes a Store or an open transaction (anything with `all`), so a
caller that reads several views at one moment passes its snapshot.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from a2a_tui.jsontypes import JsonObject


@dataclass(frozen=True)
class SessionView:
    """One managed session: its pane's state, its queue, and what it runs."""

    id: str
    role: str
    cli: str
    cli_version: str
    model: str
    effort: str
    state: str                     # unknown | idle | busy | waiting | exited
    state_since_ns: int
    paused: bool
    hint: str | None               # e.g. "probably idle — release?"
    queue: int                     # dispatches waiting for the pane
    in_flight: int | None          # the dispatch delivered and not yet finished
    unknown_dispatches: tuple[int, ...]  # never re-sent: the user looks at the pane
    attempt: str | None
    pane_id: str | None
    tmux_socket: str | None
    last_signal_ns: int | None
    # How the session is confined (a2a_tui/confine): the engine, or "none" with the reason in
    # `unconfined_reason`; None for a launch recorded before confinement was.
    confinement: str | None = None
    unconfined_reason: str | None = None

    @property
    def confined(self) -> bool | None:
        return None if self.confinement is None else self.confinement != "none"

    @property
    def unknown(self) -> int:
        return len(self.unknown_dispatches)

    def last_signal_age_s(self, now_ns: int) -> float | None:
        """Seconds since the pane's last signal (None before the first)."""
        return round((now_ns - self.last_signal_ns) / 1e9, 3) if self.last_signal_ns else None

    def to_json(self, now_ns: int) -> JsonObject:
        """The session as `a2a sessions --json` prints it (field names are the contract)."""
        return {
            "session": self.id, "role": self.role, "cli": self.cli, "pane": self.pane_id,
            "state": self.state, "paused": self.paused, "queue": self.queue,
            "in_flight": self.in_flight,
            "last_signal_age_s": self.last_signal_age_s(now_ns),
            "hint": self.hint, "attempt": self.attempt, "model": self.model,
            "effort": self.effort, "cli_version": self.cli_version,
            "unknown_dispatches": list(self.unknown_dispatches), "tmux_socket": self.tmux_socket,
            "confined": self.confined, "confinement": self.confinement,
            **({"unconfined_reason": self.unconfined_reason} if self.unconfined_reason else {}),
        }


def sessions(db) -> list[SessionView]:
    """Every session (a few dozen at most), oldest first; two indexed queries whatever the
    number of sessions or dispatches."""
    unknown: dict[str, list[int]] = defaultdict(list)
    for d in db.all("SELECT session, n FROM dispatches WHERE state = 'unknown' ORDER BY n"):
        unknown[d["session"]].append(d["n"])
    rows = db.all(
        "SELECT s.*, (SELECT COUNT(*) FROM dispatches d WHERE d.session = s.id"
        "   AND d.state = 'queued') AS queued,"
        " json_extract(e.payload, '$.confinement.engine') AS box,"
        " json_extract(e.payload, '$.confinement.reason') AS box_reason"
        " FROM sessions s LEFT JOIN events e ON e.seq = s.launch_seq"
        " ORDER BY s.created_ns, s.id")
    return [SessionView(
        id=r["id"], role=r["role"], cli=r["cli"], cli_version=r["cli_version"], model=r["model"],
        effort=r["effort"], state=r["state"], state_since_ns=r["state_since_ns"],
        paused=bool(r["paused"]), hint=r["hint"], queue=r["queued"], in_flight=r["in_flight"],
        unknown_dispatches=tuple(unknown[r["id"]]), attempt=r["attempt_id"],
        pane_id=r["pane_id"], tmux_socket=r["tmux_socket"], last_signal_ns=r["last_signal_ns"],
        confinement=r["box"], unconfined_reason=r["box_reason"])
        for r in rows]
