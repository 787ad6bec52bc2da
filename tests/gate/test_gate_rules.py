"""Gate rules live in `.a2a/gate.toml`: validated, in force once the user accepted them
(tests/gate/test_gate_rules_accept.py), every change recorded with its digest, and every verify
says which digest it ran under."""

from __future__ import annotations

from tests.gate.verify_support import (
    checks_may_write,
    claim,
    events,
    gate_toml,
    result,
    submit_verify,
)
from tests.support import a2a, write_card


def test_a_changed_gate_toml_is_an_event_and_the_next_verify_carries_its_digest(repo):
    c, _ = claim(repo, "true")
    first = submit_verify(repo, c)
    d0 = first.json["gate_rules"]["digest"]  # the defaults': no file, nothing changed
    assert d0.startswith("sha256:") and not events(repo, "gate_rules_changed")
    gate_toml(repo, "# the defaults, written out\nflaky_reruns = 1\n")  # same rules, same digest
    assert submit_verify(repo, c, {"src/app.py": "b\n"}).json["gate_rules"]["digest"] == d0
    assert not events(repo, "gate_rules_changed")
    gate_toml(repo, "flaky_reruns = 2\n")
    second = submit_verify(repo, c, {"src/app.py": "c\n"})
    d1 = second.json["gate_rules"]["digest"]
    assert d1 != d0
    changed = events(repo, "gate_rules_changed")[-1]["payload"]
    assert changed["digest"] == d1 and changed["previous"] == d0
    assert changed["rules"]["flaky_reruns"] == 2
    started = events(repo, "verify_started")[-1]["payload"]
    assert started["rules_digest"] == d1


def test_a_bad_gate_toml_is_one_clear_error_and_is_never_in_force(repo):
    c, _ = claim(repo, "true")
    gate_toml(repo, "feedback_rounds = 3\nflaky_reruns = -1\n", accept=False)
    r = a2a("gate-rules", "accept", "--json", cwd=repo)
    assert r.code == 1 and r.json["error"]["code"] == "bad_gate_rules", r.out
    msg = r.json["error"]["message"]
    assert "gate.toml:2" in msg and "flaky_reruns" in msg
    v = submit_verify(repo, c)            # the rules in force (the defaults) still hold
    assert v.json["verdict"] == "passed" and v.json["gate_rules"]["pending"], v.out
    gate_toml(repo, "colour = 'red'\n", accept=False)
    msg = a2a("gate-rules", "accept", "--json", cwd=repo).json["error"]["message"]
    assert "colour" in msg and "not a gate rule" in msg


def test_which_steps_block_is_the_projects_choice(repo):
    card = write_card(repo, extra='acceptance_files = ["src/app.py"]\n')
    assert a2a("card", "add", str(card), cwd=repo).code == 0
    assert a2a("card", "ready", "T-1", cwd=repo).code == 0
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    v = submit_verify(repo, c)
    assert v.json["verdict"] == "rejected" and result(v, "drift")["code"] == "acceptance_drift"
    gate_toml(repo, "[steps]\ndrift = false\n")
    v = submit_verify(repo, c, {"src/app.py": "again\n"})
    drift = result(v, "drift")
    assert not drift["passed"] and not drift["blocking"]
    assert v.json["verdict"] == "passed", v.out


def test_stop_at_the_first_blocking_failure_by_default(repo, tmp_path, world):
    checks_may_write(world, tmp_path)      # the second check leaves its mark there
    ran = tmp_path / "second-ran"
    c, _ = claim(repo, "exit 1", {"name": "second", "command": f"touch {ran}"})
    v = submit_verify(repo, c)
    assert result(v, "second")["skipped"] and not ran.exists()
    gate_toml(repo, "stop_at_first_blocking_failure = false\n")
    v = submit_verify(repo, c, {"src/app.py": "2\n"})
    assert result(v, "second")["passed"] and ran.exists()


def test_feedback_limit_in_config_toml_is_read_as_a_deprecated_fallback(repo):
    cfg = repo / ".a2a/config.toml"
    cfg.write_text(cfg.read_text() + "feedback_limit = 1\n")
    assert a2a("gate-rules", "accept", cwd=repo).code == 0
    c, _ = claim(repo, "exit 1", writer="w1")
    v = submit_verify(repo, c)
    warnings = v.json["gate_rules"]["warnings"]
    assert any("feedback_limit" in w and "gate.toml" in w for w in warnings), warnings
    submit_verify(repo, c, {"src/app.py": "2\n"})
    sent = [e["payload"]["sent"] for e in events(repo, "gate_feedback")]
    assert sent == [True, False]
    # gate.toml wins over the old key.
    gate_toml(repo, "feedback_rounds = 5\n")
    v = submit_verify(repo, c, {"src/app.py": "3\n"})
    assert "ignored" in v.json["gate_rules"]["warnings"][0]
    assert events(repo, "gate_feedback")[-1]["payload"]["sent"] is True


def test_gate_rules_command_shows_the_effective_rules(repo):
    gate_toml(repo, "flaky_reruns = 0\n")
    r = a2a("gate-rules", "--json", cwd=repo)
    assert r.code == 0, r.err
    assert r.json["rules"]["flaky_reruns"] == 0 and r.json["rules"]["feedback_rounds"] == 3
    assert r.json["digest"].startswith("sha256:")
