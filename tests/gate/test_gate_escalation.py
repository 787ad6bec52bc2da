"""Escalations reach a person: the same test failing in two consecutive verifies asks for a
review of the test itself; the rejection that stops automatic feedback raises a protected item
with the attempt's history; the user may grant more rounds."""

from __future__ import annotations

from tests.gate.verify_support import (
    PYTEST,
    board,
    claim,
    dispatches,
    events,
    pytest_repo,
    result,
    submit_verify,
)
from tests.support import a2a, a2a_as

BROKEN_SHOUT = "def name(n):\n    return n\n\n\ndef shout(n):\n    return n{}\n"
BROKEN_NAME = "def name(n):\n    return n + '!'\n\n\ndef shout(n):\n    return n.upper()\n"


def test_the_same_test_failing_twice_raises_a_review_item(tmp_path):
    repo = pytest_repo(tmp_path)
    c, _ = claim(repo, PYTEST)
    assert submit_verify(repo, c, {"src/names.py": BROKEN_SHOUT.format("")}).json[
        "verdict"] == "rejected"
    assert not events(repo, "test_suspect")  # once is not a pattern
    submit_verify(repo, c, {"src/names.py": BROKEN_SHOUT.format(".lower()")})
    (ev,) = events(repo, "test_suspect")
    assert ev["payload"]["tests"] == ["tests/test_names.py::test_shouts"]
    assert ev["payload"]["runs"] == [1, 2]
    (item,) = [i for i in board(repo) if "review" in i["title"].lower()]
    assert "tests/test_names.py::test_shouts" in item["body"] and item["protected"]


def test_a_different_test_failing_next_time_raises_nothing(tmp_path):
    repo = pytest_repo(tmp_path)
    c, _ = claim(repo, PYTEST)
    submit_verify(repo, c, {"src/names.py": BROKEN_SHOUT.format("")})
    v = submit_verify(repo, c, {"src/names.py": BROKEN_NAME})
    assert v.json["verdict"] == "rejected"
    assert not events(repo, "test_suspect")


def test_the_third_rejection_raises_the_protected_item_with_the_history(repo):
    c, wt = claim(repo, "echo 'compile: error: no good' >&2; exit 1", writer="w1")
    logs = []
    for i in range(3):
        v = submit_verify(repo, c, {"src/app.py": f"v = {i}\n"})
        logs.append(result(v, "tests")["log"])
        stopped = events(repo, "feedback_stopped")
        assert len(stopped) == (1 if i == 2 else 0)
    (ev,) = stopped
    item_id = ev["payload"]["item"]
    item = a2a("board", "show", item_id, "--json", cwd=repo).json
    assert item["protected"] and item["blocking"] and item["attempt"] == c["attempt"]
    for n, log in enumerate(logs, 1):
        assert f"run {n}" in item["body"] and log in item["body"]
    assert item["body"].count("compile: error: no good") == 3
    assert "a2a feedback more" in item["body"] and "a2a abandon" in item["body"]
    assert [h["run"] for h in ev["payload"]["history"]] == [1, 2, 3]
    # The fourth rejection sends nothing to the pane; the user grants two more rounds.
    submit_verify(repo, c, {"src/app.py": "v = 4\n"})
    assert len(dispatches(repo)) == 3
    r = a2a("feedback", "more", c["attempt"], "--rounds", "2", "--json", cwd=repo)
    assert r.code == 0 and r.json["limit"] == 5, r.out
    submit_verify(repo, c, {"src/app.py": "v = 5\n"})
    assert len(dispatches(repo)) == 4


def test_only_the_user_grants_more_rounds(repo):
    c, _ = claim(repo, "exit 1")
    r = a2a_as(repo, "exec1", "executive", "feedback", "more", c["attempt"], "--rounds", "1",
               "--json")
    assert r.code == 1 and r.json["error"]["code"] == "user_only", r.out
    assert not events(repo, "feedback_rounds_added")
