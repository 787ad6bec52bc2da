"""The workbench's hands on the board and the user's own words: answers (batched per asking
session), a message to the ideation controller, a pane's input confirmed as the user's. Through
the collaboration records (`a2a_tui.collab`)."""

# Imports inside functions: the core areas (collab, panes, gate, tmux), in the methods that use
# them; the workbench's first frame needs none of them (the gate alone, with pydantic, costs
# ~0.1 s).

from __future__ import annotations

from a2a_tui.tui.services.base import SOURCE, Done, Part


class Board(Part):
    """The board, `say`, and pane input the user confirms."""

    def answer(self, item_id: str, *, option: str | None = None, adopt: bool = False,
               text: str | None = None) -> Done:
        """Answer a board item. While the asking session has other open questions the answer
        is held; the last one (or a single one) sends every held answer as ONE prompt."""
        from a2a_tui.collab import board

        with self.store() as s:
            item = s.one("SELECT asked_by FROM board_items WHERE id = ?", (item_id,))
            asker = item["asked_by"] if item else None
            others = 0 if asker is None else s.one(
                "SELECT COUNT(*) FROM board_items i WHERE i.asked_by = ? AND i.id != ?"
                " AND i.kind = 'question'"
                " AND NOT EXISTS(SELECT 1 FROM board_records r WHERE r.item_id = i.id)",
                (asker, item_id))[0]
            r = board.answer(self._collab(s), item_id, option=option, adopt=adopt, text=text,
                             hold=others > 0, source=SOURCE)
        sent = [x for x in r.sent if x.dispatch]
        if r.held:
            how = f"held for a batch ({others} more open from {asker}; s sends now)"
        elif sent:
            how = f"sent to {sent[0].session} as #{sent[0].dispatch}" + (
                f" with {len(sent[0].user_inputs) - 1} held answer(s)"
                if len(sent[0].user_inputs) > 1 else "")
        else:
            why = next((x.why for x in r.sent if x.why), None)
            how = why or "recorded (nobody to send it to)"
        return Done(f"{item_id} answered · {r.user_input} · {how}",
                    {"item": item_id, "user_input": r.user_input, "held": r.held,
                     "sent": [x.to_json() for x in r.sent]})

    def send_answers(self) -> Done:
        """Send every held answer: one prompt per asking session."""
        from a2a_tui.collab import board

        with self.store() as s:
            sent = board.send_pending(self._collab(s))
        parts = [f"{x.session} #{x.dispatch} ({len(x.user_inputs)} answers)"
                 if x.dispatch else f"{x.session}: {x.why}" for x in sent]
        return Done("sent " + "; ".join(parts) if parts else "no held answers",
                    {"sent": [x.to_json() for x in sent]})

    def say(self, text: str, kind: str = "message") -> Done:
        """A message (approval, refusal) to the ideation controller."""
        from a2a_tui.collab.user_input import say

        with self.store() as s:
            r = say(self._collab(s), text, kind, source=SOURCE)
        where = (f"queued to {r.to_session} as #{r.dispatch}" if r.dispatch
                 else "recorded; no live ideation session to deliver it to")
        return Done(f"{r.id} ({kind}) {where}", r.to_json())

    def confirm_input(self, uid: str) -> Done:
        """Confirm that pane input `uid` (typed into a pane) was the user's: only then can a
        quote of it authorize (collab/authorization.py)."""
        from a2a_tui.collab.user_input import confirm_pane_input

        with self.store() as s:
            r = confirm_pane_input(self._collab(s), uid, source=SOURCE)
        return Done(f"{uid} confirmed as yours · {r.id}", r.to_json())
