"""Every parser of outside input, one entry each: what it reads, how it refuses, what to feed it.

A parser gets its input the way the outside hands it over (a file written where a2a reads it,
argv, a commit message) and either returns what it parsed or refuses with `error` (for an
`A2AError`, a code in `codes`), in one line. Anything else (another exception type, a second
line, a store left half-written) fails tests/fuzz/test_fuzz_parsers.py.

Adding a parser is one entry in PARSERS:

    Parser("gate rules (.a2a/gate.toml)", read_gate_rules, codes={"bad_gate_rules"},
           inputs=toml_docs(GATE_TOML))

with `read_gate_rules(place, data)` writing `data` to the file and calling the module's reader.
"""

from __future__ import annotations

import array
import contextlib
import io
import os
import socket
import struct
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import hypothesis.strategies as st
from hypothesis import assume

from a2a_tui import settings
from a2a_tui.broker import request as broker_request
from a2a_tui.broker.client import Reader
from a2a_tui.cli import build_parser
from a2a_tui.errors import A2AError
from a2a_tui.gate import GateContext, add_card
from a2a_tui.gate.cards import gate_rules
from a2a_tui.gate.reviews import report as review_report
from a2a_tui.gate.reviews.verdict import read_report
from a2a_tui.panes.signals import MalformedSignal, parse
from a2a_tui.repo import Repo
from a2a_tui.store import Store
from tests.fuzz.inputs import damaged, json_bytes, mutated_doc, text, toml_docs
from tests.fuzz.spool import SIGNAL_VALUES, envelopes
from tests.support import CARD_TOML


@dataclass
class Place:
    """A repository with a2a initialised and its store open: where one fuzz test's parser runs,
    every example after the other (the store keeps what each example left)."""

    root: Path
    env: dict[str, str]

    def __post_init__(self) -> None:
        self.repo = Repo(self.root)
        self.store: Store = self.repo.store()
        self.gate = GateContext(self.repo, self.store)

    def write(self, rel: str, data: bytes) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path

    def close(self) -> None:
        self.store.close()


@dataclass(frozen=True)
class Parser:
    """One parser of outside input (see the module's docstring)."""

    name: str
    read: Callable[[Place, Any], object]
    inputs: st.SearchStrategy[Any]
    codes: frozenset[str] = field(default_factory=frozenset)
    error: type[Exception] = A2AError
    examples: int = 60   # the CI budget (tests/fuzz/budget.py scales it for long runs)
    known: tuple[Any, ...] = ()  # inputs that once broke it: run first, every time


# --- task cards, through `a2a card add` (the gate's own entry, in-process) ----------------------
CARD = CARD_TOML.format(id="T-1", check="true", extra="")


def read_card(place: Place, data: bytes) -> object:
    return add_card(place.gate, place.write("cards/T-1.toml", data))


# --- what comes in on a session's broker socket (a2a_tui/broker/client.py has the wire) -------
REQUEST = {"v": 1, "argv": ["whoami", "--json"], "cwd": "/x", "env": {"TERM": "xterm"}}


def read_request(place: Place, given: tuple[bytes, int]) -> object:
    """As the broker's child reads a request: the frames' bytes, then up to 4 descriptors."""
    data, nfds = given
    ours, theirs = socket.socketpair()
    fds = [os.open(os.devnull, os.O_RDONLY) for _ in range(nfds)]
    try:
        if fds:
            send_rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))]
            theirs.sendmsg([data[:1] or b"\0"], send_rights)
            data = data[1:] if data else b""
        theirs.sendall(data)
        theirs.close()
        reader = Reader(ours)
        msg = reader.recv()
        got = reader.take_fds()
        argv, env, why = broker_request._request(msg, got)
        for fd in got:
            os.close(fd)
        if why is not None:
            raise ValueError(why)
        return argv, env
    finally:
        ours.close()
        for fd in fds:
            os.close(fd)


def frame(doc: Any) -> bytes:
    raw = json_bytes(doc)
    return struct.pack(">I", len(raw)) + raw


requests = st.tuples(
    st.one_of(st.builds(frame, mutated_doc(REQUEST, SIGNAL_VALUES)),
              damaged(frame(REQUEST)), st.binary(max_size=64),
              st.builds(lambda n, b: struct.pack(">I", n) + b, st.integers(0, 2**32 - 1),
                        st.binary(max_size=32))),
    st.integers(0, 4))


# --- the repository's config (.a2a/config.toml) -------------------------------------------------
CONFIG = 'target_branch = "main"\ntmux_session = "a2a-x"\nfeedback_limit = 3\nretro_every = "7d"\n'


def read_config(place: Place, data: bytes) -> object:
    """As `a2a gate-rules accept` reads it (a file nobody accepted is never in force)."""
    place.write(".a2a/config.toml", data)
    gate_rules.accept(place.gate)
    return place.repo.config()


# --- spool envelopes, as `hooks/a2a-hook` writes them (tests/fuzz/spool.py) -----------------
def read_envelope(place: Place, data: bytes) -> object:
    return parse(data)


# --- the a2a command line --------------------------------------------------------------------
WORDS = ["init", "status", "card", "add", "show", "ready", "claim", "submit", "verify",
         "integrate", "reclaim", "abandon", "review", "inject", "pause", "resume", "release",
         "spawn", "serve", "events", "metrics", "store", "inbox", "board", "say", "whoami",
         "retro", "rules", "--json", "--repo", "--sha", "--fence", "--card-version", "--score",
         "--since", "--after", "--tmux-socket", "-h", "--help", "--version", "--", "-", "T-1",
         "T-1-a1", "1", "-1", "99999999999999999999", "0" * 40, "boundary=3:x", "taste=9",
         "7d", "x" * 300]
argvs = st.lists(st.one_of(st.sampled_from(WORDS), text.filter(lambda s: "\x00" not in s)),
                 max_size=8)


def read_argv(place: Place, argv: list[str]) -> object:
    """The parser alone: what `a2a` does before it touches the repository. --help and --version
    print and exit 0 (argparse's way), which is an answer, not an error."""
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            return build_parser().parse_args(argv)
    except SystemExit as exc:
        assert exc.code == 0 and out.getvalue(), f"argparse exited {exc.code}"
        return out.getvalue()


# --- a worker's commits: trailers (provenance reads them) and paths (boundary reads them) -----
MESSAGE = ("Refuse empty names\n\nThe body explains why.\n\nA2A-Task: T-1\nA2A-Attempt: T-1-a1\n"
           "A2A-Session: w1\nCo-authored-by: Someone <s@example.com>\n").encode()
trailer_lines = st.lists(st.tuples(st.sampled_from(["A2A-Attempt", "A2A-Task", "a2a-attempt",
                                                    "Signed-off-by", "x"]), text), max_size=4)
messages = st.one_of(damaged(MESSAGE), st.binary(max_size=200), text.map(str.encode),
                     trailer_lines.map(lambda kv: b"subject\n\n" + "\n".join(
                         f"{k}: {v}" for k, v in kv).encode("utf-8", "surrogatepass")))
# The encoding a commit says its message is in (`git -c i18n.commitEncoding=...`), which git
# converts from when it prints the message: one it does not know leaves the bytes as they are.
encodings = st.sampled_from([None, "latin-1", "utf-16", "bogus"])


def _commit(place: Place, tree: str, message: bytes, encoding: str | None = None) -> str:
    """A commit object on HEAD made with git's plumbing, as a worker could make one; git itself
    refuses some messages (a NUL byte): then there is no input to read."""
    cfg = ["-c", f"i18n.commitEncoding={encoding}"] if encoding else []
    made = subprocess.run(["git", "-C", str(place.root), *cfg, "commit-tree", tree, "-p", "HEAD"],
                          input=message, capture_output=True, env=place.env)
    assume(made.returncode == 0)
    return made.stdout.decode().strip()


def _git(place: Place, *args: str, input: bytes | None = None) -> str:
    return subprocess.run(["git", "-C", str(place.root), *args], input=input, check=True,
                          capture_output=True, env=place.env).stdout.decode().strip()


def read_trailers(place: Place, commit: tuple[str | None, bytes]) -> object:
    """`Git.trailers` on a commit whose message is exactly the given bytes: (key, value)
    strings."""
    encoding, message = commit
    sha = _commit(place, _git(place, "rev-parse", "HEAD^{tree}"), message, encoding)
    got = place.repo.git.trailers(sha)
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in got), got
    return got


file_names = st.one_of(st.binary(min_size=1, max_size=40), text.map(str.encode)).map(
    lambda b: b.replace(b"/", b"_").replace(b"\0", b"_")).filter(
    lambda b: b not in (b".", b"..", b".git"))


def read_paths(place: Place, name: bytes) -> object:
    """`Git.changed_paths` between HEAD and a commit adding a file named exactly `name`."""
    blob = _git(place, "hash-object", "-w", "--stdin", input=b"x\n")
    entries = [line for line in _git(place, "ls-tree", "-z", "HEAD").split("\0") if line]
    listing = b"".join(e.encode() + b"\0" for e in entries)
    listing += b"100644 blob " + blob.encode() + b"\t" + name + b"\0"
    made = subprocess.run(["git", "-C", str(place.root), "mktree", "-z"], input=listing,
                          capture_output=True, env=place.env)
    assume(made.returncode == 0)  # a name git will not put in a tree
    sha = _commit(place, made.stdout.decode().strip(), b"add a file\n")
    got = place.repo.git.changed_paths("HEAD", sha)
    assert len(got) == 1 and isinstance(got[0], str), got
    return got


GATE_TOML = """\
stop_at_first_blocking_failure = true
feedback_rounds = 3
flaky_reruns = 1

[timeouts]
default_s = 300
max_s = 3600

[steps]
boundary = true
red = false

[commands]
allow = ["python", "pytest", "make"]
repository = true

[env]
allow = ["PATH", "LC_*"]
"""

VERDICT_BLOCK = """\
verdict = "fail"
recommends_follow_up = true
risks = []

[[blocking_issues]]
id = "B1"
title = "Empty names are still accepted"
evidence = ["src/app.py:12", "tests/test_app.py:30-41"]
"""
REPORT = f"I read src/app.py and its tests against the card.\n\n```verdict\n{VERDICT_BLOCK}```\n"

USER_CONFIG = """\
[roles.worker]
cli = "codex"
model = "gpt-5-codex"
effort = "high"
options = ["-c", "model_verbosity=low"]

[notify]
bell = true
status = true

[stall.codex]
hint_after_s = 900
board_after_s = 2700

[layout]
events_rows = 8
"""


def read_gate_rules(place: Place, data: bytes) -> object:
    """As `a2a gate-rules accept` reads it, then every gate command."""
    place.write(".a2a/gate.toml", data)
    gate_rules.accept(place.gate)
    return gate_rules.current(place.gate)   # records gate_rules_changed when valid and new


def read_verdict(place: Place, data: bytes) -> object:
    """As `a2a review verdict --file REPORT.md` reads it."""
    path = str(place.write("REPORT.md", data))
    text, _raw = read_report(path)
    return review_report.parse_report(text, path)


def read_user_config(place: Place, data: bytes) -> object:
    return settings.load(place.repo.config_path,
                         user_config=place.write("xdg/a2a/config.toml", data))


reports = st.one_of(damaged(REPORT.encode()), toml_docs(VERDICT_BLOCK).map(
    lambda block: b"Prose first.\n\n```verdict\n" + block + b"```\n"))


PARSERS = [
    Parser("task card (a2a card add)", read_card, toml_docs(CARD), codes=frozenset({"bad_card"})),
    Parser("repository config (.a2a/config.toml)", read_config, toml_docs(CONFIG),
           codes=frozenset({"bad_config"}),
           known=(b"\x80",                                  # not UTF-8: UnicodeDecodeError
                  CONFIG.encode() + b'"\\n" = 1\n')),        # a key that is a line break
    Parser("spool envelope (hooks/a2a-hook output)", read_envelope, envelopes(),
           error=MalformedSignal, examples=150,
           known=(b"[" * 5000 + b"]" * 5000,)),             # RecursionError
    Parser("a2a argv", read_argv, argvs, codes=frozenset({"usage"}), examples=150,
           known=(["init", "\n"],)),                       # a usage error of two lines
    # No refusal at all: any commit is read as the trailers and paths it has.
    Parser("commit trailers (Git.trailers)", read_trailers, st.tuples(encodings, messages),
           examples=40,
           known=(("bogus", b"subject\n\nA2A-Attempt: T-1-a1\xff\n"),)),  # UnicodeDecodeError
    # A tree git itself calls broken (an empty file name) is refused with git's own message.
    Parser("commit paths (Git.changed_paths)", read_paths, file_names, examples=30,
           codes=frozenset({"git_failed"}),
           known=(b"x\xff.py",)),                                        # UnicodeDecodeError
    Parser("gate rules (.a2a/gate.toml)", read_gate_rules, toml_docs(GATE_TOML),
           codes=frozenset({"bad_gate_rules"})),
    Parser("review verdict (a2a review verdict --file)", read_verdict, reports,
           codes=frozenset({"bad_report", "bad_verdict"})),
    Parser("user config ($XDG_CONFIG_HOME/a2a/config.toml)", read_user_config,
           toml_docs(USER_CONFIG), codes=frozenset({"bad_config"})),
    Parser("broker request (a session's socket)", read_request, requests, error=ValueError,
           examples=150, known=((frame([]), 3),                       # a frame that is no object
                                (frame({"v": 1, "argv": [[]] * 3, "env": {}}), 3),
                                # JSON nested deeper than Python recurses: RecursionError
                                (struct.pack(">I", 6000) + b"[" * 3000 + b"]" * 3000, 3))),
]


def by_name(name: str) -> Parser:
    return next(p for p in PARSERS if p.name == name)

