"""The card's contract is checked at `card ready` and again before any check runs: a program that
is missing or not allowed, a file absent from the start commit, a timeout above the gate's
maximum. A failure is `contract_invalid`, the card's problem: no strike for the worker, no
rejection reason in the metrics, a board item for the executive controller and the user."""

from __future__ import annotations

import os
import stat

from tests.gate.verify_support import (
    PY,
    PYTEST,
    attempt_state,
    board,
    claim,
    dispatches,
    events,
    gate_toml,
    pytest_repo,
    ready,
    result,
    submit_verify,
    write,
)
from tests.support import a2a


def test_a_missing_program_is_refused_at_card_ready(repo):
    r = ready(repo, "nonexistent-cmd-xyz --check")
    assert r.code == 1 and r.json["error"]["code"] == "contract_invalid", r.out
    assert "nonexistent-cmd-xyz" in r.json["error"]["message"]
    assert a2a("claim", "T-1", cwd=repo).code != 0  # still a draft: nobody can claim it
    (ev,) = events(repo, "contract_invalid")
    assert ev["task"] == "T-1" and ev["payload"]["where"] == "card ready"
    (item,) = board(repo)  # for the executive controller and the user, once per card version
    assert item["protected"] and "nonexistent-cmd-xyz" in item["body"]
    # The way to fix it where the user reads it: `e` in the workbench, `a2a card edit` at a
    # shell (`a2a card add` takes a file the user does not have at hand).
    assert "`e` on the Gate panel" in item["body"] and "`a2a card edit T-1`" in item["body"]
    assert a2a("card", "ready", "T-1", cwd=repo).code == 1 and len(board(repo)) == 1
    # The passing case: a program that exists.
    assert ready(repo, "true && grep -q name src/app.py").code == 0


def test_a_program_missing_at_verify_is_the_cards_problem_not_the_workers(repo, tmp_path):
    tools = tmp_path / "tools"
    tools.mkdir()
    tool = tools / "lintnames"
    tool.write_text("#!/bin/sh\nexit 0\n")
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    gate_toml(repo, '[commands]\nallow = ["lintnames", "true"]\n')
    with_tool = {"PATH": f"{tools}:{os.environ['PATH']}"}
    r = a2a("card", "add", str(write(repo, "lintnames src/app.py")), cwd=repo, env=with_tool)
    assert r.code == 0, r.err
    assert a2a("card", "ready", "T-1", cwd=repo, env=with_tool).code == 0
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    v = submit_verify(repo, c)  # the gate's PATH no longer has the tool
    assert v.code == 1 and v.json["verdict"] == "contract_invalid", v.out
    assert not result(v, "precheck")["passed"]
    assert "lintnames" in result(v, "precheck")["detail"]
    assert all(ch["skipped"] for ch in v.json["checks"] if ch["name"] != "precheck")
    # No strike, no rejection reason, no feedback to the worker; a board item for the people.
    assert attempt_state(repo, c["attempt"])["rejections"] == 0
    fp = a2a("metrics", "--json", cwd=repo).json["first_pass"]
    assert fp["by_step"] == [] and fp["rejections"] == 0 and fp["contract_invalid"] == 1, fp
    assert not events(repo, "rejected") and not dispatches(repo)
    (item,) = [i for i in board(repo) if i["attempt"] == c["attempt"]]
    assert item["protected"] and "lintnames" in item["body"] and "no strike" in item["body"]
    assert [e["payload"]["where"] for e in events(repo, "contract_invalid")] == ["verify"]
    # The same attempt verifies once the program is back: the contract held all along.
    again = a2a("verify", c["attempt"], "--json", cwd=repo, env=with_tool)
    assert again.code == 0 and again.json["verdict"] == "passed", again.out


def test_a_program_off_the_allow_list_is_refused(repo):
    gate_toml(repo, '[commands]\nallow = ["python3", "pytest"]\n')
    r = ready(repo, "grep -q name src/app.py")
    assert r.json["error"]["code"] == "contract_invalid"
    assert "grep" in r.json["error"]["message"] and "allow" in r.json["error"]["message"]
    assert ready(repo, "python3 -c pass").code == 0


def test_a_check_naming_a_file_absent_from_the_start_commit_is_refused(tmp_path):
    repo = pytest_repo(tmp_path)
    r = ready(repo, f"{PY} -m pytest -q tests/test_empty_names.py")
    assert r.json["error"]["code"] == "contract_invalid", r.out
    assert "tests/test_empty_names.py" in r.json["error"]["message"]
    assert "start commit" in r.json["error"]["message"]
    assert ready(repo, f"{PY} -m pytest -q tests/test_names.py").code == 0


def test_a_check_that_only_runs_files_the_worker_writes_is_refused(tmp_path):
    repo = pytest_repo(tmp_path)
    extra = 'artifacts = ["tests/test_empty_names.py"]\n'
    r = ready(repo, f"{PY} -m pytest -q tests/test_empty_names.py", extra=extra)
    assert r.json["error"]["code"] == "contract_invalid", r.out
    assert "only" in r.json["error"]["message"] and "worker" in r.json["error"]["message"]
    # Declared and run beside the start commit's own tests, it is accepted.
    r = ready(repo, f"{PY} -m pytest -q tests/test_names.py tests/test_empty_names.py",
              extra=extra)
    assert r.code == 0, r.out


def test_a_red_command_naming_an_undeclared_new_file_is_refused(tmp_path):
    repo = pytest_repo(tmp_path)
    red = f'red_command = "{PY} -m pytest -q tests/test_empty_names.py"\n'
    r = ready(repo, PYTEST, extra=red)
    assert r.json["error"]["code"] == "contract_invalid", r.out
    r = ready(repo, PYTEST, extra=red + 'artifacts = ["tests/test_empty_names.py"]\n')
    assert r.code == 0, r.out


def test_a_timeout_above_the_gates_maximum_is_refused(repo):
    gate_toml(repo, "[timeouts]\ndefault_s = 30\nmax_s = 60\n")
    r = ready(repo, {"command": "true", "timeout_s": 600})
    assert r.json["error"]["code"] == "contract_invalid"
    assert "600" in r.json["error"]["message"] and "60" in r.json["error"]["message"]
    assert ready(repo, {"command": "true", "timeout_s": 60}).code == 0


def test_unparsable_shell_is_refused(repo):
    r = ready(repo, "grep -q 'name src/app.py")
    assert r.json["error"]["code"] == "contract_invalid"
    assert "quot" in r.json["error"]["message"]


def test_rules_narrowed_after_card_ready_make_the_verify_contract_invalid(repo):
    c, _ = claim(repo, "grep -q name src/app.py")
    gate_toml(repo, '[commands]\nallow = ["python3"]\n')  # the project narrowed its rules
    v = submit_verify(repo, c)
    assert v.json["verdict"] == "contract_invalid"
    assert "'grep' is not allowed" in result(v, "precheck")["detail"]
    assert attempt_state(repo, c["attempt"])["state"] == "submitted"
