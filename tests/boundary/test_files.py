"""What a confined pane cannot see or change: the store, other sessions' files, a2a's install,
the repository's `.git`, the user's HOME, other processes; and what it leaves behind.

Each attack is run `confined` (refused) and `unconfined` (it works: the refusal is the
confinement's, tests/boundary/pane.py).
"""

from __future__ import annotations

import sqlite3
import sys
import time

import psutil
import pytest

from a2a_tui import resources
from a2a_tui.confine import probe
from tests.boundary.pane import MODES, Attacker
from tests.support import a2a, add_ready_card, wait_until

pytestmark = pytest.mark.tmux
PY = sys.executable


def _trigger_exists(repo) -> bool:
    with sqlite3.connect(repo / ".a2a" / "a2a.db") as db:
        return db.execute("SELECT 1 FROM sqlite_master WHERE name='events_no_update'"
                          ).fetchone() is not None


@pytest.mark.parametrize("mode", MODES)
def test_the_store_cannot_be_edited_raw(world, repo, mode):
    a = Attacker(world, mode)
    db = repo / ".a2a" / "a2a.db"
    code, out = a.run(f"{PY} -c \"import sqlite3; c = sqlite3.connect('file:{db}?mode=rw',"
                      " uri=True); c.execute('DROP TRIGGER events_no_update'); c.commit()\"")
    # Nor can it read the log (the store is not in its sight at all).
    rcode, rout = a.run(f"head -c 15 {db}")
    if a.confined:
        assert code != 0 and "unable to open database" in out, out
        assert rcode != 0 and "SQLite format" not in rout, rout
        assert _trigger_exists(repo)
        assert a2a("store", "verify", cwd=repo).code == 0
    else:
        assert code == 0, out
        assert rcode == 0 and "SQLite format" in rout
        assert not _trigger_exists(repo)


@pytest.mark.parametrize("mode", MODES)
def test_a2a_install_and_the_hook_are_read_only(world, repo, mode):
    a = Attacker(world, mode)
    hook = resources.hooks_dir() / "a2a-hook"
    pkg = resources.hooks_dir().parent / "a2a_tui"
    victim = pkg / f"planted_{a.sid}.py"
    code1, out1 = a.run(f"touch {victim}")
    before = hook.read_bytes()
    code2, out2 = a.run(f"cp {hook} {a.out}/h && echo '# planted' >> {hook}")
    try:
        if a.confined:
            assert code1 != 0 and code2 != 0 and "Read-only file system" in out1 + out2
            assert not victim.exists() and hook.read_bytes() == before
        else:
            assert code1 == 0 and code2 == 0 and victim.exists()
    finally:
        victim.unlink(missing_ok=True)
        hook.write_bytes(before)


@pytest.mark.parametrize("mode", MODES)
def test_other_sessions_run_folders_are_out_of_sight(world, repo, mode):
    other = Attacker(world, mode, role="ideation")
    a = Attacker(world, mode)
    theirs = repo / ".a2a" / "run" / other.sid
    code1, out1 = a.run(f"cat {theirs}/launch.sh")
    code2, out2 = a.run(f"echo 'touch {world.base}/hooked' >> {theirs}/githooks/pre-commit")
    code3, out3 = a.run(f"ls {repo}/.a2a")
    if a.confined:
        assert code1 != 0 and code2 != 0, (out1, out2)
        assert "hooked" not in (theirs / "githooks" / "pre-commit").read_text()
        # Only its own folders are there: nothing of another session, nor the store.
        assert "a2a.db" not in out3 and "gate.toml" not in out3 and "config.toml" not in out3
        assert code3 == 0 and other.sid not in a.run(f"ls {repo}/.a2a/run")[1]
    else:
        assert code1 == 0 and "a2a launch of session" in out1 and code2 == 0


@pytest.mark.parametrize("mode", MODES)
def test_the_repositorys_git_directory_cannot_be_planted(world, repo, mode):
    a = Attacker(world, mode, role="worker", attempt=_claimed(repo))
    mark = world.base / "fsmonitor-ran"
    code1, out1 = a.run(f"git -C {repo} config core.fsmonitor 'touch {mark}'")
    code2, out2 = a.run(f"printf '#!/bin/sh\\ntouch {mark}\\n' > {repo}/.git/hooks/post-checkout"
                        f" && chmod +x {repo}/.git/hooks/post-checkout")
    code3, out3 = a.run(f"git -C {repo} update-ref refs/heads/main HEAD~0")
    if a.confined:
        assert code1 != 0 and code2 != 0 and code3 != 0, (out1, out2, out3)
        assert "fsmonitor" not in (repo / ".git" / "config").read_text()
        assert not (repo / ".git" / "hooks" / "post-checkout").exists()
    else:
        assert code1 == 0 and code2 == 0, (out1, out2)
    world.git("status")     # the user's next git command
    assert mark.exists() == (not a.confined)


@pytest.mark.parametrize("mode", MODES)
def test_the_users_home_and_other_processes_are_out_of_sight(world, repo, mode):
    (world.home / "secret.txt").write_text("the user's own\n")
    a = Attacker(world, mode)
    code1, out1 = a.run(f"cat {world.home}/secret.txt")
    code2, out2 = a.run("ps -eo pid,args")
    here = str(psutil.Process().pid)
    code3, _ = a.run(f"kill -0 {here}")
    if a.confined:
        assert code1 != 0 and "the user's own" not in out1
        assert "-m pytest" not in out2 and world.sock not in out2 and code3 != 0
    else:
        assert code1 == 0 and "the user's own" in out1 and code3 == 0


@pytest.mark.parametrize("mode", MODES)
def test_a_nested_namespace_cannot_uncover_the_hidden_folder(world, repo, mode):
    if mode == "unconfined" and not probe().available:
        pytest.skip(f"the attack needs user namespaces, which this machine refuses:"
                    f" {probe().reason}")
    a = Attacker(world, mode)
    code, out = a.run(f"unshare -Ur sh -c 'umount -l {repo}/.a2a; cat {repo}/.a2a/config.toml'")
    if a.confined:
        assert code != 0 and "target_branch" not in out, out
    else:
        assert code == 0 and "target_branch" in out, out


@pytest.mark.parametrize("mode", MODES)
def test_what_the_cli_started_ends_with_it(world, repo, mode):
    a = Attacker(world, mode)
    tag = f"a2a-orphan-{a.sid}-{time.monotonic_ns()}"
    a.run(f"setsid -f sh -c 'sleep 600; :' {tag} </dev/null >/dev/null 2>&1; sleep 0.2")

    def orphans():
        return [p for p in psutil.process_iter(["cmdline"]) if tag in " ".join(
            p.info["cmdline"] or [])]
    wait_until(lambda: orphans(), timeout=10, what="the orphan to start")
    world.kill_pane(a.pane)
    if a.confined:
        wait_until(lambda: not orphans(), timeout=10, what="the orphan to end with its CLI")
    else:
        # Showing that something outlives its pane has no event to wait on: a second past
        # the pane's end is given for it to die if it would.
        time.sleep(1)
        left = orphans()
        assert left   # without confinement an orphan outlives its pane
        for p in left:
            p.kill()


def _claimed(repo) -> str:
    return a2a("claim", add_ready_card(repo), "--json", cwd=repo).json["attempt"]
