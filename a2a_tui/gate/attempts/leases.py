"""Leases and the retry budget (seed 001, "失联尝试怎样重新派发").

A lease: an attempt that owes work (claimed, or rejected and to be fixed) is held by its writer
for `lease_s` of the gate rules past the writer's last report, by a2a's clock (the time a2a
recorded it, never a time the agent wrote). What renews it is the writer's own reports: the
claim, a writer bound, the writer session's signals (its CLI's hooks: a turn, a tool, a stop)
and its submissions. a2a's own heartbeats, the user's acts and anyone else's signals do not.

An expired lease does not prove that the writer stopped ("租约过期不证明进程已停止"), so nothing is
dispatched again: the attempt is isolated (`lease_expired`, folded into `attempts.isolated_seq`)
and a board item asks the user to look. An isolated attempt takes no submission
(`lease_expired`): a worker coming back late cannot change what the user is checking. The user
or the executive takes it back (`a2a lease ATTEMPT --renew`: `lease_renewed`), or ends it
(abandon, claim --supersede: gate/attempts/handback.py still waits for an idle writer).

Expiry is found where it matters, by the same function: the orchestrator's cycle (`sweep`, on
a timer set to the next expiry) and every submission (`enforce`).

The retry budget: a card may have `retry_budget` attempts (the gate rules, the user's); a
claim past it is refused (`retry_budget_spent`). The budget used is the
number of attempts the log holds: nothing resets it, a new card version included. A new attempt
names the one before (`follows`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from a2a_tui.collab.board import post_finding_in_tx
from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.ledger import GateEvent
from a2a_tui.gate.ledger.records import AttemptRecord, attempt_in
from a2a_tui.gate.model import AttemptState
from a2a_tui.gate.roles import admit
from a2a_tui.payloads import attempts as pa

# The states in which the writer owes work: the lease runs.
OWING = (AttemptState.CLAIMED, AttemptState.REJECTED)
# The writer's own reports on its attempt (besides its session's signals).
RENEWING = (GateEvent.CLAIMED, GateEvent.WRITER_BOUND, GateEvent.SUBMITTED,
            GateEvent.LEASE_RENEWED)


@dataclass(frozen=True)
class Lease:
    attempt: str
    writer: str
    last_report_ns: int       # a2a's clock: when it recorded the writer's last report
    expires_ns: int | None    # None: leases are off (lease_s = 0) or the attempt owes nothing
    isolated_seq: int | None  # the lease_expired event that isolated it

    def expired(self, now_ns: int) -> bool:
        return self.expires_ns is not None and now_ns > self.expires_ns

    def to_json(self) -> dict:
        return {"attempt": self.attempt, "writer": self.writer,
                "last_report_ns": self.last_report_ns, "expires_ns": self.expires_ns,
                "isolated": self.isolated_seq}


def last_report(db, att: AttemptRecord) -> int:
    """When a2a recorded the writer's last report on the attempt (ns)."""
    kinds = tuple(k.value for k in RENEWING)
    own = db.one(f"SELECT MAX(seq) FROM events WHERE attempt = ? AND kind IN"
                 f" ({','.join('?' * len(kinds))})", (att.id, *kinds))[0]
    writer = att.writer or ""
    signal = None
    if writer.startswith("session:"):   # the writer's CLI, through its own hooks
        signal = db.one("SELECT MAX(seq) FROM events WHERE kind = 'signal' AND session = ?",
                        (writer.removeprefix("session:"),))[0]
    seq = max(s for s in (own, signal) if s is not None)
    return db.one("SELECT ts_ns FROM events WHERE seq = ?", (seq,))[0]


def lease_of(db, att: AttemptRecord, lease_s: int) -> Lease:
    """The attempt's lease as the log gives it now."""
    last = last_report(db, att)
    runs = lease_s > 0 and att.state in OWING
    return Lease(att.id, att.writer, last, last + lease_s * 10**9 if runs else None,
                 att.isolated_seq)


def _isolate(tx, att: AttemptRecord, lease: Lease, now_ns: int) -> int:
    """Record the expiry (the attempt isolated) and the board item asking the user to look."""
    silent = (now_ns - lease.last_report_ns) / 1e9
    ev = ledger.record(tx, GateEvent.LEASE_EXPIRED, actor="gate", task=att.card_id,
                       attempt=att.id, ts_ns=now_ns,
                       payload=pa.LeaseExpired(writer=att.writer,
                                               last_report_ns=lease.last_report_ns,
                                               expires_ns=lease.expires_ns, fence=att.fence))
    post_finding_in_tx(
        tx, title=f"Lease of {att.id} expired", blocking=False, category="scope",
        body=f"{att.writer} sent no report on {att.id} for {silent:.0f} s (its signals and"
        " submissions renew its lease). That does not prove it stopped: nothing was dispatched"
        " again. The attempt is isolated (it takes no submission). Look at its pane, then"
        f" `a2a lease {att.id} --renew` to let it go on, or end it (abandon, claim"
        " --supersede).", actor="gate", session=None, task=att.card_id, attempt=att.id)
    return ev.seq


def sweep(g, now_ns: int | None = None) -> int | None:
    """Isolate every attempt whose lease expired; return when the next one will (ns), for the
    orchestrator's timer (None: none runs)."""
    from a2a_tui.gate.cards.gate_rules import load  # lazy: pydantic

    lease_s = load(g).rules.lease_s
    if lease_s <= 0:
        return None
    now_ns = now_ns or time.time_ns()
    expired, due = _running(g.store, lease_s, now_ns)
    if expired:   # written only when one expired: a cycle's look is a read
        with g.store.write() as tx:
            expired, due = _running(tx, lease_s, now_ns)
            for att, lease in expired:
                _isolate(tx, att, lease, now_ns)
    return min(due) if due else None


def _running(db, lease_s: int, now_ns: int) -> tuple[list[tuple], list[int]]:
    """The running leases: those expired at `now_ns` (with their attempt), the others' ends."""
    expired, due = [], []
    for row in db.all(f"SELECT * FROM attempts WHERE isolated_seq IS NULL AND state IN"
                      f" ({','.join('?' * len(OWING))})", OWING):
        att = AttemptRecord.of(row)
        lease = lease_of(db, att, lease_s)
        if lease.expired(now_ns):
            expired.append((att, lease))
        elif lease.expires_ns is not None:
            due.append(lease.expires_ns)
    return expired, due


def sweeper(repo):
    """`sweep` as the orchestrator's cycle calls it: (store, now) -> the next expiry. A refusal
    (rules that cannot be read, a frozen gate) skips this look; the next cycle looks again."""
    def look(store, now_ns: int) -> int | None:
        try:
            return sweep(GateContext(repo, store), now_ns)
        except A2AError:
            return None
    return look


def enforce(g, tx, att: AttemptRecord, lease_s: int, now_ns: int) -> A2AError | None:
    """At a submission, in its transaction: the refusal when the attempt is isolated, or its
    lease expired now (recorded then, as the sweep would have)."""
    if att.isolated_seq is None:
        lease = lease_of(tx, att, lease_s)
        if not lease.expired(now_ns):
            return None
        seq = _isolate(tx, att, lease, now_ns)
    else:
        seq = att.isolated_seq
    return A2AError("lease_expired", f"{att.id} is isolated: its lease expired (event #{seq},"
                    " no report from its writer in time); the user or the executive looks and"
                    f" renews it (`a2a lease {att.id} --renew`)")


def renew(g, attempt_id: str, reason: str = "") -> Lease:
    """Take an isolated attempt back (the user or the executive, after looking): its lease runs
    again from now."""
    from a2a_tui.gate.cards.gate_rules import load  # lazy: pydantic

    att = admit(g, "lease", attempt_id)
    lease_s = load(g).rules.lease_s
    with g.store.write() as tx:
        att = attempt_in(tx, attempt_id)
        if att.isolated_seq is None:
            raise A2AError("not_isolated", f"{attempt_id} is not isolated: its lease runs"
                           " (nothing to renew)")
        ledger.record(tx, GateEvent.LEASE_RENEWED, actor=g.caller.actor, task=att.card_id,
                      attempt=attempt_id, session=g.caller.session,
                      payload=pa.LeaseRenewed(isolated=att.isolated_seq, reason=reason))
        return lease_of(tx, attempt_in(tx, attempt_id), lease_s)


def budget_refusal(tx, card_id: str, budget: int) -> A2AError | None:
    """The refusal of a claim past the card's retry budget (None: there is budget left)."""
    used = tx.all("SELECT id FROM attempts WHERE card_id = ? ORDER BY n", (card_id,))
    if len(used) < budget:
        return None
    return A2AError("retry_budget_spent", f"card {card_id} has used its retry budget: {len(used)}"
                    f" of {budget} attempts ({used[0]['id']}..{used[-1]['id']}); the budget used"
                    " is never reset. The user may raise `retry_budget` in .a2a/gate.toml and"
                    " accept it (`a2a gate-rules accept`), or write a new card")


def previous(tx, card_id: str) -> str | None:
    """The card's latest attempt, which a new one follows."""
    row = tx.one("SELECT id FROM attempts WHERE card_id = ? ORDER BY n DESC LIMIT 1", (card_id,))
    return row["id"] if row else None
