"""verify: a fixed chain of deterministic checks on a clean checkout of exactly the submitted SHA.

The chain (chain.py): precheck (the card's own contract), sanity, boundary, drift, provenance
(on the candidate's own history), red, the card's checks (each an isolated run: isolated.py),
per-test (each blocking check's tests, from any runner's report, held to the base's:
per_test.py, reports/), artifacts. Every result is evidence bound to the SHA, the card version
and the digest of the gate rules it ran under. The verdict (record.py) is `passed`, `rejected`,
`flaky` (unknown, never integrable) or `contract_invalid` (the card's problem: no strike). An
interrupted run decides nothing. Nothing here holds a store transaction while git or a check runs.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from a2a_tui import settings
from a2a_tui.confine.checks import Sandbox, sandbox
from a2a_tui.errors import A2AError
from a2a_tui.faults import crashpoint
from a2a_tui.gate import ledger
from a2a_tui.gate.attempts.locks import op_lock
from a2a_tui.gate.cards import gate_rules
from a2a_tui.gate.cards.commands import card_at_version
from a2a_tui.gate.cards.gate_rules import environment
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.ledger import GateEvent
from a2a_tui.gate.ledger.records import read_attempt
from a2a_tui.gate.model import VERIFIABLE
from a2a_tui.gate.verification import record
from a2a_tui.gate.verification.chain import Chain, Progress, run_chain
from a2a_tui.gate.verification.interrupt import Cancel, VerifyInterrupted, deferred, interruptible
from a2a_tui.gate.verification.results import CheckResult, Verification
from a2a_tui.payloads import verify as pv
from a2a_tui.queue import wake

__all__ = ["CheckResult", "Verification", "VerifyInterrupted", "interruptible", "verify"]


def verify(g: GateContext, attempt_id: str, progress: Progress | None = None,
           cancel: Cancel | None = None) -> Verification:
    """Run the chain for the attempt's latest submission and record the verdict.

    `cancel` is asked while checks run: a (why, signal) answer stops the run (VerifyInterrupted)
    after every process of the running check has been ended."""
    ledger.require_intact(g, g.attempt(attempt_id).card_id)
    progress = progress or (lambda _name, _res: None)
    rules = gate_rules.current(g)  # a bad gate.toml stops here, before anything is recorded
    room = check_room(g)           # and a machine that cannot confine the checks, here
    with op_lock(g.repo.locks_dir, attempt_id, what=f"an operation on {attempt_id}"):
        with g.store.write() as tx:
            att = read_attempt(tx, attempt_id)
            assert att is not None   # g.attempt above found it, and attempts are never deleted
            if att.state not in VERIFIABLE:
                raise A2AError("nothing_to_verify", f"attempt {attempt_id} is {att.state}:"
                               " only a submitted candidate can be verified")
            sub = tx.one("SELECT * FROM submissions WHERE attempt_id=? AND n=?",
                         (attempt_id, att.submission_n))
            run = 1 + tx.one("SELECT COALESCE(MAX(run),0) FROM verifications WHERE attempt_id=?",
                             (attempt_id,))[0]
            ledger.record(tx, GateEvent.VERIFY_STARTED, actor=g.caller.actor, task=att.card_id,
                          attempt=attempt_id, session=g.caller.session,
                          payload=pv.VerifyStarted(run=run, sha=sub["sha"],
                                                   submission=sub["n"],
                                                   card_version=sub["card_version"],
                                                   rules_digest=rules.digest))
        v = Verification(attempt_id, run, sub["sha"], sub["card_version"], sub["n"],
                         rules_digest=rules.digest, gate_rules=rules.to_json())
        card = card_at_version(g, att.card_id, sub["card_version"])
        logs = g.repo.a2a_dir / "logs" / attempt_id / f"run{run}"
        logs.mkdir(parents=True, exist_ok=True)
        room = dataclasses.replace(room, network=room.network if card.network is None
                                   else card.network)
        v.confinement = room.to_json()
        chain = Chain(g, att, v, card, rules.rules, logs, progress,
                      environment(rules.rules.allows_variable, card.env), cancel, room)
        crashpoint("verify:started")
        try:
            for res in run_chain(chain):
                record.result(g, att, v, res)
                progress(res.name, res)
        except BaseException as exc:
            with deferred():
                record.interrupted(g, att, v, exc)
            raise
        if record.conclude(g, att, v, rules.rules):
            wake(g.repo)
    return v


DEMO_CHECKS = ("`a2a demo`'s sample repository: its checks are a2a's own, run unconfined where"
               " this machine cannot confine")


def check_room(g: GateContext) -> Sandbox:
    """The sandbox every run of this verify gets, from the user's own settings (a repository's
    config never widens it); A2AError `confinement_unavailable` when the machine cannot confine
    and the user has not allowed unconfined checks."""
    conf = settings.load().confinement
    demo = g.repo.demo() is not None
    tmux = [os.path.join(os.environ.get("TMUX_TMPDIR") or "/tmp", f"tmux-{os.getuid()}")]
    return sandbox(g.repo.root, g.repo.a2a_dir, network=conf.check_network,
                   check_limits=conf.check_limits, enabled=conf.enabled,
                   allow_unconfined=conf.unconfined_checks or demo,
                   why_allowed="" if conf.unconfined_checks or not demo else DEMO_CHECKS,
                   tmux_dir=Path(tmux[0]), extra_read=conf.every.read,
                   extra_write=conf.every.write)
