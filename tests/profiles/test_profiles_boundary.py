"""What each profile asks of its CLI inside the boundary (pure: nothing is launched; the real
CLIs are tests/real_cli/test_real_boundary.py, test_real_gate.py and test_real_walk.py).

An attempt's clone is a git root of its own, so each CLI asks "trust this folder?" for it: a2a
extends the user's own trust of the repository (read from their config, never written) to a
confined session in the clone, for that launch only. A Codex worker's sandbox fits the folder
its confinement lets it write; a read-only role is allowed to write where its confinement
lets it: its session's output folder."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from a2a_tui.profiles import LaunchContext, get, permissions
from a2a_tui.profiles.claude import SANDBOXED

HOOK = Path("/opt/a2a-hook")


@pytest.fixture
def repo(tmp_path) -> Path:
    return tmp_path / "repo"


@pytest.fixture
def ctx(repo) -> LaunchContext:
    """A confined worker in its attempt's clone."""
    return LaunchContext(session="w1", role="worker", cwd=repo / ".a2a" / "worktrees" / "T-1-a1",
                         run_dir=repo / ".a2a" / "run" / "w1", spool_dir=repo / "spool",
                         hook=HOOK, confined=True)


def claude_config(home: Path, trusted: list[Path], name: str = ".claude.json") -> dict:
    home.mkdir(parents=True, exist_ok=True)
    before = {"projects": {str(p): {"hasTrustDialogAccepted": True} for p in trusted}}
    (home / name).write_text(json.dumps(before))
    return before


def env_of(ctx: LaunchContext, monkeypatch, home: Path, **more: str) -> dict[str, str]:
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    for name, value in more.items():
        monkeypatch.setenv(name, value)
    return get("claude").prepare(ctx).env


def test_a_confined_claude_worker_in_a_clone_of_a_trusted_repository_is_trusted(
        ctx, repo, tmp_path, monkeypatch):
    home = tmp_path / "home"
    before = claude_config(home, [repo])
    assert env_of(ctx, monkeypatch, home) == {SANDBOXED: "1"}
    # The user's config is read, never written.
    assert json.loads((home / ".claude.json").read_text()) == before


def test_nothing_is_trusted_that_the_user_did_not_trust(ctx, repo, tmp_path, monkeypatch):
    home = tmp_path / "home"
    claude_config(home, [tmp_path / "elsewhere"])
    assert env_of(ctx, monkeypatch, home) == {}
    claude_config(home, [repo])
    # Unconfined: the clone asks as any folder would.
    assert env_of(replace(ctx, confined=False), monkeypatch, home) == {}
    # In the repository itself (no attempt): the user's own trust of it applies as it is.
    assert env_of(replace(ctx, cwd=repo), monkeypatch, home) == {}
    # A config that is not Claude Code's shape trusts nothing.
    (home / ".claude.json").write_text("[1, 2]")
    assert env_of(ctx, monkeypatch, home) == {}


def test_claude_config_dir_is_where_the_users_trust_is_read(ctx, repo, tmp_path, monkeypatch):
    home, conf = tmp_path / "home", tmp_path / "conf"
    claude_config(home, [])
    claude_config(conf, [repo])
    assert env_of(ctx, monkeypatch, home, CLAUDE_CONFIG_DIR=str(conf)) == {SANDBOXED: "1"}


def _sandbox(argv: list[str]) -> str:
    return next(a for a in argv if a.startswith("sandbox_mode="))


def test_a_confined_codex_worker_writes_only_in_a_clone(ctx, repo, tmp_path, monkeypatch):
    """In its clone: `workspace-write`, with the network switch on (else Codex refuses the
    tool's connect() to the broker's socket). With no attempt its folder is the repository,
    which the confinement keeps read-only: Codex's `workspace-write` could not start its own
    sandbox there (no command would run), so it runs `read-only`."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    codex = get("codex")
    in_clone = codex.prepare(ctx).argv
    assert _sandbox(in_clone) == 'sandbox_mode="workspace-write"'
    assert "sandbox_workspace_write.network_access=true" in in_clone
    assert _sandbox(codex.prepare(replace(ctx, cwd=repo)).argv) == 'sandbox_mode="read-only"'
    # Unconfined, the repository is writable to it: as before.
    unconfined = codex.prepare(replace(ctx, cwd=repo, confined=False)).argv
    assert _sandbox(unconfined) == 'sandbox_mode="workspace-write"'


@pytest.mark.parametrize("role", ["reviewer", "executive", "ideation", "worker"])
def test_a_confined_codex_in_a_read_only_folder_works_from_its_own(role, repo, tmp_path,
                                                                  monkeypatch):
    """Issue 35, finding 11: in Codex's `read-only` sandbox every `connect()` is refused, so a
    reviewer's or a controller's `a2a` call needed the user's approval in the pane. Confined,
    a session whose folder a2a keeps read-only runs `workspace-write` with its own output
    folder as Codex's working root (`-C`), the network switch on (its broker's socket) and
    nothing else writable; never asking. Unconfined it stays `read-only`: there nothing but
    Codex's sandbox keeps it from the repository."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    run, out = repo / ".a2a" / "run" / "r1", repo / ".a2a" / "run" / "r1" / "out"
    ctx = LaunchContext(session="r1", role=role, cwd=repo, run_dir=run, out_dir=out,
                        spool_dir=repo / "spool", hook=HOOK, confined=True)
    argv = get("codex").prepare(ctx).argv
    assert _sandbox(argv) == 'sandbox_mode="workspace-write"'
    assert argv[argv.index("-C") + 1] == str(out)
    assert 'approval_policy="never"' in argv
    assert "sandbox_workspace_write.writable_roots=[]" in argv
    assert "sandbox_workspace_write.network_access=true" in argv
    loose = get("codex").prepare(replace(ctx, confined=False)).argv
    if role != "worker":
        assert _sandbox(loose) == 'sandbox_mode="read-only"' and "-C" not in loose


def test_a_read_only_role_may_write_only_its_output_folder(repo, tmp_path, monkeypatch):
    """The run folder is read-only inside the confinement; a reviewer's report and a
    controller's card draft go to `.a2a/run/<s>/out`, and the grants name that folder."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    run, out = repo / ".a2a" / "run" / "r1", repo / ".a2a" / "run" / "r1" / "out"
    ctx = LaunchContext(session="r1", role="reviewer", cwd=repo, run_dir=run, out_dir=out,
                        spool_dir=repo / "spool", hook=HOOK, confined=True)
    claude = get("claude").prepare(ctx)
    assert f"Edit(/{out}/**)" in claude.argv[claude.argv.index("--allowedTools") + 1]
    assert claude.permissions["description"].endswith(
        f"writes only in {out}; everything else is refused without asking")
    gemini = permissions.gemini("reviewer", run, writes_in=out)
    assert str(out) in gemini.files["gemini-policy.toml"].replace("\\", "")
    assert f"writes only in {out};" in gemini.description
