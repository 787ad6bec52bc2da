"""Provenance in full, and only the candidate's own commits judged: trailers parsed as git parses
them; a managed session that is not the writer, duplicate keys with different values, or
another card's A2A-Task reject; a merge of main into the branch is not blamed on the candidate."""

from __future__ import annotations

import pytest

from tests.gate.verify_support import claim, events, result, submit_verify
from tests.support import a2a, commit_in, git

SCORES = ["--score", "boundary=3:ok", "--score", "taste=3:ok"]


@pytest.mark.parametrize("trailers, code", [
    ("A2A-Session: exec1\nA2A-Role: executive", "foreign_session"),
    ("A2A-Task: T-1\nA2A-Attempt: T-1-a1\nA2A-Session: w2\nA2A-Role: worker", "foreign_session"),
    ("A2A-Attempt: T-1-a1\nA2A-Attempt: T-1-a2", "duplicate_trailer"),
    ("A2A-Task: T-9\nA2A-Attempt: T-1-a1", "wrong_task"),
    ("A2A-Attempt: T-7-a1", "foreign_attempt"),
])
def test_commits_of_others_reject(repo, trailers, code):
    c, wt = claim(repo, writer="w1")
    sha = commit_in(wt, {"src/a.py": "1\n"}, f"work\n\n{trailers}\n")
    v = submit_verify(repo, c, sha=sha)
    p = result(v, "provenance")
    assert not p["passed"] and p["code"] == code, p
    assert sha[:12] in p["detail"]
    assert not events(repo, "human_intervention")


@pytest.mark.parametrize("trailers", [
    "A2A-Task: T-1\nA2A-Attempt: T-1-a1\nA2A-Session: w1\nA2A-Role: worker",
    "A2A-Attempt: T-1-a1\nA2A-Attempt: T-1-a1",          # the same value twice
    "A2A-Task: T-1\nA2A-Attempt: T-1-a1\nA2A-Session:\n  w1",  # folded, as git reads it
])
def test_the_writers_own_commits_pass(repo, trailers):
    c, wt = claim(repo, writer="w1")
    sha = commit_in(wt, {"src/a.py": "1\n"}, f"work\n\n{trailers}\n")
    v = submit_verify(repo, c, sha=sha)
    assert result(v, "provenance")["passed"], v.out
    assert not events(repo, "human_intervention")


def test_a_trailer_in_the_body_is_not_a_trailer(repo):
    c, wt = claim(repo, writer="w1")
    sha = commit_in(wt, {"src/a.py": "1\n"},
                         "work\n\nA2A-Session: exec1\n\nnot trailers after all, just prose.\n")
    v = submit_verify(repo, c, sha=sha)
    assert result(v, "provenance")["passed"]
    (human,) = events(repo, "human_intervention")  # no trailer block: the user's own commit
    assert human["payload"]["sha"] == sha


def test_a_merge_of_main_into_the_branch_passes_boundary_and_provenance(repo):
    # T-2 lands README.md on main while T-1 (allowed: src/**) is being worked on.
    c1, wt1 = claim(repo, card_id="T-1", allowed=("src/**",))
    c2, wt2 = claim(repo, card_id="T-2", allowed=("README.md",))
    other = commit_in(wt2, {"README.md": "sample, improved\n"})
    assert submit_verify(repo, c2, sha=other).json["verdict"] == "passed"
    assert a2a("integrate", c2["attempt"], *SCORES, cwd=repo).code == 0
    commit_in(wt1, {"src/app.py": "def name(n):\n    return n or None\n"})
    # The worker brings the target in from the repository (its clone's `origin`).
    git(wt1, "fetch", "-q", "origin")
    git(wt1, "merge", "-q", "--no-edit", "origin/main")
    sha = git(wt1, "rev-parse", "HEAD")
    v = submit_verify(repo, c1, sha=sha)
    assert v.json["verdict"] == "passed", v.out
    assert "1 changed path" in result(v, "boundary")["detail"]
    humans = [e["payload"]["sha"] for e in events(repo, "human_intervention")
              if e["attempt"] == c1["attempt"]]
    assert other not in humans and len(humans) == 2  # the work commit and the merge
    r = a2a("integrate", c1["attempt"], *SCORES, cwd=repo)
    assert r.code == 0, r.err
    assert git(repo, "rev-parse", "main") == sha


def test_a_merge_that_edits_outside_the_boundary_still_rejects(repo):
    c1, wt1 = claim(repo, card_id="T-1", allowed=("src/**",))
    c2, wt2 = claim(repo, card_id="T-2", allowed=("README.md",))
    submit_verify(repo, c2, sha=commit_in(wt2, {"README.md": "sample, improved\n"}))
    assert a2a("integrate", c2["attempt"], *SCORES, cwd=repo).code == 0
    commit_in(wt1, {"src/app.py": "def name(n):\n    return n or None\n"})
    git(wt1, "fetch", "-q", "origin")
    git(wt1, "merge", "-q", "--no-ff", "--no-commit", "origin/main")
    (wt1 / "README.md").write_text("rewritten in the merge\n")
    git(wt1, "add", "-A")
    git(wt1, "commit", "-q", "--no-edit")
    v = submit_verify(repo, c1, sha=git(wt1, "rev-parse", "HEAD"))
    b = result(v, "boundary")
    assert b["code"] == "out_of_bounds" and "README.md" in b["detail"]
