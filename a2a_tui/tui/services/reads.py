"""What the workbench's screens read from the store (no user input): a card, an attempt's diff,
its checks and logs, its held comments, its reviews, the attempts a session can work in."""

# Imports inside functions: the core areas (collab, panes, gate, tmux), in the methods that use
# them; the workbench's first frame needs none of them (the gate alone, with pydantic, costs
# ~0.1 s).

from __future__ import annotations

from typing import TYPE_CHECKING

from a2a_tui.errors import A2AError
from a2a_tui.tui.services.base import Part

if TYPE_CHECKING:
    from a2a_tui.gate.reviews.diff import AttemptDiff
    from a2a_tui.gate.verification.logs import CheckLog
    from a2a_tui.gate.views import CardDetail, CheckOutput


class Reads(Part):
    """The store read for a screen, one connection per call."""

    def open_attempts(self) -> list[str]:
        """Attempts a new session can work in: open, with their worktree present."""
        from a2a_tui.gate.model import ACTIVE

        marks = ",".join("?" * len(ACTIVE))
        with self.store() as s:
            rows = s.all(f"SELECT id FROM attempts WHERE state IN ({marks})"
                         " AND worktree_state = 'present' ORDER BY claimed_ns", ACTIVE)
        return [r["id"] for r in rows]

    def comments(self, attempt: str) -> list:
        """The attempt's held comments (read for the diff screen)."""
        from a2a_tui.gate.reviews import comments

        with self.store() as s:
            return comments.listed(s, attempt)

    def untouched(self, attempt: str) -> bool:
        """Nothing submitted, no commit in the attempt's clone: abandoned without scores (the
        gate's own rule, gate/attempts/ownership.py `untouched`)."""
        from a2a_tui.gate.attempts.ownership import untouched
        from a2a_tui.gate.ledger.records import read_attempt

        with self.store() as s:
            att = read_attempt(s, attempt)
        return att is not None and untouched(att)

    def card_detail(self, card: str) -> CardDetail:
        from a2a_tui.gate.views import card_detail

        with self.store() as s:
            found = card_detail(s, card)
        if found is None:
            raise A2AError("unknown_card", f"no card {card!r}")
        return found

    def diff(self, attempt: str) -> AttemptDiff:
        from a2a_tui.gate.reviews.diff import attempt_diff

        with self.store() as s:
            return attempt_diff(self.repo, s, attempt)

    def check_outputs(self, attempt: str, run: int) -> list[CheckOutput]:
        from a2a_tui.gate.views import check_outputs

        with self.store() as s:
            return check_outputs(s, attempt, run)

    def check_log(self, attempt: str, check: str | None = None, run: int | None = None
                  ) -> tuple[CheckLog, str, bool]:
        """Which log (the first failed check's by default), its text, and whether it was cut."""
        from a2a_tui.gate.verification.logs import find_log, read_log

        with self.store() as s:
            found = find_log(s, attempt, check, run)
        return (found, *read_log(found.path))

    def review_state(self, attempt: str):
        """The attempt's reviews, issues, dispositions and approvals (gate/reviews/views.py)."""
        from a2a_tui.gate.reviews.views import review_state

        with self.store() as s:
            return review_state(s, attempt)
