"""Rule 6 on the Gate panel: a threshold recorded but not blocking (gate.toml `blocking =
false`) shows what it measured under the checks, beside the blocking failure, never as one."""

from __future__ import annotations

from a2a_tui.gate.views import CheckView
from a2a_tui.tui.panels.gate import checks_line
from a2a_tui.tui.queries import GateRow


def row(*checks: CheckView) -> GateRow:
    return GateRow(card="T-1", title="t", card_state="ready", version=1, attempt="T-1-a1",
                   attempt_state="verified", writer="w1", sha="a" * 40, rejections=0,
                   worktree_state="present", verify_state="passed", verify_run=1,
                   checks=list(checks))


def test_a_recorded_threshold_says_what_it_measured():
    tests = CheckView("tests", "command", True, True, 0, 0.1, "exit 0")
    warn = CheckView("tests/warnings", "threshold", False, False, None, 0.0,
                     "warnings 2, above its maximum 1 (recorded, not blocking)")
    text = checks_line(row(tests, warn)).plain
    assert "~ tests/warnings" in text
    assert "tests/warnings: warnings 2, above its maximum 1 (recorded, not blocking)" in text
    assert "tests: " not in text   # nothing failed that blocks
