"""SVG snapshots of the workbench at fixed sizes, over a store seeded with fixed times.

`pytest --snapshot-update tests/tui/test_tui_snapshots.py` rewrites them after an intended change
(look at the report before committing: `snapshot_report.html`)."""

from __future__ import annotations

import itertools
import time

import pytest

from a2a_tui.collab import board, inbox
from a2a_tui.gate.cards.commands import add_card
from a2a_tui.gate.context import GateContext
from a2a_tui.repo import Repo
from a2a_tui.tui.app import make_app
from tests.support import register_session, write_card
from tests.tui.tui_support import until

T0 = 1_767_225_600_000_000_000   # 2026-01-01 00:00:00 UTC
SEC = 1_000_000_000


@pytest.fixture
def seeded(repo, as_, utc, monkeypatch):
    """Four sessions, a card, a question with options, a finding and an inbox exchange; every
    record stamped by a clock that starts at T0 and moves one second per reading."""
    ticks = itertools.count()
    with monkeypatch.context() as m:
        m.setattr(time, "time_ns", lambda: T0 + next(ticks) * SEC)
        r = Repo(repo)
        add_card(GateContext(r, r.store()), write_card(repo, "T-1"))
        register_session(repo, "exec1", "executive", state="busy", since_ns=T0, cli="claude",
                         model="opus")
        register_session(repo, "idea1", "ideation", state="idle", since_ns=T0, cli="codex")
        register_session(repo, "w1", "worker", state="waiting", since_ns=T0 + 30 * SEC,
                         cli="gemini")
        register_session(repo, "w2", "worker", state="unknown", paused=True, since_ns=T0,
                         cli="demo", hint="probably idle — release?")
        board.ask(as_("exec1", "executive"), "Cache the parsed cards?",
                  ["a=Yes, in memory", "b=No, parse each time", "c=Only in the TUI"], "a",
                  "parsing costs 2 ms per card; the board reads them often")
        board.report(as_("w1", "worker"), "Flaky test", "tests/test_io.py fails one run in ten")
        idea, exe = as_("idea1", "ideation"), as_("exec1", "executive")
        inbox.post(idea, "assign", "Please run T-1", card="T-1")
        inbox.post(exe, "ack", "On it", ref="I-1")
        inbox.post(exe, "report", "T-1 verified, waiting to integrate", card="T-1", status="PASS",
                   ref="I-1")
    return repo


def app_of(repo):
    app, _services, _orch = make_app(Repo(repo), host_orchestrator=False,
                                      now=lambda: T0 + 95 * SEC, tick_s=3600)
    return app


async def loaded(pilot) -> None:
    await until(pilot, lambda: all(p.loaded for p in pilot.app.query("Panel"))
                and pilot.app.orchestrator != "…", what="every panel and the status loaded")
    await pilot.pause()


def test_workbench_at_80x24(seeded, snap_compare):
    assert snap_compare(app_of(seeded), terminal_size=(80, 24), run_before=loaded)


def test_workbench_at_140x40(seeded, snap_compare):
    assert snap_compare(app_of(seeded), terminal_size=(140, 40), run_before=loaded)


def test_workbench_at_250x60(seeded, snap_compare):
    assert snap_compare(app_of(seeded), terminal_size=(250, 60), run_before=loaded)


def test_the_gate_panel_focused_at_80x24(seeded, snap_compare):
    async def gate(pilot):
        await loaded(pilot)
        await pilot.press("tab", "tab", "tab")
        await pilot.pause()

    assert snap_compare(app_of(seeded), terminal_size=(80, 24), run_before=gate)


def test_a_board_question_opened(seeded, snap_compare):
    async def open_question(pilot):
        await loaded(pilot)
        await pilot.press("tab", "enter")
        await pilot.pause()

    assert snap_compare(app_of(seeded), terminal_size=(100, 30), run_before=open_question)


def test_help(seeded, snap_compare):
    async def help_(pilot):
        await loaded(pilot)
        await pilot.press("question_mark")
        await pilot.pause()

    assert snap_compare(app_of(seeded), terminal_size=(100, 30), run_before=help_)
