"""The workbench's hands: each user action, carried out through the core and recorded as a user
input (U-<n>). No textual here; the app calls these from worker threads.

A Store connection is not shared across threads, so every call opens its own. The user inputs
go through the collaboration records (`a2a_tui.collab`); pane control through
`a2a_tui.panes.control`; answers and messages through the board and `say`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from a2a_tui.errors import A2AError
from a2a_tui.identity import Caller
from a2a_tui.repo import Repo
from a2a_tui.store import Store

# Imports inside functions: the core areas (collab, panes, gate, tmux), in the methods that use
# them; the first frame needs none of them (the gate alone, with pydantic, costs ~0.1 s).
if TYPE_CHECKING:
    from a2a_tui.gate.model import Score
    from a2a_tui.gate.reviews.diff import AttemptDiff
    from a2a_tui.gate.verification.logs import CheckLog
    from a2a_tui.gate.views import CardDetail, CheckOutput

SOURCE = "tui"
USER = "user"


@dataclass
class Done:
    """What an action did: one line for the user and the facts behind it."""

    summary: str
    data: dict[str, Any] = field(default_factory=dict)


class Workbench:
    """One repository's workbench services; the app factory receives one."""

    def __init__(self, repo: Repo, tmux_socket: str | None = None):
        self.repo = repo
        self.tmux_socket = tmux_socket

    @contextmanager
    def store(self) -> Iterator[Store]:
        """A connection for the calling thread, closed afterwards."""
        s = self.repo.store()
        try:
            yield s
        finally:
            s.close()

    def _collab(self, store: Store):
        from a2a_tui.collab.context import Collab

        return Collab(self.repo, store, Caller())

    def _record(self, store: Store, kind: str, text: str, *, to_session: str | None = None,
                ref: str | None = None, attempt: str | None = None) -> str:
        from a2a_tui.collab.user_input import record_user_input_in_tx

        with store.write() as tx:
            return record_user_input_in_tx(tx, kind, text, source=SOURCE, to_session=to_session,
                                           ref=ref, attempt=attempt)

    def _wake(self) -> None:
        from a2a_tui.queue import wake

        wake(self.repo)

    # --- sessions -------------------------------------------------------------------------
    def inject(self, sid: str, text: str) -> Done:
        """The user's prompt for a pane: one user input (message) and the dispatch carrying it,
        in one transaction (the same call as `a2a inject`, recording the user input)."""
        from a2a_tui.panes import control

        with self.store() as s:
            r = control.inject(s, sid, text, source="user", actor=USER, user_input_from=SOURCE)
        self._wake()
        return Done(f"queued #{r['dispatch']} for {sid} ({r['ahead']} ahead) · {r['user_input']}",
                    r)

    def set_paused(self, sids: list[str] | None, paused: bool) -> Done:
        """Pause or resume the named sessions (None: every session that has not exited)."""
        from a2a_tui.panes import control

        verb = "pause" if paused else "resume"
        with self.store() as s:
            changed = control.set_paused(s, sids, paused, actor=USER)
            what = "all" if sids is None else ", ".join(sids)
            uid = self._record(s, "action", f"{verb} {what}",
                               to_session=sids[0] if sids and len(sids) == 1 else None)
        self._wake()
        done = ", ".join(changed) if changed else "nothing changed"
        return Done(f"{verb}d {done} · {uid}", {"changed": changed, "paused": paused,
                                               "user_input": uid})

    def release(self, sid: str) -> Done:
        """Declare a pane idle (after an Esc interrupt, or a 'probably idle' hint)."""
        from a2a_tui.panes import control

        with self.store() as s:
            r = control.release(s, sid, actor=USER)
            uid = self._record(s, "action", f"release {sid} (was {r['from']})", to_session=sid)
        self._wake()
        return Done(f"released {sid} (was {r['from']}) · {uid}", {**r, "user_input": uid})

    def confirm_input(self, uid: str) -> Done:
        """Confirm that pane input `uid` (typed into a pane) was the user's: only then can a
        quote of it authorize (collab/authorization.py)."""
        from a2a_tui.collab.user_input import confirm_pane_input

        with self.store() as s:
            r = confirm_pane_input(self._collab(s), uid, source=SOURCE)
        return Done(f"{uid} confirmed as yours · {r['id']}", r)

    def jump(self, sid: str) -> Done:
        """Show the session's pane in tmux (its window becomes the current one). Navigation,
        not a decision: nothing is recorded."""
        from a2a_tui.tmux import Tmux

        with self.store() as s:
            row = s.one("SELECT pane_id, tmux_socket, state FROM sessions WHERE id = ?", (sid,))
        if row is None or not row["pane_id"]:
            raise A2AError("no_pane", f"session {sid} has no pane")
        followed = Tmux(row["tmux_socket"]).show_pane(row["pane_id"])
        where = "" if followed else " (attach to tmux to see it)"
        return Done(f"tmux shows {sid} in pane {row['pane_id']}{where}",
                    {"session": sid, "pane": row["pane_id"], "client_followed": followed})

    def _gate(self, store: Store):
        from a2a_tui.gate.context import GateContext

        return GateContext(self.repo, store, Caller())

    def settings(self):
        """The user's settings merged with the repository's (a bad file: one clear error)."""
        from a2a_tui import settings

        return settings.of_repo(self.repo)

    def open_attempts(self) -> list[str]:
        """Attempts a new session can work in: open, with their worktree present."""
        from a2a_tui.gate.model import ACTIVE

        marks = ",".join("?" * len(ACTIVE))
        with self.store() as s:
            rows = s.all(f"SELECT id FROM attempts WHERE state IN ({marks})"
                         " AND worktree_state = 'present' ORDER BY claimed_ns", ACTIVE)
        return [r["id"] for r in rows]

    def new_session(self, spec) -> Done:
        """Start a session (`a2a session new`), recorded as the user's input."""
        from a2a_tui import lifecycle

        with self.store() as s:
            r = lifecycle.new(self._gate(s), self.settings(), role=spec.role, cli=spec.cli,
                              model=spec.model, effort=spec.effort, options=spec.options,
                              attempt=spec.attempt, tmux_socket=self.tmux_socket, source=SOURCE,
                              assign=spec.assign)
        return Done(f"started {lifecycle.describe(r)} · {r['user_input']}", r)

    def restart(self, sid: str) -> Done:
        """Start an exited session again (`a2a session restart`)."""
        from a2a_tui import lifecycle

        with self.store() as s:
            r = lifecycle.restart(self._gate(s), sid, source=SOURCE)
        return Done(f"restarted {lifecycle.describe(r)} · {r['user_input']}", r)

    def end_session(self, sid: str) -> Done:
        """End a session (`a2a session end`): its pane is closed, its queue kept."""
        from a2a_tui import lifecycle

        with self.store() as s:
            r = lifecycle.end(self._gate(s), sid, source=SOURCE)
        return Done(f"ended {sid} (pane {r['pane']} closed) · {r['user_input']}", r)

    def revive(self, sid: str) -> Done:
        """Start an exited session again on its CLI's own conversation (`a2a session
        revive`); a fresh one where the CLI cannot resume, said so."""
        from a2a_tui import lifecycle

        with self.store() as s:
            r = lifecycle.revive(self._gate(s), sid, source=SOURCE)
        return Done(lifecycle.describe_revive(r), r)

    def fork(self, sid: str) -> Done:
        """A new session on a copy of the session's conversation (`a2a session fork`)."""
        from a2a_tui import lifecycle

        with self.store() as s:
            r = lifecycle.fork(self._gate(s), sid, tmux_socket=self.tmux_socket, source=SOURCE)
        return Done(lifecycle.describe_fork(r), r)

    # --- comments on a diff (gate/reviews/comments.py) --------------------------------------
    def comments(self, attempt: str) -> list:
        """The attempt's held comments (read for the diff screen)."""
        from a2a_tui.gate.reviews import comments

        with self.store() as s:
            return comments.listed(s, attempt)

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

    # --- what waits for the user -----------------------------------------------------------
    def waiting_seen(self) -> Done:
        """The user has looked at what waits: rejections and stops so far count as seen."""
        from a2a_tui.panes.calls import mark_seen

        with self.store() as s:
            r = mark_seen(s)
        return Done(f"rejections and stops up to event #{r['upto']} seen", r)

    def stop_orchestrator(self) -> int | None:
        """Stop the repository's orchestrator running in another process (quitting for good)."""
        from a2a_tui.panes.orchestrator import stop_running

        return stop_running(self.repo)

    # --- board ------------------------------------------------------------------------------
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
        sent = [x for x in r["sent"] if x.get("dispatch")]
        if r["held"]:
            how = f"held for a batch ({others} more open from {asker}; s sends now)"
        elif sent:
            how = f"sent to {sent[0]['session']} as #{sent[0]['dispatch']}" + (
                f" with {len(sent[0]['user_inputs']) - 1} held answer(s)"
                if len(sent[0]["user_inputs"]) > 1 else "")
        else:
            why = next((x.get("why") for x in r["sent"] if x.get("why")), None)
            how = why or "recorded (nobody to send it to)"
        return Done(f"{item_id} answered · {r['user_input']} · {how}",
                    {"item": item_id, "user_input": r["user_input"], "held": r["held"],
                     "sent": r["sent"]})

    def send_answers(self) -> Done:
        """Send every held answer: one prompt per asking session."""
        from a2a_tui.collab import board

        with self.store() as s:
            sent = board.send_pending(self._collab(s))
        parts = [f"{x['session']} #{x['dispatch']} ({len(x['user_inputs'])} answers)"
                 if x.get("dispatch") else f"{x['session']}: {x.get('why')}" for x in sent]
        return Done("sent " + "; ".join(parts) if parts else "no held answers", {"sent": sent})

    # --- the ideation controller -----------------------------------------------------------
    def say(self, text: str, kind: str = "message") -> Done:
        """A message (approval, refusal) to the ideation controller."""
        from a2a_tui.collab.user_input import say

        with self.store() as s:
            r = say(self._collab(s), text, kind, source=SOURCE)
        where = (f"queued to {r['to_session']} as #{r['dispatch']}" if r["dispatch"]
                 else "recorded; no live ideation session to deliver it to")
        return Done(f"{r['id']} ({kind}) {where}", r)

    # --- task cards: written in the editor, made ready, claimed (N, e, r, C) ----------------
    def new_card_file(self) -> tuple[Path, str]:
        """A new card's commented template in `.a2a/cards/new-<n>.toml`, and its text."""
        from a2a_tui.gate.cards.commands import write_draft

        return write_draft(self.repo)

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

    def claim(self, card: str) -> Done:
        """Claim the ready card as the user: an attempt with its fence and worktree (a session
        started on it then becomes its writer)."""
        from a2a_tui.gate import claim

        with self.store() as s:
            uid = self._record(s, "action", f"claim {card}")
            r = claim(self._gate(s), card)
        return Done(f"claimed {card} as {r.attempt} (fence {r.fence}) · {uid}",
                    {**r.to_json(), "user_input": uid})

    # --- the gate -------------------------------------------------------------------------
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

    def untouched(self, attempt: str) -> bool:
        """Nothing submitted, no commit in the attempt's clone: abandoned without scores (the
        gate's own rule, gate/attempts/ownership.py `untouched`)."""
        from a2a_tui.gate.attempts.ownership import untouched

        with self.store() as s:
            att = s.one("SELECT worktree, start_commit, submission_n FROM attempts WHERE id = ?",
                        (attempt,))
        return att is not None and untouched(att)

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
        pane = tmux.open_window(self.repo.config().tmux_session, place.worktree, attempt)
        where = "" if tmux.show_pane(pane) else " (attach to tmux to see it)"
        return Done(f"a shell in {attempt}'s worktree: tmux window {attempt}, pane {pane}{where}",
                    {"attempt": attempt, "pane": pane, "worktree": place.worktree})

    # --- reading (no user input: what a screen shows) ---------------------------------------
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

    # --- reviews and approvals (the review screen) -------------------------------------------
    def review_state(self, attempt: str):
        """The attempt's reviews, issues, dispositions and approvals (gate/reviews/views.py)."""
        from a2a_tui.gate.reviews.views import review_state

        with self.store() as s:
            return review_state(s, attempt)

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
        return Done(f"review {r['review']} of {attempt}: session {r['session']} in its read-only"
                    f" checkout · {uid}", {**r, "user_input": uid})

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

    def approve(self, attempt: str) -> Done:
        """Your approval to integrate the verified candidate as it is now."""
        from a2a_tui.gate.reviews.approvals import approve

        with self.store() as s:
            r = approve(self._gate(s), attempt, source=SOURCE)
        return Done(f"approval {r.approval}: integrate {attempt} at {r.sha[:12]}"
                    f" · {r.user_input}", r.to_json())


class OrchestratorHost:
    """The repository's orchestrator, hosted by the workbench (`a2a serve` runs the same one)."""

    def __init__(self, repo: Repo, tmux_socket: str | None):
        self.repo = repo
        self.tmux_socket = tmux_socket
        self.orch = None

    def start(self) -> int:
        """Take the repository's orchestrator lock and start ingesting and delivering; returns
        our pid. Raises A2AError `orchestrator_running` when another process serves it."""
        from a2a_tui.metrics.retro import propose_if_due
        from a2a_tui.panes.orchestrator import Orchestrator

        orch = Orchestrator(self.repo, self.tmux_socket)
        orch.start()
        self.orch = orch
        propose_if_due(self.repo, orch.store)   # a board question once per retro_every, if set
        return os.getpid()

    def wait(self) -> str | None:
        """Block until the orchestrator's worker ends; returns its error, if it failed."""
        orch = self.orch
        # The Orchestrator has no public join; its worker thread is what we wait for.
        thread = getattr(orch, "_thread", None)
        if thread is not None:
            thread.join()
        err = getattr(orch, "error", None)
        return None if err is None else repr(err)

    def stop(self) -> None:
        """Stop it and release the lock (idempotent)."""
        orch, self.orch = self.orch, None
        if orch is not None:
            orch.stop()

    @staticmethod
    def holder(repo: Repo) -> int | None:
        from a2a_tui.panes.orchestrator import lock_holder

        return lock_holder(repo)


def leave_tmux(repo: Repo, tmux_socket: str | None) -> bool:
    """When the app runs in the repository's `a2a up` session, detach the clients attached to it
    (the agents keep running). Returns whether it did."""
    pane = os.environ.get("TMUX_PANE")
    if not os.environ.get("TMUX") or not pane:
        return False
    from a2a_tui.tmux import Tmux

    tmux = Tmux(tmux_socket)
    session = tmux.session_of(pane)
    if session is None or session != repo.config().tmux_session:
        return False
    tmux.detach_clients(session)
    return True
