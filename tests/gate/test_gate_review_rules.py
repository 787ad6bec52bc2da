"""What a review decides: a card with `review = "required"` integrates only after an accepted
review of its current SHA (a pass, or a fail whose every blocking issue was rejected or
deferred); an accepted issue means that SHA cannot integrate; a fail blocks any card until its
issues are disposed; the user may override; follow-up rounds are bounded.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.gate.review_support import PASS, REQUIRED, TWO, Attempt
from tests.support import (
    a2a,
    a2a_as,
    add_ready_card,
    dispatch,
    error_code,
    git,
    give_verdict,
    review_report,
    rows,
    start_review,
)


def test_a_required_review_blocks_until_every_issue_is_rejected_or_deferred(world, repo):
    add_ready_card(repo, extra=REQUIRED)
    a = Attempt(world, repo)
    a.submit()
    start = git(repo, "rev-parse", "main")
    assert error_code(a.integrate()) == "review_required"
    a.review(TWO)
    r = a.integrate()
    assert error_code(r) == "review_undisposed"
    assert "B1, B2" in r.json["error"]["message"]
    # Only the executive controller or the user disposes, and a rejection needs a reason.
    assert error_code(a.dispose("B1", "reject", "not a bug", as_=("w7", "worker"))) == \
        "role_forbidden"
    assert error_code(a.dispose("B1", "reject", "")) == "reason_required"
    assert error_code(a.dispose("B9", "reject", "x")) == "unknown_issue"
    ok = a.dispose("B1", "reject", "empty names are refused upstream", as_=("exec1", "executive"))
    assert ok.code == 0, ok.out + ok.err
    assert "B2" in a.integrate().json["error"]["message"]
    shown = a2a("review", "show", a.id, "--json", cwd=repo).json
    assert [(i["id"], i["decision"], i["by"]) for i in shown["issues"]] == [
        ("B1", "reject", "session:exec1"), ("B2", None, None)]
    assert shown["blocked"][0] == "review_undisposed" and shown["review_required"] is True
    assert [(r["round"], r["state"], r["verdict"]) for r in shown["runs"]] == [(0, "reported",
                                                                                "fail")]
    text = a2a("review", "show", a.id, cwd=repo).out
    assert "issue B2: not disposed of" in text and "integrate: review_undisposed" in text
    assert a.dispose("B2", "defer", "tracked as GH-13").code == 0
    # The user's disposition is a user input; the controller's is not.
    assert rows(repo, "SELECT issue, decision, actor, user_input IS NOT NULL AS by_user"
                      " FROM review_dispositions ORDER BY seq") == [
        {"issue": "B1", "decision": "reject", "actor": "session:exec1", "by_user": 0},
        {"issue": "B2", "decision": "defer", "actor": "user", "by_user": 1}]
    assert git(repo, "rev-parse", "main") == start
    r = a.integrate()
    assert r.code == 0, r.out
    assert git(repo, "rev-parse", "main") == a.sha


def test_an_accepted_issue_goes_to_the_worker_and_only_a_new_sha_can_pass(world, repo):
    add_ready_card(repo, extra=REQUIRED)
    a = Attempt(world, repo, writer="w1")
    a.submit()
    first = a.review(TWO)
    assert a.dispose("B1", "accept").code == 0
    assert a.dispose("B2", "reject", "covered by B1").code == 0
    assert error_code(a.integrate()) == "review_issue_accepted"
    # The accepted issue is queued to the writer's pane, marked as the gate's.
    sent = rows(repo, "SELECT n FROM dispatches WHERE session='w1'")
    text = dispatch(repo, sent[-1]["n"])["text"]
    assert text.startswith("⟦门禁 #") and "B1" in text and "Empty names are accepted" in text
    assert "src/app.py:1" in text and f"a2a submit {a.id}" in text
    # A new submission: the old review says nothing about it.
    a.submit()
    assert error_code(a.integrate()) == "review_required"
    # The follow-up re-reads the files and is told where the earlier report is.
    follow = start_review(repo, world.sock, a.id).json
    assert follow["round"] == 1
    queued = rows(repo, "SELECT text FROM dispatches WHERE session=?", (follow["session"],))
    prompt = queued[0]["text"]
    assert "follow-up round 1" in prompt and "Re-read the files" in prompt
    assert str(repo / ".a2a" / "reviews" / f"{a.id}-s1.md") in prompt
    assert first["session"] != follow["session"]
    assert "B1" in prompt   # the earlier blocking issues, to check again
    r = give_verdict(repo, follow["session"], a.id, a.sha, PASS)
    assert r.code == 0, r.out
    r = a.integrate()
    assert r.code == 0, r.out


def test_a_fail_blocks_any_card_and_the_user_may_override_it_and_reclaim_cleans_up(world, repo):
    add_ready_card(repo)          # review not required
    a = Attempt(world, repo)
    a.submit()
    a.review(TWO)
    assert error_code(a.integrate()) == "review_undisposed"
    r = a2a_as(repo, "exec9", "executive", "review", "override", a.id, "--reason", "ship it",
               "--json")
    assert error_code(r) == "role_forbidden"
    assert error_code(a2a("review", "override", a.id, "--reason", " ", "--json",
                          cwd=repo)) == "reason_required"
    r = a2a("review", "override", a.id, "--reason", "the user read B1 and B2: not blocking",
            "--json", cwd=repo)
    assert r.code == 0, r.out
    assert rows(repo, "SELECT kind, text FROM user_inputs") == [
        {"kind": "action", "text": f"override the review of {a.id} at {a.sha}: the user read"
                                   " B1 and B2: not blocking"}]
    r = a.integrate()
    assert r.code == 0, r.out
    # Reclaim takes the read-only checkout the review was given, too.
    checkout = Path(rows(repo, "SELECT checkout FROM review_runs")[0]["checkout"])
    assert checkout.is_dir() and str(checkout) in git(repo, "worktree", "list")
    r = a2a("reclaim", "--json", cwd=repo)
    assert r.json["reclaimed"][0]["review_checkouts"] == [
        {"checkout": str(checkout), "state": "removed"}]
    assert not checkout.exists() and str(checkout) not in git(repo, "worktree", "list")


def test_a_third_follow_up_round_is_refused(world, repo):
    add_ready_card(repo)
    a = Attempt(world, repo)
    one = review_report("fail", issues=[("B1", "still wrong", ["src/app.py:1"])],
                        follow_up=True)
    for round_ in range(3):           # the first review, then follow-ups 1 and 2
        a.submit(verify=False)
        assert a.review(one)["round"] == round_
    # The same SHA gets no second review, whatever its verdict was.
    r = start_review(repo, world.sock, a.id, check=False)
    assert error_code(r) == "already_reviewed"
    a.submit(verify=False)
    r = start_review(repo, world.sock, a.id, check=False)
    assert error_code(r) == "review_rounds_exhausted"
    assert "2 follow-up rounds" in r.json["error"]["message"]
    before = rows(repo, "SELECT COUNT(*) AS n FROM sessions")[0]["n"]
    # The gate rules may allow more (review_follow_up_rounds in .a2a/gate.toml).
    (repo / ".a2a" / "gate.toml").write_text("review_follow_up_rounds = 3\n")
    r = start_review(repo, world.sock, a.id, check=False)   # not in force until accepted
    assert error_code(r) == "review_rounds_exhausted"
    assert a2a("gate-rules", "accept", cwd=repo).code == 0
    assert start_review(repo, world.sock, a.id).json["round"] == 3
    assert rows(repo, "SELECT COUNT(*) AS n FROM sessions")[0]["n"] == before + 1
    (repo / ".a2a" / "gate.toml").write_text("review_follow_up_rounds = -1\n")
    r = a2a("gate-rules", "accept", "--json", cwd=repo)
    assert r.json["error"]["code"] == "bad_gate_rules"
    assert json.loads(rows(repo, "SELECT payload FROM events WHERE kind='review_started'"
                                 " ORDER BY seq DESC LIMIT 1")[0]["payload"])["round"] == 3
