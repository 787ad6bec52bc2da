"""Parsers being written on other branches, fuzzed as soon as their module lands on this one.

Each entry is made only when its module can be imported: `.a2a/gate.toml` (gate-contract's
`a2a_tui.gate.gate_rules`), the review report's verdict block (review's
`a2a_tui.gate.review_report`), the user's `$XDG_CONFIG_HOME/a2a/config.toml` (loop-runtime's
`a2a_tui.settings`). Once all three are on main, move them into PARSERS (parsers.py) and
delete this file: an entry must not quietly vanish because its module moved.
"""

from __future__ import annotations

import importlib.util

import hypothesis.strategies as st

from tests.fuzz.inputs import damaged, toml_docs
from tests.fuzz.parsers import Parser, Place

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
    from a2a_tui.gate import gate_rules

    place.write(".a2a/gate.toml", data)
    return gate_rules.current(place.gate)   # records gate_rules_changed when valid and new


def read_verdict(place: Place, data: bytes) -> object:
    """As `a2a review verdict --file REPORT.md` reads it."""
    from a2a_tui.gate import review_report
    from a2a_tui.gate.review import read_report

    path = str(place.write("REPORT.md", data))
    text, _raw = read_report(path)
    return review_report.parse_report(text, path)


def read_user_config(place: Place, data: bytes) -> object:
    from a2a_tui import settings

    return settings.load(place.repo.config_path,
                         user_config=place.write("xdg/a2a/config.toml", data))


reports = st.one_of(damaged(REPORT.encode()), toml_docs(VERDICT_BLOCK).map(
    lambda block: b"Prose first.\n\n```verdict\n" + block + b"```\n"))

_ENTRIES = [
    ("a2a_tui.gate.gate_rules",
     Parser("gate rules (.a2a/gate.toml)", read_gate_rules, toml_docs(GATE_TOML),
            codes=frozenset({"bad_gate_rules"}))),
    ("a2a_tui.gate.review_report",
     Parser("review verdict (a2a review verdict --file)", read_verdict, reports,
            codes=frozenset({"bad_report", "bad_verdict"}))),
    ("a2a_tui.settings",
     Parser("user config ($XDG_CONFIG_HOME/a2a/config.toml)", read_user_config,
            toml_docs(USER_CONFIG), codes=frozenset({"bad_config"}))),
]
LANDED = [p for module, p in _ENTRIES if importlib.util.find_spec(module) is not None]
