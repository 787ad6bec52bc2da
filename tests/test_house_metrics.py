"""bench/house_metrics.py (issue 23's figures) runs on this tree and finds the fold the only
writer of gate state: a smoke test of the script and a guard on its first figure."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_house_metrics_runs_and_counts_no_gate_write_outside_the_fold():
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "house_metrics.py"), str(ROOT)],
                       capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 0, r.stderr
    assert "SQL writes to gate tables outside the fold: 0 in 0 modules" in r.stdout, r.stdout
    assert "import circles (module level): 0" in r.stdout, r.stdout
    assert "attempt states as bare strings in comparisons: 0" in r.stdout, r.stdout
    assert "import circles (type-only imports included): 0" in r.stdout, r.stdout
    assert "not named for it (to_json, ..._json): 0" in r.stdout, r.stdout
    assert "not named for it (to_toml, ..._toml): 0" in r.stdout, r.stdout
    # The gate reads the attempt as a record (gate/ledger/records.py AttemptRecord), which has no
    # key access. The 2 left are not the gate's reads of a record: the fold's own rows, as its
    # handlers write them (gate/ledger/attempts.py, rows.py).
    assert 'attempt record key reads (att["..."], att.get("...")): 2 in 2 modules' in r.stdout, \
        r.stdout
    # Between the gate's parts data travels as records; what it hands the outside as JSON is a
    # `JsonObject` (a2a_tui/jsontypes.py), named for it.
    # Outside the gate too: every function that hands out a dict is a JSON or TOML edge, typed
    # and named for it (the metrics' --json document, the CLI's answers, the settings' files).
    assert "functions returning dict[str, Any]: 0 (0 in gate/)" in r.stdout, r.stdout
    assert "functions returning ... | None or list[...] of it: 0 (0 in gate/)" in r.stdout, \
        r.stdout


def _metrics(root: Path) -> str:
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "house_metrics.py"), str(root)],
                       capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_a_circle_through_a_type_only_import_and_record_key_reads_are_counted(tmp_path):
    pkg = tmp_path / "a2a_tui"
    (pkg / "steps").mkdir(parents=True)
    (pkg / "gate").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "steps" / "__init__.py").write_text("")
    (pkg / "steps" / "chain.py").write_text("from a2a_tui.steps import one\n")
    (pkg / "steps" / "one.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from a2a_tui.steps.chain import Chain\n"
        "def f(att, ctx):\n    return att['state'], ctx.attempt.get('sha'), att[0]\n"
        "def to_json() -> JsonObject:\n    return {}\n"
        "def status() -> 'JsonObject':\n    return {}\n"
        "def read_toml() -> TomlTable:\n    return {}\n"
        "def read() -> TomlTable:\n    return {}\n")
    out = _metrics(tmp_path)
    assert "import circles (module level): 0" in out, out
    assert "import circles (type-only imports included): 1" in out, out
    assert "a2a_tui.steps.chain -> a2a_tui.steps.one" in out, out
    assert 'attempt record key reads (att["..."], att.get("...")): 2 in 1 modules' in out, out
    assert "returning JsonObject (a JSON edge): 2; not named for it (to_json, ..._json): 1" \
        in out, out
    assert "a2a_tui/steps/one.py:8 status" in out, out
    assert "returning TomlTable (a TOML edge): 2; not named for it (to_toml, ..._toml): 1" \
        in out, out
    assert "a2a_tui/steps/one.py:12 read" in out, out
