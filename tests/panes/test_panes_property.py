"""Hypothesis: the pane state machine and the queue, with the real store and the real delivery
code, over random interleavings of signals, injections, pauses, releases and crashes.

Only tmux is replaced, by a recorder that checks, at the instant of every paste, an oracle kept
by this test from first principles: a pane takes a delivery only when it is idle (a fresh start,
a Stop later than the last Enter, or the user's release), unpaused, not exited, and not left
unknown by a crash or by a prompt no signal confirmed (`confirm.py`, whose only write is Enter
again, for a dispatch still `sent` in a busy pane).
"""

from __future__ import annotations

import itertools
import time

import hypothesis.strategies as st
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from a2a_tui.errors import A2AError
from a2a_tui.panes import confirm, control, delivery, recovery, spool
from a2a_tui.panes.records import record_launched, record_launching
from a2a_tui.panes.signals import normalize
from a2a_tui.payloads.sessions import SessionLaunching
from a2a_tui.store import Store
from tests.support import set_session

SIDS = ("w1", "w2")
PANES = {"w1": "%1", "w2": "%2"}
_names = itertools.count()


class Crash(BaseException):
    """The orchestrator dies (kill -9) right after a paste."""


class Oracle:
    def __init__(self):
        self.state = "unknown"        # unknown | idle | busy | exited (waiting counts as busy)
        self.paused = False
        self.last_enter = 0
        self.delivered: list[int] = []


class Recorder:
    """Stands in for tmux; checks the oracle at every paste."""

    def __init__(self, machine: "PaneMachine"):
        self.m = machine
        self.crash_after_paste = False

    def paste(self, pane_id, text, buffer):
        sid = next(s for s, p in PANES.items() if p == pane_id)
        o = self.m.oracle[sid]
        assert o.state == "idle", f"delivery to a {o.state} pane"
        assert not o.paused, "delivery to a paused pane"
        n = int(buffer.rsplit("-", 1)[1])
        assert n not in o.delivered and all(n > d for d in o.delivered), "order or twice"
        o.delivered.append(n)
        if self.crash_after_paste:
            o.state = "unknown"  # whether Enter went in is not known
            raise Crash()

    def send_keys(self, pane_id, *keys):
        sid = next(s for s, p in PANES.items() if p == pane_id)
        if self.m.confirming:   # Enter again: only for a prompt still awaited in a busy pane
            row = self.m.store.one("SELECT s.state, d.state FROM sessions s JOIN dispatches d"
                                   " ON d.n = s.in_flight WHERE s.id = ?", (sid,))
            assert keys == ("Enter",) and tuple(row) == ("busy", "sent"), (keys, tuple(row))
            self.m.resent += 1
            return
        if keys == ("Enter",):
            self.m.oracle[sid].state = "busy"
            self.m.entered.append(sid)


class PaneMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        import tempfile
        from pathlib import Path

        self.dir = tempfile.TemporaryDirectory()
        self.store = Store(Path(self.dir.name) / "a2a.db")
        for sid in SIDS:
            with self.store.write() as tx:   # as `a2a spawn` records a CLI that signals prompts
                seq = record_launching(tx, sid, actor="user", role="worker", cli="demo",
                                       cwd="/", record=SessionLaunching(cli="demo",
                                                                       prompt_signal=True))
                record_launched(tx, sid, actor="user", attempt=None, launch_seq=seq,
                                pane_id=PANES[sid], pid=None, pid_start=None, tty=None)
            set_session(self.store, sid, state="unknown")
        self.oracle = {sid: Oracle() for sid in SIDS}
        self.io = Recorder(self)
        self.entered: list[str] = []
        self.confirming = False
        self.resent = 0

    def teardown(self):
        self.store.close()
        self.dir.cleanup()

    # --- signals --------------------------------------------------------------------------
    def _signal(self, sid, payload, ts=None):
        sig = normalize("claude", payload, ts_ns=ts or time.time_ns(), session=sid,
                        pane=PANES[sid])
        spool.record(self.store, sig, f"{next(_names)}.json")

    def _cycle(self):
        """What the orchestrator does after every file it ingests: deliver to ready panes."""
        self.entered.clear()
        try:
            delivery.deliver_ready(self.store, self.io, None, sleep=lambda _s: None)
        except Crash:
            self.io.crash_after_paste = False
            recovery.unknown_deliveries(self.store)  # what the next orchestrator does first
        for sid in self.entered:
            # The instant Enter was written, as the delivery recorded it.
            self.oracle[sid].last_enter = self.store.one(
                "SELECT MAX(enter_ns) FROM dispatches WHERE session = ?", (sid,))[0]

    def _in_flight(self, sid):
        return self.store.one("SELECT in_flight FROM sessions WHERE id=?", (sid,))[0]

    @rule(sid=st.sampled_from(SIDS), source=st.sampled_from(["startup", "clear", "compact"]))
    def session_start(self, sid, source):
        o = self.oracle[sid]
        ts = time.time_ns()
        self._signal(sid, {"hook_event_name": "SessionStart", "source": source}, ts)
        if o.state != "exited" and source != "compact" and ts > o.last_enter:
            o.state = "idle"
        self._cycle()

    @rule(sid=st.sampled_from(SIDS), ours=st.booleans())
    def prompt_submitted(self, sid, ours):
        n = self._in_flight(sid)
        text = f"⟦主控 #{n}⟧ x" if ours and n else "typed by the user"
        self._signal(sid, {"hook_event_name": "UserPromptSubmit", "prompt": text})
        if self.oracle[sid].state != "exited":
            self.oracle[sid].state = "busy"
        self._cycle()

    @rule(sid=st.sampled_from(SIDS), event=st.sampled_from(
        ["PreToolUse", "PostToolUse", "PermissionRequest"]))
    def working(self, sid, event):
        self._signal(sid, {"hook_event_name": event, "tool_name": "Bash"})
        if self.oracle[sid].state != "exited":
            self.oracle[sid].state = "busy"
        self._cycle()

    @rule(sid=st.sampled_from(SIDS), ntype=st.sampled_from(["permission_prompt", "idle_prompt"]))
    def notification(self, sid, ntype):
        self._signal(sid, {"hook_event_name": "Notification", "notification_type": ntype})
        if ntype == "permission_prompt" and self.oracle[sid].state != "exited":
            self.oracle[sid].state = "busy"
        self._cycle()

    @rule(sid=st.sampled_from(SIDS), stale=st.booleans())
    def stop(self, sid, stale):
        o = self.oracle[sid]
        ts = (o.last_enter - 1) if stale and o.last_enter else time.time_ns()
        self._signal(sid, {"hook_event_name": "Stop"}, ts)
        if o.state != "exited" and ts > o.last_enter:
            o.state = "idle"
        self._cycle()

    @rule(sid=st.sampled_from(SIDS))
    def process_died(self, sid):
        self._signal(sid, {"hook_event_name": "pane-died", "status": "1"})
        self.oracle[sid].state = "exited"
        self._cycle()

    # --- the user -------------------------------------------------------------------------
    @rule(sid=st.sampled_from(SIDS), k=st.integers(0, 99))
    def inject(self, sid, k):
        try:
            control.inject(self.store, sid, f"text {k}\nline 2", source="user", actor="user")
        except A2AError as exc:
            assert exc.code == "session_exited" and self.oracle[sid].state == "exited"
        self._cycle()

    @rule(sid=st.sampled_from(SIDS), paused=st.booleans())
    def pause_or_resume(self, sid, paused):
        control.set_paused(self.store, [sid], paused, actor="user")
        self.oracle[sid].paused = paused
        self._cycle()

    @rule(sid=st.sampled_from(SIDS))
    def release(self, sid):
        o = self.oracle[sid]
        try:
            control.release(self.store, sid, actor="user")
        except A2AError as exc:
            assert exc.code in ("already_idle", "session_exited")
            return
        o.state = "idle"
        self._cycle()

    # --- the orchestrator -----------------------------------------------------------------
    @rule()
    def crash_at_the_next_paste(self):
        """The orchestrator will die (kill -9) right after its next paste, before Enter."""
        self.io.crash_after_paste = True

    @rule()
    def no_prompt_signal_in_time(self):
        """Time passes with no prompt signal: each awaited prompt gets Enter again, or is
        `unknown` (its pane too), never anything else."""
        self.confirming = True
        try:
            confirm.unconfirmed(self.store, self.io, None, time.time_ns() + 10**12)
        finally:
            self.confirming = False
        for sid in SIDS:
            row = self.store.one("SELECT state FROM sessions WHERE id = ?", (sid,))
            if row[0] == "unknown" and self.oracle[sid].state == "busy":
                self.oracle[sid].state = "unknown"   # not taken as idle until a signal says so
        self._cycle()

    # --- invariants -----------------------------------------------------------------------
    @invariant()
    def one_in_flight_per_pane(self):
        for sid in SIDS:
            live = self.store.all("SELECT n FROM dispatches WHERE session=? AND state IN"
                                  " ('sending','sent','delivered')", (sid,))
            assert len(live) <= 1

    @invariant()
    def unknown_dispatches_are_never_resent(self):
        for sid in SIDS:
            assert len(self.oracle[sid].delivered) == len(set(self.oracle[sid].delivered))


PaneMachine.TestCase.settings = settings(
    max_examples=150, stateful_step_count=50, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
TestPaneMachine = PaneMachine.TestCase
