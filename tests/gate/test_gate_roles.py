"""Finding 5: who may run each gate command is one table, enforced and printed.

Before: any managed session that was not the writer could claim, integrate or abandon. Callers
are real processes registered as sessions (as `a2a spawn` registers a pane), so the role comes
from the process tree as in real use.
"""

from __future__ import annotations

from a2a_tui.gate.roles import ROLE_TABLE
from tests.gate.gate_support import SCORES, attempt_state, events, head
from tests.support import a2a, a2a_as, review_report


def _forbidden(run, command: str) -> str:
    assert run.code != 0, run.out
    err = run.json["error"]
    assert err["code"] == "role_forbidden", err
    assert "\n" not in err["message"] and command in err["message"]
    return err["message"]


def test_a_worker_that_is_not_the_writer_may_not_drive_the_gate(repo, verified):
    attempt, claim, sha = verified
    cases = [
        ("claim", ("claim", "T-1", "--supersede")),
        ("integrate", ("integrate", attempt, *SCORES)),
        ("abandon", ("abandon", attempt, *SCORES)),
        ("verify", ("verify", attempt)),
        ("reclaim", ("reclaim",)),
        ("card ready", ("card", "ready", "T-1")),
        ("submit", ("submit", attempt, "--sha", sha, "--card-version", "1", "--fence", "1")),
        ("resolve", ("resolve", attempt, "--as", "abandoned", "--reason", "x")),
        ("target adopt", ("target", "adopt", "main", "--reason", "x")),
    ]
    for n, (command, args) in enumerate(cases):
        msg = _forbidden(a2a_as(repo, f"w{n}", "worker", *args, "--json"), command)
        if command == "integrate":
            assert "the executive controller or the user" in msg
        if command == "submit":
            assert "writer" in msg
    # Nothing moved, nothing was claimed, and each refusal is on record with who tried.
    assert head(repo) == claim["start_commit"] and attempt_state(repo, attempt) == "verified"
    st = a2a("status", "--json", cwd=repo).json
    assert [a["id"] for a in st["attempts"]] == [attempt]
    seen = events(repo, "role_forbidden")
    assert [e["payload"]["command"] for e in seen] == [c for c, _ in cases]
    assert {e["payload"]["role"] for e in seen} == {"worker"}


def test_a_reviewer_reviews_and_nothing_else(repo, verified):
    attempt, claim, sha = verified
    _forbidden(a2a_as(repo, "r1", "reviewer", "integrate", attempt, *SCORES, "--json"),
               "integrate")
    _forbidden(a2a_as(repo, "r2", "reviewer", "verify", attempt, "--json"), "verify")
    # Nor does it start a review, dispose of an issue or approve.
    _forbidden(a2a_as(repo, "r3", "reviewer", "review", "start", attempt, "--cli", "demo",
                      "--json"), "review start")
    _forbidden(a2a_as(repo, "r4", "reviewer", "review", "dispose", attempt, "B1", "--reject",
                      "--reason", "x", "--json"), "review dispose")
    _forbidden(a2a_as(repo, "r5", "reviewer", "approve", attempt, "--json"), "approve")
    # The user and the other roles do not give a verdict.
    report = repo.parent / "report.md"
    report.write_text(review_report("pass"), encoding="utf-8")
    verdict = ("review", "verdict", attempt, "--sha", sha, "--file", str(report), "--json")
    _forbidden(a2a(*verdict, cwd=repo), "review verdict")
    _forbidden(a2a_as(repo, "e0", "executive", *verdict), "review verdict")


def test_the_executive_controller_verifies_and_integrates(repo, verified):
    attempt, claim, sha = verified
    ver = a2a_as(repo, "e1", "executive", "verify", attempt, "--json")
    assert ver.code == 0 and ver.json["passed"], ver.out + ver.err
    done = a2a_as(repo, "e2", "executive", "integrate", attempt, *SCORES, "--json")
    assert done.code == 0, done.out + done.err
    assert head(repo) == sha
    # The user-only commands stay the user's, for the executive controller too.
    _forbidden(a2a_as(repo, "e3", "executive", "target", "restore", "main", "--reason", "x",
                      "--json"), "target restore")
    assert events(repo, "role_forbidden")[-1]["payload"]["role"] == "executive"


def test_rules_prints_the_whole_table(repo):
    r = a2a("rules", "--json", cwd=repo)
    assert r.code == 0, r.out + r.err
    table = {row["command"]: row["who"] for row in r.json["gate_roles"]}
    assert set(table) == set(ROLE_TABLE)
    assert table["resolve"] == ["user"]
    assert set(table["integrate"]) == {"executive", "user"}
    assert set(r.json["roles"]) == {"ideation", "executive", "worker", "reviewer"}
    assert "claim" in r.json["commands"]
    text = a2a("rules", cwd=repo).out
    for command in ROLE_TABLE:
        assert command in text
    # A command's own rules say who may run it.
    claim = a2a("rules", "claim", "--json", cwd=repo).json["rules"]
    assert any("executive controller or the user" in line for line in claim)
