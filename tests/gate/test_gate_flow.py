"""The whole gate flow, driven through the real CLI in a real temporary git repository."""

from __future__ import annotations

from tests.support import a2a, commit_in, git, write_card

CHECKS_TWO = '''
[[checks]]
name = "lint"
command = "exit 3"
blocking = false
timeout_s = 30
'''


def test_whole_flow(repo):
    # A card with a blocking check that passes only on the exact submitted tree, and a
    # non-blocking check that fails.
    card = write_card(repo, check="grep -q empty src/app.py", extra="")
    card.write_text(card.read_text() + CHECKS_TWO)
    assert a2a("card", "add", str(card), cwd=repo).code == 0
    assert a2a("card", "ready", "T-1", cwd=repo).code == 0

    claim = a2a("claim", "T-1", "--json", cwd=repo)
    assert claim.code == 0, claim.err
    c = claim.json
    for key in ("attempt", "fence", "branch", "worktree", "start_commit", "card_version"):
        assert key in c
    assert c["attempt"] == "T-1-a1" and c["fence"] == 1 and c["branch"] == "a2a/T-1-a1"
    assert c["start_commit"] == git(repo, "rev-parse", "main")
    wt = repo / ".a2a" / "worktrees" / "T-1-a1"
    assert c["worktree"] == str(wt) and wt.is_dir()
    assert git(wt, "rev-parse", "--abbrev-ref", "HEAD") == "a2a/T-1-a1"

    sha = commit_in(wt, {"src/app.py": "def name(n):\n    if not n: raise ValueError('empty')\n"
                                       "    return n\n"})

    stale = a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence", "0",
                "--json", cwd=repo)
    assert stale.code != 0 and stale.json["error"]["code"] == "stale_fence"
    events = a2a("events", "--json", cwd=repo).json
    assert events[-1]["kind"] == "submit_refused"
    assert a2a("status", "--json", cwd=repo).json["attempts"][0]["state"] == "claimed"

    sub = a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence", "1", "--json",
              cwd=repo)
    assert sub.code == 0, sub.out
    assert sub.json["sha"] == sha

    ver = a2a("verify", "T-1-a1", "--json", cwd=repo)
    assert ver.code == 0, ver.out
    v = ver.json
    assert v["passed"] is True
    by_name = {ch["name"]: ch for ch in v["checks"]}
    assert by_name["tests"]["passed"] is True and by_name["tests"]["exit_code"] == 0
    assert by_name["lint"]["passed"] is False and by_name["lint"]["exit_code"] == 3
    for ch in v["checks"]:
        assert {"name", "passed", "exit_code", "duration_s"} <= ch.keys()

    no_scores = a2a("integrate", "T-1-a1", "--json", cwd=repo)
    assert no_scores.code != 0 and no_scores.json["error"]["code"] == "scores_required"
    assert git(repo, "rev-parse", "main") == c["start_commit"]
    one_score = a2a("integrate", "T-1-a1", "--score", "boundary=3:stayed in src", "--json",
                    cwd=repo)
    assert one_score.json["error"]["code"] == "scores_required"
    bad = a2a("integrate", "T-1-a1", "--score", "boundary=4:x", "--score", "taste=1:y", "--json",
              cwd=repo)
    assert bad.json["error"]["code"] == "bad_score"

    ok = a2a("integrate", "T-1-a1", "--score", 'boundary=3:"stayed in src"',
             "--score", 'taste=2:"small and clear"', "--json", cwd=repo)
    assert ok.code == 0, ok.out
    assert git(repo, "rev-parse", "main") == sha
    # main is checked out and was clean: the worktree shows the new tree.
    assert "empty" in (repo / "src" / "app.py").read_text()
    assert git(repo, "status", "--porcelain", "--untracked-files=no") == ""

    rec = a2a("reclaim", "--json", cwd=repo)
    assert rec.code == 0
    assert rec.json["reclaimed"][0]["worktree_state"] == "removed"
    assert not wt.exists()
    assert git(repo, "rev-parse", "refs/a2a/attempts/T-1-a1") == sha
    assert "a2a/T-1-a1" not in git(repo, "branch", "--list")

    kinds = [e["kind"] for e in a2a("events", "--json", cwd=repo).json]
    for k in ("card_added", "card_ready", "claimed", "worktree_created", "submit_refused",
              "submitted", "verify_started", "check_result", "verified", "integration_intent",
              "integrated", "worktree_removed"):
        assert k in kinds, k
    assert kinds.index("integration_intent") < kinds.index("integrated")


def test_failing_blocking_check_rejects(repo):
    card = write_card(repo, check="echo boom >&2; exit 7")
    a2a("card", "add", str(card), cwd=repo)
    a2a("card", "ready", "T-1", cwd=repo)
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees/T-1-a1", {"src/app.py": "x = 1\n"})
    a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence", str(c["fence"]),
        cwd=repo)
    v = a2a("verify", "T-1-a1", "--json", cwd=repo)
    assert v.code == 1
    assert v.json["passed"] is False
    tests = next(ch for ch in v.json["checks"] if ch["name"] == "tests")
    assert tests["exit_code"] == 7 and "boom" in tests["stderr_tail"]
    refused = a2a("integrate", "T-1-a1", "--score", "boundary=3:a", "--score", "taste=3:b",
                  "--json", cwd=repo)
    assert refused.json["error"]["code"] == "not_verified"
    assert git(repo, "rev-parse", "main") == c["start_commit"]
    st = a2a("status", "--json", cwd=repo).json
    assert st["attempts"][0]["state"] == "rejected" and st["attempts"][0]["rejections"] == 1
