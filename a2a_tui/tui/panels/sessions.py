"""Sessions: every managed agent pane, its state and how long it has held, its queue, its flags."""

# Imports inside functions: screens and the core they need load when first opened, not for the
# workbench's first frame (bench/run_all.py --only workbench).

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from rich.text import Text

from a2a_tui.errors import A2AError
from a2a_tui.tui import fmt
from a2a_tui.tui.messages import (
    ActionRequested,
    InjectionQueued,
    PaneJumped,
    PaneReleased,
    PanesPaused,
    SessionEnded,
    SessionForked,
    SessionRestarted,
    SessionRevived,
    SessionStarted,
)
from a2a_tui.tui.panels.base import Cell, Panel
from a2a_tui.tui.queries import SessionRow


class SessionsPanel(Panel[SessionRow]):
    SCOPE = "sessions"
    TITLE = "Sessions"
    SEARCHED = False   # every session is loaded: the filter sees them all
    EMPTY = "no sessions: n starts one (or `a2a session new ROLE`)"
    COLUMNS = (("id", "Session"), ("role", "Role"), ("state", "State"), ("flags", "Q"),
               ("attempt", "Attempt"), ("cli", "CLI"), ("box", "Box"))

    def __init__(self, now: Callable[[], int] = time.time_ns, **kwargs) -> None:
        super().__init__(**kwargs)
        self.now = now
        self._ages: dict[str, str] = {}   # the State cell's text as shown, per session

    def cells(self, r: SessionRow) -> Sequence[Cell]:
        return (Text(r.id, style="bold"), r.role, self._state(r), self._flags(r),
                r.attempt or "", f"{r.cli} {r.model}".strip(), self._box(r))

    @staticmethod
    def _box(r: SessionRow) -> Text:
        """Confined (its engine), or UNCONFINED; empty for a launch recorded before a2a
        confined sessions."""
        if r.confined is None:
            return Text("")
        if r.confined:
            return Text(r.confinement or "", style="dim")
        return Text("unconfined", style="bold red")

    def _state(self, r: SessionRow) -> Text:
        text = fmt.state(r.state, r.state_since_ns, self.now())
        if r.hint:
            text.append(" ?", style="bold magenta")
        return text

    @staticmethod
    def _flags(r: SessionRow) -> Text:
        text = Text()
        if r.paused:
            text.append("⏸", style="bold red")
        if r.queue:
            text.append(f"{r.queue}", style="bold cyan")
        if r.unknown:
            text.append("!", style="bold red")
        return text

    def detail(self, r: SessionRow) -> Text:
        t = Text()
        t.append(f"{r.id}", style="bold")
        t.append(f" · {r.role} · {r.cli_version or r.cli}"
                 + (f" · {r.model}" if r.model else "")
                 + (f" · pane {r.pane_id}" if r.pane_id else " · no pane"))
        t.append(" · ")
        t.append_text(self._state(r))
        if r.confined is False:
            t.append(f" · UNCONFINED: {r.unconfined_reason or 'no reason recorded'}",
                     style="bold red")
        elif r.confined:
            t.append(f" · confined ({r.confinement})")
        if r.in_flight:
            t.append(f" · in flight #{r.in_flight}")
        if r.queue:
            t.append(f" · {r.queue} queued", style="cyan")
        if r.paused:
            t.append(" · paused: injections held (p resumes)", style="red")
        if r.unknown:
            t.append(f"\n{r.unknown} dispatch(es) in unknown state: never re-sent; look at the"
                     " pane", style="red")
        if r.hint:
            t.append(f"\n{r.hint} (r releases)", style="magenta")
        return t

    def subtitle(self) -> str:
        busy = sum(r.state == "busy" for r in self.rows.values())
        queued = sum(r.queue for r in self.rows.values())
        return f"{len(self.rows)} · {busy} busy" + (f" · {queued} queued" if queued else "")

    def tick(self) -> None:
        """Re-render how long each state has held (no store read), only the cells whose text
        changed: a state held for minutes costs nothing between its minute marks."""
        for key, r in self.rows.items():
            text = self._state(r)
            if self._ages.get(key) != text.plain:
                self._ages[key] = text.plain
                if key in self.shown:
                    self.table.update_cell(key, "state", text)
        self.show_detail()

    def show_rows(self, rows: Sequence[SessionRow]) -> None:
        super().show_rows(rows)
        self._ages = {key: self._state(r).plain for key, r in self.rows.items()}

    # --- actions --------------------------------------------------------------------------
    def why_disabled(self, action: str, params: tuple[object, ...]) -> str | None:
        if action == "new_session":
            return None
        if action == "toggle_pause_all":
            if not any(r.state != "exited" for r in self.rows.values()):
                return "no session is running"
            return None
        r = self.selected
        if r is None:
            return self.nothing_selected()
        if action in ("restart", "revive"):
            return None if r.state == "exited" else (
                f"{r.id} is {r.state}: only an exited session restarts (x ends it first)")
        if action == "fork":
            return None
        if r.state == "exited":
            return f"{r.id} has exited (R restarts it, v revives its conversation)"
        if action == "jump" and not r.pane_id:
            return f"{r.id} has no pane yet"
        if action == "release" and r.state == "idle":
            return f"{r.id} is already idle"
        return None

    def action_jump(self) -> None:
        sid = self.selected.id  # type: ignore[union-attr]
        self.post_message(ActionRequested(f"jump to {sid}", lambda w: w.sessions.jump(sid),
                                          PaneJumped))

    def action_toggle_pause(self) -> None:
        r = self.selected
        assert r is not None
        self.post_message(ActionRequested(
            f"{'resume' if r.paused else 'pause'} {r.id}",
            lambda w: w.sessions.set_paused([r.id], not r.paused), PanesPaused))

    def action_toggle_pause_all(self) -> None:
        live = [r for r in self.rows.values() if r.state != "exited"]
        pause = not all(r.paused for r in live)
        self.post_message(ActionRequested(f"{'pause' if pause else 'resume'} all",
                                          lambda w: w.sessions.set_paused(None, pause),
                                          PanesPaused))

    def action_release(self) -> None:
        sid = self.selected.id  # type: ignore[union-attr]
        self.post_message(ActionRequested(f"release {sid}", lambda w: w.sessions.release(sid),
                                          PaneReleased))

    def action_inject(self) -> None:
        # lazy: the editor's TextArea adds ~30 ms to the first frame, and most runs never open it
        from a2a_tui.tui.screens.editor import Draft, EditorScreen

        r = self.selected
        assert r is not None

        def send(draft: Draft | None) -> None:
            if draft:
                self.post_message(ActionRequested(f"inject into {r.id}",
                                                  lambda w: w.sessions.inject(r.id, draft.text),
                                                  InjectionQueued))

        self.app.push_screen(EditorScreen(f"Prompt for {r.id} ({r.role}, {r.state})",
                                          "queued behind its other prompts; delivered when the"
                                          " pane is idle and not paused"), send)

    def action_new_session(self) -> None:
        # lazy: the form (and the settings' pydantic) load when it first opens
        from a2a_tui.profiles import CLIS
        from a2a_tui.tui.screens.session_form import NewSessionScreen, SessionSpec

        services = self.app.services  # type: ignore[attr-defined]
        try:
            settings = services.settings()
            attempts = services.reads.open_attempts()
        except A2AError as err:
            self.app.notify(f"{err.message} [{err.code}]", title="new session", severity="error")
            return

        def start(spec: SessionSpec | None) -> None:
            if spec is not None:
                self.post_message(ActionRequested(f"new {spec.role} session",
                                                  lambda w: w.sessions.new_session(spec),
                                                  SessionStarted))

        self.app.push_screen(NewSessionScreen(settings.launch, list(settings.roles), CLIS,
                                              attempts), start)

    def action_restart(self) -> None:
        sid = self.selected.id  # type: ignore[union-attr]
        self.post_message(ActionRequested(f"restart {sid}", lambda w: w.sessions.restart(sid),
                                          SessionRestarted))

    def action_revive(self) -> None:
        sid = self.selected.id  # type: ignore[union-attr]
        self.post_message(ActionRequested(f"revive {sid}", lambda w: w.sessions.revive(sid),
                                          SessionRevived))

    def action_fork(self) -> None:
        sid = self.selected.id  # type: ignore[union-attr]
        self.post_message(ActionRequested(f"fork {sid}", lambda w: w.sessions.fork(sid),
                                          SessionForked))

    def action_end_session(self) -> None:
        from a2a_tui.tui.screens.confirm import ConfirmScreen

        r = self.selected
        assert r is not None
        queued = f" The {r.queue} prompt(s) queued for it are kept." if r.queue else ""
        text = (f"End {r.id} ({r.role}, {r.cli}, {r.state})?\n\nIts pane {r.pane_id or ''} is"
                " closed: the CLI is hung up, whatever it is doing." + queued
                + " It is recorded as ended by you; R restarts it later.")

        def then(yes: bool | None) -> None:
            if yes:
                self.post_message(ActionRequested(f"end {r.id}",
                                                  lambda w: w.sessions.end_session(r.id),
                                                  SessionEnded))

        self.app.push_screen(ConfirmScreen(f"End session {r.id}", text, yes="y: end it"), then)
