"""The metrics screen (`M` from anywhere): four small charts where a picture reads faster than a
table — first-pass rate per day, rejections by step, attention per day, mean scores by model —
over tabs with the tables `a2a metrics` prints, and the retrospectives. It follows the store: the
app hands it each new last event, and a worker computes the views again (from the events, as
the CLI does; the history is cached by the last event seq)."""

# Imports inside functions: screens and the core they need load when first opened, not for the
# workbench's first frame (bench/run_all.py --only workbench).

from __future__ import annotations

import time
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import Grid
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static, TabbedContent, TabPane
from textual_plotext import PlotextPlot

from a2a_tui import metrics
from a2a_tui.metrics import tables
from a2a_tui.metrics.records import Retro
from a2a_tui.tui.services import Workbench

TABS: dict[str, tuple[str, list[str]]] = {
    "tasks": ("Tasks", tables.TASKS_HEAD),
    "usage": ("Usage", tables.USAGE_HEAD),
    "first-pass": ("First pass", tables.PASS_HEAD),
    "rejections": ("Rejections", tables.STEP_HEAD),
    "attention": ("Attention", tables.ATTENTION_HEAD),
    "scores": ("Scores", tables.SCORE_HEAD),
    "retros": ("Retros", ["#", "when", "by", "retrospective"]),
}


class MetricsComputed(Message):
    """The views were computed again, up to event `last_seq`."""

    def __init__(self, last_seq: int, views: dict[str, Any], series: dict[str, Any],
                 retros: list[Retro]) -> None:
        super().__init__()
        self.last_seq, self.views, self.series, self.retros = last_seq, views, series, retros


class Chart(PlotextPlot):
    """A small bar chart; says so when there is nothing to draw yet.

    Colours are named and, with two series, the bars are numbered (the names go in the border):
    left to itself plotext picks series colours and places crowded labels differently from run
    to run (it iterates over sets), and a picture that changes by itself misleads."""

    DEFAULT_CSS = """
    Chart { height: 1fr; border: round $panel; }
    """
    COLORS = ("cyan", "magenta")

    def __init__(self, title: str, *, id: str) -> None:  # noqa: A002 (Textual's name)
        super().__init__(id=id)
        self.caption = self.border_title = title
        self.labels: list[str] = []

    def render(self) -> RenderResult:
        if self.labels:
            # Every label under its bar, cut to the room it has (plotext drops what overlaps).
            room = max(3, (self.size.width - 8) // len(self.labels) - 4)
            self.plt.xticks(list(range(1, len(self.labels) + 1)),
                            [x if len(x) <= room else x[:room - 1] + "…" for x in self.labels])
        return super().render()

    def bars(self, labels: list[str], series: list[list[float]], *,
             names: tuple[str, ...] = (), top: float | None = None, unit: str = "",
             empty: str = "nothing yet") -> None:
        """One bar per label for each series, from zero (to `top`, or a little above the
        highest value), each bar with its value written over it: one day of data is one bar,
        and a bar of zero is no bar at all, so the number is what says it."""
        plt = self.plt
        plt.clear_figure()
        self.labels, self.border_subtitle, self.border_title = [], "", self.caption
        if not labels:
            plt.title(empty)
        else:
            high = top or max(1, *(x for v in series for x in v)) * 1.1
            plt.ylim(0, high)
            # Whole numbers on the axis (counts, scores 0-3, percents): plotext would tick a
            # count of one at 0.37, 0.73, 1.10; a bar's own value keeps its decimals. Two ticks,
            # zero and the top: more, in a chart a few rows high, landed on a row apiece by
            # chance (the metrics snapshot drew 100 or 50 on the same row from run to run).
            plt.yticks([0, int(high)] if int(high) > 0 else [0])
            plt.xlim(0.5, len(labels) + 0.5)
            width = 0.8 / len(series)
            for k, values in enumerate(series):
                offset = (k - (len(series) - 1) / 2) * width
                plt.bar([i + 1 + offset for i in range(len(labels))], values, width=width * 0.8,
                        color=self.COLORS[k])
                for i, v in enumerate(values):
                    plt.text(f"{v:g}{unit}", i + 1 + offset, min(v + high * 0.06, high * 0.97),
                             alignment="center", color=self.COLORS[k])
            if names:   # in the border: plotext's own legend is drawn over the bars
                self.border_title = self.caption + " · " + "  ".join(
                    f"[{self.COLORS[k]}]■[/] {name}" for k, name in enumerate(names))
            if len(series) > 1:
                self.labels = [str(i + 1) for i in range(len(labels))]
                self.border_subtitle = " · ".join(f"{i + 1} {x}" for i, x in enumerate(labels))
            else:
                self.labels = list(labels)
        self.refresh()


class MetricsScreen(Screen[None]):
    """Charts over tables; Esc (or M) goes back to the workbench."""

    BINDINGS = [Binding("escape", "close", "Back", priority=True)]
    DEFAULT_CSS = """
    MetricsScreen #headline { height: 1; padding: 0 1; background: $panel; }
    MetricsScreen #charts { grid-size: 2 2; height: 2fr; min-height: 14; }
    MetricsScreen TabbedContent { height: 3fr; }
    MetricsScreen DataTable { height: 1fr; }
    """

    def __init__(self, services: Workbench) -> None:
        super().__init__()
        self.services = services
        self.shown_seq = -1
        self.wanted_seq = 0
        self.retros: list[Retro] = []

    def compose(self) -> ComposeResult:
        yield Static("metrics · reading the event log…", id="headline")
        with Grid(id="charts"):
            yield Chart("First-pass rate per day (%)", id="chart-first-pass")
            yield Chart("Rejections by step", id="chart-rejections")
            yield Chart("Attention per day (times)", id="chart-attention")
            yield Chart("Mean scores by model (0-3)", id="chart-scores")
        with TabbedContent(id="tabs"):
            for key, (title, head) in TABS.items():
                with TabPane(title, id=f"tab-{key}"):
                    table: DataTable = DataTable(cursor_type="row", zebra_stripes=True,
                                                 id=f"table-{key}")
                    table.add_columns(*head)
                    yield table
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.follow_store(0)

    def on_screen_resume(self) -> None:
        self.follow_store(getattr(self.app, "last_seq", 0))

    # --- following the store ---
    def follow_store(self, last_seq: int) -> None:
        """The store has events up to `last_seq`: compute again unless already shown."""
        self.wanted_seq = max(self.wanted_seq, last_seq)
        if last_seq == 0 or last_seq > self.shown_seq:
            self.compute()

    @work(thread=True, exclusive=True, exit_on_error=False, group="metrics", name="metrics")
    def compute(self) -> None:
        with self.services.store() as store:
            h = metrics.history(store)
            views = {name: fn(h) for name, fn in metrics.VIEWS.items()}
            self.post_message(MetricsComputed(h.last_seq, views, metrics.series_json(h), h.retros))

    @on(MetricsComputed)
    def _computed(self, message: MetricsComputed) -> None:
        if message.last_seq < self.shown_seq:
            return  # an older computation finishing late
        self.shown_seq = message.last_seq
        self._headline(message.views)
        self._charts(message.series)
        self._tables(message.views, message.retros)

    def _headline(self, v: dict[str, Any]) -> None:
        fp, at, us = v["first-pass"], v["attention"]["total"], v["usage"]["project"]
        t = Text()
        t.append("metrics ", style="bold")
        t.append(us["name"] or "-", style="bold cyan")
        t.append(f" · first pass {tables.fmt_rate(fp['rate'])} ({fp['first_pass']}/"
                 f"{fp['concluded']}) · {fp['rejections']} rejection(s) · model stopped early"
                 f" {fp['model_behaviour']['stopped_early']}× · self-check agreed"
                 f" {fp['self_check']['agreed']}/{fp['self_check']['reported']} · spot checks"
                 f" flagged {fp['spot_checks']['flagged']}/{fp['spot_checks']['answered']}"
                 " · needed you"
                 f" {at['count']}× ({tables.fmt_s(at['waited_s'])} waited, {at['open']} open)"
                 f" · {us['attempts']} attempt(s) · to event #{self.shown_seq}", style="dim")
        self.query_one("#headline", Static).update(t)

    def _charts(self, s: dict[str, Any]) -> None:
        fp = s["first_pass_by_day"]
        self.query_one("#chart-first-pass", Chart).bars(
            [d["day"][5:] for d in fp], [[round((d["rate"] or 0) * 100) for d in fp]], top=100,
            unit="%", empty="no attempt has ended yet")
        rej = s["rejections_by_step"]
        self.query_one("#chart-rejections", Chart).bars(
            [r["step"] for r in rej], [[r["count"] for r in rej]], empty="no rejection yet")
        att = s["attention_by_day"]
        self.query_one("#chart-attention", Chart).bars(
            [d["day"][5:] for d in att], [[d["count"] for d in att]],
            empty="you were not needed yet")
        sc = s["scores_by_model"]
        self.query_one("#chart-scores", Chart).bars(
            [g["model"] for g in sc],
            [[round(g["boundary_mean"] or 0, 1) for g in sc],
             [round(g["taste_mean"] or 0, 1) for g in sc]],
            names=("boundary", "taste"), top=3, empty="nothing scored yet")

    def _tables(self, v: dict[str, Any], retros: list[Retro]) -> None:
        self.retros = list(reversed(retros))
        rows = {
            "tasks": tables.task_rows(v["tasks"]), "usage": tables.usage_rows(v["usage"]),
            "first-pass": tables.pass_rows(v["first-pass"]),
            "rejections": tables.step_rows(v["first-pass"]),
            "attention": tables.attention_rows(v["attention"]),
            "scores": tables.score_rows(v["scores"]),
            "retros": [[r.id or "-", time.strftime("%Y-%m-%d %H:%M",
                                                   time.localtime(r.ts_ns / 1e9)),
                        r.session or "user", (r.text or "").strip().splitlines()[0][:80]
                        if (r.text or "").strip() else "-"] for r in self.retros],
        }
        for key, body in rows.items():
            table = self.query_one(f"#table-{key}", DataTable)
            cursor = table.cursor_row
            table.clear()
            for row in body:
                table.add_row(*(tables.cell(c) for c in row))
            if body:
                table.move_cursor(row=min(cursor, len(body) - 1))

    # --- keys ---
    def action_close(self) -> None:
        self.dismiss()

    @on(DataTable.RowSelected, "#table-retros")
    def _open_retro(self, event: DataTable.RowSelected) -> None:
        from a2a_tui.tui.screens.detail import TextScreen

        r = self.retros[event.cursor_row]
        self.app.push_screen(TextScreen(f"Retrospective {r.id or ''}", r.text or ""))
