"""Leaving the workbench and being called back to it: `q` detaches (everything runs on), `Q`
quits for good after saying what stops, `!` lists what waits for the user, and a call from the
orchestrator rings this window's bell. Also the Alt-key that tmux makes of Esc and a quick key.

A mixin of the app (it uses the app's services, host and state); the app stays about panels.
"""

# Imports inside functions: screens and the core they need load when first opened, not for the
# workbench's first frame (bench/run_all.py --only workbench).

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events, work

from a2a_tui.errors import A2AError
from a2a_tui.payloads import payload_of
from a2a_tui.tui.messages import ActionRequested, PaneJumped, WaitingSeen
from a2a_tui.tui.services import leave_tmux

if TYPE_CHECKING:
    from textual.app import App

    from a2a_tui.tui.needs import AwayNeeds

    class _Base(AwayNeeds, App[None]):  # what this part needs of the app it is mixed into
        ...
else:
    _Base = object


class Away(_Base):
    """What the app does about the user being away (see the module's docstring)."""

    def action_detach(self) -> None:
        self.detach()

    def action_help_quit(self) -> None:
        """Ctrl-C, pressed out of habit: a2a's own keys for leaving (Textual would name its
        ctrl+q, which a2a does not use)."""
        self.notify("q detaches (the agents keep running); Q quits a2a for this repository",
                    title="Leaving?")

    async def action_quit(self) -> None:
        """Quit for good, once the user has read what stops and said yes."""
        from a2a_tui.tui.screens.confirm import ConfirmScreen

        what = ("the orchestrator hosted here" if self.host is not None else
                f"the orchestrator ({self.orchestrator})")
        text = (f"Stops: this workbench and {what}. Nothing is delivered to the agents — no"
                " queued prompt, gate feedback or board answer — until `a2a up` starts it"
                " again.\nKeeps running: the agents in their tmux windows.\nKept: the store"
                " and the worktrees.\n\n(q alone detaches and leaves everything running;"
                " `a2a down` ends the agents too.)")

        def then(yes: bool | None) -> None:
            if yes:
                self.quit_for_good()

        self.push_screen(ConfirmScreen("Quit a2a for this repository?", text,
                                       yes="y: quit"), then)

    async def on_event(self, event: events.Event) -> None:
        # tmux holds a lone Esc for its escape-time (a server-wide option, 500 ms unless the
        # user set it) and sends Esc + a key typed within it as one Alt-key. An Alt-key nothing
        # here binds is read as what was typed: Esc, then the key.
        if (isinstance(event, events.Key) and event.key.startswith("alt+")
                and not event.is_forwarded and len(event.key) > 4
                and event.key not in self.active_bindings):
            key = event.key[4:]
            for k, ch in (("escape", "\x1b"), (key, event.character[-1:]
                                                if event.character else None)):
                self.post_message(events.Key(k, ch))
            return
        await super().on_event(event)

    @work(thread=True, exit_on_error=False, group="leave", name="detach")
    def detach(self) -> None:
        """`q`: the tmux client detaches; this app, the orchestrator and the agents run on.
        Outside the repository's tmux session there is nothing to detach: quit instead."""
        if not leave_tmux(self.services.repo, self.services.tmux_socket):
            self.call_from_thread(self.action_quit)

    @work(thread=True, exit_on_error=False, group="leave", name="quit")
    def quit_for_good(self) -> None:
        """After the user confirmed: stop the orchestrator (hosted here: on the way out), leave
        tmux, exit."""
        try:
            if self.host is None:
                self.services.sessions.stop_orchestrator()
        except A2AError as err:
            self.call_from_thread(self.notify, err.message, title="quit", severity="error",
                                  timeout=30)
            return
        try:
            leave_tmux(self.services.repo, self.services.tmux_socket)
        finally:
            self.call_from_thread(self.exit)

    def action_waiting(self) -> None:
        """`!`: what waits for the user, Enter goes to it; the rejections and stops shown count
        as seen."""
        from a2a_tui.tui.screens.waiting import WaitingScreen

        self.push_screen(WaitingScreen(self.waiting), self.go_to)
        if any(t.kind in ("rejection", "stop") for t in self.waiting):
            self.post_message(ActionRequested("seen", lambda w: w.sessions.waiting_seen(),
                                              WaitingSeen))

    def go_to(self, thing) -> None:
        """Where a thing that waits is acted on: a question on the Board, a pane in tmux (and
        its row on Sessions), a rejected or stopped attempt's card on the Gate."""
        if thing is None:
            return
        if thing.kind == "question":
            self.show_row("board", thing.ref)
        elif thing.kind in ("waiting", "stalled"):
            self.show_row("sessions", thing.ref)
            sid = thing.ref
            self.post_message(ActionRequested(f"jump to {sid}", lambda w: w.sessions.jump(sid),
                                              PaneJumped))
        else:
            gate = self.panel("gate")
            card = next((k for k, g in gate.rows.items() if g.attempt == thing.ref),
                        thing.ref.rsplit("-a", 1)[0])
            self.show_row("gate", card)

    def show_row(self, scope: str, key: str) -> None:
        """Focus a panel on the row `key` (its filter cleared when it hides that row)."""
        panel = self.panel(scope)
        if key in panel.rows and key not in panel.shown:
            panel.action_clear_filter()
        # The panels' own screen: a modal closing now gives that screen back its focus.
        panel.screen.set_focus(panel.table)
        if key in panel.shown:
            panel.select(key)
        else:
            panel.wanted = key   # not read yet: selected when it comes

    def called(self, calls: list) -> None:
        """The orchestrator called the user: ring this window's bell (tmux flags the window
        while the user is in another one) and say what is new, once per call."""
        for e in calls:
            self.bell()
            new = payload_of(e.kind, e.payload).new or []
            text = "\n".join(t.get("text", "") for t in new[:5])
            self.notify(text or "something waits for you", title="a2a calls you (! lists it)",
                        severity="warning", timeout=10)
