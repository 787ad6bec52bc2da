"""Test-only faults for the scenarios' a2a subprocesses (not mechanisms: they run in the proof
and the counterexample alike). `A2A_SCENARIO_KILL_AFTER=<event kind>`: the process kills itself
(SIGKILL, as kill -9) right after appending an event of that kind, inside its transaction."""

from __future__ import annotations

import os
import signal

from tests.scenarios.switches.edits import Setter

KILL_AFTER = "A2A_SCENARIO_KILL_AFTER"


def install(set_: Setter) -> None:
    from a2a_tui.store.db import Tx

    append = Tx.append
    kind = os.environ[KILL_AFTER]

    def appending(self, what: str, **kw):
        seq = append(self, what, **kw)
        if what == kind:
            os.kill(os.getpid(), signal.SIGKILL)
        return seq

    set_(Tx, "append", appending)
