"""How the logs of sessions, panes and dispatches here were made (harvest.py makes the gate's):
the stores of a2a's main's own tests, chosen so that together they hold every kind of
tests/store/test_payloads_panes.py that a test writes, the fewest events first, each kept as
harvest.py keeps it (its events, tables, sentences and metrics, as that code gave them).

    git archive <commit> | tar -x -C /tmp/base   (with its own venv: the tests run a2a)
    cd /tmp/base && .venv/bin/python -m pytest --basetemp=/tmp/bt tests/panes/... tests/loop/...
    PYTHONPATH=/tmp/base /tmp/base/.venv/bin/python tests/store/main_logs/harvest_panes.py \
        /tmp/bt OUT_DIR COMMIT

The ones here: 7a1d1eb's tests/gate/test_gate_escalation.py, test_gate_feedback.py,
test_gate_rules_accept.py, test_gate_targets.py, test_gate_review_verdict.py,
test_gate_behaviour.py, test_gate_spot_checks.py, test_gate_provenance.py,
tests/panes/test_panes_lifecycle_e2e.py, test_panes_spool.py, test_panes_spool_rate.py,
test_panes_confirm.py, tests/loop/test_turn_limits.py, test_stalls.py, test_attention.py,
test_sessions_cli.py, tests/tui/test_tui_sessions.py, test_tui_spot_check.py, test_tui_quit.py.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from harvest import dump  # noqa: E402

MAX_EVENTS = 400   # a store past this is left out (the fixture stays small)
# Tests that append these kinds with payloads made by hand, not as main's code wrote them.
BY_HAND = ("test_everything_that_waits", "test_user_called_rings_once")


def settled(db: Path, where: Path) -> Path:
    """A copy of the store with what its write-ahead log holds written in (a test's store may
    end with events still in the log, which a copy of the file alone would lose)."""
    src = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    dst = sqlite3.connect(where)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()
    return where


def kinds_of(db: Path) -> tuple[set[str], int]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        kinds = {k for (k,) in conn.execute("SELECT DISTINCT kind FROM events")}
        n = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    finally:
        conn.close()
    return kinds, n


def main() -> None:
    base, out, commit = sys.argv[1:4]
    sys.path.insert(0, str(Path(__file__).parent.parent))
    from test_payloads_panes import GATE_SIDE, PANES

    wanted = set(GATE_SIDE) | set(PANES)
    found = {}
    for db in Path(base).rglob("a2a.db"):
        if any(str(db.relative_to(base)).startswith(t) for t in BY_HAND):
            continue
        try:
            kinds, n = kinds_of(db)
        except sqlite3.DatabaseError:
            continue
        if kinds & wanted and n <= MAX_EVENTS:
            found[db] = (kinds & wanted, n)
    chosen, left = [], set(wanted)
    while left:
        # the store that holds the most kinds still missing, the smaller one on a tie
        best = max(found, key=lambda d: (len(found[d][0] & left), -found[d][1]), default=None)
        if best is None or not found[best][0] & left:
            break
        chosen.append(best)
        left -= found.pop(best)[0]
    for i, db in enumerate(chosen):
        name = db.parent.parent.parent.name or db.parent.parent.name
        stem = f"panes_{i + 1}_" + name.removeprefix("test_")[:24].rstrip("_0123456789")
        with tempfile.TemporaryDirectory() as d:
            log = dump(settled(db, Path(d) / "a2a.db"), commit)
        Path(out, f"{stem}.json").write_text(json.dumps(log, indent=0) + "\n")
        print(stem, sorted(found_kinds(db) & wanted))
    print("no store holds:", sorted(left))


def found_kinds(db: Path) -> set[str]:
    return kinds_of(db)[0]


if __name__ == "__main__":
    main()
