"""How the logs named `record_*.json` in this folder were made: the stores of tests (and of one
small drive of a2a's own functions) run by a2a's main at 7a1d1eb, before the collaboration's,
the boundary's, the record's and the house's kinds had payload types; each kept as harvest.py
keeps one (its events as stored, the gate's tables, each event's sentence, every metrics view).

    git archive 7a1d1eb | tar -x -C /tmp/base
    cd /tmp/base && PYTHONPATH=/tmp/base pytest --basetemp=/tmp/bt tests/collab/... (below)
    PYTHONPATH=/tmp/base python tests/store/main_logs/record_drive.py /tmp/drive
    PYTHONPATH=/tmp/base python tests/store/main_logs/harvest_record.py OUT_DIR 7a1d1eb NAME=DB...

The tests: tests/gate/test_gate_ledger.py test_an_edited_event_is_found,
tests/loop/test_down_up.py test_up_outside_a_repository..., tests/collab/
test_collab_unidentified.py test_a_store_that_never_recorded..., test_collab_board.py
test_nothing_can_be_deleted..., test_collab_project_profile.py test_the_user_confirms...,
test_collab_reports.py test_only_controllers_ask..., tests/store/test_store_guard.py
test_once_the_store_takes_writes..., test_store_backup.py test_a_missing_store_is_restored...,
tests/broker/test_broker_refusals.py test_a_command_that_is_not_agents...,
test_broker_life.py test_the_broker_is_started_again... .

`retro_a_retrospective_kept.json` (the retrospectives' kinds) the same way: the store of
tests/metrics/test_metrics_retro.py test_a_retrospective_runs_in_a_session... at 7a1d1eb, then
`a2a retro save --file doc.md --retro R-1` typed in its repository with that code, then

    PYTHONPATH=/tmp/base python harvest_record.py OUT_DIR 7a1d1eb retro=DB
    (renamed from record_retro.json)
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from harvest import dump  # noqa: E402


def main() -> None:
    out, commit, *named = sys.argv[1:]
    for spec in named:
        name, db = spec.split("=", 1)
        with tempfile.TemporaryDirectory() as d:
            # The store with its write-ahead log, checkpointed: harvest.py's metrics copy the
            # file alone (a test that ended mid-run leaves events in the WAL).
            for suffix in ("", "-wal", "-shm"):
                if Path(db + suffix).exists():
                    shutil.copy(db + suffix, Path(d) / ("a2a.db" + suffix))
            conn = sqlite3.connect(Path(d) / "a2a.db")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.close()
            Path(out, f"record_{name}.json").write_text(
                json.dumps(dump(Path(d) / "a2a.db", commit), indent=0) + "\n")


if __name__ == "__main__":
    main()
