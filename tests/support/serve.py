"""Driving sessions as the user does: `a2a serve`, `a2a spawn`, `a2a inject`, `a2a sessions`."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from a2a_tui.panes.orchestrator import lock_holder
from a2a_tui.queue import enqueue_in_tx, wake
from a2a_tui.repo import Repo
from tests.support.cli import A2A, a2a
from tests.support.records import signals, store
from tests.support.wait import wait_until


class Served:
    """`a2a serve --tmux-socket SOCK` in a subprocess, as a user would run it; its output goes
    to `log`. Returns once it holds the orchestrator's lock and says it serves."""

    def __init__(self, repo: Path, sock: str, env: Mapping[str, str], log: Path,
                 popen: Callable[..., subprocess.Popen] = subprocess.Popen):
        self.log = log
        with open(log, "w") as out:
            self.proc = popen([*A2A, "serve", "--tmux-socket", sock], cwd=str(repo),
                              env=dict(env), stdout=out, stderr=subprocess.STDOUT,
                              start_new_session=True)
        # It says it serves once it holds the lock and has done what it does on starting (the
        # retro proposal among them): a test reads what start-up wrote only after that line.
        wait_until(lambda: (lock_holder(Repo(repo)) == self.proc.pid
                            and "a2a: serving " in self.output())
                   or self.proc.poll() is not None,
                   timeout=20, what="a2a serve to take its lock and say it serves")
        assert self.proc.poll() is None, self.output()

    def output(self) -> str:
        return self.log.read_text() if self.log.exists() else ""

    def stop(self) -> int:
        """SIGTERM, as a user's Ctrl-C would; its exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=15)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=15)


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
          args: tuple[str, ...] = (), via: Callable[..., Any] = a2a) -> dict[str, Any]:
    """`a2a spawn ROLE --cli CLI [ARGS] -- OPTS` on the private tmux server; its JSON."""
    r = via("spawn", role, "--cli", cli, "--tmux-socket", sock, "--json", *args, "--", *opts,
            cwd=repo)
    assert r.code == 0, r.out + r.err
    return r.json


def inject(repo: Path, sid: str, text: str) -> int:
    """`a2a inject SID -` with `text` on stdin; the dispatch number."""
    r = a2a("inject", sid, "-", "--json", cwd=repo, input=text)
    assert r.code == 0, r.out + r.err
    return r.json["dispatch"]


def enqueue(repo: Path, sid: str, text: str) -> int:
    """Queue `text` for the session's pane in-process, as the user's `a2a inject` queues it;
    the dispatch number."""
    with store(repo) as s, s.write() as tx:
        return enqueue_in_tx(tx, sid, text, source="user", actor="user")


def prompts(repo: Path, sid: str) -> list[str]:
    """The prompts the agent reported submitting (UserPromptSubmit), in order."""
    return [p["raw"]["prompt"] for p in signals(repo, sid, "UserPromptSubmit")]


def sessions_json(repo: Path, via: Callable[..., Any] = a2a) -> dict[str, dict[str, Any]]:
    """`a2a sessions --json`, by session id."""
    r = via("sessions", "--json", cwd=repo)
    assert r.code == 0, r.err
    return {s["session"]: s for s in r.json}


def serve_log(base: Path) -> Path:
    """A fresh log file for one `a2a serve` under `base`."""
    return base / f"serve-{time.monotonic_ns()}.log"
