"""Gate: task cards, their latest attempt and its state, and the per-check results of the last
verify; from here the card, the attempt's diff, the checks' output and logs, and the gate's
decisions (verify, integrate, abandon), and a shell in the attempt's worktree."""

# Imports inside functions: screens and the core they need load when first opened, not for the
# workbench's first frame (bench/run_all.py --only workbench).

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text

from a2a_tui.gate.model import ACTIVE, UNRESOLVED, VERIFIABLE, AttemptState, VerifyState
from a2a_tui.tui import fmt
from a2a_tui.tui.messages import (
    ActionRequested,
    AttemptAbandoned,
    AttemptIntegrated,
    VerifyFinished,
    WorktreeOpened,
)
from a2a_tui.tui.panels.base import Cell, Panel
from a2a_tui.tui.queries import GateRow

if TYPE_CHECKING:
    from a2a_tui.tui.screens.gate_forms import Scored
    from a2a_tui.tui.services.reads import Reads

ABANDONABLE = tuple(s for s in ACTIVE if s not in UNRESOLVED)


def checks_line(g: GateRow) -> Text:
    """Each check of the last verify, in chain order, with the first failure's detail."""
    t = Text()
    for c in g.checks:
        t.append_text(fmt.check_mark(c))
        t.append(f" {c.name}  ")
    failed = next((c for c in g.checks if c.blocking and not c.passed and not c.skipped),
                  None)
    if failed is not None:
        t.append(f"\n{failed.name}: {fmt.one_line(failed.detail, 200)}", style="red")
        if failed.log_path:
            t.append("  (l: its log)", style="dim")
    # Thresholds the rules record without blocking (rule 6): what they measured, in passing.
    for c in g.checks:
        if c.kind == "threshold" and not (c.passed or c.blocking or c.skipped):
            t.append(f"\n{c.name}: {fmt.one_line(c.detail, 200)}", style="yellow")
    return t


def verify_cell(g: GateRow) -> Text:
    if g.verify_state is None:
        return Text("")
    if g.verify_state == VerifyState.RUNNING:
        return Text(f"… {len(g.checks)} done", style="yellow")
    passed = sum(c.passed for c in g.checks)
    ok = g.verify_state == VerifyState.PASSED
    return Text(f"{'✓' if ok else '✗'} {passed}/{len(g.checks)}",
                style="green" if ok else "bold red" if g.verify_state == VerifyState.REJECTED
                else "yellow")


class GatePanel(Panel[GateRow]):
    SCOPE = "gate"
    TITLE = "Gate"
    EMPTY = "no task cards: N writes one"
    COLUMNS = (("card", "Card"), ("attempt", "Attempt"), ("state", "State"),
               ("verify", "Verify"), ("title", "Title"))

    def __init__(self, reads: Reads, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reads = reads   # what the screens opened from here read through (in workers)

    def key_of(self, g: GateRow) -> str:
        return g.card

    def cells(self, g: GateRow) -> Sequence[Cell]:
        state = g.attempt_state or g.card_state
        attempt = Text(g.attempt or "")
        if g.unconfined:
            attempt.append(" ⚠", style="bold red")   # written by an unconfined session
        return (Text(g.card, style="bold"), attempt, Text(state, style=_style(state)),
                verify_cell(g), g.title)

    def detail(self, g: GateRow) -> Text:
        t = Text()
        t.append(f"{g.card} v{g.version} ({g.card_state})", style="bold")
        if g.attempt:
            t.append(f" · {g.attempt} {g.attempt_state} · writer {g.writer}"
                     + (f" · {g.sha[:12]}" if g.sha else "")
                     + (f" · {g.rejections} rejection(s)" if g.rejections else ""), style="dim")
            if g.unconfined:
                t.append(" · written UNCONFINED", style="bold red")
        if g.checks:
            t.append(f"\nverify run {g.verify_run} ({g.verify_state}): ")
            t.append_text(checks_line(g))
        return t

    def subtitle(self) -> str:
        active = sum(g.attempt_state in ACTIVE for g in self.rows.values())
        return f"{fmt.count(len(self.rows), 'card')} · {active} active"

    def why_disabled(self, action: str, params: tuple[object, ...]) -> str | None:
        g = self.selected
        if g is None:
            return self.nothing_selected()
        if action in ("card", "edit_card"):
            return None
        if action == "ready":
            return None if g.card_state == "draft" else f"{g.card} is {g.card_state} already"
        if action == "claim":
            if g.card_state != "ready":
                return f"{g.card} is a {g.card_state}: r makes it ready first"
            if g.attempt_state == AttemptState.CLAIMED and not self.worked_on(g.attempt):
                return None     # claimed with no session on it: C offers one
            if g.attempt_state in ACTIVE:
                on = self.worked_on(g.attempt)
                return (f"{g.card} has an active attempt, {g.attempt} ({g.attempt_state})"
                        + (f", {on} on it" if on else ""))
            return None
        if g.attempt is None:
            return f"{g.card} has no attempt yet (claim it first)"
        state = g.attempt_state
        if action == "open" and not g.checks:
            return f"{g.attempt} has not been verified yet"
        if action == "log":
            if not g.checks:
                return f"{g.attempt} has not been verified yet: no logs"
            if not any(c.log_path for c in g.checks):
                return (f"no check of {g.attempt}'s run {g.verify_run} wrote a log (structural"
                        " checks keep only their detail: Enter shows them)")
        if action == "verify" and state not in VERIFIABLE:
            return f"{g.attempt} is {state}: only a submitted candidate can be verified"
        if action == "integrate" and state != AttemptState.VERIFIED:
            return (f"{g.attempt} is {state}: only a verified candidate can be integrated"
                    + (" (v verifies it)" if state in VERIFIABLE else ""))
        if action == "abandon" and state not in ABANDONABLE:
            return f"{g.attempt} is {state}: it cannot be abandoned"
        if action == "worktree" and g.worktree_state != "present":
            return f"{g.attempt}'s worktree is {g.worktree_state}"
        return None

    @property
    def attempt(self) -> str:
        att = self.selected.attempt  # type: ignore[union-attr]
        assert att is not None
        return att

    # The screens are imported when first opened (lazy): the first frame needs none of them.
    def action_open(self) -> None:
        from a2a_tui.tui.screens.gate import ChecksScreen

        g = self.selected
        assert g is not None and g.attempt is not None and g.verify_run is not None
        att, run, reads = g.attempt, g.verify_run, self.reads
        self.app.push_screen(ChecksScreen(g, lambda: reads.check_outputs(att, run),
                                          lambda check: reads.check_log(att, check, run)))

    def action_card(self) -> None:
        from a2a_tui.tui.screens.gate import CardScreen

        card, reads = self.selected.card, self.reads  # type: ignore[union-attr]
        self.app.push_screen(CardScreen(card, lambda: reads.card_detail(card)))

    def action_edit_card(self) -> None:
        self.app.edit_card(self.selected.card)  # type: ignore[attr-defined,union-attr]

    def action_ready(self) -> None:
        self.app.ready_card(self.selected.card)  # type: ignore[attr-defined,union-attr]

    def worked_on(self, attempt: str | None) -> str | None:
        """The live session working on `attempt`, from the Sessions panel's rows."""
        from a2a_tui.tui.panels.sessions import SessionsPanel

        found = self.app.query(SessionsPanel)
        rows = found.first().rows.values() if found else ()
        return next((r.id for r in rows if r.attempt == attempt and r.state != "exited"), None)

    def action_claim(self) -> None:
        g = self.selected
        assert g is not None
        claimed = g.attempt if g.attempt_state == AttemptState.CLAIMED else None
        self.app.claim_card(g.card, claimed)  # type: ignore[attr-defined]

    def action_diff(self) -> None:
        from a2a_tui.tui.screens.diff import DiffScreen

        att, reads = self.attempt, self.reads
        self.app.push_screen(DiffScreen(att, lambda: reads.diff(att)))

    def action_review(self) -> None:
        from a2a_tui.tui.screens.review import ReviewScreen

        self.app.push_screen(ReviewScreen(self.app.services,  # type: ignore[attr-defined]
                                          self.attempt))

    def action_log(self) -> None:
        from a2a_tui.tui.screens.log import LogScreen

        g = self.selected
        assert g is not None
        att, run, reads = self.attempt, g.verify_run, self.reads
        self.app.push_screen(LogScreen(f"{att} · run {run}",
                                       lambda: reads.check_log(att, None, run)))

    def action_verify(self) -> None:
        att = self.attempt
        self.post_message(ActionRequested(f"verify {att}", lambda w: w.gate.verify(att),
                                          VerifyFinished, slow=True))

    def action_integrate(self) -> None:
        from a2a_tui.tui.screens.gate_forms import ScoreScreen

        g = self.selected
        assert g is not None
        att = self.attempt

        def then(s: Scored | None) -> None:
            if s is not None:
                self.post_message(ActionRequested(
                    f"integrate {att}", lambda w: w.gate.integrate(att, _score(s)),
                    AttemptIntegrated, slow=True))

        self.app.push_screen(ScoreScreen(
            f"Integrate {att}", f"{g.card}: {g.title}. The target branch moves to the verified"
            f" candidate {(g.sha or '')[:12]} (compare-and-swap). Score it 0-3, each with why."),
            then)

    def action_abandon(self) -> None:
        from a2a_tui.tui.screens.confirm import ConfirmScreen
        from a2a_tui.tui.screens.gate_forms import ScoreScreen

        g = self.selected
        assert g is not None
        att = self.attempt
        if self.reads.untouched(att):
            self._abandon_untouched(g, att)
            return

        def confirmed(s: Scored, yes: bool | None) -> None:
            if yes:
                self.post_message(ActionRequested(
                    f"abandon {att}", lambda w: w.gate.abandon(att, _score(s), s.reason),
                    AttemptAbandoned))

        def then(s: Scored | None) -> None:
            if s is not None:
                self.app.push_screen(ConfirmScreen(
                    f"Abandon {att}?", f"{att} ends ({g.attempt_state} now) and is not"
                    f" integrated. Its commits, worktree and evidence stay; {g.card} can be"
                    f" claimed again.\nreason: {s.reason}"),
                    lambda yes: confirmed(s, yes))

        self.app.push_screen(ScoreScreen(
            f"Abandon {att}", f"{g.card}: {g.title}. Score the attempt 0-3, each with why, and"
            " say why it ends.", ask_reason=True), then)

    def _abandon_untouched(self, g: GateRow, att: str) -> None:
        """Nothing was submitted or committed: there is nothing to score, only a yes."""
        from a2a_tui.tui.screens.confirm import ConfirmScreen

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.post_message(ActionRequested(
                    f"abandon {att}", lambda w: w.gate.abandon(att, None, "nothing was done yet"),
                    AttemptAbandoned))

        self.app.push_screen(ConfirmScreen(
            f"Abandon {att}?", f"{att} ({g.attempt_state}) has no commit and no submission:"
            f" nothing to score. It ends; {g.card} can be claimed again."), confirmed)

    def action_worktree(self) -> None:
        att = self.attempt
        self.post_message(ActionRequested(f"open {att}'s worktree",
                                          lambda w: w.gate.open_worktree(att), WorktreeOpened))


def _score(s: Scored) -> Any:
    from a2a_tui.gate.model import Score

    return Score(s.boundary, s.boundary_reason, s.taste, s.taste_reason)

def _style(state: str) -> str:
    return {"integrated": "green", "verified": "green", "rejected": "red", "verifying": "yellow",
            "submitted": "cyan", "claimed": "", "ready": "", "draft": "dim", "unknown": "bold red",
            "abandoned": "dim", "superseded": "dim", "failed": "red"}.get(state, "")
