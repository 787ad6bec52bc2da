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
from a2a_tui.tui.app import WorkbenchApp, make_app


def run(coro) -> Any:
    """Run one async scenario (the suite has no asyncio plugin)."""
    return asyncio.run(coro)


@asynccontextmanager
async def workbench(repo: Path, size: tuple[int, int] = (110, 34),
                    now: Callable[[], int] | None = None, tmux_socket: str | None = None,
                    host: bool = False, notifications: bool = False,
                    ) -> AsyncIterator[tuple[WorkbenchApp, Pilot, list]]:
    """The app over `repo`'s store, every panel loaded; yields (app, pilot, messages seen).
    Toasts are drawn only when `notifications` (Textual's tests leave them out)."""
    app, _services, orch = make_app(Repo(repo), tmux_socket=tmux_socket, host_orchestrator=host,
                                    now=now or time.time_ns, tick_s=3600)
    seen: list[Message] = []
    try:
        async with app.run_test(size=size, message_hook=seen.append,
                                notifications=notifications) as pilot:
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
