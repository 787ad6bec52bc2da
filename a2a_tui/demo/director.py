"""The demo's scenario, played in its own tmux window beside the workbench.

The demo agents have no model: they act by the `!` lines of the prompts they receive, which run
as shell commands in their panes (so `a2a ...` there is the agent's own call, attributed to its
session by the process tree). The director queues those prompts through the same injection
queue as everyone, waits on the store for what they did, and narrates each step as a
`demo_step` event (shown in the workbench's Events panel) and on its own screen.
"""

from __future__ import annotations

import os
import shlex
import threading
from collections.abc import Callable
from typing import Any

from a2a_tui.errors import A2AError
from a2a_tui.gate.context import GateContext
from a2a_tui.identity import Caller
from a2a_tui.panes import control
from a2a_tui.panes.orchestrator import lock_holder
from a2a_tui.payloads.house import DemoStep
from a2a_tui.queue import wake
from a2a_tui.repo import Repo
from a2a_tui.spawn import spawn as spawn_session
from a2a_tui.states import AttemptState
from a2a_tui.store.watch import store_changes
from a2a_tui.tmux import Tmux

PACE_ENV = "A2A_DEMO_PACE"       # seconds each demo agent "thinks" per turn
ACTOR = "demo"
STEP_TIMEOUT = 120.0
ANSWER_TIMEOUT = 3600.0          # the newcomer takes their time to answer the board

T1_TEST = ["import unittest", "", "from greet import greet", "", "",
           "class Empty(unittest.TestCase):", "    def test_empty_name_is_refused(self):",
           "        with self.assertRaises(ValueError):", '            greet("")']
T1_FIX = ["def greet(name):", "    if not name:", '        raise ValueError("name is empty")',
          '    return f"Hello, {name}!"']
QUESTIONS = [
    ("T-2: what should greet() do with a language it does not know?",
     ["a=Fall back to English", "b=Refuse with an error"], "a",
     "callers always get a greeting; an error would break pages for a missing translation"),
    ("After T-1: start T-2 now, or wait for your review?",
     ["now=Start T-2 now", "wait=Wait for my review"], "wait",
     "T-2 changes what users see: worth a look before it starts"),
]


def write_file(name: str, lines: list[str]) -> str:
    """A `!` line that writes a file (one line per printf argument)."""
    return "!printf '%s\\n' " + " ".join(shlex.quote(x) for x in lines) + f" > {name}"


class Director:
    def __init__(self, repo: Repo, tmux_socket: str | None, pace: float):
        self.repo = repo
        self.tmux_socket = tmux_socket
        self.pace = pace
        self.store = repo.store()
        self.step = 0

    # --- narration and prompts ---------------------------------------------------------------
    def say(self, text: str) -> None:
        self.step += 1
        print(f"[{self.step}] {text}", flush=True)
        with self.store.write() as tx:
            tx.append("demo_step", actor=ACTOR, payload=DemoStep(step=self.step, text=text))

    def prompt(self, session: str, *lines: str) -> int:
        """Queue a prompt for a demo agent (its `!` lines are what it will do)."""
        r = control.inject(self.store, session, "\n".join(lines), source="orchestrator",
                           actor=ACTOR)
        wake(self.repo)
        return r.dispatch

    def wait(self, what: str, pred: Callable[[], Any], timeout: float = STEP_TIMEOUT) -> Any:
        """Wait until `pred()` holds, reading the store again only when it changes."""
        stop = threading.Event()
        timer = threading.Timer(timeout, stop.set)
        timer.start()
        try:
            for _ in store_changes(self.repo.db_path, stop):
                got = pred()
                if got:
                    return got
                if stop.is_set():
                    break
        finally:
            timer.cancel()
        raise A2AError("demo_stuck", f"the demo waited {timeout:.0f}s for {what}; look at the"
                       " agents' windows and the Events panel")

    def one(self, sql: str, params: tuple = ()) -> Any:
        return self.store.one(sql, params)

    def dispatch_done(self, n: int) -> bool:
        row = self.one("SELECT state FROM dispatches WHERE n = ?", (n,))
        return row is not None and row["state"] in ("done", "ended", "released")

    def attempt(self) -> Any:
        return self.one("SELECT * FROM attempts WHERE id = 'T-1-a1'")

    # --- the scenario -------------------------------------------------------------------------
    def spawn(self, role: str, sid: str, *extra: str) -> None:
        spawn_session(GateContext(self.repo, self.store, Caller()), role=role, cli="demo",
                      session=sid, tmux_socket=self.tmux_socket,
                      extra=("--delay", str(self.pace), *extra))
        self.name_window(sid)

    def name_window(self, sid: str) -> None:
        """Name the agent's tmux window after its session (prefix + w then lists them)."""
        row = self.one("SELECT pane_id FROM sessions WHERE id = ?", (sid,))
        if row is not None and row["pane_id"]:
            Tmux(self.tmux_socket).name_window(row["pane_id"], sid)

    def run(self) -> None:
        """The scenario, scene by scene; each waits on the record for what it asked for."""
        self._agents_start()
        self._card_handed_over()
        self._rejected_then_fixed()
        self._integrated_and_reported()
        self._your_answers()

    def _agents_start(self) -> None:
        self.wait("the orchestrator", lambda: lock_holder(self.repo) is not None
                  or self.one("SELECT 1 FROM events WHERE kind = 'orchestrator_started'"))
        self.say(f"The sample repository is {self.repo.root}. Two demo agents start: idea1"
                 " (ideation controller) and exec1 (executive controller). Their state comes"
                 " only from their hook signals.")
        self.spawn("ideation", "idea1")
        self.spawn("executive", "exec1")
        self.wait("both agents idle", lambda: self.one(
            "SELECT COUNT(*) FROM sessions WHERE id IN ('idea1', 'exec1') AND state = 'idle'"
        )[0] == 2)

    def _card_handed_over(self) -> None:
        self.say("idea1 hands card T-1 to the executive through the inbox (I-1); the entry is"
                 " queued into exec1's pane as a notice.")
        self.prompt("idea1", "Hand T-1 to the executive controller.",
                    "!a2a inbox post assign --card T-1 --text 'Please run T-1: refuse empty"
                    " names.'")
        self.wait("the assignment", lambda: self.one("SELECT 1 FROM inbox WHERE id = 'I-1'"))

        self.say("exec1 acknowledges, claims T-1 (attempt T-1-a1, its own worktree), starts a"
                 " worker w1 in it, and asks you two questions on the Board.")
        asks = [f"!a2a board ask --title {shlex.quote(t)} "
                + " ".join(f"--option {shlex.quote(o)}" for o in opts)
                + f" --recommend {rec} --why {shlex.quote(why)}" for t, opts, rec, why in QUESTIONS]
        self.prompt("exec1", "Acknowledge I-1, claim T-1, start a worker, ask the user.",
                    "!a2a inbox post ack --ref I-1 --text 'On it: claiming T-1.'",
                    "!a2a claim T-1",
                    f"!a2a spawn worker --cli demo --attempt T-1-a1 --session w1 -- --delay"
                    f" {self.pace}",
                    *asks)
        self.wait("the worker w1", lambda: self.one(
            "SELECT 1 FROM sessions WHERE id = 'w1' AND state = 'idle'"))
        self.name_window("w1")
        self.say("Your turn on the Board (Tab to it): 1-9 picks an option, a adopts the"
                 " recommendation, t writes an answer. Both answers go back to exec1 as ONE"
                 " prompt. Meanwhile w1 works.")

    def _rejected_then_fixed(self) -> None:
        self.say("w1 commits a test first and submits it: the gate will reject it (the test"
                 " fails until the fix is in).")
        submit = "!a2a submit T-1-a1 --sha $(git rev-parse HEAD) --card-version 1 --fence 1"
        self.prompt("w1", "Write the test for T-1, commit, submit.",
                    write_file("test_empty.py", T1_TEST),
                    "!git add -A && git commit -q -m 'test: empty names are refused'", submit)
        self.wait("the first submission", lambda: (a := self.attempt()) is not None
                  and a["submission_n"] >= 1)

        self.say("exec1 runs the gate's checks on exactly that commit: rejected. The gate"
                 " queues its feedback into w1's pane (⟦门禁 #n⟧).")
        self.prompt("exec1", "Verify T-1-a1.", "!a2a verify T-1-a1")
        self.wait("the rejection", lambda: self.one(
            "SELECT 1 FROM verifications WHERE attempt_id = 'T-1-a1' AND state = 'rejected'"))

        self.say("w1 reads the feedback, fixes greet.py, commits and submits again.")
        self.prompt("w1", "Fix greet.py so the test passes; commit; submit again.",
                    write_file("greet.py", T1_FIX),
                    "!git add -A && git commit -q -m 'greet: refuse empty names'", submit)
        self.wait("the second submission", lambda: self.attempt()["submission_n"] >= 2)

    def _integrated_and_reported(self) -> None:
        self.say("exec1 verifies again (passed) and integrates: main moves by compare-and-swap"
                 " to exactly the verified commit, with a score.")
        self.prompt("exec1", "Verify and integrate T-1-a1.", "!a2a verify T-1-a1",
                    "!a2a integrate T-1-a1 --score boundary=3:'stayed in greet.py and its test'"
                    " --score taste=2:'small and clear'")
        self.wait("the integration", lambda: self.attempt()["state"] in (AttemptState.INTEGRATED,
                                                                          AttemptState.REJECTED))

        self.say("exec1 reports PASS to idea1 through the inbox; idea1 relays it to you.")
        self.prompt("exec1", "Report to the ideation controller.",
                    "!a2a inbox post report --ref I-1 --card T-1 --status PASS --text"
                    " 'T-1 integrated: empty names are refused.'")
        report = self.wait("the report", lambda: self.one(
            "SELECT id FROM inbox WHERE kind = 'report' AND author_role = 'executive'"))
        self.prompt("idea1", "Relay the report to the user.",
                    f"!a2a inbox post report --ref {report['id']} --status PASS --text"
                    " 'T-1 is done and integrated.'")

    def _your_answers(self) -> None:
        answered = self.wait("your answers on the Board", self._answers_delivered,
                             timeout=ANSWER_TIMEOUT)
        self.say(f"exec1 received your {answered[1]} answers as one prompt (#{answered[0]})."
                 " The demo is over: explore with the keys (? shows them); q detaches and"
                 " everything keeps running; `a2a down` where you typed `a2a demo` (or"
                 f" `a2a down --repo {shlex.quote(str(self.repo.root))}` anywhere) ends the"
                 " demo and removes the sample repository.")

    def _answers_delivered(self) -> tuple[int, int] | None:
        """(dispatch, count) once every question's answer reached exec1 and was taken in."""
        rows = self.store.all(
            "SELECT d.dispatch FROM board_items i JOIN board_records r ON r.item_id = i.id"
            " AND r.kind = 'answer' JOIN deliveries d ON d.record = r.user_input"
            " WHERE i.asked_by = 'exec1' AND i.kind = 'question'")
        asked = self.one("SELECT COUNT(*) FROM board_items WHERE asked_by = 'exec1'"
                         " AND kind = 'question'")[0]
        if len(rows) < asked or not rows:
            return None
        last = max(r["dispatch"] for r in rows)
        return (last, len(rows)) if self.dispatch_done(last) else None


def direct(repo: Repo, tmux_socket: str | None) -> None:
    """Play the scenario (the `demo-director` command, in the demo's tmux window)."""
    pace = float(os.environ.get(PACE_ENV, "1.5"))
    d = Director(repo, tmux_socket, pace)
    try:
        d.run()
    finally:
        d.store.close()
