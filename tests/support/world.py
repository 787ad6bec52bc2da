"""`World`: one isolated place in which tests and benchmarks run a2a as a user would.

A throwaway HOME with a git identity; a private tmux server (`tmux -L a2a-test-<uuid>`, its
socket in a short folder of its own: TMUX_TMPDIR); a real repository with `a2a init`; `a2a serve`
when asked. Nothing reaches the user's HOME, git configuration or tmux server.

In a test the `world` fixture (tests/conftest.py) makes one per test and points this process's
environment at it; a benchmark opens one as a context manager. `close()` stops what it started,
kills the tmux server and removes what it made.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from a2a_tui.store import Event, Store
from tests.support import records
from tests.support.cli import Run, a2a, a2a_as
from tests.support.gitrepo import git, make_repo
from tests.support.serve import Served, serve_log
from tests.support.tmux import tmux
from tests.support.wait import wait_until

if TYPE_CHECKING:
    import pytest

# What must not leak in from the machine running the tests: an enclosing tmux, a2a's own
# switches, git's repository variables, and the terminal size pytest's readline exports to its
# xdist workers (80x24: every tmux server a test started passed it to every pane).
SCRUB = ("TMUX", "TMUX_PANE", "A2A_TMUX_SOCKET", "A2A_CRASH_AT", "GIT_DIR", "GIT_WORK_TREE",
         "COLUMNS", "LINES")
GITCONFIG = ("[user]\n\tname = Test User\n\temail = test@example.com\n"
             "[init]\n\tdefaultBranch = main\n")


def machine_config() -> str:
    """The user config a machine that cannot confine needs for the suite to run (empty where
    it can): its user allows unconfined sessions, which every launch record then shows
    (README, "Where confinement is impossible"). The boundary tests that need confinement
    skip there with the machine's reason (tests/boundary/pane.py)."""
    # Imported here: only a World asks, and the probe runs bwrap once per process.
    from a2a_tui.confine import probe

    return "" if probe().available else ("[confinement]\nallow_unconfined = true\n"
                                         "unconfined_checks = true\n")


class World:
    """A throwaway HOME, a private tmux server and (unless `repo=False`) a repository with
    `a2a init`, under `base` (a new temporary folder when None, removed by `close()`)."""

    scrub: tuple[str, ...] = SCRUB
    wait_until = staticmethod(wait_until)

    def __init__(self, base: Path | None = None, *, repo: bool = True) -> None:
        self._own_base = base is None
        self.base = base or Path(tempfile.mkdtemp(prefix="a2a-world-"))
        self.home = self.base / "home"
        self.home.mkdir(parents=True, exist_ok=True)
        (self.home / ".gitconfig").write_text(GITCONFIG)
        # A socket path must stay short (about 100 bytes): a folder of its own right under /tmp.
        self.tmux_tmp = Path(tempfile.mkdtemp(prefix="a2at-", dir="/tmp"))
        self.sock = f"a2a-test-{uuid.uuid4().hex[:10]}"
        self.setenv: dict[str, str] = {
            "HOME": str(self.home), "GIT_CONFIG_GLOBAL": str(self.home / ".gitconfig"),
            "GIT_CONFIG_NOSYSTEM": "1", "TMUX_TMPDIR": str(self.tmux_tmp),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_STATE_HOME": str(self.home / ".local" / "state")}
        self.repo: Path | None = None
        self.served: list[Served] = []
        if machine_config():
            # Written the way write_user_config (userconfig.py) writes it.
            path = self.home / ".config" / "a2a" / "config.toml"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(machine_config(), encoding="utf-8")
        if repo:
            try:
                self.init_repo()
            except BaseException:
                self.close()
                raise

    # --- the environment ------------------------------------------------------------------------
    @property
    def env(self) -> dict[str, str]:
        """What a2a, git and tmux run with: this process's environment without `scrub`, and the
        world's HOME, git configuration and tmux folder."""
        return {k: v for k, v in os.environ.items() if k not in self.scrub} | self.setenv

    def enter(self, monkeypatch: pytest.MonkeyPatch | None = None) -> None:
        """Point this process's environment at the world too, for a2a code run in-process:
        through `monkeypatch` in a test (undone after it), for good in a script."""
        for var in self.scrub:
            if monkeypatch:
                monkeypatch.delenv(var, raising=False)
            else:
                os.environ.pop(var, None)
        for var, value in self.setenv.items():
            if monkeypatch:
                monkeypatch.setenv(var, value)
            else:
                os.environ[var] = value

    def run(self, argv: list[str], **kw: Any) -> subprocess.CompletedProcess:
        """Every a2a and tmux command goes through here (a subclass may run it elsewhere)."""
        return subprocess.run(argv, **kw)

    def popen(self, argv: list[str], **kw: Any) -> subprocess.Popen:
        return subprocess.Popen(argv, **kw)

    # --- the repository and the CLI -------------------------------------------------------------
    def init_repo(self, path: Path | None = None, files: Mapping[str, str] | None = None) -> Path:
        """A real repository (one commit on main) with `a2a init`; it becomes `self.repo`."""
        self.repo = make_repo(path or self.base / "repo", files, env=self.env)
        r = self.a2a("init")
        assert r.code == 0, r.err
        return self.repo

    def a2a(self, *args: str, cwd: Path | None = None, env: Mapping[str, str] | None = None,
            input: str | None = None, timeout: float = 120) -> Run:
        """The real `a2a` CLI, as the user would run it (in the repository unless `cwd`)."""
        return a2a(*args, cwd=cwd or self._repo(), env=env, input=input, timeout=timeout,
                   base=self.env, runner=self.run)

    def a2a_as(self, session: str, role: str, *args: str, cwd: Path | None = None,
               env: Mapping[str, str] | None = None) -> Run:
        """`a2a ARGS` in a process registered as `session` of `role`."""
        return a2a_as(self._repo(), session, role, *args, cwd=cwd, env=env, base=self.env)

    def git(self, *args: str, cwd: Path | None = None) -> str:
        return git(cwd or self._repo(), *args, env=self.env)

    def serve(self, env: Mapping[str, str] | None = None) -> Served:
        """Start `a2a serve` on the world's tmux server; stopped by `close()` if still running."""
        s = Served(self._repo(), self.sock, {**self.env, **(env or {})}, serve_log(self.base),
                   popen=self.popen)
        self.served.append(s)
        return s

    def _repo(self) -> Path:
        assert self.repo is not None, "this world has no repository (init_repo)"
        return self.repo

    # --- the store (a snapshot per call) --------------------------------------------------------
    def store(self) -> Store:
        return records.store(self._repo())

    def session(self, sid: str) -> dict[str, Any]:
        return records.session(self._repo(), sid)

    def dispatch(self, n: int) -> dict[str, Any]:
        return records.dispatch(self._repo(), n)

    def events(self, *kinds: str, session: str | None = None) -> list[Event]:
        return records.events(self._repo(), *kinds, session=session)

    def signals(self, sid: str, *names: str) -> list[dict[str, Any]]:
        return records.signals(self._repo(), sid, *names)

    def wait_state(self, sid: str, state: str, timeout: float = 30) -> dict[str, Any]:
        """Wait until the session is in `state`; on failure, what it went through is shown."""
        try:
            return records.wait_state(self._repo(), sid, state, timeout=timeout, interval=0.02)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{self.explain(sid)}") from None

    def wait_dispatch(self, n: int, state: str, timeout: float = 30) -> dict[str, Any]:
        try:
            return wait_until(lambda: (d := self.dispatch(n))["state"] == state and d,
                              timeout=timeout, interval=0.02, what=f"dispatch #{n} to be {state}")
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{self.explain(self.dispatch(n)['session'])}") from None

    def explain(self, sid: str) -> str:
        """For failure messages: the session's events and what its pane shows."""
        seen = "\n".join(f"  {e.seq} {e.kind} {e.payload}" for e in self.events(session=sid))
        pane = self.session(sid).get("pane_id") or ""
        return (f"events of {sid}:\n{seen}\nscreen:\n"
                f"{self.screen(pane) if pane else '(no pane)'}")

    # --- the tmux server, as the user's hands ---------------------------------------------------
    def tmux(self, *args: str, input: str | None = None, check: bool = True,
             env: Mapping[str, str] | None = None) -> str:
        """tmux on the world's server (`env`: the client's environment instead of the world's,
        e.g. one a server started long ago would have)."""
        return tmux(self.sock, *args, input=input, env=env or self.env, check=check,
                    runner=self.run)

    def keys(self, pane: str, *keys: str) -> None:
        self.tmux("send-keys", "-t", pane, *keys)

    def type(self, pane: str, text: str) -> None:
        self.tmux("send-keys", "-t", pane, "-l", "--", text)

    def screen(self, pane: str) -> str:
        """What the pane shows (for a display check or a failure message)."""
        try:
            return self.tmux("capture-pane", "-p", "-t", pane)
        except AssertionError as exc:
            return f"(no screen: {exc})"

    def kill_pane(self, pane: str) -> None:
        self.tmux("kill-pane", "-t", pane, check=False)

    # --- teardown ---------------------------------------------------------------------------------
    def close(self) -> None:
        for s in self.served:
            s.kill()
        self.served.clear()
        # Only a server that was started has a socket; most tests never start one.
        if (self.tmux_tmp / f"tmux-{os.getuid()}" / self.sock).exists():
            tmux(self.sock, "kill-server", env=self.env, check=False)
        shutil.rmtree(self.tmux_tmp, ignore_errors=True)
        if self._own_base:
            shutil.rmtree(self.base, ignore_errors=True)

    def __enter__(self) -> World:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
