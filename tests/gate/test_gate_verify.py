"""The verify chain: clean checkout of the exact SHA, timeouts that kill the whole group,
boundary, drift, provenance and red state."""

from __future__ import annotations

import time
from pathlib import Path

from tests.gate.verify_support import PY, carrying
from tests.support import a2a, commit_in, git, wait_until, write_card


def _claim(repo, card_text_extra="", check="true", card_id="T-1", mutate=None):
    card = write_card(repo, card_id=card_id, check=check, extra=card_text_extra)
    if mutate:
        card.write_text(mutate(card.read_text()))
    assert a2a("card", "add", str(card), cwd=repo).code == 0
    assert a2a("card", "ready", card_id, cwd=repo).code == 0
    c = a2a("claim", card_id, "--json", cwd=repo).json
    return c, repo / ".a2a/worktrees" / c["attempt"]


def _submit_verify(repo, c, sha):
    r = a2a("submit", c["attempt"], "--sha", sha, "--card-version", str(c["card_version"]),
            "--fence", str(c["fence"]), cwd=repo)
    assert r.code == 0, r.err
    return a2a("verify", c["attempt"], "--json", cwd=repo)


def _check(v, name):
    return next(ch for ch in v.json["checks"] if ch["name"] == name)


def test_checks_run_on_a_clean_checkout_of_exactly_the_sha(repo):
    c, wt = _claim(repo, check="git rev-parse HEAD && test ! -e scratch.txt && "
                               "python3 -c \"import ast; ast.parse(open('src/app.py').read())\"")
    sha = commit_in(wt, {"src/app.py": "a = 1\n"})
    # Uncommitted junk in the live worktree must not be visible to the checks.
    (wt / "scratch.txt").write_text("live worktree only\n")
    (wt / "src/app.py").write_text("broken(\n")
    v = _submit_verify(repo, c, sha)
    assert v.json["passed"], v.out
    tests = _check(v, "tests")
    assert tests["stdout_tail"].strip() == sha
    log = open(tests["log"]).read()
    cwd = Path(log.split("# cwd ")[1].splitlines()[0])
    assert not cwd.is_relative_to(repo)   # outside the repository, never the live worktree
    # The throwaway checkout is gone afterwards.
    assert not cwd.exists()
    # main alone: the attempt works in a clone of its own, and verify adds no worktree
    assert len(git(repo, "worktree", "list").splitlines()) == 1


def test_timeout_kills_the_whole_process_group(repo, tmp_path):
    token = f"a2a-bg-{tmp_path.name}"
    card_check = f"{PY} -c 'import time; time.sleep(60)' {token} & sleep 60"
    c, wt = _claim(repo, check=card_check, mutate=lambda t: t.replace("timeout_s = 60",
                                                                      "timeout_s = 1"))
    sha = commit_in(wt, {"src/app.py": "a = 2\n"})
    t0 = time.monotonic()
    v = _submit_verify(repo, c, sha)
    assert time.monotonic() - t0 < 30
    tests = _check(v, "tests")
    assert tests["passed"] is False and tests["exit_code"] is None
    assert "timed out" in tests["detail"]
    wait_until(lambda: not carrying(token), timeout=5,
               what="the background child of the timed-out check to die")


def test_boundary_violation_rejects(repo):
    c, wt = _claim(repo)
    sha = commit_in(wt, {"src/app.py": "ok\n", "docs/outside.md": "not allowed\n"})
    v = _submit_verify(repo, c, sha)
    assert v.code == 1 and not v.json["passed"]
    b = _check(v, "boundary")
    assert not b["passed"] and "docs/outside.md" in b["detail"]
    assert _check(v, "tests")["skipped"] is True


def test_edit_of_pinned_acceptance_file_rejects(repo):
    c, wt = _claim(repo, card_text_extra='acceptance_files = ["tests/test_names.py"]\n')
    sha = commit_in(wt, {"tests/test_names.py": "def test(): assert True\n"})
    v = _submit_verify(repo, c, sha)
    assert not v.json["passed"]
    assert not _check(v, "drift")["passed"]


def test_provenance_foreign_trailer_rejects_and_no_trailer_is_human(repo):
    c, wt = _claim(repo)
    commit_in(wt, {"src/a.py": "1\n"}, "by hand")
    (wt / "src/b.py").write_text("2\n")
    git(wt, "add", "-A")
    git(wt, "commit", "-q", "-m", "agent work\n\nA2A-Attempt: T-7-a1")
    sha = git(wt, "rev-parse", "HEAD")
    v = _submit_verify(repo, c, sha)
    p = _check(v, "provenance")
    assert not p["passed"] and "T-7-a1" in p["detail"]
    human = [e for e in a2a("events", "--json", cwd=repo).json if e["kind"] == "human_intervention"]
    assert len(human) == 1 and human[0]["attempt"] == c["attempt"]


def test_own_trailers_pass_provenance(repo):
    c, wt = _claim(repo)
    (wt / "src/a.py").write_text("1\n")
    git(wt, "add", "-A")
    git(wt, "commit", "-q", "-m", f"agent work\n\nA2A-Attempt: {c['attempt']}")
    v = _submit_verify(repo, c, git(wt, "rev-parse", "HEAD"))
    assert _check(v, "provenance")["passed"]
    assert not [e for e in a2a("events", "--json", cwd=repo).json
                if e["kind"] == "human_intervention"]


# The red command runs a test the worker writes: the card declares it.
RED = 'red_command = "sh tests/check_names.sh"\nartifacts = ["tests/check_names.sh"]\n'


def test_red_state_new_test_must_fail_before_and_pass_after(repo):
    c, wt = _claim(repo, card_text_extra=RED)
    test = "grep -q 'empty' src/app.py\n"
    sha = commit_in(wt, {"tests/check_names.sh": test,
                         "src/app.py": "def name(n):\n    assert n, 'empty'\n    return n\n"})
    v = _submit_verify(repo, c, sha)
    assert v.json["passed"], v.out
    assert _check(v, "red")["passed"]


def test_red_state_test_that_passes_before_the_fix_rejects(repo):
    c, wt = _claim(repo, card_text_extra=RED)
    sha = commit_in(wt, {"tests/check_names.sh": "true\n", "src/app.py": "x = 1\n"})
    v = _submit_verify(repo, c, sha)
    assert not v.json["passed"]
    red = _check(v, "red")
    assert not red["passed"] and "start commit" in red["detail"]


def test_crash_during_verify_is_resolved_as_interrupted(repo):
    c, wt = _claim(repo)
    sha = commit_in(wt, {"src/app.py": "q = 1\n"})
    a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence", "1", cwd=repo)
    r = a2a("verify", c["attempt"], cwd=repo, env={"A2A_CRASH_AT": "verify:started"})
    assert r.code == -9
    st = a2a("status", "--json", cwd=repo).json
    assert st["recovered"][0] == {"kind": "verification", "attempt": c["attempt"], "run": 1,
                                  "state": "interrupted"}
    assert st["attempts"][0]["state"] == "submitted"
    again = a2a("verify", c["attempt"], "--json", cwd=repo)
    assert again.code == 0 and again.json["run"] == 2
