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
