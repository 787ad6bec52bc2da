"""Rule 1 (seed 001, "失联尝试怎样重新派发"): a retry budget per card that is never reset, each
attempt linked to the one before; a lease that the writer's own reports renew, by a2a's clock,
whose expiry isolates the attempt and asks the user (nothing is dispatched again)."""

from __future__ import annotations

import time

from a2a_tui.gate.attempts import leases
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.ledger.records import attempt_in
from a2a_tui.repo import Repo
from tests.support import (
    a2a,
    a2a_as,
    commit_in,
    error_code,
    events,
    hooked,
    register_session,
    rows,
    store,
)


def rules(repo, text: str) -> None:
    (repo / ".a2a/gate.toml").write_text(text)
    assert a2a("gate-rules", "accept", cwd=repo).code == 0


def attempt(repo, aid: str) -> dict:
    return rows(repo, "SELECT * FROM attempts WHERE id = ?", (aid,))[0]


def test_a_claim_past_the_cards_retry_budget_is_refused_and_each_attempt_follows_the_last(
        repo, ready_card):
    rules(repo, "retry_budget = 2\n")
    first = a2a("claim", ready_card, "--json", cwd=repo).json
    second = a2a("claim", ready_card, "--supersede", "--json", cwd=repo).json
    assert attempt(repo, second["attempt"])["follows"] == first["attempt"]
    assert attempt(repo, first["attempt"])["follows"] is None
    assert a2a("abandon", second["attempt"], cwd=repo).code == 0
    r = a2a("claim", ready_card, "--json", cwd=repo)
    assert error_code(r) == "retry_budget_spent", r.out
    assert "2 of 2" in r.json["error"]["message"] and "never reset" in r.json["error"]["message"]
    assert len(events(repo, "claimed")) == 2


def test_the_budget_used_is_never_reset(repo, ready_card):
    rules(repo, "retry_budget = 1\n")
    c = a2a("claim", ready_card, "--json", cwd=repo).json
    assert a2a("abandon", c["attempt"], cwd=repo).code == 0
    assert error_code(a2a("claim", ready_card, "--json", cwd=repo)) == "retry_budget_spent"
    rules(repo, "retry_budget = 2\n")   # the user grants one more
    again = a2a("claim", ready_card, "--json", cwd=repo).json
    assert again["attempt"] == f"{ready_card}-a2"
    assert attempt(repo, again["attempt"])["follows"] == c["attempt"]


def late_submit(repo, c: dict, sha: str):
    """`submit` once the one-second lease of the claim `c` has run out (by a2a's clock)."""
    expires = lease(repo, c["attempt"]).last_report_ns + 10**9
    while time.time_ns() <= expires:   # until the instant the lease ends
        time.sleep(0.05)
    return a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
               str(c["fence"]), "--json", cwd=repo)


def lease(repo, aid: str) -> leases.Lease:
    with store(repo) as s:
        return leases.lease_of(s, attempt_in(s, aid), 60)


def test_the_writers_own_signals_renew_its_lease_and_nobody_elses_do(repo, ready_card):
    c = a2a("claim", ready_card, "--writer", "w1", "--json", cwd=repo).json
    register_session(repo, "w1", cli="claude", attempt=c["attempt"], state="unknown")
    register_session(repo, "w2", cli="claude", state="unknown")
    start = lease(repo, c["attempt"])
    hooked(repo, "w2", "SessionStart", "UserPromptSubmit")
    assert lease(repo, c["attempt"]).last_report_ns == start.last_report_ns
    hooked(repo, "w1", "SessionStart", "UserPromptSubmit")
    (sig,) = [e for e in events(repo, "signal") if e.session == "w1"][-1:]
    renewed = lease(repo, c["attempt"])
    assert renewed.last_report_ns == sig.ts_ns > start.last_report_ns
    assert renewed.expires_ns == sig.ts_ns + 60 * 10**9


def test_an_expired_lease_isolates_the_attempt_asks_the_user_and_dispatches_nothing(
        repo, ready_card):
    rules(repo, "lease_s = 1\n")
    c = a2a("claim", ready_card, "--writer", "w1", "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees" / c["attempt"], {"src/app.py": "v = 2\n"})
    expires = lease(repo, c["attempt"]).last_report_ns + 10**9
    while time.time_ns() <= expires:   # until the instant the lease ends
        time.sleep(0.05)
    with store(repo) as s:
        assert leases.sweep(GateContext(Repo(repo), s)) is None
    (ev,) = events(repo, "lease_expired")
    assert attempt(repo, c["attempt"])["isolated_seq"] == ev.seq
    (item,) = rows(repo, "SELECT * FROM board_items WHERE attempt = ?", (c["attempt"],))
    assert "Lease of" in item["title"] and item["protected"]
    assert not rows(repo, "SELECT * FROM dispatches")   # nothing dispatched again
    sub = ("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
           str(c["fence"]), "--json")
    r = a2a(*sub, cwd=repo)
    assert error_code(r) == "lease_expired", r.out
    assert error_code(a2a_as(repo, "w9", "worker", "lease", c["attempt"], "--renew",
                             "--json")) == "role_forbidden"
    assert a2a("lease", c["attempt"], "--renew", "--reason", "it was reading", cwd=repo).code == 0
    assert attempt(repo, c["attempt"])["isolated_seq"] is None
    rules(repo, "lease_s = 3600\n")   # a second of lease would run out again on a slow machine
    assert a2a(*sub, cwd=repo).code == 0


def test_a_late_submission_finds_the_expiry_itself(repo, ready_card):
    rules(repo, "lease_s = 1\n")
    c = a2a("claim", ready_card, "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees" / c["attempt"], {"src/app.py": "v = 2\n"})
    assert error_code(late_submit(repo, c, sha)) == "lease_expired"
    assert len(events(repo, "lease_expired")) == 1 and not events(repo, "submitted")


def test_the_lease_in_force_is_the_accepted_ones_not_a_pending_edits(repo, ready_card):
    """An edit of gate.toml that drops `lease_s` is not in force until the user accepts it:
    submit still holds the writer to the accepted second, and finds it expired."""
    rules(repo, "lease_s = 1\n")
    (repo / ".a2a/gate.toml").write_text("retry_budget = 3\n")   # pending, not accepted
    c = a2a("claim", ready_card, "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees" / c["attempt"], {"src/app.py": "v = 2\n"})
    assert error_code(late_submit(repo, c, sha)) == "lease_expired"
