"""The gate's git obeys nothing an agent could have written into the repository: hooks,
`core.fsmonitor`, filters named by attributes, diff drivers, textconv, external diff, includes,
aliases, credential helpers, gpg, replace refs. A hostile agent plants each (tests/gate/hostile.py)
from its worktree (worktrees share `.git/config`, `.git/hooks` and `.git/info`); none runs
during `a2a verify`, `claim`, `integrate`, `reclaim` or the workbench's diff, and a commit whose
tests fail never passes.
"""

from __future__ import annotations

import pytest

from a2a_tui.gate.reviews.diff import attempt_diff
from a2a_tui.repo import Repo
from a2a_tui.store import Store
from tests.gate.hostile import plant as plant_all
from tests.gate.hostile import ran_programs, unplant
from tests.gate.verify_support import PYTEST, PYTEST_FILES, claim, result, submit, verify
from tests.support import a2a, commit_in, git, make_repo

SCORES = ("--score", "boundary=3:in bounds", "--score", "taste=2:fine")
FAILING = {"tests/test_names.py": "def test_a_failure():\n    assert False, 'it fails'\n"}
# Files each planted driver applies to (.git/info/attributes: * evil, *.py a=b, *.md incl,
# *.txt proc).
EXTRA = {"setup.cfg": "[x]\n", "notes.txt": "n\n", "NOTES.md": "m\n"}


def _repo(tmp_path):
    repo = make_repo(tmp_path / "repo", {**PYTEST_FILES, **EXTRA})
    assert a2a("init", cwd=repo).code == 0
    return repo


def test_the_plants_run_under_plain_git(tmp_path):
    # The plants work: the user's own git runs each of them.
    repo = _repo(tmp_path)
    ran = tmp_path / "ran"
    markers = plant_all(repo, ran)
    base = git(repo, "rev-parse", "HEAD")
    import tests.gate.hostile as h

    h.git(repo, "status")
    h.git(repo, "worktree", "add", "-q", "--detach", str(tmp_path / "wt"), "HEAD")
    h.git(repo, "update-ref", "refs/planted/x", "HEAD")
    (repo / "setup.cfg").write_text("[y]\n")
    (repo / "NOTES.md").write_text("changed\n")
    h.git(repo, "-c", "commit.gpgSign=true", "commit", "-q", "-am", "signed")
    h.git(repo, "diff", base, "HEAD")
    h.git(repo, "diff", "--no-ext-diff", base, "HEAD")   # textconv, when no external diff
    h.git(repo, "log", "-1", "--format=%B", "HEAD")
    h.git(repo, "st", check=False)
    seen = set(ran_programs(ran))
    live = {"fsmonitor", "hook-post-checkout", "hook-reference-transaction", "filter-smudge",
            "filter-eq-smudge", "include-filter-smudge", "filter-process", "diff-external",
            "diff-textconv", "includeif-textconv", "gpg", "alias-st", "hook-pre-commit",
            "hook-post-commit", "filter-clean"}
    assert {f"{n}.ran" for n in live} <= seen, sorted(live - {s[:-4] for s in seen})
    assert set(markers) >= live


@pytest.mark.parametrize("hooks_path", [False, True], ids=["dot-git-hooks", "core-hooksPath"])
def test_a_failing_commit_never_passes_and_nothing_planted_runs_in_verify(tmp_path, hooks_path):
    repo = _repo(tmp_path)
    c, wt = claim(repo, PYTEST)
    sha = commit_in(wt, FAILING, "tests that fail")
    submit(repo, c, sha)
    ran = tmp_path / "ran"
    plant_all(repo, ran, hooks_path=hooks_path)
    v = verify(repo, c["attempt"])
    assert v.json["verdict"] == "rejected", v.out
    tests = result(v, "tests")
    assert not tests["passed"] and "test_a_failure" in tests["stdout_tail"], tests
    assert ran_programs(ran) == [], "planted programs ran during `a2a verify`"


def test_claim_integrate_reclaim_and_the_diff_run_nothing_planted(tmp_path):
    repo = _repo(tmp_path)
    ran = tmp_path / "ran"
    r = a2a("card", "add", str(_card(repo)), cwd=repo)
    assert r.code == 0, r.err
    assert a2a("card", "ready", "T-1", cwd=repo).code == 0
    plant_all(repo, ran)
    c = a2a("claim", "T-1", "--json", cwd=repo)
    assert c.code == 0, c.out + c.err
    c = c.json
    assert ran_programs(ran) == [], "planted programs ran during `a2a claim`"
    wt = repo / ".a2a/worktrees" / c["attempt"]
    assert (wt / "src/names.py").read_text().startswith("def name")   # checked out in full
    unplant(repo)                       # the worker's own commit (its hooks are its business)
    sha = commit_in(wt, {"src/names.py": "def name(n):\n    return n\n\n\ndef shout(n):\n"
                                         "    return n.upper() + ''\n",
                         "NOTES.md": "m2\n", "setup.cfg": "[z]\n"})
    submit(repo, c, sha)
    v = verify(repo, c["attempt"])
    assert v.json["verdict"] == "passed", v.out
    plant_all(repo, ran)
    with Store(repo / ".a2a/a2a.db") as store:
        d = attempt_diff(Repo(repo), store, c["attempt"])
    assert any(line.path == "setup.cfg" for line in d.lines)
    assert ran_programs(ran) == [], "planted programs ran for the workbench's diff"
    r = a2a("integrate", c["attempt"], *SCORES, "--json", cwd=repo)
    assert r.code == 0, r.out + r.err
    assert git(repo, "rev-parse", "main") == sha
    assert (repo / "setup.cfg").read_text() == "[z]\n"      # the main worktree followed
    assert ran_programs(ran) == [], "planted programs ran during `a2a integrate`"
    r = a2a("reclaim", "--json", cwd=repo)
    assert r.code == 0, r.out + r.err
    assert ran_programs(ran) == [], "planted programs ran during `a2a reclaim`"
    assert not (repo / "conftest.py").exists()


def test_a_replace_ref_does_not_change_what_verify_tests(tmp_path):
    # `git replace F P`: every git that honours replace refs reads the passing tree P where the
    # submitted (failing) F is named; the target would then move to F.
    repo = _repo(tmp_path)
    c, wt = claim(repo, PYTEST)
    passing = commit_in(wt, {"src/x.py": "x = 1\n"}, "passing")
    failing = commit_in(wt, FAILING, "failing")
    submit(repo, c, failing)   # both commits are now in the repository (the clone's import)
    git(repo, "replace", failing, passing)
    v = verify(repo, c["attempt"])
    assert v.json["verdict"] == "rejected", v.out
    assert "test_a_failure" in result(v, "tests")["stdout_tail"]


def _card(repo):
    from tests.gate.verify_support import write

    return write(repo, PYTEST, allowed=("src/**", "tests/**", "*.md", "*.cfg"))
