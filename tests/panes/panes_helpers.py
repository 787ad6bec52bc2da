"""Helpers for the panes tests: a real `a2a serve` process, the real store, real tmux."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from a2a_tui.panes.orchestrator import lock_holder
from a2a_tui.queue import wake
from a2a_tui.repo import Repo
from a2a_tui.store import Store

from helpers import a2a, wait_until


class Served:
    """`a2a serve --tmux-socket SOCK` in a subprocess, as a user would run it."""

    def __init__(self, repo: Path, sock: str, env: dict[str, str] | None = None):
        self.repo, self.sock = repo, sock
        self.log = repo.parent / f"serve-{time.monotonic_ns()}.log"
        full = dict(os.environ, **(env or {}))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "a2a_tui", "serve", "--tmux-socket", sock], cwd=repo,
            env=full, stdout=open(self.log, "w"), stderr=subprocess.STDOUT,
            start_new_session=True)
        wait_until(lambda: lock_holder(Repo(repo)) == self.proc.pid or self.proc.poll() is not None,
                   what="the orchestrator to take its lock")
        assert self.proc.poll() is None, self.output()

    def output(self) -> str:
        return self.log.read_text() if self.log.exists() else ""

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=15)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=15)


def store(repo: Path) -> Store:
    return Store(repo / ".a2a" / "a2a.db")


def session(repo: Path, sid: str) -> dict[str, Any]:
    with store(repo) as st:
        row = st.one("SELECT * FROM sessions WHERE id = ?", (sid,))
        return dict(row) if row else {}


def dispatch(repo: Path, n: int) -> dict[str, Any]:
    with store(repo) as st:
        return dict(st.one("SELECT * FROM dispatches WHERE n = ?", (n,)))


def events(repo: Path, *kinds: str, session: str | None = None) -> list:
    with store(repo) as st:
        return st.events(kinds=list(kinds) or None, session=session)


def signals(repo: Path, sid: str, event: str | None = None) -> list[dict]:
    return [e.payload for e in events(repo, "signal", session=sid)
            if event is None or e.payload["event"] == event]


def wait_state(repo: Path, sid: str, state: str, timeout: float = 30) -> dict:
    return wait_until(lambda: (s := session(repo, sid)).get("state") == state and s,
                      timeout=timeout, what=f"{sid} to be {state}")


def barrier(repo: Path) -> None:
    """Wait until the orchestrator has finished a whole cycle begun after this call: everything
    it had ingested by now has also been acted on (deliveries included)."""
    spool = repo / ".a2a" / "spool"
    for _ in range(2):
        before = set(spool.glob("*.wake"))
        wake(Repo(repo))
        mine = set(spool.glob("*.wake")) - before
        wait_until(lambda mine=mine: not any(p.exists() for p in mine),
                   what="the orchestrator's cycle")


def spawn(repo: Path, sock: str, *opts: str, role: str = "worker", cli: str = "demo",
          args: tuple[str, ...] = ()) -> dict:
    r = a2a("spawn", role, "--cli", cli, "--tmux-socket", sock, "--json", *args, "--", *opts,
            cwd=repo)
    assert r.code == 0, r.out + r.err
    return r.json


def inject(repo: Path, sid: str, text: str) -> int:
    r = a2a("inject", sid, "-", "--json", cwd=repo, input=text)
    assert r.code == 0, r.out + r.err
    return r.json["dispatch"]


def tmux(sock: str, *args: str) -> str:
    res = subprocess.run(["tmux", "-L", sock, *args], capture_output=True, text=True, timeout=10)
    assert res.returncode == 0, res.stderr
    return res.stdout


def prompts(repo: Path, sid: str) -> list[str]:
    """The prompts the agent reported submitting (UserPromptSubmit), in order."""
    return [p["raw"]["prompt"] for p in signals(repo, sid, "UserPromptSubmit")]


def sessions_json(repo: Path) -> dict[str, dict]:
    r = a2a("sessions", "--json", cwd=repo)
    assert r.code == 0, r.err
    return {s["session"]: s for s in json.loads(r.out)}
