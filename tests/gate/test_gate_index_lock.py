"""The checkout where main is checked out, when git cannot update it (issue 40).

Before: with a stale `.git/index.lock` in the user's checkout, integrate moved main, could not
update the checkout (git could not take the index) and said "left alone: the worktree changed",
which was not what happened; `git status` then showed the integration as a staged revert, which
a `git commit` would have made real. Now the lock is found before main moves (`index_locked`,
with git's own advice: a2a takes the index as git does, once before the move), and an update
that still fails names its cause, leaves the index at main wherever a2a can take it (never a
staged revert) and gives the one command that brings the files along.
"""

from __future__ import annotations

from tests.gate.gate_support import SCORES, attempt_state, events, head
from tests.support import a2a, commit_in, git


def staged(repo) -> str:
    """What `git status` would show as staged: the index against HEAD."""
    return git(repo, "diff", "--cached", "--name-status")


def test_a_held_index_lock_is_found_before_main_moves(repo, verified):
    attempt, claim, sha = verified
    lock = repo / ".git/index.lock"
    lock.write_text("")   # a git process that crashed (or still runs) holds the index
    r = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert r.code != 0 and r.json["error"]["code"] == "index_locked", r.out
    msg = r.json["error"]["message"]
    assert str(lock) in msg and "Another git process seems to be running" in msg
    assert "remove the file" in msg and "worktree changed" not in msg
    assert lock.exists(), "a2a must never remove a lock it does not hold"
    assert head(repo) == claim["start_commit"] and attempt_state(repo, attempt) == "verified"
    refused = events(repo, "integrate_refused")[-1]["payload"]
    assert refused["code"] == "index_locked" and refused["lock"] == str(lock)
    assert "integration_intent" not in [e["kind"] for e in events(repo)]
    lock.unlink()
    ok = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert ok.code == 0 and ok.json["worktree_synced"] is True, ok.out
    assert head(repo) == sha and (repo / "src/app.py").read_text() == "v = 2\n"
    assert staged(repo) == "" and not lock.exists()
    assert not (repo / ".git/a2a-index-lock.json").exists()


def _verified_adding(repo, ready_card, path: str) -> tuple[str, str]:
    c = a2a("claim", ready_card, "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees" / c["attempt"], {path: "new = 1\n"})
    assert a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
               str(c["fence"]), cwd=repo).code == 0
    r = a2a("verify", c["attempt"], "--json", cwd=repo)
    assert r.code == 0 and r.json["passed"], r.out
    return c["attempt"], sha


def test_a_checkout_that_cannot_be_updated_after_the_move_says_why_and_stages_no_revert(
        repo, ready_card):
    attempt, sha = _verified_adding(repo, ready_card, "src/new.py")
    # The user's own untracked files where the integration brings a file: git refuses to
    # update the checkout ("would lose untracked files"), which nothing before the move sees.
    (repo / "src/new.py").mkdir()
    (repo / "src/new.py/mine.txt").write_text("my notes\n")
    r = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert r.code == 0, r.out
    said = r.json["worktree_synced"]
    assert head(repo) == sha and said.startswith("not updated:"), said
    assert "conflict:" in said and "untracked" in said and "worktree changed" not in said
    assert staged(repo) == "", "the index shows the integration as a staged revert"
    command = said.split("`")[1]
    assert command.startswith(f"git -C {repo} restore --source=main"), command
    assert (repo / "src/new.py/mine.txt").read_text() == "my notes\n"   # never touched
    assert not (repo / ".git/index.lock").exists()
    # Once the user moved their files away, the one command brings the checkout to main.
    (repo / "src/new.py/mine.txt").rename(repo.parent / "mine.txt")
    (repo / "src/new.py").rmdir()
    git(repo, *command.split()[3:])
    assert git(repo, "status", "--porcelain") == ""
    assert (repo / "src/new.py").read_text() == "new = 1\n"


def test_a_crash_between_the_move_and_the_update_leaves_no_lock_and_recovery_updates(
        repo, verified):
    attempt, claim, sha = verified
    r = a2a("integrate", attempt, *SCORES, cwd=repo,
            env={"A2A_CRASH_AT": "integrate:after_update_ref"})
    assert r.code == -9 and head(repo) == sha
    assert not (repo / ".git/index.lock").exists()   # the user's git is free meanwhile
    rec = a2a("recover", "--json", cwd=repo).json
    assert rec["resolved"][0]["state"] == "integrated"
    assert rec["resolved"][0]["worktree_synced"] is True
    assert not (repo / ".git/index.lock").exists()
    assert (repo / "src/app.py").read_text() == "v = 2\n" and staged(repo) == ""


def test_another_processs_lock_at_recovery_is_named_with_the_command(repo, verified):
    attempt, claim, sha = verified
    r = a2a("integrate", attempt, *SCORES, cwd=repo,
            env={"A2A_CRASH_AT": "integrate:after_update_ref"})
    assert r.code == -9
    lock = repo / ".git/index.lock"
    lock.write_text("")   # the user's git took the index since: not a2a's to remove
    rec = a2a("recover", "--json", cwd=repo).json
    said = rec["resolved"][0]["worktree_synced"]
    assert said.startswith("not updated:") and "lock:" in said and str(lock) in said, said
    assert "Another git process" in said and "restore --source=main" in said
    assert lock.exists()


def test_a_lock_a2a_itself_left_when_it_died_is_taken_away_and_only_that_one(repo, verified):
    """Its note (`.git/a2a-index-lock.json`) names the process that made it and the lock's
    inode: a dead a2a's own lock goes; the same note beside another file leaves that file."""
    import json
    import os
    import subprocess

    attempt, claim, sha = verified
    dead = subprocess.Popen(["true"])
    dead.wait()
    lock, note = repo / ".git/index.lock", repo / ".git/a2a-index-lock.json"
    lock.write_text("")
    st = os.stat(lock)
    note.write_text(json.dumps({"pid": dead.pid, "lock": [st.st_dev, st.st_ino + 1]}))
    r = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert r.json["error"]["code"] == "index_locked" and lock.exists()   # not its file
    note.write_text(json.dumps({"pid": dead.pid, "lock": [st.st_dev, st.st_ino]}))
    ok = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert ok.code == 0 and ok.json["worktree_synced"] is True, ok.out
    assert not lock.exists() and not note.exists() and staged(repo) == ""
