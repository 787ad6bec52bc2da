"""Attention from the gate's three-strike stop: after the fourth consecutive rejection of a
managed writer's attempt the feedback stops and the user is needed, until the next submission;
the wait is exact under a fixed clock. Rejections are counted by step and code."""

from __future__ import annotations

import time
from pathlib import Path

from a2a_tui import metrics
from a2a_tui.gate import GateContext, bind_writer, claim, submit, verify
from a2a_tui.gate.cards.commands import add_card, ready_card
from a2a_tui.payloads import PAYLOADS
from a2a_tui.repo import Repo
from tests.metrics.metrics_support import CHECK, SEC, T0, launched
from tests.support import commit_in, write_card


def test_the_three_strike_stop_waits_for_the_user_until_the_next_submission(repo, monkeypatch):
    clock = [T0]

    def tick() -> int:
        clock[0] += SEC
        return clock[0]

    monkeypatch.setattr(time, "time_ns", tick)
    launched(repo, "w1", "worker", "codex", "gpt-5", "high")
    r = Repo(repo)
    store = r.store()
    g = GateContext(r, store)
    add_card(g, write_card(repo, "T-1", check=CHECK))
    ready_card(g, "T-1")
    c = claim(g, "T-1")
    bind_writer(g, c.attempt, "w1")

    def round_(text: str) -> None:
        sha = commit_in(Path(c.worktree), {"src/app.py": text + "\n"}, message=text)
        submit(g, c.attempt, sha, 1, c.fence)

    for n in range(3):             # gate.toml's feedback_rounds (3): the third rejection stops
        round_(f"broken {n}")
        verify(g, c.attempt)
    at = metrics.compute_json(store, "attention")["attention"]
    stops = [i for i in at["items"] if i["kind"] == "feedback_stop"]
    assert [(i["ref"], i["task"], i["state"], i["waited_s"]) for i in stops] == \
        [("T-1-a1", "T-1", "open", None)]
    assert at["total"]["open"] == 1

    stopped_at = stops[0]["asked_ns"]
    clock[0] += 600 * SEC          # the user looks ten minutes later and submits again
    round_("fixed")
    at = metrics.compute_json(store, "attention")["attention"]
    stop = next(i for i in at["items"] if i["kind"] == "feedback_stop")
    assert stop["state"] == "done"
    assert stop["waited_s"] == round((stop["acted_ns"] - stopped_at) / 1e9, 3) >= 600
    fp = metrics.compute_json(store, "first-pass")["first_pass"]
    assert fp["by_step"] == [{"step": "checks", "code": "tests", "count": 3}]
    assert (fp["rejections"], fp["concluded"], fp["rate"]) == (3, 0, None)
    store.close()


def test_a_release_after_an_enter_written_again_waited_from_that_enter(repo, monkeypatch):
    """A pane stuck after its prompt: the wait the user's release ends is measured from the last
    thing a2a wrote to the pane or heard from it, an Enter written again among them."""
    clock = [T0]
    monkeypatch.setattr(time, "time_ns", lambda: clock[0])
    launched(repo, "w1", "worker", "claude", "opus", "high")
    store = Repo(repo).store()
    for kind, at in (("dispatch_sent", 10), ("dispatch_enter_resent", 15),
                     ("dispatch_unknown", 20), ("pane_released", 100)):
        clock[0] = T0 + at * SEC
        with store.write() as tx:
            tx.append(kind, actor="orchestrator", session="w1", payload=PAYLOADS[kind].of(
                {} if kind == "pane_released" else {"n": 1}))
    at = metrics.compute_json(store, "attention")["attention"]
    [release] = [i for i in at["items"] if i["kind"] == "release"]
    assert release["waited_s"] == 85
    store.close()
