"""A failing check explains itself on the command line (its last lines, its log's path), and
`a2a log ATTEMPT [CHECK] [--run N]` prints a check's whole log."""

from __future__ import annotations

from pathlib import Path

from tests.support import a2a, commit_in, write_card

# Thirty numbered lines on stdout, one on stderr, then a failure: only the end is a "tail".
NOISY = "cat src/app.py; for i in $(seq 1 30); do echo line$i; done; echo boom >&2; exit 3"


def claim(repo: Path, check: str) -> dict:
    assert a2a("card", "add", str(write_card(repo, "T-1", check=check)), cwd=repo).code == 0
    assert a2a("card", "ready", "T-1", cwd=repo).code == 0
    r = a2a("claim", "T-1", "--json", cwd=repo)
    assert r.code == 0, r.err
    return r.json


def submit(repo: Path, c: dict, content: str) -> None:
    sha = commit_in(Path(c["worktree"]), {"src/app.py": content})
    r = a2a("submit", c["attempt"], "--sha", sha, "--card-version", str(c["card_version"]),
            "--fence", str(c["fence"]), cwd=repo)
    assert r.code == 0, r.err


def test_a_failing_check_prints_its_last_lines_and_its_log_path(repo):
    c = claim(repo, NOISY)
    submit(repo, c, "v = 1\n")
    r = a2a("verify", c["attempt"], cwd=repo)
    assert r.code == 1
    err = r.err.splitlines()
    fail = next(i for i, line in enumerate(err) if "FAIL tests" in line)
    shown = err[fail + 1:]
    # The tail: the last stdout lines and the stderr line, each side labelled; not the start.
    assert "       | [stdout]" in shown and "       | [stderr]" in shown
    assert "       | line30" in shown and "       | boom" in shown
    assert "       | line1" not in shown
    log_line = next(line for line in shown if line.strip().startswith("log: "))
    log = Path(log_line.split("log: ", 1)[1])
    assert log.is_file() and "line1\n" in log.read_text()   # the whole output is there
    # The verdict on stdout names the log too, and the command that prints it.
    assert f"log: {log} (`a2a log {c['attempt']} tests`)" in r.out


def test_a_passing_verify_prints_no_tail(repo):
    c = claim(repo, "echo fine")
    submit(repo, c, "v = 1\n")
    r = a2a("verify", c["attempt"], cwd=repo)
    assert r.code == 0, r.err
    assert "       |" not in r.err and "log:" not in r.err + r.out


def test_a2a_log_prints_the_failed_checks_log_of_the_last_run_or_the_one_asked_for(repo):
    c = claim(repo, NOISY)
    att = c["attempt"]
    submit(repo, c, "v = 1\n")
    assert a2a("verify", att, cwd=repo).code == 1
    submit(repo, c, "v = 2\n")
    assert a2a("verify", att, cwd=repo).code == 1

    last = a2a("log", att, cwd=repo)
    assert last.code == 0, last.err
    assert "v = 2" in last.out and "v = 1" not in last.out
    assert "line1\n" in last.out and "line30" in last.out and "boom" in last.out
    assert last.out.startswith("$ cat src/app.py")            # the log itself, from its start
    assert f"{att} run 2 · tests (failed)" in last.err          # which log: on stderr

    first = a2a("log", att, "tests", "--run", "1", cwd=repo)
    assert first.code == 0, first.err
    assert "v = 1" in first.out and "v = 2" not in first.out

    js = a2a("log", att, "tests", "--run", "1", "--json", cwd=repo).json
    assert (js["attempt"], js["run"], js["check"], js["passed"]) == (att, 1, "tests", False)
    assert Path(js["log"]).read_text() == js["text"]


REFUSALS = [
    (("T-9-a1",), "unknown_attempt", "no attempt 'T-9-a1'"),
    (("T-1-a1", "lint"), "unknown_check",
     "its checks: precheck, sanity, boundary, drift, provenance, tests"),
    (("T-1-a1", "sanity"), "no_log", "sanity wrote no log"),
    (("T-1-a1", "--run", "7"), "unknown_run", "has no verify run 7 (runs: 1)"),
]


def test_a2a_log_refuses_what_does_not_exist_with_one_line_and_a_code(repo):
    c = claim(repo, NOISY)
    submit(repo, c, "v = 1\n")
    assert a2a("verify", c["attempt"], cwd=repo).code == 1
    for args, code, words in REFUSALS:
        r = a2a("log", *args, cwd=repo)
        assert r.code != 0 and r.out == "", args
        assert r.err.count("\n") == 1 and words in r.err and f"[{code}]" in r.err, r.err
        js = a2a("log", *args, "--json", cwd=repo)
        assert js.code != 0 and js.json["error"]["code"] == code, args


def test_a2a_log_before_any_verify_says_so(repo):
    c = claim(repo, NOISY)
    r = a2a("log", c["attempt"], "--json", cwd=repo)
    assert r.code != 0 and r.json["error"]["code"] == "not_verified"


def test_a2a_log_of_a_log_removed_by_hand_is_one_clear_error(repo):
    c = claim(repo, NOISY)
    submit(repo, c, "v = 1\n")
    assert a2a("verify", c["attempt"], cwd=repo).code == 1
    log = Path(a2a("log", c["attempt"], "--json", cwd=repo).json["log"])
    log.unlink()
    r = a2a("log", c["attempt"], cwd=repo)
    assert r.code != 0 and "[log_missing]" in r.err and str(log) in r.err
