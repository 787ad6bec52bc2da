"""The scale curves (bench/bench_scale.py, bench/scale_report.py): a smoke of one curve at one
tiny point, and the shapes and tables the report draws from what a curve wrote. Not a
measurement: the curves themselves are long runs of their own."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import bench_scale  # noqa: E402
import scale_report  # noqa: E402


def test_shapes_by_the_log_log_slope():
    xs = [1_000, 10_000, 100_000]
    assert scale_report.shape(xs, [5.0, 5.5, 6.0])[0] == "flat"
    assert scale_report.shape(xs, [1.0, 4.0, 20.0])[0] == "sublinear"
    assert scale_report.shape(xs, [1.0, 10.0, 100.0])[0] == "linear"
    assert scale_report.shape(xs, [1.0, 50.0, 2_000.0])[0] == "worse"


def test_a_curve_measured_at_a_tiny_point_is_drawn_as_a_table(tmp_path):
    bench_scale.measure("parallel", [1], True, tmp_path)
    data = json.loads((tmp_path / "parallel.json").read_text())
    (pt,) = data["points"]
    assert pt["x"] == 1 and pt["measures"]["each verify (wall)"]["median"] > 0
    assert len(pt["load"]) == 3
    # A second point added later keeps the first (`--add`), and the table shows both.
    pt2 = {**pt, "x": 4, "measures": {"each verify (wall)": {
        **pt["measures"]["each verify (wall)"],
        "median": pt["measures"]["each verify (wall)"]["median"] * 40}}}
    data["points"].append(pt2)
    (tmp_path / "parallel.json").write_text(json.dumps(data))
    text = scale_report.section(tmp_path)
    assert "### Parallel attempts" in text and "### Panes" in text
    (line,) = [x for x in text.splitlines() if x.startswith("| each verify (wall) |")]
    assert "worse" in line and "✗ ≤ linear" in line
    assert "Not measured yet." in text   # the curves with no JSON say so
    assert (tmp_path / "parallel.png").exists() or "matplotlib is not installed" in text


def test_what_reads_a_window_or_a_tail_is_held_to_flat():
    aim = scale_report.aim_met
    assert aim("events", "metrics view tasks --since 7d", "sublinear") == "✗ flat"
    assert aim("events", "metrics view tasks", "linear") == "✓ ≤ linear"
    assert aim("events", "workbench first frame", "sublinear") == "✗ flat"
    assert aim("panes", "workbench first frame (N sessions, 10,000 events)", "sublinear") \
        == "✓ ≤ linear"
    assert aim("panes", "workbench key → screen (N sessions, idle)", "flat") == "✓ flat"


def test_the_diff_view_curve_at_a_tiny_point(tmp_path):
    bench_scale.measure("diff", [200], True, tmp_path)
    (pt,) = json.loads((tmp_path / "diff.json").read_text())["points"]
    assert pt["x"] == 200
    assert all(m["median"] > 0 and m["n"] == 5 for m in pt["measures"].values())
    assert "bare git diff start..candidate (limit)" in pt["measures"]
