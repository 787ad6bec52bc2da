"""docs/images/workbench.svg: the workbench as `a2a demo` shows it once its task is integrated,
taken with Textual's own screenshot support (`App.export_screenshot`).

The demo runs for real, in a World of its own (tests/support: a throwaway HOME and a private
tmux server, never yours): the director plays its scenario with demo agents, and once the
executive controller's report has been relayed (T-1 integrated, the two board questions open)
the workbench is rendered over that repository's store at a fixed size. Then the demo is
ended and the World removed. It needs tmux and takes about a minute: `docs/generate.py
--picture` only.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.support import World, a2a, rows, wait_until
from tests.tui.tui_support import until, workbench

PATH = Path("docs/images/workbench.svg")
SIZE = (120, 34)
TITLE = "a2a demo: T-1 integrated, two questions for you"


def _relayed(root: Path) -> bool:
    """The demo's state to show: T-1 integrated, the report relayed to you, both questions
    open, every agent idle again."""
    return (rows(root, "SELECT state FROM attempts WHERE id = 'T-1-a1'")
            == [{"state": "integrated"}]
            and len(rows(root, "SELECT 1 FROM inbox WHERE kind = 'report'")) == 2
            and len(rows(root, "SELECT 1 FROM board_items WHERE kind = 'question'")) == 2
            and rows(root, "SELECT COUNT(*) AS n FROM sessions WHERE state != 'idle'")
            == [{"n": 0}])


async def _render(root: Path, sock: str) -> str:
    async with workbench(root, size=SIZE, tmux_socket=sock) as (app, pilot, _seen):
        await until(pilot, lambda: app.orchestrator != "…", what="the status line")
        await pilot.pause(0.5)
        return app.export_screenshot(title=TITLE)


def take(dest: Path) -> Path:
    """Run the demo, render the workbench, write the SVG to `dest`; returns `dest`."""
    with World(repo=False) as world:
        world.enter()
        root = world.base / "demo"
        r = a2a("demo", "--no-attach", "--json", "--tmux-socket", world.sock, "--dir",
                str(root), cwd=world.base, env={"A2A_DEMO_PACE": "0.3"}, base=world.env)
        assert r.code == 0, r.err
        wait_until(lambda: _relayed(root), timeout=180, what="the demo's report relayed")
        svg = asyncio.run(_render(root, world.sock))
        a2a("down", "--yes", "--repo", str(root), "--tmux-socket", world.sock,
            cwd=world.base, base=world.env)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(svg, encoding="utf-8")
    return dest
