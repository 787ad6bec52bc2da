"""The input box: what the user (or an injector) has typed or pasted and not yet submitted."""

from __future__ import annotations


def normalize_paste(text: str) -> str:
    """Pasted line ends become LF: tmux turns LF into CR unless `paste-buffer -r` (PROTOCOLS D)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


class InputBox:
    """A minimal line editor; the cursor is always at the end (no arrow-key editing)."""

    def __init__(self) -> None:
        self.text = ""

    def insert(self, text: str) -> None:
        self.text += text

    def paste(self, text: str) -> None:
        self.text += normalize_paste(text)

    def backspace(self) -> None:
        self.text = self.text[:-1]

    def clear(self) -> None:
        """Ctrl-U: empty the whole box (all lines)."""
        self.text = ""

    def take(self) -> str:
        """Return the box's text and empty it (Enter)."""
        text, self.text = self.text, ""
        return text

    @property
    def empty(self) -> bool:
        return self.text == ""
