"""Integration refuses to land an unverified tree and never clobbers a dirty worktree."""

from __future__ import annotations

from tests.support import a2a, commit_in, git

SCORES = ("--score", "boundary=3:in bounds", "--score", "taste=2:fine")


def test_target_moved_outside_the_gate_is_refused(repo, verified):
    attempt, claim, sha = verified
    moved = commit_in(repo, {"README.md": "someone else\n"}, "another change")
    r = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    # Moved by someone else: the user decides first (test_gate_targets.py); a move by the gate
    # itself is `target_moved` (test_a_move_by_the_gate_itself_is_not_a_divergence).
    assert r.code != 0 and r.json["error"]["code"] == "target_diverged"
    assert git(repo, "rev-parse", "main") == moved
    st = a2a("status", "--json", cwd=repo).json
    assert st["attempts"][0]["state"] == "verified"
    assert "integration_intent" not in [e["kind"] for e in a2a("events", "--json", cwd=repo).json]


def test_dirty_main_worktree_is_untouched(repo, verified):
    attempt, claim, sha = verified
    (repo / "README.md").write_text("my uncommitted edit\n")
    r = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert r.code != 0 and r.json["error"]["code"] == "main_worktree_dirty"
    assert "uncommitted" in r.json["error"]["message"]
    assert (repo / "README.md").read_text() == "my uncommitted edit\n"
    assert git(repo, "rev-parse", "main") == claim["start_commit"]
    assert (repo / "src/app.py").read_text() == "def name(n):\n    return n\n"


def test_untracked_file_that_does_not_collide_does_not_block(repo, verified):
    attempt, claim, sha = verified
    (repo / "notes.txt").write_text("scratch\n")
    r = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert r.code == 0, r.out
    assert (repo / "notes.txt").read_text() == "scratch\n"
    assert (repo / "src/app.py").read_text() == "v = 2\n"


def test_target_not_checked_out_moves_only_the_ref(repo, verified):
    attempt, claim, sha = verified
    git(repo, "checkout", "-q", "-b", "elsewhere")
    (repo / "README.md").write_text("dirty on another branch\n")
    r = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert r.code == 0, r.out
    assert git(repo, "rev-parse", "main") == sha
    assert (repo / "README.md").read_text() == "dirty on another branch\n"


def test_card_changed_after_verify_cannot_integrate(repo, verified):
    attempt, claim, sha = verified
    card = repo.parent / "T-1.toml"
    card.write_text(card.read_text().replace('allowed_paths = ["src/**", "tests/**"]',
                                             'allowed_paths = ["src/**"]'))
    added = a2a("card", "add", str(card), "--json", cwd=repo).json
    assert added["version"] == 2 and added["state"] == "draft"
    r = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert r.code != 0 and r.json["error"]["code"] == "stale_card_version"
    assert git(repo, "rev-parse", "main") == claim["start_commit"]
    # Re-confirmed, the old submission is still bound to version 1: resubmit at v2 and verify.
    a2a("card", "ready", "T-1", cwd=repo)
    old = a2a("submit", attempt, "--sha", sha, "--card-version", "1", "--fence", "1", "--json",
              cwd=repo)
    assert old.json["error"]["code"] == "stale_card_version"
    assert a2a("submit", attempt, "--sha", sha, "--card-version", "2", "--fence", "1",
               cwd=repo).code == 0
    assert a2a("verify", attempt, cwd=repo).code == 0
    assert a2a("integrate", attempt, *SCORES, cwd=repo).code == 0
    assert git(repo, "rev-parse", "main") == sha


def test_abandon_needs_scores_and_reclaim_keeps_dirty_worktree(repo, ready_card):
    assert a2a("claim", ready_card, "--json", cwd=repo).json["attempt"] == "T-1-a1"
    wt = repo / ".a2a/worktrees/T-1-a1"
    sha = commit_in(wt, {"src/app.py": "w = 1\n"})
    early = a2a("reclaim", "T-1-a1", "--json", cwd=repo)
    assert early.json["error"]["code"] == "attempt_active"
    assert a2a("abandon", "T-1-a1", "--json", cwd=repo).json["error"]["code"] == "scores_required"
    assert a2a("abandon", "T-1-a1", *SCORES, "--reason", "wrong approach", cwd=repo).code == 0
    (wt / "src/app.py").write_text("unsaved work\n")
    r = a2a("reclaim", "--json", cwd=repo).json["reclaimed"][0]
    assert r["worktree_state"] == "kept_dirty" and wt.is_dir()
    assert (wt / "src/app.py").read_text() == "unsaved work\n"
    assert git(repo, "rev-parse", "refs/a2a/attempts/T-1-a1") == sha
    # Reported on the board as a finding.
    kinds = [e for e in a2a("events", "--json", cwd=repo).json if e["kind"] == "board_item_posted"]
    assert kinds and "T-1-a1" in kinds[0]["payload"]["title"]
    # Once clean, a later reclaim removes it.
    git(wt, "checkout", "--", "src/app.py")
    r = a2a("reclaim", "--json", cwd=repo).json["reclaimed"][0]
    assert r["worktree_state"] == "removed" and not wt.exists()


def test_claiming_an_integrated_card_says_so_and_needs_again(repo, verified):
    """The card's work is in main: `a2a claim T-1` is refused in one line that says so and
    names the way to mean it (`--again`), not a silent T-1-a2."""
    attempt, claim, sha = verified
    assert a2a("integrate", attempt, *SCORES, cwd=repo).code == 0
    r = a2a("claim", "T-1", "--json", cwd=repo)
    assert r.code == 1 and r.json["error"]["code"] == "card_integrated", r.out
    message = r.json["error"]["message"]
    assert attempt in message and "a2a claim T-1 --again" in message, message
    assert [a["id"] for a in a2a("status", "--json", cwd=repo).json["attempts"]] == [attempt]
    again = a2a("claim", "T-1", "--again", "--json", cwd=repo)
    assert again.code == 0 and again.json["attempt"] == "T-1-a2", again.out + again.err
