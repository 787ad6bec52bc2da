"""The Events panel and `a2a events` speak one sentence per event, every registered kind with
its own (issue 37); `--json` stays the event itself."""

from __future__ import annotations

import pytest

from a2a_tui.kinds import EventKind, GateEvent
from a2a_tui.payloads.sessions import Signal
from a2a_tui.sentences import SENTENCES, folded, sentence
from a2a_tui.store.db import Event
from tests.support import a2a, store


def event(kind: str, payload: dict, *, actor: str = "gate", task: str | None = None,
          attempt: str | None = None, session: str | None = None) -> Event:
    return Event(1, 0, kind, actor, task, attempt, session, payload)


@pytest.mark.parametrize("kind", [*GateEvent, *EventKind])
def test_every_registered_kind_has_a_sentence_of_its_own(kind):
    assert kind in SENTENCES
    said = sentence(event(kind, {}, task="T-1", attempt="T-1-a1", session="w1"))
    assert said and "\n" not in said and "_" not in said, said


def test_the_sentences_a_person_reads():
    checks = [{"name": n, "passed": True, "skipped": False} for n in "abcdefg"]
    assert sentence(event("signal", {"kind": "stop", "finished": 14}, actor="session:w1",
                          session="w1")) == "w1 finished prompt #14"
    assert sentence(event("verified", {"checks": checks}, task="T-1",
                          attempt="T-1-a1")) == "verify T-1-a1 passed 7/7"
    assert sentence(event("board_item_answered", {"id": "Q-1", "option": "1", "adopted": True},
                          actor="user", session="exec1")) == \
        "you answered Q-1: option 1 (recommended)"
    assert sentence(event("no_such_kind", {}, actor="session:w1", session="w1")) == \
        "w1: no such kind (w1)"


def test_how_a_prompt_travelled_is_folded_what_it_did_is_not():
    assert folded(event("dispatch_sent", {"n": 1}))
    assert folded(event("signal", {"kind": "tool"}))
    assert not folded(event("signal", {"kind": "stop", "finished": 1}))
    assert not folded(event("dispatch_queued", {"n": 1}))
    assert not folded(event("verified", {}))


def test_a2a_events_says_sentences_and_json_is_the_event(repo):
    with store(repo) as s, s.write() as tx:
        tx.append("signal", actor="session:w1", session="w1",
                  payload=Signal(kind="stop", finished=14, event="Stop"))
    text = a2a("events", "--tail", "1", cwd=repo)
    assert text.code == 0 and text.out.rstrip().endswith("w1 finished prompt #14"), text.out
    assert "{" not in text.out
    [e] = a2a("events", "--tail", "1", "--json", cwd=repo).json
    assert e["kind"] == "signal" and e["payload"]["finished"] == 14


def test_a_rejection_says_how_many_passed_and_which_failed():
    checks = [{"name": n, "passed": n != "unit-tests", "skipped": False}
              for n in ("precheck", "unit-tests", "boundary")]
    assert sentence(event("rejected", {"checks": checks}, task="T-1", attempt="T-1-a1")) == \
        "verify T-1-a1 rejected it: 2/3 passed, unit-tests failed"
