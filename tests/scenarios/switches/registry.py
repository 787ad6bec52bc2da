"""Every mechanism a scenario proves, by name, with the switch that takes it away.

`switch_off(name, set_)` applies it: in a scenario's own process through pytest's monkeypatch
(undone after the test), in every a2a process the scenario starts through sitecustomize.py
(`A2A_SCENARIO_OFF=name`). Each switch edits the one place the mechanism lives (edits.py); the
production code carries no test switch.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from tests.scenarios.switches.edits import Edit, Replace, Setter, text_edit


@dataclass(frozen=True)
class Switch:
    what: str  # the mechanism, in a line
    patches: tuple[Edit | Replace, ...]


SWITCHES: dict[str, Switch] = {
    "submit_fence": Switch(
        "submit refuses a fence that is not the attempt's and the card's current one",
        (Edit("a2a_tui.gate.attempts.ownership", "_record_refusal",
              'if fence != att.fence or att.fence != card["fence"]:', "if False:"),)),
    "submit_lineage": Switch(
        "submit refuses a commit that does not descend from the attempt's start commit",
        (Edit("a2a_tui.gate.attempts.ownership", "_candidate_refusal",
              "if not g.git.is_ancestor(att.start_commit, sha):", "if False:"),)),
    "exact_sha_checkout": Switch(
        "verify runs the checks on a fresh checkout of exactly the submitted SHA",
        (Replace("a2a_tui.gate.verification.checkout", "Checkout.__enter__",
                 lambda _: _live_worktree),
         Replace("a2a_tui.gate.verification.checkout", "Checkout.close", lambda _: _keep))),
    "target_guard": Switch(
        "integrate moves the target only from where the gate last left it (and only forward)",
        (Edit("a2a_tui.gate.attempts.target_record", "observe",
              "if t.diverged_head is None and head == t.baseline:", "if True:"),
         Edit("a2a_tui.gate.integration.advance", "_check_lineage",
              "if not g.git.is_ancestor(old, sha):", "if False:"))),
    "review_sha_binding": Switch(
        "a review names the exact current candidate it read",
        (Edit("a2a_tui.gate.reviews.verdict", "_fresh_run",
              'if sub is None or sub["sha"] != sha:', "if sub is None:"),)),
    "verdict_bound_to_sha": Switch(
        "integrate takes only a passing verdict of the attempt's current submission",
        (Edit("a2a_tui.gate.integration.advance", "_check_candidate",
              "if att.state != AttemptState.VERIFIED:",
              "if att.state not in (AttemptState.VERIFIED, AttemptState.SUBMITTED):"),
         Edit("a2a_tui.gate.integration.advance", "_check_candidate",
              'or last["sha"] != sha', ""),
         Edit("a2a_tui.gate.integration.advance", "_check_candidate",
              'or last["submission_n"] != att.submission_n', ""))),
    "evidence_per_attempt": Switch(
        "each attempt keeps its own verify logs (a new attempt writes beside, not over, them)",
        (Edit("a2a_tui.gate.verification.command", "verify",
              'logs = g.repo.a2a_dir / "logs" / attempt_id / f"run{run}"',
              'logs = g.repo.a2a_dir / "logs" / att.card_id / f"run{run}"'),)),
    "integration_recovery": Switch(
        "every gate command first settles an integration intent a crash left, from the ref",
        (Edit("a2a_tui.gate.integration.recovery", "recover",
              "for it in g.store.all(\"SELECT attempt_id FROM integrations"
              " WHERE state='intent'\"):",
              "for it in ():"),)),
    "unknown_is_a_state": Switch(
        "a ref that is neither the old nor the new commit leaves the outcome unknown",
        (Edit("a2a_tui.gate.integration.advance", "resolve_intent",
              'elif observed == it["old_sha"]:', "elif True:"),)),
    "ref_update_precheck": Switch(
        "git is asked whether the move would apply before the intent is recorded",
        (Edit("a2a_tui.gate.integration.advance", "_move",
              "g.git.check_ref_update(ref, sha, old)", "pass"),)),
    "index_lock_first": Switch(
        "integrate makes sure git can take the checkout's index before the target moves",
        (Edit("a2a_tui.gate.integration.advance", "_check_checkout",
              'IndexLock(g, root).probe(branch, "integrate")', "pass"),)),
    "store_pages_checked": Switch(
        "a store whose file changed is checked by SQLite before anything reads on or writes",
        (Edit("a2a_tui.store.db", "Store.__init__",
              "pages.check_if_changed(self.conn, self.path)", "pass"),)),
    "rolling_backups": Switch(
        "an orchestrator backs its store up on a schedule, before the backup is needed",
        (Edit("a2a_tui.panes.orchestrator", "Orchestrator.start",
              "self.backups.start()", "pass"),)),
    "reclaim_keeps_dirty": Switch(
        "reclaim keeps a worktree with uncommitted changes",
        (Edit("a2a_tui.gate.attempts.cleanup", "_kept_if_dirty", "if files:", "if False:"),)),
    "sending_becomes_unknown": Switch(
        "on start, a dispatch left between sending and sent becomes unknown (never re-sent)",
        (Edit("a2a_tui.panes.orchestrator", "Orchestrator.start",
              "recovery.unknown_deliveries(self.store)", "pass"),)),
    "spool_catch_up": Switch(
        "on start, the orchestrator ingests the spool files that landed while it was down",
        (Replace("a2a_tui.panes.spool", "pending", lambda orig: _only_new(orig)),)),
    "queue_survives_exit": Switch(
        "an agent's exit ends only its turn in flight: its queued dispatches stay queued",
        (Replace("a2a_tui.panes.records", "save_pane", lambda orig: _dropping_queue(orig)),)),
    "no_resend_after_restart": Switch(
        "a restarted orchestrator takes the queue and the turn in flight from the store",
        (Replace("a2a_tui.panes.recovery", "unknown_deliveries",
                 lambda orig: _requeueing(orig)),)),
    "inbox_role_rules": Switch(
        "an inbox entry of a kind the caller's role may not write is refused",
        (Edit("a2a_tui.collab.inbox", "post", "if not may_write(role, kind):", "if False:"),)),
    "claim_needs_authorization": Switch(
        "a card that needs the user's authorization is claimed only through an authorized assign",
        (Edit("a2a_tui.gate.attempts.ownership", "_check_authorization", "if reason:",
              "if False:"),)),
    "protected_board_items": Switch(
        "only the user closes a blocking board item or one in a protected category",
        (Edit("a2a_tui.collab.board", "close", 'if item["protected"]:', "if False:"),)),
    "one_in_flight": Switch(
        "a pane takes its next dispatch only when idle with nothing in flight (after its Stop)",
        (Replace("a2a_tui.panes.delivery", "_READY", text_edit(
            "WHERE s.state = 'idle' AND s.paused = 0", "WHERE s.paused = 0")),
         Replace("a2a_tui.panes.delivery", "_READY", text_edit(" AND s.in_flight IS NULL", "")),
         Replace("a2a_tui.panes.machine", "can_deliver",
                 lambda _: lambda p: not p.paused and p.state not in ("exited", "unknown")))),
    "pause_holds_delivery": Switch(
        "a paused pane is delivered nothing",
        (Replace("a2a_tui.panes.delivery", "_READY", text_edit(" AND s.paused = 0", "")),
         Replace("a2a_tui.panes.machine", "can_deliver",
                 lambda _: lambda p: p.state == "idle" and p.in_flight is None))),
    "hint_never_releases": Switch(
        "an idle hint (after Esc no Stop comes) is shown, never taken as idle",
        (Edit("a2a_tui.panes.machine", "apply", "return Outcome(replace(p, hint=PROBABLY_IDLE))",
              "return Outcome(_to_idle(p), finished=p.in_flight)"),)),
    "typed_prompt_is_user_input": Switch(
        "a prompt no dispatch put there is recorded as the user's input",
        (Edit("a2a_tui.panes.machine", "_submitted",
              'return Outcome(busy, user_input=sig.prompt or "")', "return Outcome(busy)"),)),
    "nothing_pasted_into_a_wait": Switch(
        "a pane waiting on a permission takes no dispatch",
        (Replace("a2a_tui.panes.delivery", "_READY", text_edit(
            "WHERE s.state = 'idle' AND", "WHERE (s.state = 'waiting' OR s.state = 'idle' AND")),
         Replace("a2a_tui.panes.delivery", "_READY", text_edit(
            " AND s.in_flight IS NULL", " AND s.in_flight IS NULL)")),
         Replace("a2a_tui.panes.machine", "can_deliver",
                 lambda _: lambda p: not p.paused and (
                     p.state == "waiting" or p.state == "idle" and p.in_flight is None)))),
    "stop_after_enter": Switch(
        "only a Stop timestamped after the Enter releases the pane",
        (Edit("a2a_tui.panes.machine", "apply",
              'return Outcome(p, ignored="Stop older than the last Enter")', "pass"),)),
    "bracketed_paste": Switch(
        "a dispatch is one bracketed paste (paste-buffer -p): its line breaks are not Enter",
        (Edit("a2a_tui.tmux", "Tmux.paste", '"paste-buffer", "-p", "-d"',
              '"paste-buffer", "-d"'),)),
    "paste_from_stdin": Switch(
        "the text reaches tmux on stdin (load-buffer -), not in an argv tmux limits to 16 kB",
        (Edit("a2a_tui.tmux", "Tmux.paste",
              'self._stdin_cmd(text, "load-buffer", "-b", buffer, "-")',
              'self._cmd("set-buffer", "-b", buffer, "--", text)'),)),
    "only_user_inputs_authorize": Switch(
        "an assign's quote authorizes only when found in a user input record",
        (Edit("a2a_tui.collab.authorization", "check_quote",
              'row = tx.one("SELECT kind, text, source FROM user_inputs WHERE id = ?",'
              ' (user_input,))',
              'row = tx.one("SELECT kind, text, source FROM user_inputs WHERE id = ? UNION ALL'
              " SELECT 'message', text, 'cli' FROM inbox WHERE id = ?\","
              " (user_input, user_input))"),)),
    "status_never_raised": Switch(
        "a relayed report keeps or lowers the status it relays",
        (Edit("a2a_tui.collab.inbox", "_check_relay",
              'if REPORT_STATUSES.index(status) < REPORT_STATUSES.index(ref_row["status"]):',
              "if False:"),)),
    "three_strike_stop": Switch(
        "automatic gate feedback stops after the limit of consecutive rejections",
        (Edit("a2a_tui.gate.verification.feedback", "queue_rejection_feedback",
              "elif rejections > max_rounds:", "elif False:"),)),
    "gate_feedback": Switch(
        "a rejection is queued to the writer's pane as a marked gate dispatch",
        (Edit("a2a_tui.gate.verification.feedback", "queue_rejection_feedback",
              'if not writer.startswith("session:"):', "if True:"),)),
    "answers_batched": Switch(
        "the answers waiting for a session go to it as one prompt",
        (Edit("a2a_tui.collab.board", "_send_in_tx",
              'n = deliver_in_tx(tx, ids, session, batch_text(rows), source="board",'
              ' actor="user")\n'
              '    return [Sent(session, tuple(ids), n)]',
              'return [Sent(session, (r["id"],), deliver_in_tx('
              'tx, [r["id"]], session, batch_text([r]), source="board", actor="user"))'
              " for r in rows]"),)),
    "paste_targets_pane_id": Switch(
        "each paste targets its pane by id, not whatever pane tmux has current",
        (Edit("a2a_tui.tmux", "Tmux.paste", '"-b", buffer, "-t", pane_id)', '"-b", buffer)'),)),
    "stall_escalation": Switch(
        "a pane busy and silent past board_after_s is put on the board (and never touched)",
        (Edit("a2a_tui.panes.stalls", "silent_panes",
              '_stalled(store, r["id"], since, t.board_after_s)', "pass"),)),
    "one_transaction_per_write": Switch(
        "every write (an event and the tables it changes) is one SQLite transaction",
        (Edit("a2a_tui.store.db", "Store.write", 'self.conn.execute("BEGIN IMMEDIATE")', "pass"),
         Edit("a2a_tui.store.db", "Store.write", 'self.conn.execute("ROLLBACK")', "pass"),
         Edit("a2a_tui.store.db", "Store.write", 'self.conn.execute("COMMIT")', "pass"))),
    "only_submit_delivers": Switch(
        "only `a2a submit` delivers: a worker going idle after its commit delivers nothing",
        (Replace("a2a_tui.panes.spool", "ingest", lambda orig: _idle_is_delivery(orig)),)),
    "q_detaches": Switch(
        "q detaches the terminal; the workbench and the orchestrator run on (only Q stops)",
        (Edit("a2a_tui.tui.away", "Away.action_detach", "self.detach()",
              "self.quit_for_good()"),)),
    "enter_again": Switch(
        "a lost Enter is written again (never the paste) while nothing was heard from the pane",
        (Edit("a2a_tui.panes.confirm", "_decide",
              "if not heard and len(f.enters) <= prof.enter_retries:", "if False:"),)),
    "unconfirmed_is_unknown": Switch(
        "a delivery no prompt signal confirms becomes `unknown`, its pane too (nothing on top)",
        (Edit("a2a_tui.panes.confirm", "_decide",
              "_unknown(tx, row, f, why, unconfirmed_hint(f.n, len(f.enters), prof.prompt_wait_s))",
              "pass"),)),
    "handback_waits_for_writer": Switch(
        "abandon, claim --supersede and reclaim wait for an idle writer whose work is submitted",
        (Edit("a2a_tui.gate.attempts.handback", "holdups",
              "found = [pane_holdup(db, att), delivery_holdup(att, head) if delivery else None]",
              "found = []"),)),
    "approval_lapses": Switch(
        "an approval revoked by the user or past its period is refused where it is consumed",
        (Edit("a2a_tui.gate.reviews.approvals", "consume", "if lapsed is not None:",
              "if False:"),)),
    "lease_isolates": Switch(
        "an attempt whose writer sent no report for a lease's length is isolated, not re-sent",
        (Edit("a2a_tui.gate.attempts.leases", "_running", "if lease.expired(now_ns):",
              "if False:"),
         Edit("a2a_tui.gate.attempts.leases", "enforce", "if not lease.expired(now_ns):",
              "if True:"))),
    "retry_budget": Switch(
        "a card is claimed at most retry_budget times, the count never reset",
        (Edit("a2a_tui.gate.attempts.leases", "budget_refusal", "if len(used) < budget:",
              "if True:"),)),
    "model_behaviour_apart": Switch(
        "a writer's turn ended with its work owed, unasked and unfailed, is model behaviour",
        (Edit("a2a_tui.gate.attempts.behaviour", "on_signal",
              'if _asked(tx, sid, began, ev["seq"]):', "if True:"),)),
    "self_check_kept": Switch(
        "a worker's own check is kept with its submission and weighed against the gate's verdict",
        (Edit("a2a_tui.gate.attempts.ownership", "submit",
              'self_check=self_check or None))', "self_check=None))"),)),
    "spot_checks": Switch(
        "every Nth integration, the board asks the user to re-check one of the last N",
        (Edit("a2a_tui.gate.integration.spotchecks", "after_integrated",
              "if n % every != 0 or not done:", "if True:"),)),
    "thresholds": Switch(
        "a check's output is held to gate.toml's thresholds (a coverage that may not drop)",
        (Edit("a2a_tui.gate.verification.chain", "_command",
              "thresholds.results(c.g.store, c.rules, c.att, check.name, runs[-1])", "()"),)),
    "turn_limits": Switch(
        "a turn past its limits (no signal from its CLI, or its cap) is stopped with its key",
        (Edit("a2a_tui.panes.turns", "limit_turns", "_stop(store, tmux, r, now_ns, *why)",
              "pass"),)),
    "project_profile": Switch(
        "the project's profile, as the user confirmed it, is given to cards and controllers",
        (Replace("a2a_tui.collab.project", "profile_confirmed", lambda _: lambda db: None),)),
    "unknown_calls_user": Switch(
        "a dispatch whose delivery is unknown calls the user, once, naming the pane",
        (Edit("a2a_tui.panes.calls", "waiting", "d.state = 'unknown' ORDER BY d.n",
              "d.state = 'never' ORDER BY d.n"),)),
}


def _idle_is_delivery(ingest):
    """spool.ingest, then what a gate that took "done" for a delivery would do: a writer session
    idle with commits on its claimed attempt's branch (in the attempt's clone) submits its
    head."""
    def ingesting(store, path, *args, **kw):
        result = ingest(store, path, *args, **kw)
        from a2a_tui.gate.attempts.ownership import submit
        from a2a_tui.gate.context import GateContext
        from a2a_tui.git import clone_head
        from a2a_tui.identity import Caller
        from a2a_tui.repo import Repo

        repo = Repo(store.path.parent.parent)
        for row in store.all("SELECT s.id, s.role, a.id AS attempt, a.worktree, a.start_commit,"
                             " a.fence, a.card_version FROM sessions s JOIN attempts a"
                             " ON a.id = s.attempt_id WHERE s.state = 'idle'"
                             " AND a.state = 'claimed'"):
            head = clone_head(Path(row["worktree"]))
            if head and head != row["start_commit"]:
                submit(GateContext(repo, store, Caller(session=row["id"], role=row["role"])),
                       row["attempt"], head, row["card_version"], row["fence"])
        return result
    return ingesting


def _only_new(pending):
    """spool.pending as an event-only watcher sees it: files landed before this process began
    are never seen."""
    began = time.time()

    def only_new(spool_dir, *args, **kw):
        return [p for p in pending(spool_dir, *args, **kw) if p.stat().st_mtime >= began]
    return only_new


def _dropping_queue(save_pane):
    """save_pane that, as a naive orchestrator would, drops an exited session's queue."""
    def dropping(tx, sid, old, new, *args, **kw):
        save_pane(tx, sid, old, new, *args, **kw)
        if new.state == "exited":
            tx.execute("UPDATE dispatches SET state='ended' WHERE session=? AND state='queued'",
                       (sid,))
    return dropping


def _requeueing(unknown_deliveries):
    """unknown_deliveries after a naive restart that sends again what was not seen done."""
    def requeueing(store, *args, **kw):
        with store.write() as tx:
            tx.execute("UPDATE dispatches SET state='queued' WHERE state IN ('sent','delivered')")
            tx.execute("UPDATE sessions SET in_flight=NULL, state='idle' WHERE state='busy'")
        return unknown_deliveries(store, *args, **kw)
    return requeueing


def _live_worktree(self):
    """Checkout.__enter__ without its checkout: the attempt's own, live worktree (taken as it
    is: what a2a sees there now is what it expects)."""
    from a2a_tui.gate.verification.checkout import scan

    self.path = max(self.g.repo.worktrees_dir.iterdir(), key=lambda p: p.stat().st_mtime)
    self.expected = scan(self.path)
    return self.path


def _keep(self) -> None:
    """Checkout.close for the live worktree: nothing to remove."""


def switch_off(name: str, set_: Setter) -> None:
    """Take the mechanism `name` away (an unknown name is an error: a typo must not pass)."""
    if name not in SWITCHES:
        raise KeyError(f"no scenario switch named {name!r}")
    for patch in SWITCHES[name].patches:
        patch.apply(set_)
