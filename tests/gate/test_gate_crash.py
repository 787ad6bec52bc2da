"""A crash (kill -9) between integration intent and outcome is resolved by reading the ref."""

from __future__ import annotations

import pytest

from tests.support import a2a, commit_in, git, rows

SCORES = ("--score", "boundary=3:in bounds", "--score", "taste=2:fine")


def test_crash_after_intent_before_update_is_not_applied(repo, verified):
    attempt, claim, sha = verified
    r = a2a("integrate", attempt, *SCORES, cwd=repo, env={"A2A_CRASH_AT": "integrate:after_intent"})
    assert r.code == -9
    assert git(repo, "rev-parse", "main") == claim["start_commit"]
    # The next gate command resolves it from the ref: it did not move, so nothing was applied.
    st = a2a("status", "--json", cwd=repo).json
    assert st["recovered"][0]["state"] == "not_applied"
    assert st["attempts"][0]["state"] == "verified"
    kinds = [e["kind"] for e in a2a("events", "--json", cwd=repo).json]
    assert "integration_not_applied" in kinds and "integrated" not in kinds
    # Integration can then be done for real.
    ok = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert ok.code == 0, ok.out
    assert git(repo, "rev-parse", "main") == sha


def test_crash_after_update_ref_is_recorded_from_the_ref(repo, verified):
    attempt, claim, sha = verified
    r = a2a("integrate", attempt, *SCORES, cwd=repo,
            env={"A2A_CRASH_AT": "integrate:after_update_ref"})
    assert r.code == -9
    assert git(repo, "rev-parse", "main") == sha
    events = a2a("events", "--json", cwd=repo).json
    assert events[-1]["kind"] == "integration_intent"
    rec = a2a("recover", "--json", cwd=repo).json
    assert rec["resolved"][0]["state"] == "integrated" and rec["resolved"][0]["recovered"]
    st = a2a("status", "--json", cwd=repo).json
    assert st["attempts"][0]["state"] == "integrated"
    done = [e for e in a2a("events", "--json", cwd=repo).json if e["kind"] == "integrated"]
    assert done[0]["payload"]["observed"] == sha and done[0]["payload"]["score"]["taste"] == 2
    # The checked-out main worktree was brought to the new tree by recovery.
    assert (repo / "src/app.py").read_text() == "v = 2\n"


def test_crash_then_ref_moved_elsewhere_is_unknown(repo, verified):
    attempt, claim, sha = verified
    r = a2a("integrate", attempt, *SCORES, cwd=repo, env={"A2A_CRASH_AT": "integrate:after_intent"})
    assert r.code == -9
    # Someone moves the target to a third commit before anyone looks.
    other = commit_in(repo, {"README.md": "changed by hand\n"}, "hand edit")
    rec = a2a("recover", "--json", cwd=repo).json
    assert rec["resolved"][0]["state"] == "unknown"
    assert rec["unknown"][0]["id"] == attempt
    assert git(repo, "rev-parse", "main") == other
    kinds = [e["kind"] for e in a2a("events", "--json", cwd=repo).json]
    assert "integration_unknown" in kinds and "integrated" not in kinds
    # Unknown is not retried blindly.
    again = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert again.code != 0 and again.json["error"]["code"] == "not_verified"


def _died_claiming(repo, card: str, point: str) -> str:
    """A claim killed at `point`, after its record and before its clone was recorded."""
    r = a2a("claim", card, cwd=repo, env={"A2A_CRASH_AT": point})
    assert r.code == -9, r.out
    (att,) = rows(repo, "SELECT id, worktree_state FROM attempts")
    assert att["worktree_state"] == "pending"
    return att["id"]


@pytest.mark.parametrize(("point", "touch", "state", "where"), [
    ("claim:after_record", False, "failed", "removed"),    # no clone on disk
    ("claim:after_clone", False, "claimed", "present"),    # a whole clone: the claim's
    ("claim:after_clone", True, "failed", "unknown"),      # a clone that differs: kept, for you
])
def test_a_claim_that_died_before_its_clone_was_recorded_is_read_from_the_disk(
        repo, ready_card, point, touch, state, where):
    attempt = _died_claiming(repo, ready_card, point)
    clone = repo / ".a2a/worktrees" / attempt
    if touch:
        (clone / "src/app.py").write_text("half made\n")
    rec = a2a("recover", "--json", cwd=repo)
    assert rec.code == 0, rec.out
    (att,) = rows(repo, "SELECT state, worktree_state FROM attempts")
    assert (att["state"], att["worktree_state"]) == (state, where)
    assert clone.exists() == (where != "removed")
    # What the recovery wrote is what the log says (the fold is the writer).
    v = a2a("store", "verify", "--json", cwd=repo)
    assert v.json["intact"] is True, v.out
