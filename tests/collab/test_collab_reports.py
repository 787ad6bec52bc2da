"""Report statuses are exactly PASS, INCOMPLETE, BLOCKED, NO_GO; a relay never raises one."""

from __future__ import annotations

import itertools

import pytest

from a2a_tui.collab import inbox
from a2a_tui.collab.roles import REPORT_STATUSES
from a2a_tui.errors import A2AError
from tests.support import a2a, store

BAD_WORDS = ["pass", "Pass", "PASS ", " PASS", "PASSED", "DONE", "OK", "NO-GO", "NOGO", "no_go",
             "BLOCKED\n", "INCOMPLETE.", "", "PASS,BLOCKED"]


@pytest.mark.parametrize("word", BAD_WORDS)
def test_a_report_with_any_other_status_word_is_refused(repo, as_, word):
    with pytest.raises(A2AError) as e:
        inbox.post(as_("exe1", "executive"), "report", "all green", status=word)
    assert e.value.code == "bad_status"
    with store(repo) as s:
        assert s.all("SELECT * FROM inbox") == []


def test_the_cli_refuses_a_bad_status_in_one_line_and_writes_nothing(repo):
    r = a2a("inbox", "post", "report", "--text", "green", "--status", "Pass", cwd=repo)
    assert r.code == 2 and r.out == ""
    assert r.err.count("\n") == 1 and "[bad_status]" in r.err
    assert "exactly one of PASS, INCOMPLETE, BLOCKED, NO_GO" in r.err
    r = a2a("inbox", "post", "report", "--text", "green", "--json", cwd=repo)
    assert r.json["error"]["code"] == "bad_status"  # a report without a status
    r = a2a("inbox", "post", "ack", "--text", "ok", "--status", "PASS", "--ref", "I-1", "--json",
            cwd=repo)
    assert r.json["error"]["code"] == "bad_entry"  # a status on something not a report
    with store(repo) as s:
        assert s.all("SELECT * FROM inbox") == [] and s.all("SELECT * FROM user_inputs") == []


@pytest.mark.parametrize("original,relayed", itertools.product(REPORT_STATUSES, repeat=2))
def test_a_relay_may_keep_or_lower_a_status_never_raise_it(repo, as_, original, relayed):
    exe, ide = as_("exe1", "executive"), as_("ide1", "ideation")
    inbox.post(exe, "report", "the run", status=original)  # I-1
    raises = REPORT_STATUSES.index(relayed) < REPORT_STATUSES.index(original)
    if raises:
        with pytest.raises(A2AError) as e:
            inbox.post(ide, "report", "relayed", status=relayed, ref="I-1")
        assert e.value.code == "status_raised"
        assert f"I-1 reports {original}" in e.value.message
    else:
        e = inbox.post(ide, "report", "relayed", status=relayed, ref="I-1")
        assert (e.status, e.recipient, e.ref) == (relayed, "user", "I-1")


def test_a_relay_of_a_relay_cannot_raise_either(repo, as_):
    exe, ide = as_("exe1", "executive"), as_("ide1", "ideation")
    inbox.post(exe, "report", "stuck on the schema", status="INCOMPLETE")  # I-1
    inbox.post(ide, "report", "relayed", status="BLOCKED", ref="I-1")      # I-2
    with pytest.raises(A2AError) as e:
        inbox.post(ide, "report", "actually fine", status="INCOMPLETE", ref="I-2")
    assert e.value.code == "status_raised"


def test_an_ideation_report_must_relay_a_report(repo, as_, plain_card):
    ide = as_("ide1", "ideation")
    with pytest.raises(A2AError) as e:
        inbox.post(ide, "report", "all done", status="PASS")
    assert e.value.code == "relay_needs_report"
    inbox.post(ide, "assign", "run it", card=plain_card)  # I-1
    with pytest.raises(A2AError) as e:
        inbox.post(ide, "report", "all done", status="PASS", ref="I-1")
    assert e.value.code == "relay_needs_report"
    with store(repo) as s:
        refused = s.all("SELECT actor FROM events WHERE kind = 'collab_refused'")
    assert [r["actor"] for r in refused] == ["session:ide1", "session:ide1"]
