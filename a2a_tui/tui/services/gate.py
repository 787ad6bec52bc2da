"""The workbench's hands at the gate: cards written in the editor, made ready and claimed;
verify, integrate, abandon; a shell in an attempt's worktree; comments on a diff; reviews and
approvals. Each decision is recorded as a user input (U-<n>) before the gate acts on it."""

# Imports inside functions: the core areas (collab, panes, gate, tmux), in the methods that use
# them; the workbench's first frame needs none of them (the gate alone, with pydantic, costs
# ~0.1 s).

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from a2a_tui import host
from a2a_tui.errors import A2AError
from a2a_tui.identity import Caller
from a2a_tui.tui.services.base import SOURCE, Done, Part

if TYPE_CHECKING:
    from a2a_tui.gate.model import Score


class Gate(Part):
    """Cards, attempts, comments and reviews: every gate command the workbench runs."""

    def new_card_file(self) -> tuple[Path, str]:
        """The draft the user kept (a card the gate refused), else a new card's commented
        template in `.a2a/cards/new-<n>.toml`; and the template's text (an untouched file)."""
        from a2a_tui.gate.cards.commands import kept_draft, write_draft

        return write_draft(self.repo, path=kept_draft(self.repo))

    def edit_card_file(self, card: str) -> tuple[Path, str]:
        """The card's current version in `.a2a/cards/<id>.toml` to edit, and its text."""
        from a2a_tui.gate.cards.commands import write_edit

        with self.store() as s:
            return write_edit(self._gate(s), card)

    def add_card_file(self, path: Path, *, new: bool) -> Done:
        """Add the card file the user wrote: checked whole first (every problem at once, nothing
        recorded), then recorded as the user's input, which is the card's source ticket when
        it names none."""
        from a2a_tui.gate.cards.commands import add_card, settle_draft
        from a2a_tui.gate.cards.schema import load_card

        load_card(path)
        with self.store() as s:
            uid = self._record(s, "action", f"add the card written in {path.name}")
            r = add_card(self._gate(s), path, source_ticket=uid)
        if new:
            path = settle_draft(self.repo, path, r.card)
        return Done(f"card {r.card} v{r.version} {r.verb()} ({r.state}){r.filled_note()} · {uid}",
                    {**r.to_json(), "file": str(path), "user_input": uid})

    def ready_card(self, card: str) -> Done:
        """Confirm the card's current version ready (its contract is checked first)."""
        from a2a_tui.gate.cards.commands import ready_card

        with self.store() as s:
            uid = self._record(s, "action", f"ready {card}")
            r = ready_card(self._gate(s), card)
        return Done(f"card {card} v{r.version} is ready · {uid}",
                    {**r.to_json(), "user_input": uid})

    def claim(self, card: str, again: bool = False) -> Done:
        """Claim the ready card as the user: an attempt with its fence and worktree (a session
        started on it then becomes its writer). `again`: a card integrated already."""
        from a2a_tui.gate import claim

        with self.store() as s:
            uid = self._record(s, "action", f"claim {card}" + " again" * again)
            r = claim(self._gate(s), card, again=again)
        return Done(f"claimed {card} as {r.attempt} (fence {r.fence}) · {uid}",
                    {**r.to_json(), "user_input": uid})

    def verify(self, attempt: str) -> Done:
        """Run the gate's check chain on the attempt's submitted SHA (slow: a worker's job)."""
        from a2a_tui.gate import GateContext, verify

        with self.store() as s:
            uid = self._record(s, "action", f"verify {attempt}")
            v = verify(GateContext(self.repo, s, Caller()), attempt)
        first = v.first_failure()
        verdict = {"passed": "PASSED", "flaky": "FLAKY (unknown)",
                   "commit_missing": "UNKNOWN (the submitted commit is missing)",
                   "contract_invalid": "CONTRACT INVALID (the card's)"}.get(v.verdict) or (
            f"REJECTED at {first.name}" if first else "REJECTED")
        return Done(f"verify {attempt}: {verdict} (run {v.run}) · {uid}",
                    {"attempt": attempt, "passed": v.passed, "verdict": v.verdict, "run": v.run,
                     "user_input": uid})

    def integrate(self, attempt: str, score: Score) -> Done:
        """Move the target branch to the attempt's verified candidate, with the user's scores
        (the gate's compare-and-swap; slow: a worker's job)."""
        from a2a_tui.gate import GateContext, integrate

        with self.store() as s:
            uid = self._record(s, "action", f"integrate {attempt} (boundary {score.boundary},"
                               f" taste {score.taste})", attempt=attempt)
            r = integrate(GateContext(self.repo, s, Caller()), attempt, score)
        synced = "" if r.worktree_synced in (None, True) else \
            f" (main worktree: {r.worktree_synced})"
        return Done(f"integrated {attempt}: {r.target} {r.old[:12]} → {r.new[:12]}"
                    f"{synced} · {uid}", {**r.to_json(), "user_input": uid})

    def abandon(self, attempt: str, score: Score | None, reason: str) -> Done:
        """End the attempt without integrating it; its commits and evidence stay."""
        from a2a_tui.gate import GateContext, abandon

        with self.store() as s:
            uid = self._record(s, "action", f"abandon {attempt}: {reason}", attempt=attempt)
            r = abandon(GateContext(self.repo, s, Caller()), attempt, score, reason)
        return Done(f"abandoned {attempt} · {uid}", {**r.to_json(), "user_input": uid})

    def open_worktree(self, attempt: str) -> Done:
        """A shell in the attempt's worktree, in a new window of the repository's tmux session
        (navigation: not a user input)."""
        from a2a_tui.gate.views import attempt_place
        from a2a_tui.tmux import Tmux

        with self.store() as s:
            place = attempt_place(s, attempt)
        if place is None:
            raise A2AError("unknown_attempt", f"no attempt {attempt!r}")
        if place.worktree_state != "present" or not os.path.isdir(place.worktree):
            raise A2AError("no_worktree", f"{attempt}'s worktree is {place.worktree_state}"
                           f" ({place.worktree})")
        tmux = Tmux(self.tmux_socket)
        pane = tmux.open_window(self.repo.config().tmux_session, place.worktree, attempt,
                                env={"PATH": host.path_with_a2a()})
        where = "" if tmux.show_pane(pane) else " (attach to tmux to see it)"
        return Done(f"a shell in {attempt}'s worktree: tmux window {attempt}, pane {pane}{where}",
                    {"attempt": attempt, "pane": pane, "worktree": place.worktree})

    def comment(self, attempt: str, path: str, line: int, text: str) -> Done:
        from a2a_tui.gate.reviews import comments

        with self.store() as s:
            c = comments.add(self._gate(s), attempt, path, line, text)
        return Done(f"{c.id} held on {c.path}:{c.line} (s sends the held comments)",
                    c.to_json())

    def edit_comment(self, cid: str, text: str) -> Done:
        from a2a_tui.gate.reviews import comments

        with self.store() as s:
            c = comments.edit(self._gate(s), cid, text)
        return Done(f"{c.id} edited", c.to_json())

    def remove_comment(self, cid: str) -> Done:
        from a2a_tui.gate.reviews import comments

        with self.store() as s:
            c = comments.remove(self._gate(s), cid)
        return Done(f"{c.id} removed", c.to_json())

    def send_comments(self, attempt: str) -> Done:
        """Every held comment of the attempt, as one prompt to its writer (a user input)."""
        from a2a_tui.gate.reviews import comments

        with self.store() as s:
            r = comments.send(self._gate(s), attempt, source=SOURCE)
        older = f", {len(r.older)} against an older SHA" if r.older else ""
        return Done(f"sent {len(r.comments)} comment(s) to {r.session} as"
                    f" #{r.dispatch}{older} · {r.user_input}", r.to_json())

    def start_review(self, attempt: str, cli: str, model: str = "", effort: str = "") -> Done:
        """Launch a reviewer on the attempt's submitted SHA (`a2a review start`)."""
        from a2a_tui.spawn import spawn_reviewer

        with self.store() as s:
            uid = self._record(s, "action", f"start a review of {attempt} with {cli}"
                               + "".join(f" {x}" for x in (model, effort) if x))
            r = spawn_reviewer(self._gate(s), attempt, cli=cli, model=model, effort=effort,
                               tmux_socket=self.tmux_socket,
                               extra=self.settings().launch("reviewer", cli).options)
        self._wake()
        return Done(f"review {r.review} of {attempt}: session {r.session} in its read-only"
                    f" checkout · {uid}", {**r.to_json(), "user_input": uid})

    def dispose(self, attempt: str, issue: str, decision: str, reason: str) -> Done:
        """Your disposition of a blocking issue (a user input)."""
        from a2a_tui.gate.reviews.dispositions import dispose

        with self.store() as s:
            r = dispose(self._gate(s), attempt, issue, decision, reason, source=SOURCE)
        self._wake()
        return Done(f"{issue} of {attempt}: {decision} · {r.user_input}", r.to_json())

    def override(self, attempt: str, reason: str) -> Done:
        """Set the current SHA's review aside (a user input)."""
        from a2a_tui.gate.reviews.dispositions import override

        with self.store() as s:
            r = override(self._gate(s), attempt, reason, source=SOURCE)
        return Done(f"the review of {attempt} at {r.sha[:12]} is overridden"
                    f" · {r.user_input}", r.to_json())

    def spot_check(self, attempt: str, flag: bool, reason: str = "") -> Done:
        """Your answer to a spot check of an integrated attempt: ok, or flagged with why."""
        from a2a_tui.gate.integration.spotchecks import answer

        with self.store() as s:
            r = answer(self._gate(s), attempt, flag=flag, reason=reason, source=SOURCE)
        return Done(f"spot check of {attempt}: {r.verdict} · {r.user_input}", r.to_json())

    def approve(self, attempt: str) -> Done:
        """Your approval to integrate the verified candidate as it is now."""
        from a2a_tui.gate.reviews.approvals import approve

        with self.store() as s:
            r = approve(self._gate(s), attempt, source=SOURCE)
        return Done(f"approval {r.approval}: integrate {attempt} at {r.sha[:12]}"
                    f" · {r.user_input}", r.to_json())
