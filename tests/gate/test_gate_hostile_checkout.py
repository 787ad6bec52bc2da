"""Verify checks a checkout nobody else can touch: made outside the repository, in a folder only
a2a can list, never registered as a worktree, filled from the commit's blobs alone (no checkout
hook, filter or attribute), compared in full (untracked and ignored files too) before each
check, and removed afterwards. A file it did not expect is `tree_modified`.
"""

from __future__ import annotations

import ctypes
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

from a2a_tui.gate.context import GateContext
from a2a_tui.gate.verification.checkout import Checkout
from a2a_tui.gate.verification.command import verify as run_verify
from a2a_tui.identity import Caller
from a2a_tui.repo import Repo
from a2a_tui.store import Store
from tests.gate.hostile import PASS_EVERYTHING
from tests.gate.verify_support import (
    PY,
    PYTEST,
    checks_may_write,
    claim,
    pytest_repo,
    result,
    submit,
    verify,
)
from tests.support import commit_in, git

FAILING = {"tests/test_names.py": "def test_a_failure():\n    assert False, 'it fails'\n"}


# A detached watcher, as an agent would start one: it polls every folder it can list where a2a
# has made checkouts (`.a2a/verify/`, a2a's runtime folders under the temp folder and
# $XDG_RUNTIME_DIR) and drops a conftest.py that makes pytest pass into each new checkout it
# finds. It prints each checkout it reached.
WATCHER = r"""
import os, sys, time
pass_all, roots = sys.argv[1], sys.argv[2:]
def visit(folder, depth):
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for e in entries:
        if not e.is_dir(follow_symlinks=False):
            continue
        if os.path.exists(os.path.join(e.path, "tests", "test_names.py")):
            target = os.path.join(e.path, "conftest.py")
            if not os.path.exists(target):
                try:
                    open(target, "w").write(pass_all)
                    print(e.path, flush=True)
                except OSError:
                    pass
        elif depth < 3 and (depth > 0 or e.name.startswith("a2a") or folder.endswith("verify")):
            visit(e.path, depth + 1)
while True:
    for root in roots:
        visit(root, 0)
"""


def _as_this_user() -> None:
    """In the watcher's process: as root, give up what lets root read and write past a folder's
    mode (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), so it is what an agent is, the same user as
    a2a and no more."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):          # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, cap, 0, 0, 0) != 0:   # PR_CAPBSET_DROP: gone at the exec below
            raise OSError(ctypes.get_errno(), "PR_CAPBSET_DROP")


def start_watcher(repo: Path) -> subprocess.Popen:
    roots = [str(repo / ".a2a" / "verify"), tempfile.gettempdir()]
    if os.environ.get("XDG_RUNTIME_DIR"):
        roots.append(os.environ["XDG_RUNTIME_DIR"])
    return subprocess.Popen([sys.executable, "-c", WATCHER, PASS_EVERYTHING, *roots],
                            stdout=subprocess.PIPE, text=True, preexec_fn=_as_this_user)


def test_a_racing_watcher_never_makes_a_failing_commit_pass(tmp_path):
    repo = pytest_repo(tmp_path)
    c, wt = claim(repo, PYTEST)
    submit(repo, c, commit_in(wt, FAILING, "tests that fail"))
    w = start_watcher(repo)
    try:
        v = verify(repo, c["attempt"])
    finally:
        w.kill()
        hits, _ = w.communicate()
    assert v.json["verdict"] == "rejected", v.out
    assert "test_a_failure" in result(v, "tests")["stdout_tail"]
    assert hits == "", f"the watcher reached a checkout: {hits}"


def test_the_checkout_is_private_outside_the_repository_and_gone_afterwards(tmp_path, world):
    repo = pytest_repo(tmp_path)
    checks_may_write(world, tmp_path)      # the check says where it ran there
    probe = tmp_path / "probe.txt"
    check = (f"{PY} -c \"import os, stat, sys; p = os.getcwd();"
             f" print(p, oct(os.stat(p).st_mode & 0o777),"
             f" oct(os.stat(os.path.dirname(p)).st_mode & 0o777),"
             f" file=open(sys.argv[1], 'w'))\" {probe} && git rev-parse HEAD")
    c, wt = claim(repo, check)
    sha = commit_in(wt, {"src/names.py": "def name(n):\n    return n or 'x'\n"})
    submit(repo, c, sha)
    v = verify(repo, c["attempt"])
    assert v.json["verdict"] == "passed", v.out
    assert result(v, "tests")["stdout_tail"].strip() == sha     # git sees exactly the SHA
    where, mode, _inside = probe.read_text().split()
    assert not Path(where).is_relative_to(repo) and not Path(where).exists()
    assert mode == "0o700"
    # The folder of the checkouts, as the machine has it (the check's sandbox makes its own).
    parent_mode = os.stat(Path(where).parent).st_mode
    assert parent_mode & stat.S_IRUSR == 0, "anyone of this user could list it"
    assert git(repo, "worktree", "list", "--porcelain").count("worktree ") == 1  # main alone
    assert not (repo / ".a2a" / "verify").exists() or not any((repo / ".a2a/verify").iterdir())


def test_a_file_nobody_expected_in_the_checkout_is_tree_modified(tmp_path, world):
    # A second check finds a file that appeared after the first one ended (not its output).
    repo = pytest_repo(tmp_path)
    checks_may_write(world, tmp_path)      # the first check says where it ran there
    cwd_file = tmp_path / "cwd.txt"
    c, wt = claim(repo, {"name": "first", "command": f"pwd > {cwd_file}"},
                  {"name": "second", "command": PYTEST})
    submit(repo, c, commit_in(wt, FAILING, "tests that fail"))
    store = Store(repo / ".a2a" / "a2a.db")
    try:
        g = GateContext(Repo(repo), store, Caller())

        def progress(name, res):
            if name == "second" and res is None:   # announced, not yet started
                Path(cwd_file.read_text().strip(), "conftest.py").write_text(PASS_EVERYTHING)

        v = run_verify(g, c["attempt"], progress)
    finally:
        store.close()
    assert v.verdict == "rejected"
    tree = next(r for r in v.results if r.name == "second/tree")
    assert tree.code == "tree_modified" and "conftest.py" in tree.detail, tree
    second = next(r for r in v.results if r.name == "second")
    assert not second.passed


def test_a_checkout_holds_exactly_the_commit_and_sees_every_change(tmp_path):
    repo = pytest_repo(tmp_path)
    sha = git(repo, "rev-parse", "HEAD")
    with Store(repo / ".a2a" / "a2a.db") as store:
        co = Checkout(GateContext(Repo(repo), store, Caller()), sha, "t")
        with co as path:
            files = sorted(p.relative_to(path).as_posix() for p in path.rglob("*")
                           if p.is_file() and ".git" not in p.relative_to(path).parts)
            assert files == sorted(git(repo, "ls-files").split())
            assert co.unexpected() == [] and co.changed() == []
            (path / "build").mkdir()
            (path / "build" / "out.o").write_text("x")            # a new file, ignored or not
            with open(path / "src" / "names.py", "a") as f:        # a tracked file changed
                f.write("# more\n")
            assert co.unexpected() == ["build", "build/out.o", "src/names.py"]
            assert co.changed() == ["src/names.py"]
            co.seen()                                              # a run's own output
            assert co.unexpected() == []
            os.chmod(path / "tests" / "test_names.py", 0o755)
            assert co.unexpected() == ["tests/test_names.py"]
        assert not path.exists()


def test_a_file_planted_while_the_checkout_is_written_is_found_before_the_run(tmp_path,
                                                                              monkeypatch):
    """What the checkout expects is what a2a wrote, entry by entry: a file that appears while
    it is being filled (a watcher that found it) is unexpected before the first run."""
    from a2a_tui.gate.verification import checkout

    repo = pytest_repo(tmp_path)
    sha = git(repo, "rev-parse", "HEAD")
    write = checkout._write
    planted: list[Path] = []

    def write_then_plant(root, e, data, made):
        facts = write(root, e, data, made)
        if not planted:
            planted.append(Path(root) / "conftest.py")
            planted[0].write_text(PASS_EVERYTHING)
        return facts

    monkeypatch.setattr(checkout, "_write", write_then_plant)
    with Store(repo / ".a2a" / "a2a.db") as store:
        co = Checkout(GateContext(Repo(repo), store, Caller()), sha, "t")
        with co:
            assert planted and planted[0].exists()
            assert co.unexpected() == ["conftest.py"]
