"""Rule 3 (seed 001, "人工批准约束外部写入"): an approval names its target, parameters, task
version and an expiry (gate.toml's `approval_valid_s` unless the user says otherwise); at use it
must not have expired nor been revoked (`a2a approve --revoke`), and nothing material may have
changed; it is consumed in the transaction of the integration's intent."""

from __future__ import annotations

import time

from tests.gate.test_gate_approval import APPROVAL, integrate, submit
from tests.support import a2a, a2a_as, add_ready_card, error_code, events, git, rows


def approved(repo, *opts: str) -> tuple[dict, str]:
    add_ready_card(repo, extra=APPROVAL)
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    submit(repo, c, 1)
    r = a2a("approve", c["attempt"], *opts, "--json", cwd=repo)
    assert r.code == 0, r.out
    return c, r.json["approval"]


def test_an_approval_names_its_target_and_expiry_from_the_users_rules(repo):
    (repo / ".a2a/gate.toml").write_text("approval_valid_s = 120\n")
    assert a2a("gate-rules", "accept", cwd=repo).code == 0
    c, aid = approved(repo)
    (ev,) = events(repo, "integration_approved")
    assert ev.payload["target_branch"] == "main"
    assert ev.payload["expires_ns"] - ev.ts_ns == 120 * 10**9
    assert rows(repo, "SELECT expires_ns FROM approvals")[0]["expires_ns"] == \
        ev.payload["expires_ns"]


def test_an_expired_approval_is_refused_at_use(repo):
    c, aid = approved(repo, "--valid-for", "1s")
    expires = rows(repo, "SELECT expires_ns FROM approvals")[0]["expires_ns"]
    while time.time_ns() <= expires:   # until the instant it names
        time.sleep(0.05)
    start = git(repo, "rev-parse", "main")
    r = integrate(repo, c["attempt"])
    assert error_code(r) == "approval_expired", r.out
    assert git(repo, "rev-parse", "main") == start
    assert not events(repo, "approval_consumed") and not events(repo, "integration_intent")


def test_a_revoked_approval_is_refused_and_only_the_user_revokes(repo):
    c, aid = approved(repo)
    att = c["attempt"]
    r = a2a_as(repo, "x1", "executive", "approve", att, "--revoke", "--json")
    assert error_code(r) == "role_forbidden", r.out
    r = a2a("approve", att, "--revoke", "--reason", "not before the release", "--json", cwd=repo)
    assert r.code == 0 and r.json["revoked"] == aid, r.out
    assert error_code(a2a("approve", att, "--revoke", "--json", cwd=repo)) == "no_approval"
    r = integrate(repo, att)
    assert error_code(r) == "approval_revoked", r.out
    assert "not before the release" in r.json["error"]["message"]
    assert a2a("approve", att, cwd=repo).code == 0   # a new approval, the user's again
    assert integrate(repo, att).code == 0
    (used,) = events(repo, "approval_consumed")
    assert used.payload["approval"] != aid


def test_review_show_says_until_when_and_whether_revoked(repo):
    c, aid = approved(repo, "--valid-for", "2h")
    r = a2a("review", "show", c["attempt"], "--json", cwd=repo)
    (shown,) = r.json["approvals"]
    assert shown["expires_ns"] and shown["revoked"] is None
    assert a2a("approve", c["attempt"], "--revoke", cwd=repo).code == 0
    r = a2a("review", "show", c["attempt"], cwd=repo)
    assert "revoked" in r.out
