"""The workbench's hands: each user action, carried out through the core and recorded as a user
input (U-<n>). No textual here; the app calls these from worker threads.

A Store connection is not shared across threads, so every call opens its own. The user inputs
go through the collaboration records (`a2a_tui.collab`); pane control through
`a2a_tui.panes.control`; answers and messages through the board and `say`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from a2a_tui.errors import A2AError
from a2a_tui.identity import Caller
from a2a_tui.repo import Repo
from a2a_tui.store import Store

# The core areas (collab, panes, gate, tmux) are imported inside the methods that use them: the
# first frame needs none of them (the gate alone, with pydantic, costs ~0.1 s).

SOURCE = "tui"
USER = "user"


@dataclass
class Done:
    """What an action did: one line for the user and the facts behind it."""

    summary: str
    data: dict[str, Any] = field(default_factory=dict)


class Workbench:
    """One repository's workbench services; the app factory receives one."""

    def __init__(self, repo: Repo, tmux_socket: str | None = None):
        self.repo = repo
        self.tmux_socket = tmux_socket

    @contextmanager
    def store(self) -> Iterator[Store]:
        """A connection for the calling thread, closed afterwards."""
        s = self.repo.store()
        try:
            yield s
        finally:
            s.close()

    def _collab(self, store: Store):
        from a2a_tui.collab.context import Collab

        return Collab(self.repo, store, Caller())

    def _record(self, store: Store, kind: str, text: str, *, to_session: str | None = None,
                ref: str | None = None, attempt: str | None = None) -> str:
        from a2a_tui.collab.user_input import record_user_input_in_tx

        with store.write() as tx:
            return record_user_input_in_tx(tx, kind, text, source=SOURCE, to_session=to_session,
                                           ref=ref, attempt=attempt)

    def _wake(self) -> None:
        from a2a_tui.queue import wake

        wake(self.repo)

    # --- sessions -------------------------------------------------------------------------
    def inject(self, sid: str, text: str) -> Done:
        """The user's prompt for a pane: one user input (message) and the dispatch carrying it,
        in one transaction (the same call as `a2a inject`, recording the user input)."""
        from a2a_tui.panes import control

        with self.store() as s:
            r = control.inject(s, sid, text, source="user", actor=USER, user_input_from=SOURCE)
        self._wake()
        return Done(f"queued #{r['dispatch']} for {sid} ({r['ahead']} ahead) · {r['user_input']}",
                    r)

    def set_paused(self, sids: list[str] | None, paused: bool) -> Done:
        """Pause or resume the named sessions (None: every session that has not exited)."""
        from a2a_tui.panes import control

        verb = "pause" if paused else "resume"
        with self.store() as s:
            changed = control.set_paused(s, sids, paused, actor=USER)
            what = "all" if sids is None else ", ".join(sids)
            uid = self._record(s, "action", f"{verb} {what}",
                               to_session=sids[0] if sids and len(sids) == 1 else None)
        self._wake()
        done = ", ".join(changed) if changed else "nothing changed"
        return Done(f"{verb}d {done} · {uid}", {"changed": changed, "paused": paused,
                                               "user_input": uid})

    def release(self, sid: str) -> Done:
        """Declare a pane idle (after an Esc interrupt, or a 'probably idle' hint)."""
        from a2a_tui.panes import control

        with self.store() as s:
            r = control.release(s, sid, actor=USER)
            uid = self._record(s, "action", f"release {sid} (was {r['from']})", to_session=sid)
        self._wake()
        return Done(f"released {sid} (was {r['from']}) · {uid}", {**r, "user_input": uid})

    def jump(self, sid: str) -> Done:
        """Show the session's pane in tmux (its window becomes the current one)."""
        from a2a_tui.tmux import Tmux

        with self.store() as s:
            row = s.one("SELECT pane_id, tmux_socket, state FROM sessions WHERE id = ?", (sid,))
            if row is None or not row["pane_id"]:
                raise A2AError("no_pane", f"session {sid} has no pane")
            followed = Tmux(row["tmux_socket"]).show_pane(row["pane_id"])
            uid = self._record(s, "action", f"jump to {sid}'s pane {row['pane_id']}",
                               to_session=sid)
        where = "" if followed else " (attach to tmux to see it)"
        return Done(f"tmux shows {sid} in pane {row['pane_id']}{where} · {uid}",
                    {"session": sid, "pane": row["pane_id"], "client_followed": followed,
                     "user_input": uid})

    # --- board ------------------------------------------------------------------------------
    def answer(self, item_id: str, *, option: str | None = None, adopt: bool = False,
               text: str | None = None) -> Done:
        """Answer a board item. While the asking session has other open questions the answer
        is held; the last one (or a single one) sends every held answer as ONE prompt."""
        from a2a_tui.collab import board

        with self.store() as s:
            item = s.one("SELECT asked_by FROM board_items WHERE id = ?", (item_id,))
            asker = item["asked_by"] if item else None
            others = 0 if asker is None else s.one(
                "SELECT COUNT(*) FROM board_items i WHERE i.asked_by = ? AND i.id != ?"
                " AND i.kind = 'question'"
                " AND NOT EXISTS(SELECT 1 FROM board_records r WHERE r.item_id = i.id)",
                (asker, item_id))[0]
            r = board.answer(self._collab(s), item_id, option=option, adopt=adopt, text=text,
                             hold=others > 0, source=SOURCE)
        sent = [x for x in r["sent"] if x.get("dispatch")]
        if r["held"]:
            how = f"held for a batch ({others} more open from {asker}; s sends now)"
        elif sent:
            how = f"sent to {sent[0]['session']} as #{sent[0]['dispatch']}" + (
                f" with {len(sent[0]['user_inputs']) - 1} held answer(s)"
                if len(sent[0]["user_inputs"]) > 1 else "")
        else:
            why = next((x.get("why") for x in r["sent"] if x.get("why")), None)
            how = why or "recorded (nobody to send it to)"
        return Done(f"{item_id} answered · {r['user_input']} · {how}",
                    {"item": item_id, "user_input": r["user_input"], "held": r["held"],
                     "sent": r["sent"]})

    def send_answers(self) -> Done:
        """Send every held answer: one prompt per asking session."""
        from a2a_tui.collab import board

        with self.store() as s:
            sent = board.send_pending(self._collab(s))
        parts = [f"{x['session']} #{x['dispatch']} ({len(x['user_inputs'])} answers)"
                 if x.get("dispatch") else f"{x['session']}: {x.get('why')}" for x in sent]
        return Done("sent " + "; ".join(parts) if parts else "no held answers", {"sent": sent})

    # --- the ideation controller -----------------------------------------------------------
    def say(self, text: str, kind: str = "message") -> Done:
        """A message (approval, refusal) to the ideation controller."""
        from a2a_tui.collab.user_input import say

        with self.store() as s:
            r = say(self._collab(s), text, kind, source=SOURCE)
        where = (f"queued to {r['to_session']} as #{r['dispatch']}" if r["dispatch"]
                 else "recorded; no live ideation session to deliver it to")
        return Done(f"{r['id']} ({kind}) {where}", r)

    # --- the gate -------------------------------------------------------------------------
    def verify(self, attempt: str) -> Done:
        """Run the gate's check chain on the attempt's submitted SHA (slow: a worker's job)."""
        from a2a_tui.gate import GateContext, verify

        with self.store() as s:
            uid = self._record(s, "action", f"verify {attempt}")
            v = verify(GateContext(self.repo, s, Caller()), attempt)
        first = v.first_failure()
        verdict = {"passed": "PASSED", "flaky": "FLAKY (unknown)",
                   "contract_invalid": "CONTRACT INVALID (the card's)"}.get(v.verdict) or (
            f"REJECTED at {first.name}" if first else "REJECTED")
        return Done(f"verify {attempt}: {verdict} (run {v.run}) · {uid}",
                    {"attempt": attempt, "passed": v.passed, "verdict": v.verdict, "run": v.run,
                     "user_input": uid})


class OrchestratorHost:
    """The repository's orchestrator, hosted by the workbench (`a2a serve` runs the same one)."""

    def __init__(self, repo: Repo, tmux_socket: str | None):
        self.repo = repo
        self.tmux_socket = tmux_socket
        self.orch = None

    def start(self) -> int:
        """Take the repository's orchestrator lock and start ingesting and delivering; returns
        our pid. Raises A2AError `orchestrator_running` when another process serves it."""
        from a2a_tui.panes.orchestrator import Orchestrator

        orch = Orchestrator(self.repo, self.tmux_socket)
        orch.start()
        self.orch = orch
        return os.getpid()

    def wait(self) -> str | None:
        """Block until the orchestrator's worker ends; returns its error, if it failed."""
        orch = self.orch
        # The Orchestrator has no public join; its worker thread is what we wait for.
        thread = getattr(orch, "_thread", None)
        if thread is not None:
            thread.join()
        err = getattr(orch, "error", None)
        return None if err is None else repr(err)

    def stop(self) -> None:
        """Stop it and release the lock (idempotent)."""
        orch, self.orch = self.orch, None
        if orch is not None:
            orch.stop()

    @staticmethod
    def holder(repo: Repo) -> int | None:
        from a2a_tui.panes.orchestrator import lock_holder

        return lock_holder(repo)


def leave_tmux(repo: Repo, tmux_socket: str | None) -> bool:
    """When the app runs in the repository's `a2a up` session, detach the clients attached to it
    (the agents keep running). Returns whether it did."""
    pane = os.environ.get("TMUX_PANE")
    if not os.environ.get("TMUX") or not pane:
        return False
    from a2a_tui.tmux import Tmux

    tmux = Tmux(tmux_socket)
    session = tmux.session_of(pane)
    if session is None or session != repo.config().tmux_session:
        return False
    tmux.detach_clients(session)
    return True
