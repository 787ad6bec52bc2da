"""Rule 9 (seed 004 4.2, "Coder 的自检"): `submit` takes the worker's own check (what it ran, what
it saw); a2a keeps it with the submission, never trusts it (the verify decides as before), and
the metrics show how often it agreed with the gate."""

from __future__ import annotations

from pathlib import Path

from tests.scenarios.flows import card
from tests.support import a2a, add_ready_card, commit_in, error_code, events


def submit(repo: Path, c: dict, files: dict, *check: str):
    sha = commit_in(Path(c["worktree"]), files)
    r = a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
            str(c["fence"]), *check, "--json", cwd=repo)
    assert r.code == 0, r.out
    return a2a("verify", c["attempt"], "--json", cwd=repo)


def test_the_workers_self_check_is_kept_never_trusted_and_its_agreement_measured(repo):
    card(repo, check="grep -q 'v = 2' src/app.py")
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    # It says its check passed; the gate's check fails: the gate decides.
    v = submit(repo, c, {"src/app.py": "v = 3\n"}, "--self-check", "grep v src/app.py",
               "--self-check-saw", "passed", "--self-check-note", "found v")
    assert v.code != 0 and not v.json["passed"]
    (sub,) = events(repo, "submitted")
    assert sub.payload["self_check"] == {"ran": "grep v src/app.py", "saw": "passed",
                                         "note": "found v"}
    # Then it says passed and the gate agrees.
    v = submit(repo, c, {"src/app.py": "v = 2\n"}, "--self-check", "grep v src/app.py",
               "--self-check-saw", "passed")
    assert v.json["passed"]
    sc = a2a("metrics", "first-pass", "--json", cwd=repo).json["first_pass"]["self_check"]
    assert (sc["reported"], sc["agreed"], sc["said_passed_gate_failed"]) == (2, 1, 1)
    assert sc["rate"] == 0.5
    assert "self-check" in a2a("metrics", "first-pass", cwd=repo).out


def test_a_self_check_with_no_outcome_is_refused_and_nothing_recorded(repo):
    add_ready_card(repo)
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    sha = commit_in(Path(c["worktree"]), {"src/app.py": "v = 2\n"})
    r = a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
            str(c["fence"]), "--self-check", "pytest", "--json", cwd=repo)
    assert error_code(r) == "usage" and not events(repo, "submitted")
