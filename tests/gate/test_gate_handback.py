"""Rule 2 (seed 003 四, "等待超时不代表 worker 挂了"): abandon, claim --supersede and reclaim
take an attempt from its writer only once the writer is idle or exited (its pane, as the CLI's
signals left it) and its work was submitted; otherwise they refuse, saying why and what to do;
the user alone may --force, and the force is recorded."""

from __future__ import annotations

from tests.support import a2a, a2a_as, commit_in, events, hooked, register_session

SCORES = ("--score", "boundary=2:ok", "--score", "taste=2:ok")


def claimed(repo, card: str, sid: str = "w1") -> dict:
    """The card claimed for session `sid`, a worker whose pane has started and is idle."""
    c = a2a("claim", card, "--writer", sid, "--json", cwd=repo).json
    register_session(repo, sid, cli="claude", attempt=c["attempt"], state="unknown")
    assert hooked(repo, sid, "SessionStart") == "idle"
    return c


def clone(repo, c):
    return repo / ".a2a/worktrees" / c["attempt"]


def test_abandon_waits_for_a_busy_writer_and_says_what_to_do(repo, ready_card):
    c = claimed(repo, ready_card)
    assert hooked(repo, "w1", "UserPromptSubmit") == "busy"
    r = a2a("abandon", c["attempt"], "--reason", "slow", "--json", cwd=repo)
    assert r.json["error"]["code"] == "writer_busy", r.out
    msg = r.json["error"]["message"]
    assert "session w1" in msg and "busy" in msg and "--force" in msg
    assert not events(repo, "abandoned")
    assert hooked(repo, "w1", "Stop") == "idle"
    assert a2a("abandon", c["attempt"], "--reason", "slow", cwd=repo).code == 0


def test_a_writer_waiting_on_a_permission_is_not_taken_either(repo, ready_card):
    c = claimed(repo, ready_card)
    assert hooked(repo, "w1", "UserPromptSubmit", "PermissionRequest") == "waiting"
    r = a2a("abandon", c["attempt"], "--json", cwd=repo)
    assert r.json["error"]["code"] == "writer_busy", r.out


def test_supersede_waits_for_the_writers_commits_to_be_submitted(repo, ready_card):
    c = claimed(repo, ready_card)
    sha = commit_in(clone(repo, c), {"src/app.py": "v = 2\n"})
    r = a2a("claim", ready_card, "--supersede", "--json", cwd=repo)
    assert r.json["error"]["code"] == "delivery_unsubmitted", r.out
    assert sha[:12] in r.json["error"]["message"] and "a2a submit" in r.json["error"]["message"]
    assert not events(repo, "attempt_superseded")
    assert a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
               str(c["fence"]), cwd=repo).code == 0
    r = a2a("claim", ready_card, "--supersede", "--json", cwd=repo)
    assert r.code == 0 and r.json["superseded"] == [c["attempt"]], r.out


def test_force_is_the_users_alone_and_recorded_with_what_it_overrode(repo, ready_card):
    c = claimed(repo, ready_card)
    hooked(repo, "w1", "UserPromptSubmit")
    r = a2a_as(repo, "x1", "executive", "abandon", c["attempt"], "--force", "--json")
    assert r.json["error"]["code"] == "role_forbidden", r.out
    assert not events(repo, "abandoned")
    assert a2a("abandon", c["attempt"], "--force", cwd=repo).code == 0
    (ev,) = events(repo, "abandoned")
    assert [h["code"] for h in ev.payload["forced"]] == ["writer_busy"]


def test_reclaim_leaves_the_clone_of_a_writer_still_running(repo, ready_card):
    c = claimed(repo, ready_card)
    assert a2a("abandon", c["attempt"], cwd=repo).code == 0
    hooked(repo, "w1", "UserPromptSubmit")   # the agent goes on in its clone
    r = a2a("reclaim", c["attempt"], "--json", cwd=repo)
    assert r.json["error"]["code"] == "writer_busy", r.out
    every = a2a("reclaim", "--json", cwd=repo).json["reclaimed"]
    assert [x["worktree_state"] for x in every] == ["held"]
    assert clone(repo, c).is_dir() and not events(repo, "worktree_removed")
    hooked(repo, "w1", "Stop")
    assert a2a("reclaim", "--json", cwd=repo).json["reclaimed"][0]["worktree_state"] == "removed"


def test_an_exited_writer_or_one_never_started_holds_nothing(repo, ready_card):
    c = a2a("claim", ready_card, "--writer", "w2", "--json", cwd=repo).json
    commit_in(clone(repo, c), {"src/app.py": "v = 3\n"})
    r = a2a("abandon", c["attempt"], *SCORES, "--json", cwd=repo)
    # no pane, but unsubmitted commits: the work is still held
    assert r.json["error"]["code"] == "delivery_unsubmitted", r.out
    register_session(repo, "w2", cli="claude", attempt=c["attempt"], state="exited")
    assert a2a("abandon", c["attempt"], *SCORES, "--force", cwd=repo).code == 0
