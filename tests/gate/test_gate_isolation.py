"""Checks run isolated: a clean environment (a temp HOME, the allow-listed variables, the card's
`env`), stdin at end of file, the card's timeout, no process outliving its check, and a checkout
compared with the SHA's tree after each step."""

from __future__ import annotations

import os
from pathlib import Path

import psutil
import pytest

from tests.gate.verify_support import PY, claim, gate_toml, result, submit_verify
from tests.support import a2a, commit_in, wait_until
from tests.support.userconfig import write_user_config

ENV_CHECK = "env | sort; cat; echo stdin-done"


def test_a_variable_outside_the_allow_list_is_not_seen_by_a_check(repo, isolated_env):
    c, _ = claim(repo, ENV_CHECK, extra='[env]\nCARD_VAR = "from-the-card"\n')
    v = submit_verify(repo, c, env={"SECRET_TOKEN": "s3cret", "LANG": "C.UTF-8"})
    assert v.json["verdict"] == "passed", v.out
    out = result(v, "tests")["stdout_tail"]
    assert "SECRET_TOKEN" not in out and "s3cret" not in out
    assert "CARD_VAR=from-the-card" in out and "LANG=C.UTF-8" in out
    home = next(line.split("=", 1)[1] for line in out.splitlines() if line.startswith("HOME="))
    assert home != str(isolated_env) and not os.path.exists(home)  # its own, gone afterwards
    assert "stdin-done" in out  # stdin gave end of file at once
    # The passing case: the project allows the variable in gate.toml.
    gate_toml(repo, '[env]\nallow = ["PATH", "LANG", "SECRET_TOKEN"]\n')   # exact names
    v = submit_verify(repo, c, {"src/app.py": "y\n"}, env={"SECRET_TOKEN": "s3cret"})
    assert "SECRET_TOKEN=s3cret" in result(v, "tests")["stdout_tail"]


def test_python_never_imports_from_the_folder_a_check_starts_in(repo):
    # PYTHONSAFEPATH=1, whatever the card says: a stray `unittest.py` beside the tests cannot
    # stand in for the standard library's (and git finds only the checkout's own `.git`).
    check = ("echo 'raise SystemExit(0)' > unittest.py && env | grep -E"
             " '^(PYTHONSAFEPATH|GIT_CEILING)' && python3 -m unittest -q nothing_here")
    c, _ = claim(repo, check, extra='[env]\nPYTHONSAFEPATH = ""\n')
    v = submit_verify(repo, c)
    assert v.json["verdict"] == "rejected", v.out           # the real unittest ran, and failed
    out = result(v, "tests")["stdout_tail"]
    assert "PYTHONSAFEPATH=1" in out and "GIT_CEILING_DIRECTORIES=" in out, out


def test_a_check_that_rewrites_a_tracked_file_rejects_with_tree_modified(repo):
    gate_toml(repo, "stop_at_first_blocking_failure = false\n")
    c, _ = claim(repo, {"name": "rewrite", "command": "echo 'fixed = 1' > src/app.py",
                        "blocking": False},
                 {"name": "later", "command": "! grep -q fixed src/app.py"})
    v = submit_verify(repo, c)
    assert v.json["verdict"] == "rejected", v.out
    tree = result(v, "rewrite/tree")
    assert tree["code"] == "tree_modified" and "src/app.py" in tree["detail"]
    assert tree["blocking"] and not tree["passed"]
    assert result(v, "later")["passed"]  # the next step had a fresh checkout


def test_untracked_output_is_not_a_tree_change(repo):
    c, _ = claim(repo, {"name": "build", "command": "echo out > build.out"},
                 {"name": "uses-build", "command": "test -e build.out"})
    v = submit_verify(repo, c)
    assert v.json["verdict"] == "passed", v.out
    assert "checkout unchanged" in result(v, "build")["detail"]


@pytest.mark.parametrize("platform", ["confined", "linux", "darwin"])
def test_a_setsid_child_of_a_check_is_gone_when_verify_returns(repo, isolated_env, platform):
    # Confined (the default), the check's namespace ends with it; unconfined (the user's
    # setting), the reaper ends it on Linux, and the session-and-token sweep elsewhere.
    token = f"a2a-escape-{platform}-{os.getpid()}"
    escape = (f"{PY} -c \"import os, time; os.setsid(); open('escaped', 'w').write('x');"
              f" time.sleep(120)\" {token} & while [ ! -s escaped ]; do sleep 0.05; done")
    if platform != "confined":
        write_user_config(isolated_env, "[confinement]\nunconfined_checks = true\n"
                          + ("enabled = false\n" if platform == "linux" else ""))
    c, _ = claim(repo, escape)
    env = {"A2A_PLATFORM": "darwin"} if platform == "darwin" else None
    v = submit_verify(repo, c, env=env)
    assert v.json["verdict"] == "passed", v.out
    left = [p.pid for p in psutil.process_iter(["cmdline"]) if token in (p.info["cmdline"] or [])
            and p.status() != psutil.STATUS_ZOMBIE]
    assert not left, f"the check's setsid() child {left} outlived verify"
    if platform != "confined":
        assert "1 process" in result(v, "tests")["detail"]  # said in the evidence
        assert v.json["confinement"]["confined"] is False


def test_the_red_step_honours_the_cards_timeout(repo):
    c, _ = claim(repo, "true", extra='red_command = "sleep 60"\nred_timeout_s = 2\n')
    v = submit_verify(repo, c, {"tests/test_x.sh": "true\n"})
    red = result(v, "red")
    assert not red["passed"] and "timed out after 2s" in red["detail"], red
    assert red["duration_s"] < 30


def test_a_check_without_a_timeout_gets_the_gates_default(repo):
    gate_toml(repo, "[timeouts]\ndefault_s = 1\nmax_s = 60\n")
    c, wt = claim(repo, {"name": "tests", "command": "sleep 30"})
    v = submit_verify(repo, c)
    assert "timed out after 1s" in result(v, "tests")["detail"]
    assert result(v, "tests")["code"] == "check_timeout"


def test_checks_do_not_run_in_the_live_worktree_and_leave_no_checkout(repo):
    c, wt = claim(repo, "git rev-parse HEAD && test ! -e scratch.txt")
    sha = commit_in(wt, {"src/app.py": "a = 1\n"})
    (wt / "scratch.txt").write_text("live only\n")
    v = submit_verify(repo, c, sha=sha)
    assert v.json["verdict"] == "passed", v.out
    cwd = Path(open(result(v, "tests")["log"]).read().split("# cwd ")[1].splitlines()[0])
    assert not cwd.is_relative_to(repo)
    wait_until(lambda: not cwd.exists(), what="the checkout removed")
    assert a2a("verify", c["attempt"], "--json", cwd=repo).json["sha"] == sha
