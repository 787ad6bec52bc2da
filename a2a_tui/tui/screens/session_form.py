"""The new-session form: role, CLI, model and effort, options, and optionally the attempt whose
worktree the session works in. The CLI starts on one installed here: the card's executor or the
role's CLI when installed, else the first real CLI on PATH, else the demo agent (a CLI not
installed is marked so, and refused with the way on). The other fields start from the user's
config for the role on that CLI (`[clis.<cli>]`, and `[roles.<role>]` where written for that
CLI: settings.launch), and follow a change of role or CLI; Ctrl-S starts it, Esc cancels."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical
from textual.widgets import Input, Label, Select, Static

from a2a_tui.profiles import installed, not_installed
from a2a_tui.settings import RoleDefaults
from a2a_tui.tui.chrome import FORM_KEYS, BoxScreen, WorkbenchFooter


@dataclass(frozen=True)
class SessionSpec:
    """What the form asks for: the arguments of `a2a session new`."""

    role: str
    cli: str
    model: str
    effort: str
    options: tuple[str, ...]
    attempt: str | None
    assign: bool = False     # its first prompt is the attempt's task (lifecycle.new)


class NewSessionScreen(BoxScreen[SessionSpec | None]):
    """Returns the session to start, or None when cancelled."""

    BINDINGS = [Binding("ctrl+s", "start", "Start", priority=True),
                Binding("escape", "cancel", "Cancel", priority=True),
                *FORM_KEYS]
    DEFAULT_CSS = """
    NewSessionScreen > Vertical { max-width: 90; max-height: 95%; }
    NewSessionScreen Grid { grid-size: 2; grid-columns: 12 1fr; grid-rows: 3; height: auto; }
    NewSessionScreen Label { padding: 1 0 0 0; }
    NewSessionScreen .hint { color: $text-muted; padding: 0; }
    NewSessionScreen .problem { color: $error; height: auto; }
    """

    def __init__(self, defaults: Callable[[str, str | None], RoleDefaults],
                 roles: Sequence[str], clis: Sequence[str], attempts: Sequence[str],
                 role: str = "worker", attempt: str | None = None,
                 title: str = "New session", assign: bool = False, preferred: str = "",
                 here: Collection[str] | None = None) -> None:
        super().__init__()
        # The CLIs installed here (None: looked up on PATH), and the card's executor's CLI.
        self.here = frozenset(c for c in clis if installed(c)) if here is None else here
        self.preferred = preferred
        self.defaults = defaults
        self.roles = roles
        self.clis = clis
        self.attempts = attempts
        self.role = role
        self.attempt = attempt
        self.title_text = title
        self.assign = assign      # a session on an attempt is given its task as it starts
        self.cli: str | None = None

    def start_cli(self, role_cli: str) -> str:
        """The CLI the form starts on: the card's, then the role's, then the first of the list,
        that is installed here; the demo agent when none is."""
        return next((c for c in (self.preferred, role_cli, *self.clis) if c and c in self.here),
                    "demo")

    def compose(self) -> ComposeResult:
        d = self.defaults(self.role, self.start_cli(self.defaults(self.role, None).cli))
        self.cli = d.cli or None
        with Vertical() as box:
            box.border_title = self.title_text
            box.border_subtitle = "Ctrl-S start · Esc cancel"
            with Grid():
                yield Label("Role")
                yield Select([(r, r) for r in self.roles], value=self.role,
                             allow_blank=False, id="role")
                yield Label("CLI")
                yield Select([(c if c in self.here else f"{c} (not installed)", c)
                              for c in self.clis], value=d.cli or Select.NULL,
                             prompt="choose a CLI", id="cli")
                yield Label("Model")
                yield Input(d.model, placeholder="the CLI's default", id="model")
                yield Label("Effort")
                yield Input(d.effort, placeholder="the CLI's default", id="effort")
                yield Label("Options")
                yield Input(shlex.join(d.options), placeholder="passed to the CLI as they are",
                            id="options")
                yield Label("Attempt")
                yield Select([(a, a) for a in self.attempts], prompt="none: the repository",
                             value=self.attempt if self.attempt in self.attempts
                             else Select.NULL, id="attempt")
            yield Label("recorded as your input; the session opens in a new tmux window"
                        + ("; its first prompt is the attempt's task: the card, the checks and"
                           " how to deliver" if self.assign else ""), classes="hint")
            yield Static("", classes="problem")
        yield WorkbenchFooter(compact=True)

    def on_mount(self) -> None:
        # With the role given (a claimed attempt's worker), the CLI is what is left to pick.
        first = "#cli" if self.attempt else "#role"
        self.query_one(first, Select).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "role" and event.value != self.role:
            self.role = str(event.value)
            self._fill(self.defaults(self.role,
                                     self.start_cli(self.defaults(self.role, None).cli)),
                       cli=True)
        elif event.select.id == "cli" and event.value is not Select.NULL \
                and event.value != self.cli:
            self.cli = str(event.value)
            self._fill(self.defaults(self.role, self.cli), cli=False)

    def _fill(self, d: RoleDefaults, *, cli: bool) -> None:
        """The fields a role or CLI gives (the role's model and options only for its CLI)."""
        if cli:
            self.cli = d.cli or None
            self.query_one("#cli", Select).value = d.cli or Select.NULL
        self.query_one("#model", Input).value = d.model
        self.query_one("#effort", Input).value = d.effort
        self.query_one("#options", Input).value = shlex.join(d.options)

    def action_start(self) -> None:
        self.after_fields(self._start)     # on what the fields show, their last keys taken

    def _start(self) -> None:
        if self.app.screen is not self:
            return
        cli = self.query_one("#cli", Select).value
        problem = self.query_one(".problem", Static)
        if cli is Select.NULL:
            problem.update("choose a CLI first")
            return
        if cli not in self.here:
            problem.update(not_installed(str(cli)))
            return
        try:
            options = tuple(shlex.split(self.query_one("#options", Input).value))
        except ValueError as exc:
            problem.update(f"options: {exc}")
            return
        attempt = self.query_one("#attempt", Select).value
        self.dismiss(SessionSpec(
            role=self.role, cli=str(cli), model=self.query_one("#model", Input).value.strip(),
            effort=self.query_one("#effort", Input).value.strip(), options=options,
            attempt=None if attempt is Select.NULL else str(attempt),
            assign=self.assign and attempt is not Select.NULL))

    def action_cancel(self) -> None:
        self.dismiss(None)
