"""`a2a review start`: a fresh reviewer session in a read-only checkout of exactly the submitted
SHA, told the card, the diff range and the evidence in its first prompt; its verdict, given from
its own pane, is recorded against that SHA.

Real repository, real tmux (a private server), `a2a serve`, the demo agent as the reviewer CLI.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

from tests.support import (
    a2a,
    add_ready_card,
    commit_in,
    error_code,
    git,
    inject,
    prompts,
    review_report,
    rows,
    session,
    start_review,
    wait_until,
)

CANDIDATE = {"src/app.py": "def name(n):\n    if not n:\n        raise ValueError('empty')\n"
                           "    return n\n",
             "src/new.py": "NEW = 1\n", "tests/test_app.py": "def test_x():\n    pass\n"}


def submitted(repo: Path, card: str = "T-1") -> tuple[str, dict, str]:
    """A claimed, committed, submitted and verified attempt: (attempt, claim, sha)."""
    c = a2a("claim", card, "--json", cwd=repo).json
    wt = Path(c["worktree"])
    sha = commit_in(wt, CANDIDATE)
    r = a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
            str(c["fence"]), cwd=repo)
    assert r.code == 0, r.err
    assert a2a("verify", c["attempt"], "--json", cwd=repo).json["passed"]
    return c["attempt"], c, sha


def test_a_review_sees_exactly_the_candidates_tree_read_only(world, repo, serve):
    add_ready_card(repo)
    attempt, claim, sha = submitted(repo)
    wt = Path(claim["worktree"])
    # The worker goes on after submitting: a later commit and an uncommitted change.
    later = commit_in(wt, {"src/app.py": "later\n"})
    (wt / "src/new.py").write_text("dirty\n")
    serve()

    r = start_review(repo, world.sock, attempt).json
    sid, checkout = r["session"], Path(r["checkout"])
    assert (r["sha"], r["round"], r["submission"]) == (sha, 0, 1)
    assert checkout.parent == repo / ".a2a" / "reviews" and checkout.name == f"{attempt}-s1"
    # Exactly the candidate: HEAD, detached, every tracked file as committed, nothing else.
    assert git(checkout, "rev-parse", "HEAD") == sha != later
    assert git(checkout, "rev-parse", "--abbrev-ref", "HEAD") == "HEAD"
    tracked = git(checkout, "ls-tree", "-r", "--name-only", sha).splitlines()
    on_disk = sorted(str(p.relative_to(checkout)) for p in checkout.rglob("*")
                     if p.is_file() and p.name != ".git")
    assert on_disk == sorted(tracked)
    for name in tracked:
        blob = subprocess.run(["git", "show", f"{sha}:{name}"], cwd=repo, check=True,
                              capture_output=True).stdout
        assert (checkout / name).read_bytes() == blob, name
    assert (checkout / "src/app.py").read_text() == CANDIDATE["src/app.py"]
    assert (checkout / "src/new.py").read_text() == "NEW = 1\n"
    # Read-only: no write bit on any file or folder of the checkout.
    for p in [checkout, *checkout.rglob("*")]:
        mode = os.lstat(p).st_mode
        if not stat.S_ISLNK(mode):
            assert mode & 0o222 == 0, f"{p} is writable ({oct(mode)})"
    # A fresh reviewer session, launched in the checkout, recorded with the SHA it reviews.
    s = session(repo, sid)
    assert (s["role"], s["cwd"], s["attempt_id"]) == ("reviewer", str(checkout), None)
    launch = json.loads(rows(repo, "SELECT payload FROM events WHERE kind='session_launching'"
                                   " AND session=?", (sid,))[0]["payload"])
    assert launch["repo_commit"] == sha and launch["role"] == "reviewer"
    started = rows(repo, "SELECT attempt, session, payload FROM events"
                         " WHERE kind='review_started'")
    assert len(started) == 1 and started[0]["attempt"] == attempt
    assert json.loads(started[0]["payload"])["sha"] == sha

    # Its first prompt, through the injection queue: the card, the diff range, the evidence,
    # where to write the report and how to submit it.
    first = wait_until(lambda: prompts(repo, sid), what="the reviewer's first prompt")[0]
    assert "An empty name is refused with a clear message" in first          # the card's goal
    assert "No change to the storage format" in first                        # its non-goal
    assert f"{claim['start_commit']}..{sha}" in first                         # the diff range
    assert "verify run 1: passed" in first and "tests" in first              # the evidence
    report = Path(r["report"])
    assert str(report) in first
    assert f"a2a review verdict {attempt} --sha {sha} --file {report}" in first
    assert "first review" in first

    # The reviewer reads the tree it was given and gives its verdict from its own pane.
    report.write_text(review_report("pass_with_risks", risks=["no test for whitespace"]))
    out = report.parent / "verdict.json"
    n = inject(repo, sid, f"! git rev-parse HEAD > {report.parent}/head\n"
                          f"! a2a review verdict {attempt} --sha {sha} --file {report}"
                          f" --json > {out}")
    wait_until(lambda: rows(repo, "SELECT state FROM dispatches WHERE n=?", (n,))[0]["state"]
               == "done", timeout=60, what="the reviewer's turn")
    assert (report.parent / "head").read_text().strip() == sha
    got = json.loads(out.read_text())
    assert (got["verdict"], got["session"], got["sha"]) == ("pass_with_risks", sid, sha)
    assert rows(repo, "SELECT session, sha, verdict FROM reviews") == [
        {"session": sid, "sha": sha, "verdict": "pass_with_risks"}]


def test_a_review_needs_a_submission_and_a_controller_or_the_user(world, repo):
    add_ready_card(repo)
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    r = start_review(repo, world.sock, c["attempt"], check=False)
    assert error_code(r) == "not_submitted"
    assert error_code(start_review(repo, world.sock, "T-9-a1", check=False)) == "unknown_attempt"
    assert rows(repo, "SELECT id FROM sessions") == []
    assert not (repo / ".a2a" / "reviews").exists() or not any(
        (repo / ".a2a" / "reviews").iterdir())


def test_a_launch_that_died_leaves_a_review_that_can_be_started_again(world, repo):
    add_ready_card(repo)
    attempt, _claim, sha = submitted(repo)
    r = a2a("review", "start", attempt, "--cli", "demo", "--tmux-socket", world.sock,
            cwd=repo, env={"A2A_CRASH_AT": "review_start:after_spawn"})
    assert r.code == -9
    assert rows(repo, "SELECT id, state FROM review_runs") == [
        {"id": f"{attempt}-s1", "state": "requested"}]
    # No launch holds the lock any more: the requested review is known to have failed, and the
    # review starts again on the same checkout, for the same round.
    again = start_review(repo, world.sock, attempt).json
    assert (again["review"], again["round"], again["sha"]) == (f"{attempt}-s1.2", 0, sha)
    assert rows(repo, "SELECT id, state FROM review_runs ORDER BY requested_seq") == [
        {"id": f"{attempt}-s1", "state": "failed"}, {"id": f"{attempt}-s1.2", "state": "running"}]
    assert git(Path(again["checkout"]), "rev-parse", "HEAD") == sha
