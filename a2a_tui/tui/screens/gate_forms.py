"""The gate's decisions from the workbench: both scores with their reasons (integrate, abandon;
abandon then asks yes or no through screens/confirm.py)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical
from textual.widgets import Input, Label, Static

from a2a_tui.tui.chrome import FORM_KEYS, BoxScreen, WorkbenchFooter


@dataclass(frozen=True)
class Scored:
    """What the user entered: each score 0-3 with its reason, and (abandon) why."""

    boundary: int
    boundary_reason: str
    taste: int
    taste_reason: str
    reason: str = ""


class ScoreScreen(BoxScreen[Scored | None]):
    """Both scores with reasons (and, with `ask_reason`, why): Tab moves, Ctrl-S sends, Esc
    cancels. Nothing is sent until every field is filled."""

    BINDINGS = [Binding("ctrl+s", "send", "Send", priority=True),
                Binding("escape", "cancel", "Cancel", priority=True),
                *FORM_KEYS]
    DEFAULT_CSS = """
    ScoreScreen > Vertical { max-width: 90; }
    ScoreScreen .hint { color: $text-muted; }
    ScoreScreen .problem { color: $error; height: auto; }
    ScoreScreen Grid { grid-size: 3; grid-columns: 10 7 1fr; height: auto; grid-rows: 1; }
    ScoreScreen Input { border: none; height: 1; padding: 0 1; }
    """

    def __init__(self, title: str, hint: str, *, ask_reason: bool = False) -> None:
        super().__init__()
        self.title_text = title
        self.hint = hint
        self.ask_reason = ask_reason

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = self.title_text
            box.border_subtitle = "Tab next field · Ctrl-S send · Esc cancel"
            yield Label(self.hint, classes="hint")
            with Grid():
                for dim, what in (("boundary", "stayed inside the card's scope"),
                                  ("taste", "engineering taste")):
                    yield Label(dim)
                    # No select-all on focus: tabbing back into a filled field and typing
                    # adds to it, never replaces it.
                    yield Input(placeholder="0-3", max_length=1, id=f"{dim}", compact=True,
                                select_on_focus=False)
                    yield Input(placeholder=f"why ({what})", id=f"{dim}-reason",
                                compact=True, select_on_focus=False)
                if self.ask_reason:
                    yield Label("reason")
                    yield Static("")
                    yield Input(placeholder="why end this attempt", id="reason", compact=True,
                                select_on_focus=False)
            yield Static("", classes="problem")
        yield WorkbenchFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#boundary", Input).focus()

    def value(self, field: str) -> str:
        return self.query_one(f"#{field}", Input).value.strip()

    def action_send(self) -> None:
        self.after_fields(self._judge)     # on what the fields show, their last keys taken

    def _judge(self) -> None:
        if self.app.screen is not self:     # sent already (a second Ctrl-S), or cancelled
            return
        fields = ["boundary", "boundary-reason", "taste", "taste-reason"]
        if self.ask_reason:
            fields.append("reason")
        missing = [f for f in fields if not self.value(f)]
        if missing:
            self.query_one(".problem", Static).update(
                Text("still empty: " + ", ".join(m.replace("-", " ") for m in missing)))
            self.query_one(f"#{missing[0]}", Input).focus()
            return
        self.dismiss(Scored(int(self.value("boundary")), self.value("boundary-reason"),
                            int(self.value("taste")), self.value("taste-reason"),
                            self.value("reason") if self.ask_reason else ""))

    def on_input_changed(self, event: Input.Changed) -> None:
        # A score field takes 0-3: anything else is taken out again, and said (not dropped
        # without a word).
        if event.input.id in ("boundary", "taste") and event.value not in ("", *"0123"):
            event.input.value = ""
            self.query_one(".problem", Static).update(
                Text(f"{event.input.id}: a score is 0, 1, 2 or 3 (not {event.value})"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        # Enter moves on, like Tab; on the last field it sends.
        event.stop()
        inputs = list(self.query(Input))
        if event.input is inputs[-1]:
            self.action_send()
        else:
            self.focus_next()

    def action_cancel(self) -> None:
        self.dismiss(None)

