"""Flaky is unknown: a failing blocking check is run again up to `flaky_reruns` times; mixed
results make the verdict `flaky` — not integrable, the check named, a board item raised."""

from __future__ import annotations

from tests.gate.verify_support import (
    attempt_state,
    board,
    checks_may_write,
    claim,
    events,
    gate_toml,
    result,
    submit_verify,
    verify,
)
from tests.support import a2a

SCORES = ["--score", "boundary=3:ok", "--score", "taste=3:ok"]


def alternating(counter) -> str:
    """Fails on odd runs, passes on even ones (pass, fail, pass, fail... from the second)."""
    return (f"n=$(cat {counter} 2>/dev/null || echo 0); echo $((n + 1)) > {counter};"
            " [ $((n % 2)) -eq 1 ]")


def test_a_flaky_check_makes_the_verdict_flaky_and_integrate_refuses(repo, tmp_path, world):
    checks_may_write(world, tmp_path)      # the check counts its runs there
    c, _ = claim(repo, alternating(tmp_path / "n"))
    v = submit_verify(repo, c)
    assert v.code == 1 and v.json["verdict"] == "flaky", v.out
    tests = result(v, "tests")
    assert tests["code"] == "flaky" and "rerun" in tests["detail"]
    (ev,) = events(repo, "verify_flaky")
    assert ev["payload"]["flaky"] == ["tests"]
    assert attempt_state(repo, c["attempt"])["rejections"] == 0  # not a strike
    assert not events(repo, "rejected") and not events(repo, "verified")
    (item,) = [i for i in board(repo) if i["attempt"] == c["attempt"]]
    assert "flaky" in item["title"].lower() and "tests" in item["body"]
    r = a2a("integrate", c["attempt"], *SCORES, cwd=repo)
    assert r.code == 1 and "verified" in r.err, r.err


def test_a_check_that_fails_every_time_is_a_plain_rejection(repo):
    c, _ = claim(repo, "exit 1")
    v = submit_verify(repo, c)
    assert v.json["verdict"] == "rejected"
    tests = result(v, "tests")
    assert tests["code"] == "check_failed" and "failed again on 1 rerun" in tests["detail"]


def test_no_reruns_when_the_project_says_so(repo, tmp_path, world):
    checks_may_write(world, tmp_path)
    gate_toml(repo, "flaky_reruns = 0\n")
    c, _ = claim(repo, alternating(tmp_path / "n"))
    v = submit_verify(repo, c)
    assert v.json["verdict"] == "rejected"
    assert (tmp_path / "n").read_text().strip() == "1"  # ran once


def test_a_pass_after_a_failed_verify_of_the_same_sha_is_still_flaky(repo, tmp_path, world):
    checks_may_write(world, tmp_path)      # the check reads the flag there
    flag = tmp_path / "broken"
    flag.touch()
    c, _ = claim(repo, f"test ! -e {flag}")
    first = submit_verify(repo, c)
    assert first.json["verdict"] == "rejected"
    flag.unlink()
    again = verify(repo, c["attempt"])  # the same SHA, now green: never trusted as a pass
    assert again.json["verdict"] == "flaky", again.out
    # A new commit is judged on its own.
    assert submit_verify(repo, c, {"src/app.py": "new\n"}).json["verdict"] == "passed"
