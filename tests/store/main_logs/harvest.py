"""How the logs in this folder were made: each is the store of a gate test run by a2a's main at
the commit named in the file (before event kinds had payload types), kept as its events (every
column, as stored), the gate's tables as that code wrote them, each event's sentence in the
Events panel, and every metrics view of the log. tests/store/test_payload_old_logs.py reads them
with today's code.

    git archive <commit> | tar -x -C /tmp/base
    cd /tmp/base && PYTHONPATH=/tmp/base pytest --basetemp=/tmp/bt tests/gate/test_gate_...py
    PYTHONPATH=/tmp/base python tests/store/main_logs/harvest.py /tmp/bt OUT_DIR COMMIT NAME...

The four here: aa9e4c7's tests/gate/test_gate_flow.py test_whole_flow,
test_gate_review_ledger.py test_after_a_review_and_approval..., test_gate_targets.py
test_a_rewind_is_seen_and_restored... and test_main_moved_to_an_intermediate... .
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path


def dump(db: Path, commit: str) -> dict:
    from a2a_tui.gate.ledger.tables import TABLES
    from a2a_tui.sentences import sentence
    from a2a_tui.store.db import Event

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    events = [dict(r) for r in conn.execute("SELECT * FROM events ORDER BY seq")]
    tables = {t.name: [dict(r) for r in conn.execute(f"SELECT * FROM {t.name}")]
              for t in TABLES}
    said = [sentence(Event.from_row(r))
            for r in conn.execute("SELECT * FROM events ORDER BY seq")]
    return {"written_by": commit, "events": events, "tables": tables, "sentences": said,
            "metrics": metrics_of(db)}


def metrics_of(db: Path) -> dict:
    """Every metrics view of the log, as `a2a metrics --json` gives it."""
    from a2a_tui import metrics
    from a2a_tui.store import Store

    with tempfile.TemporaryDirectory() as d:
        shutil.copy(db, Path(d) / "a2a.db")
        with Store(Path(d) / "a2a.db") as s:
            compute = getattr(metrics, "compute_json", None) or metrics.compute  # older: compute
            return json.loads(json.dumps(compute(s), default=str))


def main() -> None:
    base, out, commit, *names = sys.argv[1:]
    dbs = {p.parent.parent.parent.name + "/" + p.parent.parent.name: p
           for p in Path(base).rglob(".a2a/a2a.db")}
    for name in names:
        db = next(p for k, p in dbs.items() if name in k)
        stem = name.removeprefix("test_").removesuffix("0")
        Path(out, f"{stem}.json").write_text(json.dumps(dump(db, commit), indent=0) + "\n")


if __name__ == "__main__":
    main()
