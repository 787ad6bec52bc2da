"""A multi-line editor in a modal: a prompt to inject, an answer, a message to the ideation
controller. Ctrl-S sends, Esc cancels; Enter is a new line (the text goes as one prompt)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, RadioButton, RadioSet, TextArea

from a2a_tui.tui.chrome import BoxScreen, WorkbenchFooter


@dataclass(frozen=True)
class Draft:
    text: str
    kind: str = "message"


class EditorScreen(BoxScreen[Draft | None]):
    """Returns the draft, or None when cancelled or empty."""

    BINDINGS = [Binding("ctrl+s", "send", "Send", priority=True),
                Binding("escape", "cancel", "Cancel", priority=True)]
    VERB = "send"

    DEFAULT_CSS = """
    EditorScreen > Vertical { max-width: 100; }
    EditorScreen .hint { color: $text-muted; }
    EditorScreen TextArea { height: 8; min-height: 3; }
    EditorScreen RadioSet { layout: horizontal; height: auto; border: none; padding: 0; }
    """

    def __init__(self, title: str, hint: str, kinds: tuple[str, ...] = (),
                 text: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.hint = hint
        self.kinds = kinds
        self.initial = text

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = self.title_text
            box.border_subtitle = f"Ctrl-S {self.VERB} · Esc cancel"
            yield Label(self.hint, classes="hint")
            if self.kinds:
                with RadioSet(id="kind"):
                    for i, k in enumerate(self.kinds):
                        yield RadioButton(k, value=i == 0, id=f"kind-{k}")
            yield TextArea(self.initial, id="text", soft_wrap=True, show_line_numbers=False,
                           tab_behavior="focus")
        yield WorkbenchFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#text", TextArea).focus()

    def action_send(self) -> None:
        self.after_fields(self._send)     # the text as shown, its last keys taken

    def _send(self) -> None:
        if self.app.screen is not self:
            return
        text = self.query_one("#text", TextArea).text
        if not text.strip():
            self.notify("nothing to send: the text is empty", severity="warning")
            return
        kind = "message"
        if self.kinds:
            pressed = self.query_one(RadioSet).pressed_button
            kind = str(pressed.label) if pressed is not None else self.kinds[0]
        self.dismiss(Draft(text.strip("\n"), kind))

    def action_cancel(self) -> None:
        self.dismiss(None)


class CommentEditorScreen(EditorScreen):
    """The editor of a comment on a diff: Ctrl-S keeps the comment (held until `s` sends
    them all), it sends nothing, and its key says so."""

    BINDINGS = [Binding("ctrl+s", "send", "Keep", priority=True),
                Binding("escape", "cancel", "Cancel", priority=True)]
    VERB = "keep"
