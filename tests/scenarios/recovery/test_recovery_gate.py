"""Recovery (seed 003 三.10), the gate's half: kill -9 of a gate command, a held ref lock, the
target moved behind the gate, a dirty worktree at reclaim."""

from __future__ import annotations

from tests.scenarios.flows import (
    SCORES,
    card,
    claim,
    error_code,
    head,
    integrate,
    state,
    submit,
    verified,
    worktree,
)
from tests.scenarios.switches import scenario
from tests.support import a2a, commit_in, git, store

CRASH = "A2A_CRASH_AT"


def kinds(repo) -> list[str]:
    return [e["kind"] for e in a2a("events", "--json", cwd=repo).json]


@scenario("integration_recovery")
def test_kill_9_at_every_integrate_crash_point_is_settled_from_the_ref(repo):
    c, sha = verified(repo)
    # Killed after the intent, before git: the ref did not move, so nothing was applied.
    assert integrate(repo, c["attempt"], env={CRASH: "integrate:after_intent"}).code == -9
    assert state(repo, c["attempt"]) == "verified"
    assert head(repo) == c["start_commit"]
    # Killed after git moved the ref, before the outcome: the ref says it was integrated.
    assert integrate(repo, c["attempt"], env={CRASH: "integrate:after_update_ref"}).code == -9
    assert state(repo, c["attempt"]) == "integrated"
    assert head(repo) == sha and (repo / "src/app.py").read_text() == "v = 2\n"
    assert kinds(repo).count("integration_intent") == 2


@scenario("unknown_is_a_state")
def test_a_target_moved_behind_a_crashed_integrate_is_unknown_not_guessed(repo):
    c, sha = verified(repo)
    assert integrate(repo, c["attempt"], env={CRASH: "integrate:after_intent"}).code == -9
    elsewhere = commit_in(repo, {"README.md": "moved by hand\n"}, message="by hand")
    assert state(repo, c["attempt"]) == "unknown"
    assert "integrated" not in kinds(repo) and "integration_not_applied" not in kinds(repo)
    r = integrate(repo, c["attempt"])
    assert error_code(r) == "not_verified", r.out  # never retried while unknown
    assert head(repo) == elsewhere


@scenario("ref_update_precheck")
def test_a_held_ref_lock_refuses_integrate_before_anything_is_recorded(repo):
    c, sha = verified(repo)
    lock = repo / ".git/refs/heads/main.lock"
    lock.write_text(c["start_commit"] + "\n")  # another git process is moving main
    r = integrate(repo, c["attempt"])
    assert error_code(r) == "ref_locked", r.out
    assert "integration_intent" not in kinds(repo)
    assert state(repo, c["attempt"]) == "verified" and head(repo) == c["start_commit"]
    lock.unlink()
    assert integrate(repo, c["attempt"]).code == 0 and head(repo) == sha


@scenario("reclaim_keeps_dirty")
def test_a_dirty_worktree_survives_reclaim(repo):
    card(repo)
    c = claim(repo)
    wt = worktree(repo, c)
    sha = commit_in(wt, {"src/app.py": "w = 1\n"})
    assert a2a("abandon", c["attempt"], *SCORES, "--reason", "stop", cwd=repo).code == 0
    (wt / "src/app.py").write_text("unsaved work\n")
    r = a2a("reclaim", "--json", cwd=repo).json["reclaimed"][0]
    assert r["worktree_state"] == "kept_dirty", r
    assert (wt / "src/app.py").read_text() == "unsaved work\n"
    assert git(repo, "rev-parse", f"refs/a2a/attempts/{c['attempt']}") == sha


@scenario("one_transaction_per_write")
def test_kill_9_in_the_middle_of_an_append_leaves_the_log_whole_and_dense(repo):
    card(repo)
    c = claim(repo)
    sha = commit_in(worktree(repo, c), {"src/app.py": "v = 2\n"})
    # `a2a submit` dies right after appending its event, before the rest of its writes.
    r = a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
            str(c["fence"]), cwd=repo, env={"A2A_SCENARIO_KILL_AFTER": "submitted"})
    assert r.code == -9, r.err
    check = a2a("store", "verify", "--json", cwd=repo)
    assert check.code == 0 and check.json["intact"], check.out
    with store(repo) as s:
        assert s.one("PRAGMA integrity_check")[0] == "ok"
        n, top = s.one("SELECT COUNT(*), MAX(seq) FROM events")
        assert n == top  # no gap
    assert "submitted" not in kinds(repo)
    assert state(repo, c["attempt"]) == "claimed"
    assert submit(repo, c, sha).code == 0


@scenario("index_lock_first")
def test_a_held_index_lock_refuses_integrate_before_main_moves(repo):
    c, sha = verified(repo)
    lock = repo / ".git/index.lock"
    lock.write_text("")   # a git process that crashed holds the checkout's index
    r = integrate(repo, c["attempt"])
    assert error_code(r) == "index_locked", r.out
    assert head(repo) == c["start_commit"] and lock.exists()
    assert git(repo, "diff", "--cached", "--name-only") == ""   # no staged revert
