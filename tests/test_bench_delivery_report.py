"""bench_delivery.py's section of bench/REPORT.md: rendered from saved results, put in place of
an older one, and kept when bench/run_all.py rewrites the rest of the report."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import benchreport  # noqa: E402
import delivery_report  # noqa: E402

DELIVER = {"mode": "deliver", "cli": "claude", "load": True, "loadavg": "4.10 / 3.00 / 2.00",
           "when": "2026-12-04 20:00 UTC", "n": 1000, "shapes": {"0": 334, "1": 333, "2": 333},
           "lost": 0, "merged": 0, "twice": 0, "resent": 3, "recovered": 3, "unknown": 0,
           "p50_ms": 80.0, "p99_ms": 900.0, "max_ms": 4100.0, "seconds": 1800.0,
           "examples": []}
SWEEP = {"mode": "sweep", "cli": "gemini", "load": False, "loadavg": "1.00 / 1.00 / 1.00",
         "when": "2026-12-04 19:00 UTC", "pause": 0.1, "n": 60, "ok": 4, "enter_lost": 50,
         "enter_in_paste": 6, "paste_lost": 0, "merged": 0, "twice": 0, "p50_ms": 200.0,
         "p99_ms": 300.0}


def test_the_section_is_rendered_replaced_in_place_and_kept_by_run_all(tmp_path):
    report = tmp_path / "REPORT.md"
    report.write_text("# a2a benchmark report\n\nold table\n")
    delivery_report.write(report, [SWEEP])
    delivery_report.write(report, [DELIVER, SWEEP])   # replaces, never appends a second one
    text = report.read_text()
    assert text.startswith("# a2a benchmark report\n\nold table\n")
    assert text.count("<!-- section delivery -->") == 1
    assert "| claude | loaded (4.10) | 1000 (334 / 333 / 333) | 0 | 0 | 0 | 3 | 3 | 0 |" in text
    assert "| gemini | not loaded (1.00) | 0.1 s | 60 | 56 | 0 | 0 | 0 | 200 / 300 |" in text
    assert "| claude | " in text.split("What the profiles take from it")[1]
    # run_all writes a new report: the section comes along, whole.
    section = text[text.index("<!-- section delivery -->"):]
    rewritten = benchreport.kept_sections(text, "# a2a benchmark report\n\nnew table\n")
    assert rewritten.startswith("# a2a benchmark report\n\nnew table\n")
    assert rewritten.endswith(section) and "old table" not in rewritten
