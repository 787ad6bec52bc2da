"""Finding 2: the gate keeps its own view of each target and sees every move it did not make.

Before: integrate only checked that main's current head was an ancestor of the candidate, so
main moved to an intermediate commit of the candidate, or rewound under a later attempt, was
integrated over with no record that main had ever left the gate's last advance.
"""

from __future__ import annotations

from tests.gate.gate_support import SCORES, attempt_state, events, head
from tests.support import a2a, a2a_as, commit_in, git, write_card


def _verified(repo, card_id: str, files_list: list[dict[str, str]]) -> tuple[str, dict, list]:
    """Add and ready `card_id`, claim it, commit each of `files_list`, submit the last, verify."""
    if a2a("card", "show", card_id, cwd=repo).code != 0:
        assert a2a("card", "add", str(write_card(repo, card_id)), cwd=repo).code == 0
        assert a2a("card", "ready", card_id, cwd=repo).code == 0
    c = a2a("claim", card_id, "--json", cwd=repo).json
    wt = repo / ".a2a/worktrees" / c["attempt"]
    shas = [commit_in(wt, files, f"part {i}") for i, files in enumerate(files_list)]
    assert a2a("submit", c["attempt"], "--sha", shas[-1], "--card-version", "1", "--fence",
               str(c["fence"]), cwd=repo).code == 0
    v = a2a("verify", c["attempt"], "--json", cwd=repo)
    assert v.code == 0 and v.json["passed"], v.out
    return c["attempt"], c, shas


def test_main_moved_to_an_intermediate_commit_of_the_candidate(repo, ready_card):
    attempt, claim, (first, second) = _verified(
        repo, ready_card, [{"src/a.py": "half\n"}, {"src/a.py": "whole\n"}])
    start = claim["start_commit"]
    # Someone with a shell fast-forwards main to the first half: never gated.
    git(repo, "merge", "-q", "--ff-only", first)
    r = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert r.code != 0 and r.json["error"]["code"] == "target_diverged", r.out
    msg = r.json["error"]["message"]
    assert start[:12] in msg and first[:12] in msg and "a2a target adopt main" in msg
    assert head(repo) == first and attempt_state(repo, attempt) == "verified"
    div = events(repo, "target_diverged")
    assert len(div) == 1
    p = div[0]["payload"]
    assert (p["target"], p["expected"], p["observed"]) == ("main", start, first)
    assert any(line.startswith(first) and "merge" in line for line in p["reflog"]), p["reflog"]
    refused = events(repo, "integrate_refused")[-1]["payload"]
    assert refused["code"] == "target_diverged" and refused["observed"] == first
    assert "integration_intent" not in [e["kind"] for e in events(repo)]
    # A protected board item: a controller cannot close it.
    item = next(i for i in a2a("board", "list", "--json", cwd=repo).json["items"]
                if "main" in i["title"])
    assert item["protected"]
    exe = a2a_as(repo, "e1", "executive", "board", "close", item["id"], "--reason", "fine",
                 "--json")
    assert exe.json["error"]["code"] == "protected_item"
    # Asking again refuses again, without a second record of the same divergence.
    assert a2a("integrate", attempt, *SCORES, "--json", cwd=repo).json["error"]["code"] == \
        "target_diverged"
    assert len(events(repo, "target_diverged")) == 1
    # The user decides: the new head becomes the gate's baseline; then the candidate lands.
    ad = a2a("target", "adopt", "main", "--reason", "I merged the first half myself", "--json",
             cwd=repo)
    assert ad.code == 0, ad.out + ad.err
    p = events(repo, "target_adopted")[-1]["payload"]
    assert (p["target"], p["previous"], p["head"]) == ("main", start, first)
    assert p["user_input"].startswith("U-")
    board = a2a("board", "show", item["id"], "--json", cwd=repo).json
    assert board["status"] == "closed"
    ok = a2a("integrate", attempt, *SCORES, "--json", cwd=repo)
    assert ok.code == 0, ok.out
    assert head(repo) == second


def _rewound_under_a_later_attempt(repo, verified):
    """T-1 integrated (main at s1); T-2 claimed from s1 and verified; then main rewound."""
    attempt1, claim1, s1 = verified
    assert a2a("integrate", attempt1, *SCORES, cwd=repo).code == 0
    attempt2, claim2, shas = _verified(repo, "T-2", [{"src/b.py": "b\n"}])
    assert claim2["start_commit"] == s1
    git(repo, "reset", "-q", "--hard", claim1["start_commit"])  # T-1's commit is undone
    return attempt2, claim1["start_commit"], s1, shas[-1]


def test_a_rewind_is_seen_and_restore_moves_main_back(repo, verified):
    attempt2, start, s1, s2 = _rewound_under_a_later_attempt(repo, verified)
    r = a2a("integrate", attempt2, *SCORES, "--json", cwd=repo)
    assert r.json["error"]["code"] == "target_diverged"
    assert head(repo) == start
    # A claim from a head the gate never recorded is refused as well.
    assert a2a("card", "add", str(write_card(repo, "T-3")), cwd=repo).code == 0
    assert a2a("card", "ready", "T-3", cwd=repo).code == 0
    assert a2a("claim", "T-3", "--json", cwd=repo).json["error"]["code"] == "target_diverged"
    res = a2a("target", "restore", "main", "--reason", "the reset was a mistake", "--json",
              cwd=repo)
    assert res.code == 0, res.out + res.err
    assert head(repo) == s1
    assert git(repo, "status", "--porcelain", "--untracked-files=no") == ""  # worktree too
    p = events(repo, "target_restored")[-1]["payload"]
    assert (p["target"], p["from"], p["head"]) == ("main", start, s1)
    ok = a2a("integrate", attempt2, *SCORES, "--json", cwd=repo)
    assert ok.code == 0, ok.out
    assert head(repo) == s2


def test_an_adopted_rewind_never_brings_the_undone_commit_back(repo, verified):
    attempt2, start, s1, s2 = _rewound_under_a_later_attempt(repo, verified)
    assert a2a("target", "adopt", "main", "--reason", "T-1 had to go", cwd=repo).code == 0
    r = a2a("integrate", attempt2, *SCORES, "--json", cwd=repo)
    # T-2 started from s1, which main no longer contains: landing it would bring s1 back.
    assert r.code != 0 and r.json["error"]["code"] == "target_moved", r.out
    assert s1[:12] in r.json["error"]["message"]
    assert head(repo) == start


def test_before_the_first_advance_the_head_seen_at_init_is_the_baseline(repo, ready_card):
    init_head = head(repo)
    moved = commit_in(repo, {"README.md": "straight onto main\n"}, "by hand")
    r = a2a("claim", ready_card, "--json", cwd=repo)
    assert r.code != 0 and r.json["error"]["code"] == "target_diverged"
    p = events(repo, "target_diverged")[-1]["payload"]
    assert (p["expected"], p["observed"]) == (init_head, moved)
    shown = a2a("target", "show", "main", "--json", cwd=repo).json
    assert shown["baseline"] == init_head and shown["head"] == moved and shown["diverged"]


def test_a_move_by_the_gate_itself_is_not_a_divergence(repo, verified):
    """Two attempts from one head: after the first lands, the second is `target_moved` (the
    candidate lacks the new head), never `target_diverged`."""
    attempt1, claim1, s1 = verified
    attempt2, claim2, _ = _verified(repo, "T-2", [{"src/b.py": "b\n"}])
    assert a2a("integrate", attempt1, *SCORES, cwd=repo).code == 0
    r = a2a("integrate", attempt2, *SCORES, "--json", cwd=repo)
    assert r.json["error"]["code"] == "target_moved"
    assert events(repo, "target_diverged") == []


def test_a_store_from_before_the_record_takes_its_last_advance_from_the_log(repo, verified):
    """A store migrated to 0003 has an empty `gate_targets`: the first look seeds it from the
    last `integrated` event of that branch, so a move made since is still seen."""
    import sqlite3

    attempt, claim, s1 = verified
    assert a2a("integrate", attempt, *SCORES, cwd=repo).code == 0
    conn = sqlite3.connect(repo / ".a2a/a2a.db")
    with conn:
        conn.execute("DELETE FROM gate_targets")  # as the migration leaves an older store
    conn.close()
    git(repo, "reset", "-q", "--hard", claim["start_commit"])
    assert a2a("card", "add", str(write_card(repo, "T-2")), cwd=repo).code == 0
    assert a2a("card", "ready", "T-2", cwd=repo).code == 0
    r = a2a("claim", "T-2", "--json", cwd=repo)
    assert r.json["error"]["code"] == "target_diverged"
    seeded = events(repo, "target_observed")[-1]["payload"]
    assert (seeded["head"], seeded["source"]) == (s1, "integrated")
    assert events(repo, "target_diverged")[-1]["payload"]["expected"] == s1
