"""Rejection feedback goes to the writer's pane as a ⟦门禁 #n⟧ dispatch that names the failed
step and check, then the first error line with a few lines of context, then the full log; it
stops after three consecutive rejections."""

from __future__ import annotations

import sqlite3

import pytest

from tests.support import a2a, commit_in, write_card

CHECK = "printf '\\033[31mE   assert name != \"\"\\033[0m\\n' >&2; exit 1"


def _dispatches(repo):
    with sqlite3.connect(repo / ".a2a/a2a.db") as db:
        return db.execute("SELECT session, source, text FROM dispatches ORDER BY n").fetchall()


def test_feedback_to_the_writer_pane_then_stops_after_three(repo):
    card = write_card(repo, check=CHECK)
    a2a("card", "add", str(card), cwd=repo)
    a2a("card", "ready", "T-1", cwd=repo)
    c = a2a("claim", "T-1", "--writer", "w1", "--json", cwd=repo).json
    wt = repo / ".a2a/worktrees/T-1-a1"
    for i in range(4):
        sha = commit_in(wt, {"src/app.py": f"v = {i}\n"})
        assert a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence",
                   str(c["fence"]), cwd=repo).code == 0
        assert a2a("verify", "T-1-a1", cwd=repo).code == 1
        sent = _dispatches(repo)
        assert len(sent) == min(i + 1, 3), sent
    session, source, text = sent[0]
    assert session == "w1" and source == "gate"
    first, second = text.splitlines()[:2]
    assert first.startswith("⟦门禁 #1⟧ The gate rejected T-1-a1 at step checks, check tests")
    assert second == 'E   assert name != ""'
    assert text.index("Full log: ") > text.index(second)
    assert "\x1b" not in text  # colours from the check are stripped
    assert "--fence 1" in text
    fb = [e["payload"] for e in a2a("events", "--json", cwd=repo).json
          if e["kind"] == "gate_feedback"]
    assert [f["sent"] for f in fb] == [True, True, True, False]
    assert "limit 3" in fb[-1]["why"]


PYTEST_OUTPUT = r"""printf '%s\n' '..F' '=== FAILURES ===' '___ test_shouts ___' \
 '    def test_shouts():' '>       assert shout(\"ada\") == \"ADA\"' \
 "E       AssertionError: assert 'ada' == 'ADA'" "E         - ADA" "E         + ada" '' \
 'tests/test_names.py:9: AssertionError' '=== short test summary info ===' \
 'FAILED tests/test_names.py::test_shouts - AssertionError' '1 failed, 2 passed'; exit 1"""


@pytest.mark.parametrize("check, first_line", [
    (PYTEST_OUTPUT, "E       AssertionError: assert 'ada' == 'ADA'"),
    ("printf 'cc -c src/a.c\\nsrc/a.c:3:5: error: expected ; before }\\nsrc/a.c:9:1: error:"
     " x\\n' >&2; exit 1", "src/a.c:3:5: error: expected ; before }"),
    ("echo progress; echo 'first complaint' >&2; echo 'second' >&2; exit 2", "first complaint"),
])
def test_feedback_starts_with_the_first_error_line(repo, check, first_line):
    lines = _feedback_once(repo, check).splitlines()
    assert "step checks, check tests" in lines[0]
    assert lines[1] == first_line
    assert any(line.startswith("Full log: ") for line in lines[2:])


def test_feedback_is_capped(repo):
    text = _feedback_once(repo, "yes 'E   this line is long and repeated' | head -5000; exit 1")
    assert len(text) < 3000 and "Full log: " in text


def _feedback_once(repo, check: str) -> str:
    """The text of the one feedback dispatch a rejection by `check` sends to the writer w1."""
    card = write_card(repo, check=check)
    a2a("card", "add", str(card), cwd=repo)
    assert a2a("card", "ready", "T-1", cwd=repo).code == 0
    c = a2a("claim", "T-1", "--writer", "w1", "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees/T-1-a1", {"src/app.py": "x\n"})
    a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence", str(c["fence"]),
        cwd=repo)
    assert a2a("verify", "T-1-a1", cwd=repo).code == 1
    (_, _, text), = _dispatches(repo)
    return text


def test_no_pane_feedback_when_the_user_is_the_writer(repo):
    card = write_card(repo, check="exit 1")
    a2a("card", "add", str(card), cwd=repo)
    a2a("card", "ready", "T-1", cwd=repo)
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees/T-1-a1", {"src/app.py": "x\n"})
    a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence", str(c["fence"]),
        cwd=repo)
    assert a2a("verify", "T-1-a1", cwd=repo).code == 1
    assert _dispatches(repo) == []


def test_feedback_from_a_real_pytest_run_starts_with_its_first_e_line(tmp_path):
    from tests.gate.verify_support import PYTEST, claim, dispatches, pytest_repo, submit_verify

    repo = pytest_repo(tmp_path)
    c, _ = claim(repo, PYTEST, writer="w1")
    broken = "def name(n):\n    return n\n\n\ndef shout(n):\n    return n.lower()\n"
    assert submit_verify(repo, c, {"src/names.py": broken}).json["verdict"] == "rejected"
    (_, _, text), = dispatches(repo)
    first, second = text.splitlines()[:2]
    assert "step checks, check tests" in first
    assert second.startswith("E ") and "AssertionError" in second and "ADA" in second, text
    assert text.index("Full log: ") > text.index(second)
