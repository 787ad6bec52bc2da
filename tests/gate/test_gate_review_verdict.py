"""`a2a review verdict`: only from the reviewer session launched for this SHA (not the writer,
launched after the submission, naming this SHA), with a well-formed report; anything else is
refused with its error and no review is stored.

Reviews are launched for real (`a2a review start --cli demo` on a private tmux server); the
verdict is given by a process attributed to the reviewer's pane.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.support import (
    a2a,
    a2a_as,
    add_ready_card,
    commit_in,
    error_code,
    give_verdict,
    review_report,
    rows,
    spawn,
    start_review,
)

FAIL = review_report("fail", issues=[("B1", "Empty names are accepted", ["src/app.py:1"])],
                     follow_up=True)


def claim_and_submit(repo: Path, card: str, *claim_opts: str) -> tuple[str, dict, str]:
    c = a2a("claim", card, "--json", *claim_opts, cwd=repo).json
    sha = commit_in(Path(c["worktree"]), {"src/app.py": "def name(n):\n    return n or 0\n"})
    assert a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
               str(c["fence"]), cwd=repo).code == 0
    return c["attempt"], c, sha


def reviews(repo: Path) -> list[dict]:
    return rows(repo, "SELECT attempt_id, sha, session, verdict FROM reviews")


def test_the_writer_cannot_review_its_own_candidate(world, repo):
    add_ready_card(repo)
    # The attempt's writer is session r1, the id the first reviewer session gets.
    attempt, _c, sha = claim_and_submit(repo, "T-1", "--writer", "r1")
    assert start_review(repo, world.sock, attempt).json["session"] == "r1"
    r = give_verdict(repo, "r1", attempt, sha, FAIL)
    assert error_code(r) == "reviewer_is_writer"
    assert reviews(repo) == []
    refused = rows(repo, "SELECT payload FROM events WHERE kind='review_refused'")
    assert json.loads(refused[0]["payload"])["code"] == "reviewer_is_writer"


def test_a_verdict_must_be_fresh_for_this_sha_and_well_formed(world, repo, tmp_path):
    add_ready_card(repo)
    attempt, c, sha = claim_and_submit(repo, "T-1")
    rid = start_review(repo, world.sock, attempt).json["session"]
    report = tmp_path / "r.md"
    report.write_text(FAIL)
    verdict = ("review", "verdict", attempt, "--sha", sha, "--file", str(report), "--json")

    # The user, a worker, and a reviewer session nobody launched for this SHA.
    assert error_code(a2a(*verdict, cwd=repo)) == "role_forbidden"
    assert error_code(a2a_as(repo, "w9", "worker", *verdict)) == "role_forbidden"
    other = spawn(repo, world.sock, role="reviewer")["session"]
    assert error_code(give_verdict(repo, other, attempt, sha, FAIL)) == "review_not_started"
    # Another SHA than the candidate.
    assert error_code(give_verdict(repo, rid, attempt, c["start_commit"], FAIL)) == "stale_sha"
    # A malformed block, and evidence that is not in the candidate.
    bad = give_verdict(repo, rid, attempt, sha, FAIL.replace('"src/app.py:1"', '"src/app.py"'))
    assert error_code(bad) == "bad_verdict"
    assert "blocking_issues[0].evidence[0]" in json.loads(bad.out)["error"]["message"]
    ghost = give_verdict(repo, rid, attempt, sha, FAIL.replace("src/app.py:1", "src/nope.py:1"))
    assert error_code(ghost) == "bad_verdict"
    assert "no file src/nope.py" in json.loads(ghost.out)["error"]["message"]
    past_end = give_verdict(repo, rid, attempt, sha, FAIL.replace("src/app.py:1", "src/app.py:9"))
    assert "has 2 lines" in json.loads(past_end.out)["error"]["message"]
    assert reviews(repo) == []

    # A new submission: the reviewer launched for the first one is not fresh for it.
    sha2 = commit_in(Path(c["worktree"]), {"src/app.py": "def name(n):\n    return n or 1\n"})
    assert a2a("submit", attempt, "--sha", sha2, "--card-version", "1", "--fence",
               str(c["fence"]), cwd=repo).code == 0
    assert error_code(give_verdict(repo, rid, attempt, sha2, FAIL)) == "reviewer_not_fresh"
    assert error_code(give_verdict(repo, rid, attempt, sha, FAIL)) == "stale_sha"
    assert reviews(repo) == []

    # The reviewer launched for the new submission is heard, once.
    rid2 = start_review(repo, world.sock, attempt).json["session"]
    ok = give_verdict(repo, rid2, attempt, sha2, FAIL)
    assert ok.code == 0, ok.out + ok.err
    assert (ok.json["verdict"], ok.json["blocking_issues"]) == ("fail", ["B1"])
    assert reviews(repo) == [{"attempt_id": attempt, "sha": sha2, "session": rid2,
                              "verdict": "fail"}]
    assert rows(repo, "SELECT issue, title, evidence FROM review_issues") == [
        {"issue": "B1", "title": "Empty names are accepted", "evidence": '["src/app.py:1"]'}]
    assert error_code(give_verdict(repo, rid2, attempt, sha2, FAIL)) == "already_reviewed"
    assert len(reviews(repo)) == 1


def test_the_old_form_points_at_the_new_one(repo):
    r = a2a("review", "T-1-a1", "--sha", "0" * 40, "--verdict", "block", "--notes", "x",
            "--json", cwd=repo)
    assert r.code == 2
    err = json.loads(r.out)["error"]
    assert err["code"] == "usage"
    assert "a2a review verdict ATTEMPT --sha SHA --file REPORT.md" in err["message"]
