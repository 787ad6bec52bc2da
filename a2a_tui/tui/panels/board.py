"""Board: the controllers' questions to the user (options, recommendation, why) and findings."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.text import Text

from a2a_tui.tui.messages import ActionRequested, BoardAnswersSent, BoardItemAnswered
from a2a_tui.tui.panels.base import Cell, Panel
from a2a_tui.tui.queries import BoardItem
from a2a_tui.tui.screens.detail import QuestionScreen

# The title gate/integration/spotchecks.py gives a spot check's board item.
_SPOT = re.compile(r"^Spot check: re-check (?P<attempt>\S+)$")


def question_text(q: BoardItem) -> Text:
    """A question's options (numbered for the keys 1-9), the recommendation and its rationale."""
    t = Text()
    for i, o in enumerate(q.options, 1):
        rec = o["key"] == q.recommend
        t.append(f" {i} ", style="reverse bold" if rec else "reverse")
        t.append(f" {o['key']}: {o['text']}", style="bold" if rec else "")
        if rec:
            t.append("  ★ recommended", style="bold green")
        t.append("\n")
    if q.why:
        t.append("why: ", style="bold")
        t.append(q.why)
    return t


class BoardPanel(Panel[BoardItem]):
    SCOPE = "board"
    TITLE = "Board"
    EMPTY = "no open questions or findings"
    COLUMNS = (("id", "Item"), ("status", "Status"), ("title", "Title"), ("from", "From"))

    def cells(self, b: BoardItem) -> Sequence[Cell]:
        return (Text(b.id, style="bold" + (" red" if b.blocking else "")), self._status(b),
                b.title, b.asked_by or "")

    @staticmethod
    def _status(b: BoardItem) -> Text:
        if b.held:
            return Text("held", style="bold cyan")
        if b.status == "answered":
            return Text("answered", style="green")
        return Text("open" + (" !" if b.blocking else ""),
                    style="bold yellow" if b.kind == "question" else "yellow")

    def detail(self, b: BoardItem) -> Text:
        t = Text()
        t.append(f"{b.id} ", style="bold")
        t.append(f"{b.kind} · {b.category}" + (" · blocking" if b.blocking else "")
                 + (f" · from {b.asked_by}" if b.asked_by else "") + "\n", style="dim")
        if b.body:
            t.append(b.body.strip() + "\n")
        if b.kind == "question":
            t.append_text(question_text(b))
        return t

    def subtitle(self) -> str:
        items = self.rows.values()
        open_ = sum(b.status == "open" for b in items)
        held = sum(b.held for b in items)
        return f"{open_} open" + (f" · {held} held (s sends)" if held else "")

    @property
    def held(self) -> int:
        return sum(b.held for b in self.rows.values())

    # --- actions --------------------------------------------------------------------------
    def why_disabled(self, action: str, params: tuple[object, ...]) -> str | None:
        if action == "send":
            return None if self.held else ("no answers are held: an answer waits only while"
                                           " its asker has other open questions")
        b = self.selected
        if b is None:
            return self.nothing_selected()
        if action == "open":
            return None
        if action == "flag_spot_check" and spot_checked(b) is None:
            return f"{b.id} is not a spot check (the gate asks one every Nth integration)"
        if b.status == "answered":
            return f"{b.id} is already answered" + (" (held: s sends it)" if b.held else "")
        if action in ("pick", "adopt"):
            if b.kind != "question":
                return f"{b.id} is a finding: it has no options (t writes an answer)"
            if action == "adopt" and not b.recommend:
                return f"{b.id} has no recommendation"
            if action == "pick":
                d = int(params[0]) if params else 0  # type: ignore[call-overload]
                if d > len(b.options):
                    return f"{b.id} has {len(b.options)} options"
        return None

    def action_open(self) -> None:
        b = self.selected
        assert b is not None

        def then(choice: str | None) -> None:
            if choice:  # the same board action, as if its key were pressed here
                self.call_later(self.run_action, choice)

        self.app.push_screen(QuestionScreen(f"{b.id} · {b.title}", self.detail(b),
                                            self.why_disabled), then)

    def action_pick(self, d: int) -> None:
        b = self.selected
        assert b is not None
        key = b.options[d - 1]["key"]
        self._answer(b, f"answer {b.id} with {key}", option=key)

    def action_adopt(self) -> None:
        b = self.selected
        assert b is not None
        self._answer(b, f"adopt the recommendation for {b.id}", adopt=True)

    def action_write_answer(self) -> None:
        # lazy: the editor's TextArea adds ~30 ms to the first frame, and most runs never open it
        from a2a_tui.tui.screens.editor import Draft, EditorScreen

        b = self.selected
        assert b is not None

        def then(draft: Draft | None) -> None:
            if draft:
                self._answer(b, f"answer {b.id} in words", text=draft.text)

        self.app.push_screen(EditorScreen(f"Answer {b.id}: {b.title}",
                                          "your words go to the asker as an answer"), then)

    def action_flag_spot_check(self) -> None:
        from a2a_tui.tui.screens.editor import Draft, EditorScreen  # lazy: as write_answer

        b = self.selected
        assert b is not None
        att = spot_checked(b)

        def then(draft: Draft | None) -> None:
            if draft and att:
                self.post_message(ActionRequested(
                    f"flag {att}", lambda w: w.gate.spot_check(att, True, draft.text),
                    BoardItemAnswered))

        self.app.push_screen(EditorScreen(f"Flag {att}: what did the gate let through?",
                                          "kept as your input with the flag"), then)

    def _answer(self, b: BoardItem, what: str, **how) -> None:
        self.post_message(ActionRequested(what, lambda w: w.board.answer(b.id, **how),
                                          BoardItemAnswered))

    def action_send(self) -> None:
        self.post_message(ActionRequested("send the held answers", lambda w: w.board.send_answers(),
                                          BoardAnswersSent))


def spot_checked(b: BoardItem) -> str | None:
    """The attempt a spot check item asks about (gate/integration/spotchecks.py posts it, as the
    gate: an item a session posted is none; the gate checks again that one was asked)."""
    m = _SPOT.match(b.title)
    return m["attempt"] if m and b.asked_by is None and b.kind == "finding" else None
