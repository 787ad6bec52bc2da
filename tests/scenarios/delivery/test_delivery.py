"""Delivery (seed 003 三.10): what the gate takes as a delivery, and what it refuses."""

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
    verify,
    worktree,
)
from tests.scenarios.switches import scenario
from tests.support import (
    a2a,
    commit_in,
    dispatch,
    git,
    give_verdict,
    inject,
    review_report,
    session,
    spawn,
    start_review,
    wait_state,
    wait_until,
)

BLOCK = review_report("fail", issues=[("B1", "v is wrong", ["src/app.py:1"])])

@scenario("submit_fence")
def test_a_stale_fence_is_refused_and_changes_nothing(repo):
    card(repo)
    old = claim(repo)
    new = claim(repo, "T-1", "--supersede")
    assert new["fence"] == old["fence"] + 1
    sha = commit_in(worktree(repo, new), {"src/app.py": "v = 2\n"})
    # The old owner, holding the fence it was given, submits to the new attempt.
    r = submit(repo, new, sha, fence=old["fence"])
    assert error_code(r) == "stale_fence", r.out
    assert state(repo, new["attempt"]) == "claimed"
    assert submit(repo, new, sha).code == 0


@scenario("submit_lineage")
def test_a_commit_not_descending_from_the_start_is_refused(repo):
    card(repo)
    c = claim(repo)
    # Same tree as the start, but no parent: it does not build on what the attempt was given.
    tree = git(repo, "rev-parse", f"{c['start_commit']}^{{tree}}")
    stray = git(repo, "commit-tree", tree, "-m", "from nowhere")
    r = submit(repo, c, stray)
    assert error_code(r) == "not_descendant", r.out
    assert state(repo, c["attempt"]) == "claimed"


@scenario("exact_sha_checkout")
def test_verify_judges_the_submitted_sha_while_the_worktree_keeps_changing(repo):
    card(repo, check="grep -q 'v = 2' src/app.py")
    c = claim(repo)
    wt = worktree(repo, c)
    sha = commit_in(wt, {"src/app.py": "v = 2\n"})
    assert submit(repo, c, sha).code == 0
    # The worker goes on: a later commit and uncommitted edits, neither submitted.
    commit_in(wt, {"src/app.py": "v = 3\n"})
    (wt / "src/app.py").write_text("half-typed(\n")
    v = verify(repo, c["attempt"])
    assert v.code == 0 and v.json["passed"], v.out
    assert v.json["sha"] == sha
    assert (wt / "src/app.py").read_text() == "half-typed(\n"  # the worker's edits untouched


@scenario("target_guard")
def test_a_target_moved_outside_the_gate_is_not_overwritten(repo):
    c, sha = verified(repo)
    outside = commit_in(repo, {"README.md": "edited on main by hand\n"}, message="by hand")
    r = integrate(repo, c["attempt"])
    assert error_code(r) == "target_diverged", r.out
    assert head(repo) == outside
    assert state(repo, c["attempt"]) == "verified"


@scenario("review_sha_binding")
def test_a_review_of_another_sha_is_refused_and_a_verdict_binds_its_own(world, repo):
    card(repo)
    c = claim(repo)
    wt = worktree(repo, c)
    first = commit_in(wt, {"src/app.py": "v = 2\n"})
    assert submit(repo, c, first).code == 0
    second = commit_in(wt, {"src/app.py": "v = 3\n"})
    assert submit(repo, c, second).code == 0
    reviewer = start_review(repo, world.sock, c["attempt"]).json["session"]
    # The reviewer launched for the second candidate cannot pin its verdict on the first.
    stale = give_verdict(repo, reviewer, c["attempt"], first, BLOCK)
    assert error_code(stale) == "stale_sha", stale.out
    # Its verdict on the candidate it read binds that SHA: a fail stops integration there.
    assert give_verdict(repo, reviewer, c["attempt"], second, BLOCK).code == 0
    assert verify(repo, c["attempt"]).json["passed"]
    assert error_code(integrate(repo, c["attempt"])) == "review_undisposed"
    assert head(repo) == c["start_commit"]


@scenario("verdict_bound_to_sha")
def test_an_amend_after_verify_needs_its_own_verdict(repo):
    c, sha = verified(repo)
    wt = worktree(repo, c)
    (wt / "src/app.py").write_text("v = 2  # amended\n")
    git(wt, "commit", "-q", "-a", "--amend", "-m", "work, amended")
    amended = git(wt, "rev-parse", "HEAD")
    assert submit(repo, c, amended).code == 0
    r = integrate(repo, c["attempt"])
    assert error_code(r) == "not_verified", r.out
    assert head(repo) == c["start_commit"]
    v = verify(repo, c["attempt"])
    assert v.json["passed"] and v.json["sha"] == amended
    assert integrate(repo, c["attempt"]).code == 0 and head(repo) == amended


@scenario("evidence_per_attempt")
def test_abandon_then_a_new_attempt_keeps_the_old_evidence(repo):
    card(repo, check="cat src/app.py; grep -q good src/app.py")
    first = claim(repo)
    bad = commit_in(worktree(repo, first), {"src/app.py": "bad first try\n"})
    assert submit(repo, first, bad).code == 0
    assert not verify(repo, first["attempt"]).json["passed"]
    r = a2a("abandon", first["attempt"], *SCORES, "--reason", "wrong approach", cwd=repo)
    assert r.code == 0, r.err
    second = claim(repo)
    good = commit_in(worktree(repo, second), {"src/app.py": "good\n"})
    assert submit(repo, second, good).code == 0
    assert verify(repo, second["attempt"]).json["passed"]
    # The first attempt's record is whole: its state, its verdict's log, its branch.
    assert state(repo, first["attempt"]) == "abandoned"
    log = a2a("log", first["attempt"], "--json", cwd=repo).json
    assert not log["passed"] and "bad first try" in log["text"], log
    assert git(worktree(repo, first), "rev-parse", first["branch"]) == bad


@scenario("only_submit_delivers")
def test_done_said_with_no_submit_changes_nothing(repo, tmux_socket, serve):
    card(repo)
    c = claim(repo)
    serve()
    sid = spawn(repo, tmux_socket, "--delay", "0.1", args=("--attempt", c["attempt"]))["session"]
    wait_state(repo, sid, "idle")
    # The worker commits, says it is done and goes idle; it never runs `a2a submit`.
    n = inject(repo, sid, "!echo 'v = 2' > src/app.py && git commit -qam 'the fix'\nDone.")
    wait_until(lambda: dispatch(repo, n)["state"] == "done", what="the worker's turn")
    # The commit is there, in the attempt's clone.
    assert git(worktree(repo, c), "rev-parse", c["branch"]) != c["start_commit"]
    assert session(repo, sid)["state"] == "idle"
    assert state(repo, c["attempt"]) == "claimed"
    assert error_code(verify(repo, c["attempt"])) == "nothing_to_verify"
    assert error_code(integrate(repo, c["attempt"])) == "not_verified"
    assert head(repo) == c["start_commit"]
