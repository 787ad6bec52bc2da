"""Helpers for the workbench tests: the real app over a real store, driven by Pilot."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from textual.message import Message
from textual.pilot import Pilot

from a2a_tui.repo import Repo
from a2a_tui.store import Store
from a2a_tui.tui.app import WorkbenchApp, make_app


def run(coro) -> Any:
    """Run one async scenario (the suite has no asyncio plugin)."""
    return asyncio.run(coro)


def store(repo: Path) -> Store:
    return Store(repo / ".a2a" / "a2a.db")


@asynccontextmanager
async def workbench(repo: Path, size: tuple[int, int] = (110, 34),
                    now: Callable[[], int] | None = None, tmux_socket: str | None = None,
                    host: bool = False) -> AsyncIterator[tuple[WorkbenchApp, Pilot, list]]:
    """The app over `repo`'s store, every panel loaded; yields (app, pilot, messages seen)."""
    app, _services, orch = make_app(Repo(repo), tmux_socket=tmux_socket, host_orchestrator=host,
                                    now=now or time.time_ns, tick_s=3600)
    seen: list[Message] = []
    try:
        async with app.run_test(size=size, message_hook=seen.append) as pilot:
            await until(pilot, lambda: all(p.loaded for p in app.query("Panel")),
                        what="every panel loaded")
            yield app, pilot, seen
    finally:
        if orch is not None:
            orch.stop()


async def until(pilot: Pilot, pred: Callable[[], Any], timeout: float = 10.0,
                what: str = "condition") -> Any:
    """Let the app run until `pred()` is truthy; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = pred()
        if last:
            return last
        await pilot.pause(0.02)
    raise AssertionError(f"timed out after {timeout}s waiting for {what} (last: {last!r})")


def of_type(seen: list, cls: type) -> list:
    return [m for m in seen if type(m) is cls]


def add_session(repo: Path, sid: str, role: str = "worker", *, state: str = "idle",
                paused: bool = False, pane_id: str | None = None, socket: str | None = None,
                since_ns: int | None = None, hint: str | None = None, cli: str = "demo",
                attempt: str | None = None, model: str = "") -> None:
    """A sessions row as `a2a spawn` leaves it (the panes layer owns the table; tests that need
    a real agent spawn one)."""
    with store(repo) as s, s.write() as tx:
        seq = tx.append("session_registered_for_test", actor="user", session=sid,
                        payload={"role": role})
        now = since_ns or time.time_ns()
        tx.execute(
            "INSERT INTO sessions(id, role, cli, cli_version, model, cwd, pane_id, tmux_socket,"
            " state, state_since_ns, paused, hint, attempt_id, launch_seq, created_ns)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (sid, role, cli, f"{cli} 1.0", model, str(repo), pane_id, socket, state, now,
             int(paused), hint, attempt, seq, now))


def rows(repo: Path, sql: str, params: tuple = ()) -> list[dict]:
    with store(repo) as s:
        return [dict(r) for r in s.all(sql, params)]
