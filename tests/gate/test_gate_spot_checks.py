"""Rule 7 (seed 004 5.4, "人工抽检"): every Nth integration (gate.toml `spot_check_every`, the
user's) a board item asks the user to re-check one of the last N integrated attempts; the user
answers ok or flags it, and flagged ones are a metric."""

from __future__ import annotations

from tests.scenarios.flows import card, claim, error_code, integrate, submit, verify, worktree
from tests.support import a2a, a2a_as, commit_in, events, rows


def integrated(repo, card_id: str, n: int) -> str:
    card(repo, card_id)
    c = claim(repo, card_id)
    sha = commit_in(worktree(repo, c), {f"src/m{n}.py": f"v = {n}\n"})
    assert submit(repo, c, sha).code == 0 and verify(repo, c["attempt"]).json["passed"]
    assert integrate(repo, c["attempt"]).code == 0
    return c["attempt"]


def test_every_nth_integration_asks_for_a_spot_check_and_flags_are_counted(repo):
    (repo / ".a2a/gate.toml").write_text("spot_check_every = 2\n")
    assert a2a("gate-rules", "accept", cwd=repo).code == 0
    first = integrated(repo, "T-1", 1)
    assert not events(repo, "spot_check_requested")
    second = integrated(repo, "T-2", 2)
    (asked,) = events(repo, "spot_check_requested")
    aid = asked.attempt
    assert aid in (first, second) and asked.payload["integration"] == 2
    (item,) = rows(repo, "SELECT * FROM board_items WHERE id = ?", (asked.payload["item"],))
    assert aid in item["title"] and f"a2a diff {aid}" in item["body"] and item["protected"]
    r = a2a_as(repo, "x1", "executive", "spot-check", aid, "--ok", "--json")
    assert error_code(r) == "role_forbidden"
    assert error_code(a2a("spot-check", aid, "--flag", "--json", cwd=repo)) == "usage"
    r = a2a("spot-check", aid, "--flag", "--reason", "the test asserts nothing", "--json",
            cwd=repo)
    assert r.code == 0 and r.json["verdict"] == "flagged", r.out
    assert events(repo, "board_item_closed")[-1].payload["id"] == item["id"]
    sp = a2a("metrics", "first-pass", "--json", cwd=repo).json["first_pass"]["spot_checks"]
    assert (sp["asked"], sp["answered"], sp["flagged"]) == (1, 1, 1)
    assert error_code(a2a("spot-check", aid, "--ok", "--json", cwd=repo)) == "no_spot_check"
