"""The review screen (`R` in the Gate panel): an attempt's reviews, the blocking issues of its
current commit with their dispositions, an override, your approvals, and what stops
integration now; with keys to start a review, dispose of an issue, override, approve.

It reads `gate/reviews/views.py` in a worker and follows the store (the app hands it each new
last event); its keys come from the registry's "review" scope and act through the app's
action runner, each recorded as your input.
"""

# Imports inside functions: screens and the core they need load when first opened, not for the
# workbench's first frame (bench/run_all.py --only workbench).

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Input, Label, RadioButton, RadioSet, Static

from a2a_tui.errors import A2AError
from a2a_tui.gate.model import AttemptState
from a2a_tui.gate.reviews.views import ReviewState
from a2a_tui.profiles import CLIS
from a2a_tui.settings import RoleDefaults
from a2a_tui.tui import actions
from a2a_tui.tui.chrome import FORM_KEYS, BoxScreen, WorkbenchFooter
from a2a_tui.tui.messages import (
    ActionRequested,
    IntegrationApproved,
    ReviewIssueDisposed,
    ReviewOverridden,
    ReviewStarted,
)
from a2a_tui.tui.services import Workbench

REVIEWABLE = ("submitted", "verifying", "rejected", "verified")
VERDICT_STYLE = {"pass": "bold green", "pass_with_risks": "yellow", "fail": "bold red",
                 "block": "bold red"}
DECISION_STYLE = {"accept": "bold red", "reject": "green", "defer": "yellow"}


class ReviewLoaded(Message):
    """The attempt's review state was read again."""

    def __init__(self, state: ReviewState) -> None:
        super().__init__()
        self.state = state


class ReviewScreen(BoxScreen[None]):
    SCOPE = "review"             # its keys: the registry's "review" scope
    BINDINGS = actions.bindings(SCOPE)
    DEFAULT_CSS = """
    ReviewScreen > Vertical { width: 95%; max-width: 130; max-height: 95%; }
    ReviewScreen DataTable { height: auto; max-height: 10; margin-bottom: 1; }
    ReviewScreen .label { color: $text-muted; text-style: bold; }
    """

    def __init__(self, services: Workbench, attempt: str) -> None:
        super().__init__()
        self.services = services
        self.attempt = attempt
        self.state: ReviewState | None = None

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"{self.attempt} · reviews"
            box.border_subtitle = "s start · d dispose · o override · a approve · Esc close"
            yield Static("loading…", id="summary")
            yield Label("Reviews", classes="label")
            yield DataTable(cursor_type="row", id="runs")
            yield Label("Blocking issues of the current commit", classes="label")
            yield DataTable(cursor_type="row", id="issues")
            yield Static("", id="approval")
        yield WorkbenchFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#runs", DataTable).add_columns("Review", "Round", "Commit", "State",
                                                       "Verdict", "Session")
        self.query_one("#issues", DataTable).add_columns("Issue", "Title", "Evidence",
                                                         "Disposition", "By", "Reason")
        self.query_one("#issues", DataTable).focus()
        self.load()

    # --- reading ----------------------------------------------------------------------------
    @work(thread=True, exclusive=True, exit_on_error=False, group="review", name="review state")
    def load(self) -> None:
        self.post_message(ReviewLoaded(self.services.reads.review_state(self.attempt)))

    def follow_store(self, _last_seq: int) -> None:
        """The app calls this on each store change while the screen is shown."""
        self.load()

    @on(ReviewLoaded)
    def _loaded(self, message: ReviewLoaded) -> None:
        st = self.state = message.state
        self.query_one("#summary", Static).update(summary(st))
        runs = self.query_one("#runs", DataTable)
        runs.clear()
        for r in st.runs:
            runs.add_row(r.id, str(r.round), r.sha[:12], r.state,
                         Text(r.verdict or "", style=VERDICT_STYLE.get(r.verdict or "", "")),
                         r.session or "", key=r.id)
        issues = self.query_one("#issues", DataTable)
        at = issues.cursor_row
        issues.clear()
        for i in st.issues:
            issues.add_row(i.id, i.title, ", ".join(i.evidence),
                           Text(i.decision or "not disposed of",
                                style=DECISION_STYLE.get(i.decision or "", "italic")),
                           i.by or "", i.reason, key=i.id)
        if st.issues:
            issues.move_cursor(row=min(at, len(st.issues) - 1), animate=False)
        self.query_one("#approval", Static).update(approval_text(st))
        self.refresh_bindings()

    @property
    def issue(self) -> str | None:
        """The highlighted blocking issue."""
        if self.state is None or not self.state.issues:
            return None
        table = self.query_one("#issues", DataTable)
        return self.state.issues[min(table.cursor_row, len(self.state.issues) - 1)].id

    # --- keys -------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if actions.find("review", action) is None:
            return True
        return None if self.why_disabled(action, parameters) else True

    def why_disabled(self, action: str, params: tuple[object, ...]) -> str | None:
        """Why a key of this screen cannot act now (None: it can)."""
        st = self.state
        if action == "close":
            return None
        if st is None:
            return "the review state is still loading"
        if action == "start":
            if st.attempt_state not in REVIEWABLE or not st.sha:
                return f"{st.attempt} is {st.attempt_state}: a review is of a submitted candidate"
            current = [r for r in st.runs if r.sha == st.sha]
            if any(r.state == "reported" for r in current):
                return f"{st.sha[:12]} has its verdict: a new review needs a new submission"
            if any(r.state in ("requested", "running") for r in current):
                return f"a review of {st.sha[:12]} is under way"
        if action == "dispose" and self.issue is None:
            return "the current commit's review names no blocking issue"
        if action == "override" and not st.sha:
            return f"{st.attempt} has no submitted commit"
        if action == "approve" and st.attempt_state != AttemptState.VERIFIED:
            return f"{st.attempt} is {st.attempt_state}: approve a verified candidate"
        return None

    def action_close(self) -> None:
        self.dismiss(None)

    def action_start(self) -> None:
        attempt = self.attempt

        def then(choice: tuple[str, str, str] | None) -> None:
            if choice:
                cli, model, effort = choice
                self.post_message(ActionRequested(
                    f"review {attempt}", lambda w: w.gate.start_review(attempt, cli, model, effort),
                    ReviewStarted, slow=True))

        try:   # the reviewer's CLI, model and effort from your config, when it names them
            d = self.services.settings().launch("reviewer")
        except A2AError:
            d = None
        self.app.push_screen(StartReviewScreen(attempt, d), then)

    def action_dispose(self) -> None:
        from a2a_tui.tui.screens.editor import Draft, EditorScreen

        attempt, issue = self.attempt, self.issue
        assert issue is not None

        def then(draft: Draft | None) -> None:
            if draft:
                self.post_message(ActionRequested(
                    f"{draft.kind} {issue}",
                    lambda w: w.gate.dispose(attempt, issue, draft.kind, draft.text),
                    ReviewIssueDisposed))

        self.app.push_screen(EditorScreen(
            f"{issue} of {attempt}", "accept: the worker fixes it in a new submission; reject or"
            " defer: why it does not block now. Recorded as your input.",
            kinds=("accept", "reject", "defer")), then)

    def action_override(self) -> None:
        from a2a_tui.tui.screens.editor import Draft, EditorScreen

        attempt = self.attempt

        def then(draft: Draft | None) -> None:
            if draft:
                self.post_message(ActionRequested(
                    f"override {attempt}", lambda w: w.gate.override(attempt, draft.text),
                    ReviewOverridden))

        self.app.push_screen(EditorScreen(
            f"Override the review of {attempt}", "your reason: the review of this commit no"
            " longer stops it (recorded as your input)"), then)

    def action_approve(self) -> None:
        attempt = self.attempt
        self.post_message(ActionRequested(f"approve {attempt}", lambda w: w.gate.approve(attempt),
                                          IntegrationApproved))


def summary(st: ReviewState) -> Text:
    t = Text()
    t.append(f"{st.attempt} ", style="bold")
    t.append(f"{st.attempt_state}")
    if st.sha:
        t.append(f" · {st.sha[:12]} (submission {st.submission})", style="dim")
    needs = [w for w, on in (("review required", st.review_required),
                             ("your approval required", st.approval_required)) if on]
    t.append(f" · card {st.card}: {', '.join(needs) or 'no review or approval required'}",
             style="dim")
    if st.override:
        t.append(f"\noverridden by you: {st.override}", style="yellow")
    return t


def approval_text(st: ReviewState) -> Text:
    t = Text()
    for a in st.approvals:
        t.append(f"approval {a.id} ({a.user_input}): {a.sha[:12]}, card v{a.card_version} ·"
                 f" {a.state}" + (f": {a.why}" if a.why else "") + "\n",
                 style="green" if a.state == "fits" else "dim")
    if st.blocked:
        t.append(f"integrate: {st.blocked[0]}: {st.blocked[1]}", style="bold red")
    elif st.sha:
        t.append("integrate: nothing in the review or approval stops it", style="green")
    return t


class StartReviewScreen(BoxScreen[tuple[str, str, str] | None]):
    """Which CLI (and model, effort) the reviewer runs; Ctrl-S starts, Esc cancels."""

    BINDINGS = [Binding("ctrl+s", "send", "Start", priority=True),
                Binding("escape", "cancel", "Cancel", priority=True),
                *FORM_KEYS]
    DEFAULT_CSS = """
    StartReviewScreen > Vertical { width: 80%; max-width: 80; }
    StartReviewScreen RadioSet { layout: horizontal; height: auto; border: none; padding: 0; }
    """

    def __init__(self, attempt: str, defaults: RoleDefaults | None = None) -> None:
        super().__init__()
        self.attempt = attempt
        self.defaults = defaults

    def compose(self) -> ComposeResult:
        d = self.defaults
        chosen = d.cli if d is not None and d.cli in CLIS else CLIS[0]
        with Vertical() as box:
            box.border_title = f"Review {self.attempt}"
            box.border_subtitle = "Ctrl-S start · Esc cancel"
            yield Label("The reviewer's CLI (a fresh session, in a read-only checkout)")
            with RadioSet(id="cli"):
                for cli in CLIS:
                    yield RadioButton(cli, value=cli == chosen, id=f"cli-{cli}")
            yield Input(d.model if d else "", placeholder="model (optional)", id="model")
            yield Input(d.effort if d else "", placeholder="effort (optional)", id="effort")
        yield WorkbenchFooter(compact=True)

    def action_send(self) -> None:
        self.after_fields(self._send)     # on what the fields show, their last keys taken

    def _send(self) -> None:
        if self.app.screen is not self:
            return
        pressed = self.query_one(RadioSet).pressed_button
        cli = str(pressed.label) if pressed is not None else CLIS[0]
        self.dismiss((cli, self.query_one("#model", Input).value.strip(),
                      self.query_one("#effort", Input).value.strip()))

    def action_cancel(self) -> None:
        self.dismiss(None)
