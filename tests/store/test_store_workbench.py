"""The workbench shows a store problem where the user looks, the status line: the orchestrator
(hosted here or serving elsewhere) waiting for disk space, and its own store file replaced or
gone; an action on a full disk is refused in one line with its code."""

from __future__ import annotations

from a2a_tui.tui.messages import OrchestratorSeen, UserActionRefused
from tests.store.test_store_full_disk import _prepare, _staged_signal
from tests.support import events, register_session
from tests.tui.tui_support import of_type, run, until, workbench


def _status(app) -> str:
    return str(app.query_one("#status").render())


async def _shown_then_refused(app, pilot, seen, code: str) -> str:
    """Wait until the status line names `code`, then try a write (pause w1): its refusal's
    code."""
    await until(pilot, lambda: code in _status(app), timeout=20,
                what=f"the status line to say {code}")
    app.query_one("#sessions").table.focus()
    await pilot.press("p")
    refused = await until(pilot, lambda: of_type(seen, UserActionRefused), timeout=20,
                          what="the pause refused")
    return refused[0].code


def test_the_workbench_shows_a_full_disk_and_clears_it_when_space_returns(world, small_disk):
    repo = world.init_repo(small_disk.path / "repo")
    _prepare(world, repo)
    name, land = _staged_signal(repo, "w1")

    async def scenario():
        async with workbench(repo, tmux_socket=world.sock, host=True) as (app, pilot, seen):
            await until(pilot, lambda: "hosted here" in _status(app), what="hosting")
            small_disk.fill()
            land()
            code = await _shown_then_refused(app, pilot, seen, "store_full")
            assert code in ("store_full", "store_io")
            small_disk.free()
            await until(pilot, lambda: "store_full" not in _status(app), timeout=30,
                        what="the status line cleared once space returned")
            await until(pilot, lambda: [e.payload["file"] for e in events(repo, "signal")]
                        == [f"w1/{name}"], what="the kept signal ingested")

    run(scenario())


def test_the_workbench_says_loudly_that_its_store_file_is_gone(world, repo):
    register_session(repo, "w1", "worker")

    async def scenario():
        async with workbench(repo) as (app, pilot, seen):
            await until(pilot, lambda: of_type(seen, OrchestratorSeen), what="the reader")
            (repo / ".a2a/a2a.db").unlink()
            assert await _shown_then_refused(app, pilot, seen, "store_missing") == "store_missing"
            assert not (repo / ".a2a/a2a.db").exists()

    run(scenario())
