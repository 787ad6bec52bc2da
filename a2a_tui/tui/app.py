"""The workbench app and its factory (`make_app`), used alike by `a2a up` and by the tests.

Threads: a store reader (sleeps until the store's files change, then reads only what changed),
an action runner (the user's actions, one at a time, in order), the hosted orchestrator, and a
worker per slow action (verify). They only post messages; the handlers here own every change of
what is shown.
"""

# Imports inside functions: screens and the core they need load when first opened, not for the
# workbench's first frame (bench/run_all.py --only workbench).

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from functools import partial

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.css.query import NoMatches
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from a2a_tui.errors import A2AError
from a2a_tui.kinds import GateEvent
from a2a_tui.repo import Repo
from a2a_tui.sentences import sentence
from a2a_tui.store.watch import store_changes
from a2a_tui.tui import actions, fmt, queries, store_health
from a2a_tui.tui.away import Away
from a2a_tui.tui.cardflow import CardFlows
from a2a_tui.tui.chrome import NarrationLine, PanelGrid, WorkbenchFooter
from a2a_tui.tui.messages import (
    ACTED,
    ActionRequested,
    OrchestratorSeen,
    OrchestratorStarted,
    OrchestratorStopped,
    OrchestratorUnavailable,
    SearchWanted,
    StoreRead,
    StoreSearched,
    UserActed,
    UserActionRefused,
    UserSaid,
)
from a2a_tui.tui.palette import Palette
from a2a_tui.tui.panels.base import Panel
from a2a_tui.tui.panels.board import BoardPanel
from a2a_tui.tui.panels.events import EventsPanel
from a2a_tui.tui.panels.gate import GatePanel
from a2a_tui.tui.panels.inbox import InboxPanel
from a2a_tui.tui.panels.sessions import SessionsPanel
from a2a_tui.tui.screens.help import HelpScreen
from a2a_tui.tui.services import OrchestratorHost, Workbench

log = logging.getLogger(__name__)
PANEL_TYPES: tuple[type[Panel], ...] = (SessionsPanel, BoardPanel, InboxPanel, GatePanel,
                                        EventsPanel)


def _on_each(*types: type) -> Callable:
    """`@on` for several message types (Textual dispatches decorated handlers by exact type)."""
    def deco(fn: Callable) -> Callable:
        for t in types:
            fn = on(t)(fn)
        return fn
    return deco


class StatusLine(Static):
    DEFAULT_CSS = """
    StatusLine { dock: top; height: 1; background: $panel; color: $text; padding: 0 1; }
    """


class WorkbenchApp(Palette, CardFlows, Away, App[None]):
    """Sessions, Board, Inbox, Gate and Events around the agents' tmux panes."""

    TITLE = "a2a"
    BINDINGS = actions.bindings("app")
    DEFAULT_CSS = """
    #main {
        grid-size: 2 3;
        grid-columns: 1fr 1fr;
        grid-rows: 1fr 1fr 8;
        grid-gutter: 0;
    }
    #main > EventsPanel { column-span: 2; }
    #main.-short Panel > .detail { max-height: 2; }
    /* A toast as wide as its text needs (up to most of the screen), and the toasts never taller
       than the screen: Textual's, half the width and as tall as its text, grew off the top of
       a small screen, its title and first lines (the reason) lost. A longer one is cut at
       the bottom. */
    ToastRack Toast { width: auto; max-width: 80vw; max-height: 70vh; }
    ToastRack { max-height: 90vh; }
    """

    def __init__(self, services: Workbench, *, host: OrchestratorHost | None = None,
                 now: Callable[[], int] = time.time_ns, tick_s: float = 1.0) -> None:
        super().__init__()
        self.services = services
        self.host = host
        self.now = now
        self.tick_s = tick_s
        self.orchestrator = "…" if host is None else "starting…"
        self.last_seq = 0
        self.waiting: list = []           # what waits for the user (panes.calls.Waiting)
        self.store_problem: str | None = None   # the store gone, replaced or taking no writes
        self._reading = None              # the store reader's connection (tui/store_health.py)
        self._stop = threading.Event()
        self._actions: queue.SimpleQueue[ActionRequested | None] = queue.SimpleQueue()

    # --- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield StatusLine(self._status_text(), id="status")
        yield NarrationLine(id="narration")
        with PanelGrid(id="main"):
            yield SessionsPanel(now=self.now, id="sessions")
            yield BoardPanel(id="board")
            yield InboxPanel(id="inbox")
            yield GatePanel(reads=self.services.reads, id="gate")
            yield EventsPanel(id="events")
        yield WorkbenchFooter(compact=True)

    def on_mount(self) -> None:
        # The first read happens here, before the first frame is painted (its queries are
        # bounded: a few ms with 100k events), so that frame already shows the store; the
        # reader thread then follows the changes after it.
        last = None
        try:
            with self.services.store() as store:
                snap = queries.load(store)
            self._store_read(StoreRead(snap))
            last = snap.last_seq
        except Exception:  # the reader thread reads it again, and shows what goes wrong
            log.exception("first read of the store failed")
        # The reader (and its watch) starts once the first frame is out.
        self.call_after_refresh(self.read_store, last)
        self.run_actions()
        if self.host is not None:
            self.host_orchestrator()
        self.set_interval(self.tick_s, self._tick)
        self.set_interval(store_health.CHECK_S, self._check_store)
        self.query_one(SessionsPanel).table.focus()

    def panel(self, scope: str) -> Panel:
        # The panels live on the first screen, whichever screen (help, palette) is on top. Once
        # the app has closed there is none: callers already treat a missing panel as closing.
        if not self.screen_stack:
            raise NoMatches(f"#{scope}: the workbench has closed")
        return self.screen_stack[0].query_one(f"#{scope}", Panel)

    def _status_text(self) -> Text:
        t = Text()
        t.append("a2a ", style="bold")
        t.append(self.services.repo.root.name, style="bold cyan")
        if self.store_problem:
            t.append(" · ")
            t.append(f"⚠ {self.store_problem}", style="bold reverse red")
        if self.waiting:
            t.append(" · ")
            # What waits, by kind: the count says what it is made of (2 questions on the
            # Board, 1 rejection on the Gate), short enough for an 80-column status line.
            t.append(f"⚑ {fmt.waiting_summary(self.waiting)} (!)", style="bold reverse")
        t.append(f" · orchestrator: {self.orchestrator} · event #{self.last_seq}", style="dim")
        t.append(" · ? help", style="dim")
        return t

    def _show_status(self) -> None:
        try:
            self.query_one(StatusLine).update(self._status_text())
        except NoMatches:  # a worker's news landing while the app closes: nothing to show it on
            return

    def _tick(self) -> None:
        try:
            sessions = self.query_one(SessionsPanel)
            if sessions.rows:
                sessions.tick()
        except NoMatches:  # closing: nothing left to tick
            return

    def _check_store(self) -> None:
        self._store_problem(store_health.problem(self._reading, self.host, self.services.repo))

    def _store_problem(self, text: str | None) -> None:
        """Say a store problem loudly, once (the status line keeps it while it lasts)."""
        if text == self.store_problem:
            return
        self.store_problem = text
        self._show_status()
        if text:
            self.notify(text, title="store", severity="error", timeout=30)

    # --- workers --------------------------------------------------------------------------
    @work(thread=True, exclusive=True, exit_on_error=False, group="store", name="store reader")
    def read_store(self, last: int | None = None) -> None:
        self._settings_read()
        holder: tuple[int | None] | None = None
        with self.services.store() as store:
            self._reading = store
            for _ in store_changes(self.services.repo.db_path, self._stop):
                snap = queries.load(store, after=last)
                # Not hosted here: who serves the repository (a flock and a read: cheap), said
                # when it changes; a killed one leaves no event, the store's safety net sees it.
                if self.host is None and holder != (
                        now := (OrchestratorHost.holder(self.services.repo),)):
                    holder = now
                    self.post_message(OrchestratorSeen(now[0]))
                if last is not None and snap.last_seq == last:
                    continue
                last = snap.last_seq
                self.post_message(StoreRead(snap))

    def _settings_read(self) -> None:
        """The layout from the user's settings (read after the first frame: pydantic)."""
        try:
            rows = self.services.settings().events_rows
        except A2AError as err:
            self.call_from_thread(self.notify, err.message, title="settings",
                                  severity="error", timeout=30)
            return
        self.call_from_thread(self._layout, rows)

    def _layout(self, events_rows: int) -> None:
        try:
            grid = self.query_one("#main", PanelGrid)
        except NoMatches:
            return
        grid.events_rows = events_rows
        grid.share(grid.size.height)

    @work(thread=True, exclusive=True, exit_on_error=False, group="actions", name="user actions")
    def run_actions(self) -> None:
        while (req := self._actions.get()) is not None:
            self._carry_out(req)

    def _carry_out(self, req: ActionRequested) -> None:
        try:
            done = req.call(self.services)
        except A2AError as err:
            self.post_message(UserActionRefused(req.what, err.code, err.message))
        except Exception as err:  # a bug must not take the workbench down: show it, log it
            log.exception("action %s failed", req.what)
            self.post_message(UserActionRefused(req.what, "failed", repr(err)))
        else:
            self.post_message(req.done(done.summary, done.data))

    @work(thread=True, exit_on_error=False, group="orchestrator", name="orchestrator")
    def host_orchestrator(self) -> None:
        assert self.host is not None
        try:
            pid = self.host.start()
        except A2AError as err:
            self.post_message(OrchestratorUnavailable(err.message))
            return
        self.post_message(OrchestratorStarted(pid))
        self.post_message(OrchestratorStopped(self.host.wait()))

    def on_unmount(self) -> None:
        # The workers run in asyncio's executor, which the app waits for on its way out: each
        # must be told to end, and the hosted orchestrator stopped (that ends host_orchestrator).
        self._stop.set()
        self._actions.put(None)
        if self.host is not None:
            self.host.stop()

    # --- messages ---------------------------------------------------------------------------
    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker that dies says so, loudly: the panels would otherwise go quietly stale."""
        if event.state != WorkerState.ERROR:
            return
        err = event.worker.error
        log.error("worker %s failed: %r", event.worker.name, err)
        if isinstance(err, A2AError) and err.code.startswith("store_"):
            self._store_problem(f"{err.code}: {err.message}")
        if event.worker.name == "orchestrator":
            self.orchestrator = f"failed: {err!r}"
            self._show_status()
        self.notify(f"{err!r}", title=f"{event.worker.name} failed", severity="error",
                    timeout=60)

    @on(StoreRead)
    def _store_read(self, message: StoreRead) -> None:
        snap = message.snapshot
        try:
            for scope in queries.PANELS:
                rows = getattr(snap, scope)
                if rows is not None:
                    self.panel(scope).show_rows(rows)
            if snap.events or snap.reset_events:
                self.query_one(EventsPanel).append(snap.events, reset=snap.reset_events)
            if snap.narration is not None:
                self.query_one(NarrationLine).show_step(*snap.narration)
        except NoMatches:
            # A read that lands while the app closes finds its panels already taken apart.
            return
        self.last_seq = snap.last_seq
        self.waiting = snap.waiting
        self._show_status()
        follow = getattr(self.screen, "follow_store", None)   # the metrics screen, when shown
        if follow is not None:
            follow(snap.last_seq)
        if not snap.reset_events:
            self.called([e for e in snap.events if e.kind == "user_called"])
            for e in snap.events:   # a delivery is the user's next step: said where they look
                if e.kind == GateEvent.SUBMITTED:
                    self.notify(f"{sentence(e)}: `v` on the Gate panel verifies it",
                                title="submitted", timeout=8)

    @on(SearchWanted)
    def _search_wanted(self, message: SearchWanted) -> None:
        message.stop()
        scope, text = message.scope, message.text
        self.run_worker(partial(self._search, scope, text), thread=True, exclusive=True,
                        group=f"search-{scope}", exit_on_error=False, name=f"search {scope}")

    def _search(self, scope: str, text: str) -> None:
        with self.services.store() as store:
            found = queries.search(store, scope, text)
        self.post_message(StoreSearched(scope, text, found))

    @on(StoreSearched)
    def _store_searched(self, message: StoreSearched) -> None:
        try:
            self.panel(message.scope).show_found(message.text, message.rows)
        except NoMatches:   # closing
            return

    @on(ActionRequested)
    def _action_requested(self, message: ActionRequested) -> None:
        message.stop()
        if message.slow:
            self.run_worker(partial(self._carry_out, message), thread=True, group="slow",
                            exit_on_error=False, name=message.what)
            self.notify(f"{message.what}: started", timeout=3)
        else:
            self._actions.put(message)

    @on(UserActionRefused)
    def _refused(self, message: UserActionRefused) -> None:
        if message.code == "card_integrated" and message.what.startswith("claim "):
            self.ask_claim_again(message.what.removeprefix("claim "), message.message)
            return
        self.notify(f"{message.message} [{message.code}]", title=message.what,
                    severity="error", timeout=8)

    @_on_each(*ACTED)
    def _acted(self, message: UserActed) -> None:
        self.notify(message.summary, timeout=5)

    @on(OrchestratorStarted)
    def _orch_started(self, message: OrchestratorStarted) -> None:
        self.orchestrator = f"hosted here (pid {message.pid})"
        self._show_status()

    @on(OrchestratorSeen)
    def _orch_seen(self, message: OrchestratorSeen) -> None:
        self.orchestrator = (f"pid {message.pid}" if message.pid is not None else
                             "not running: nothing is delivered (`a2a up`)")
        self._show_status()

    @on(OrchestratorUnavailable)
    def _orch_unavailable(self, message: OrchestratorUnavailable) -> None:
        self.orchestrator = "not hosted"
        self._show_status()
        self.notify(message.reason, title="orchestrator", severity="warning", timeout=10)

    @on(OrchestratorStopped)
    def _orch_stopped(self, message: OrchestratorStopped) -> None:
        self.orchestrator = "stopped" + (f": {message.error}" if message.error else "")
        self._show_status()
        if message.error:
            self.notify(message.error, title="orchestrator stopped", severity="error",
                        timeout=30)

    # --- actions ------------------------------------------------------------------------------
    def action_help(self) -> None:
        note = ("q detaches from tmux: the workbench, the orchestrator and the agents keep"
                " running, and `a2a up` comes back to them. Q quits for good (it asks first)."
                " tmux's own keys work as usual (prefix + w lists the agents' windows).")
        self.push_screen(HelpScreen(self.why, note, legend=True))

    def action_message(self) -> None:
        # lazy: the editor's TextArea adds ~30 ms to the first frame, and most runs never open it
        from a2a_tui.tui.screens.editor import Draft, EditorScreen

        def then(draft: Draft | None) -> None:
            if draft:
                self.post_message(ActionRequested(
                    f"{draft.kind} to the ideation controller",
                    lambda w: w.board.say(draft.text, draft.kind), UserSaid))

        self.push_screen(EditorScreen("To the ideation controller",
                                      "recorded as your input, then queued to its pane",
                                      kinds=("message", "approval", "refusal")), then)

    def action_metrics(self) -> None:
        from a2a_tui.tui.screens.metrics import MetricsScreen

        if isinstance(self.screen, MetricsScreen):
            self.pop_screen()
        else:
            self.push_screen(MetricsScreen(self.services))



def make_app(repo: Repo, *, tmux_socket: str | None = None, host_orchestrator: bool = True,
             now: Callable[[], int] = time.time_ns, tick_s: float = 1.0
             ) -> tuple[WorkbenchApp, Workbench, OrchestratorHost | None]:
    """Build the app with its services. The caller stops the host after the app exits."""
    services = Workbench(repo, tmux_socket)
    host = OrchestratorHost(repo, tmux_socket) if host_orchestrator else None
    return WorkbenchApp(services, host=host, now=now, tick_s=tick_s), services, host
