"""Bad input through the real `a2a` command, as a user or an agent types it: every refusal is
one line on stderr ending in its code (`--json`: one error object), never a traceback, and the
store stays whole. A few examples each: a process per input is what CI can afford here."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import hypothesis.strategies as st
import pytest
from hypothesis import example, given

from a2a_tui.errors import A2AError
from tests.fuzz.budget import budget
from tests.fuzz.inputs import toml_docs
from tests.fuzz.invariants import assert_whole
from tests.fuzz.parsers import CARD, CONFIG, argvs, read_argv
from tests.support import a2a, git, store
from tests.support.cli import A2A, at_terminal

LINE = re.compile(r"a2a: error: [^\n]* \[[a-z_]+\]\n(  [^\n]+\n)*")  # problems listed under it


def refused_by_the_parser(argv: list[str]) -> bool:
    try:
        read_argv(None, argv)  # type: ignore[arg-type]
    except A2AError:
        return True
    return False


def _arg_bytes(b: bytes) -> bytes:
    return b.replace(b"\x00", b"_") or b"_"


raw_args = st.binary(min_size=1, max_size=12).map(_arg_bytes)
# Commands that take what they are given (ids, paths, periods, text) into the store or its
# queries: the argument comes last.
TAKING = [("card", "show"), ("card", "add"), ("events", "--after"),
          ("metrics", "usage", "--since"), ("inbox", "show"), ("board", "show"),
          ("status", "--repo"), ("inject", "w1"), ("say",),
          ("inbox", "post", "report", "--status", "PASS", "--text"),
          ("board", "report", "--title", "t", "--body")]
commands = st.one_of(
    argvs.filter(refused_by_the_parser),
    st.tuples(st.sampled_from(TAKING), raw_args).map(lambda t: [*t[0], t[1]]))
NOT_UTF8 = b"hi \xff"


def check_answer(argv: list, repo: Path, env: dict | None = None) -> None:
    """`a2a ARGV` (and with --json): a refusal is exactly one line, the store stays whole."""
    argv = [a for a in argv if a != "--json"]  # the human answer first, then the JSON one
    human = a2a(*argv, cwd=repo, env=env)
    assert "Traceback" not in human.err, human.err
    if human.code != 0:
        assert LINE.fullmatch(human.err), f"not one error line: {human.err!r}"
        assert human.out == "", human.out
    as_json = a2a(*argv, "--json", cwd=repo, env=env)
    if as_json.code != 0 and as_json.code != human.code:
        pytest.fail(f"--json answered {as_json.code}, without {human.code}: {as_json.err}")
    if as_json.code != 0 and as_json.out.strip():
        err = json.loads(as_json.out)["error"]
        assert re.fullmatch(r"[a-z_]+", err["code"]) and "\n" not in err["message"], err
    with store(repo) as s:
        assert_whole(s)


def test_bad_arguments_get_one_error_line_with_a_code(repo):
    @budget(6)
    @given(commands)
    def feed(argv):
        check_answer(argv, repo)

    feed = example(["init", "\n"])(feed)                               # two lines
    feed = example(["card", "add", os.fsencode("/nowhere/\udcff.toml")])(feed)  # not UTF-8
    for taking in (("inject", "w1"), ("say",), ("inbox", "post", "report", "--status", "PASS",
                                                    "--text")):                # a traceback
        feed = example([*taking, NOT_UTF8])(feed)
    feed()


def test_a_prompt_on_stdin_that_is_not_utf8_is_refused_in_one_line(repo):
    r = at_terminal([*A2A, "inject", "w1", "-"], cwd=str(repo), input=NOT_UTF8,
                    capture_output=True)
    assert r.returncode != 0
    assert LINE.fullmatch(r.stderr.decode()), r.stderr.decode()
    with store(repo) as s:
        assert s.one("SELECT COUNT(*) FROM dispatches")[0] == 0
        assert_whole(s)


def test_bad_card_files_through_card_add(repo):
    @budget(4)
    @given(toml_docs(CARD))
    def feed(data):
        card = repo.parent / "fuzzed-card.toml"
        card.write_bytes(data)
        check_answer(["card", "add", str(card)], repo)

    base = (b'id = "T-1"\ntitle = "t"\ngoal = "g"\nallowed_paths = ["src/**"]\n'
            b'acceptance = ["a"]\n')
    # A field named by a newline, among other problems and alone: it broke the lines before.
    feed = example(base + b'checks = [{ "\\n" = "" }]\n')(feed)
    feed = example(base + b'checks = [{ name = "t", command = "true", "\\r\\n" = 1 }]\n')(feed)
    feed()


def test_bad_repository_config_through_accept_and_status(repo):
    config = repo / ".a2a" / "config.toml"

    @budget(4)
    @given(toml_docs(CONFIG))
    def feed(data):
        config.write_bytes(data)
        check_answer(["gate-rules", "accept"], repo)
        check_answer(["status"], repo)

    feed = example(b"\x80")(feed)                       # not UTF-8: a traceback before
    feed()


def test_a_commit_git_cannot_decode_still_gets_a_verdict(repo, ready_card):
    """A worker's commit whose message names an encoding git does not know (its bytes then
    pass through unconverted) and whose file name is not UTF-8: verify reads both and gives a
    verdict, as it would for any other commit."""
    claim = a2a("claim", ready_card, "--json", cwd=repo)
    assert claim.code == 0, claim.err
    c = claim.json
    wt = Path(c["worktree"])
    (wt / "src").mkdir(exist_ok=True)
    with open(os.fsencode(wt / "src") + b"/x\xff.py", "wb") as f:
        f.write(b"x = 1\n")
    (wt / "msg").write_bytes(b"subject \xff\n\nA2A-Attempt: T-1-a1\xfe\n")
    git(wt, "add", "src")
    git(wt, "-c", "i18n.commitEncoding=bogus", "commit", "-q", "-F", "msg")
    sha = git(wt, "rev-parse", "HEAD")
    assert a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
               str(c["fence"]), cwd=repo).code == 0
    v = a2a("verify", c["attempt"], "--json", cwd=repo)
    assert "Traceback" not in v.err, v.err
    verdict = v.json
    names = {r["name"]: r for r in verdict["checks"]}
    assert names["boundary"]["passed"], names["boundary"]
    assert "provenance" in names
    with store(repo) as s:
        assert_whole(s)

