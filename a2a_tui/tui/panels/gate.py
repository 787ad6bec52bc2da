"""Gate: task cards, their latest attempt and its state, and the per-check results of the last
verify."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from a2a_tui.tui import fmt
from a2a_tui.tui.messages import ActionRequested, VerifyFinished
from a2a_tui.tui.panels.base import Cell, Panel
from a2a_tui.tui.queries import GateRow
from a2a_tui.tui.screens.detail import ChecksScreen

VERIFIABLE = ("submitted", "rejected", "verified")


def checks_line(g: GateRow) -> Text:
    """Each check of the last verify, in chain order, with the first failure's detail."""
    t = Text()
    for c in g.checks:
        t.append_text(fmt.check_mark(c))
        t.append(f" {c.name}  ")
    failed = next((c for c in g.checks if c.blocking and not c.passed), None)
    if failed is not None:
        t.append(f"\n{failed.name}: {fmt.one_line(failed.detail, 200)}", style="red")
    return t


def verify_cell(g: GateRow) -> Text:
    if g.verify_state is None:
        return Text("")
    if g.verify_state == "running":
        return Text(f"… {len(g.checks)} done", style="yellow")
    passed = sum(c.passed for c in g.checks)
    ok = g.verify_state == "passed"
    return Text(f"{'✓' if ok else '✗'} {passed}/{len(g.checks)}",
                style="green" if ok else "bold red" if g.verify_state == "rejected" else "yellow")


class GatePanel(Panel[GateRow]):
    SCOPE = "gate"
    TITLE = "Gate"
    EMPTY = "no task cards: `a2a card add FILE`"
    COLUMNS = (("card", "Card"), ("attempt", "Attempt"), ("state", "State"),
               ("verify", "Verify"), ("title", "Title"))

    def key_of(self, g: GateRow) -> str:
        return g.card

    def cells(self, g: GateRow) -> Sequence[Cell]:
        state = g.attempt_state or g.card_state
        return (Text(g.card, style="bold"), g.attempt or "", Text(state, style=_style(state)),
                verify_cell(g), g.title)

    def detail(self, g: GateRow) -> Text:
        t = Text()
        t.append(f"{g.card} v{g.version} ({g.card_state})", style="bold")
        if g.attempt:
            t.append(f" · {g.attempt} {g.attempt_state} · writer {g.writer}"
                     + (f" · {g.sha[:12]}" if g.sha else "")
                     + (f" · {g.rejections} rejection(s)" if g.rejections else ""), style="dim")
        if g.checks:
            t.append(f"\nverify run {g.verify_run} ({g.verify_state}): ")
            t.append_text(checks_line(g))
        return t

    def subtitle(self) -> str:
        active = sum(g.attempt_state not in (None, "integrated", "abandoned", "superseded",
                                             "failed") for g in self.rows.values())
        return f"{len(self.rows)} cards · {active} active"

    def why_disabled(self, action: str, params: tuple[object, ...]) -> str | None:
        g = self.selected
        if g is None:
            return self.nothing_selected()
        if g.attempt is None:
            return f"{g.card} has no attempt yet (claim it first)"
        if action == "open" and not g.checks:
            return f"{g.attempt} has not been verified yet"
        if action == "verify" and g.attempt_state not in VERIFIABLE:
            return (f"{g.attempt} is {g.attempt_state}: only a submitted candidate can be"
                    " verified")
        return None

    def action_open(self) -> None:
        self.app.push_screen(ChecksScreen(self.selected))  # type: ignore[arg-type]

    def action_verify(self) -> None:
        att = self.selected.attempt  # type: ignore[union-attr]
        assert att is not None
        self.post_message(ActionRequested(f"verify {att}", lambda w: w.verify(att),
                                          VerifyFinished, slow=True))


def _style(state: str) -> str:
    return {"integrated": "green", "verified": "green", "rejected": "red", "verifying": "yellow",
            "submitted": "cyan", "claimed": "", "ready": "", "draft": "dim", "unknown": "bold red",
            "abandoned": "dim", "superseded": "dim", "failed": "red"}.get(state, "")
