"""The metrics screen: `M` opens it from anywhere, it shows what `a2a metrics` computes, it follows
the store as events arrive, and Esc (or `M`) goes back. An SVG snapshot over a fixed history."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from a2a_tui import metrics
from a2a_tui.metrics import tables
from a2a_tui.repo import Repo
from a2a_tui.store import Store
from a2a_tui.tui.app import make_app
from a2a_tui.tui.screens.metrics import MetricsScreen
from tests.metrics.metrics_support import T0, build_fixed
from tests.support import commit_in, write_card
from tests.tui.tui_support import run, until, workbench


@pytest.fixture
def fixed(repo, utc, monkeypatch):
    clock = [T0]

    def tick() -> int:
        clock[0] += 1_000_000_000
        return clock[0]

    with monkeypatch.context() as m:
        m.setattr(time, "time_ns", tick)
        build_fixed(repo, clock)
    return repo


def computed(repo: Path) -> dict:
    with Store(repo / ".a2a/a2a.db") as s:
        return metrics.compute_json(s)


def cells(app, key: str) -> list[list[str]]:
    table = app.screen.query_one(f"#table-{key}", DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def opened(pilot) -> MetricsScreen:
    await pilot.press("M")
    last = Store(Path(pilot.app.services.repo.root) / ".a2a/a2a.db").last_seq()
    await until(pilot, lambda: isinstance(pilot.app.screen, MetricsScreen)
                and pilot.app.screen.shown_seq == last, what="the metrics shown")
    await pilot.pause()
    return pilot.app.screen


def test_the_screen_shows_the_views_and_follows_the_store(fixed):
    async def scenario():
        async with workbench(fixed, size=(140, 44)) as (app, pilot, _seen):
            screen = await opened(pilot)
            m = computed(fixed)
            expect = {
                "tasks": tables.task_rows(m["tasks"]),
                "usage": tables.usage_rows(m["usage"]),
                "first-pass": tables.pass_rows(m["first_pass"]),
                "rejections": tables.step_rows(m["first_pass"]),
                "attention": tables.attention_rows(m["attention"]),
                "scores": tables.score_rows(m["scores"]),
            }
            for key, rows in expect.items():
                assert cells(app, key) == [[tables.cell(c) for c in r] for r in rows], key
            assert [r[:4] for r in cells(app, "tasks")] == [
                ["T-1", "bugfix", "S", "integrated"], ["T-2", "feature", "M", "integrated"],
                ["T-3", "refactor", "S", "abandoned"], ["(no task)", "-", "-", "-"]]
            head = str(screen.query_one("#headline", Static).render())
            assert "first pass 33% (1/3) · 2 rejection(s)" in head

            # A new attempt lands while the screen is open: it follows.
            r = Repo(fixed)
            from a2a_tui.gate import GateContext, claim

            with r.store() as store:
                g = GateContext(r, store)
                from a2a_tui.gate.cards.commands import add_card, ready_card

                add_card(g, write_card(fixed, "T-4"))
                ready_card(g, "T-4")
                c = claim(g, "T-4")
                commit_in(Path(c.worktree), {"src/app.py": "x\n"})
            await until(pilot, lambda: any(row[0] == "T-4" for row in cells(app, "tasks")),
                        what="T-4 on the screen")
            assert [row[3] for row in cells(app, "tasks") if row[0] == "T-4"] == ["open"]

            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, MetricsScreen),
                        what="back to the workbench")
            await opened(pilot)
            await pilot.press("M")
            await until(pilot, lambda: not isinstance(app.screen, MetricsScreen),
                        what="M closes it too")

    run(scenario())


def test_metrics_screen_snapshot(fixed, snap_compare):
    app, _services, _orch = make_app(Repo(fixed), host_orchestrator=False,
                                      now=lambda: T0 + 3 * 86_400 * 10**9, tick_s=3600)

    async def open_metrics(pilot):
        await until(pilot, lambda: all(p.loaded for p in pilot.app.query("Panel")),
                    what="every panel loaded")
        await opened(pilot)

    assert snap_compare(app, terminal_size=(120, 40), run_before=open_metrics)


def test_a_saved_retrospective_shows_and_opens(fixed, tmp_path):
    from textual.widgets import TabbedContent

    from a2a_tui.identity import Caller
    from a2a_tui.metrics import retro
    from a2a_tui.tui.screens.detail import TextScreen

    doc = tmp_path / "retro.md"
    doc.write_text("# Week one\nT-2 was rejected once at its tests.\n")
    with Store(fixed / ".a2a/a2a.db") as s:
        saved = retro.save(s, Caller(), str(doc))
        ts = s.one("SELECT ts_ns FROM events WHERE seq = ?", (saved.seq,))[0]

    async def scenario():
        async with workbench(fixed, size=(140, 44)) as (app, pilot, _seen):
            await opened(pilot)
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(ts / 1e9))
            assert cells(app, "retros") == [["R-1", when, "user", "# Week one"]]
            app.screen.query_one(TabbedContent).active = "tab-retros"
            app.screen.query_one("#table-retros", DataTable).focus()
            await pilot.pause()
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TextScreen), what="the text")
            assert app.screen.text == doc.read_text()

    run(scenario())
