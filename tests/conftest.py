"""Every test runs with a throwaway HOME, git config and tmux socket directory."""

from __future__ import annotations

import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from helpers import a2a, make_repo


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("home")
    gitconfig = home / ".gitconfig"
    gitconfig.write_text("[user]\n\tname = Test User\n\temail = test@example.com\n"
                         "[init]\n\tdefaultBranch = main\n")
    tmux_tmp = Path(f"/tmp/a2at-{uuid.uuid4().hex[:8]}")  # short: tmux socket paths are limited
    tmux_tmp.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("TMUX_TMPDIR", str(tmux_tmp))
    for var in ("TMUX", "TMUX_PANE", "A2A_TMUX_SOCKET", "A2A_CRASH_AT", "GIT_DIR", "GIT_WORK_TREE"):
        monkeypatch.delenv(var, raising=False)
    yield home
    shutil.rmtree(tmux_tmp, ignore_errors=True)


@pytest.fixture
def repo(tmp_path) -> Path:
    """A real git repository with a2a initialised in it."""
    path = make_repo(tmp_path / "repo")
    res = a2a("init", cwd=path)
    assert res.code == 0, res.err
    return path


@pytest.fixture
def tmux_socket():
    """A private tmux server name (tmux -L); the server is killed afterwards."""
    name = f"a2a-test-{uuid.uuid4().hex[:10]}"
    yield name
    subprocess.run(["tmux", "-L", name, "kill-server"], capture_output=True)
