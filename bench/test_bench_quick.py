"""bench/run_all.py --quick runs every benchmark and writes a well-formed report.

A smoke test of the runner and of every benchmark's code path, not a measurement. It runs every
benchmark (about 90 s on a quiet 2-core machine, three times that beside the suite's own load),
so it is a command of its own, as the benchmarks are, not part of the suite:

    .venv/bin/python -m pytest -q bench/test_bench_quick.py
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from run_all import BENCHES  # noqa: E402

ROW = re.compile(r"^\| (?P<bench>[\w-]*) \| (?P<measure>[^|]*) \| (?P<n>\d*) \| (?P<median>[^|]*)"
                 r" \| (?P<p99>[^|]*) \| (?P<limit>[^|]*) \| (?P<lmed>[^|]*) \| (?P<lp99>[^|]*)"
                 r" \| (?P<ratio>[^|]*) \| (?P<aim>[^|]*) \|$")
NUMBER = re.compile(r"^-?[\d,]+(\.\d+)?( \S+|/s| %)$")


def test_the_quick_run_measures_every_benchmark_and_writes_the_report(tmp_path):
    out = tmp_path / "REPORT.md"
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "run_all.py"), "--quick", "--out",
                        str(out)], capture_output=True, text=True, timeout=1500)
    assert r.returncode == 0, r.stderr[-3000:]
    text = out.read_text(encoding="utf-8")
    assert "A QUICK RUN" in text
    for fact in ("CPU", "cores", "load average before", "load average after", "Python", "tmux",
                 "git"):
        assert re.search(rf"^\| {fact} \| \S", text, re.M), f"machine: no {fact}"
    rows = [m for line in text.splitlines() if (m := ROW.match(line))]
    measured = {m["bench"] for m in rows if m["bench"]}
    skipped = set(re.findall(r"^- \*\*([\w-]+)\*\* \([^)]*\): skipped: \S", text, re.M))
    assert measured | skipped == set(BENCHES), (measured, skipped)
    assert not measured & skipped
    for m in rows:
        if m["bench"]:
            assert int(m["n"]) > 0 and NUMBER.match(m["median"]) and NUMBER.match(m["p99"]), m
        if m["limit"] != "—":
            assert NUMBER.match(m["lmed"]) and re.fullmatch(r"\d+\.\d\d×", m["ratio"]), m
    # The ones the issue names, beside their limits.
    limits = " ".join(m["limit"] for m in rows)
    for limit in ("bare inotify watcher", "paste-buffer round trip", "`python -c pass`",
                  "git worktree add"):
        assert limit in limits, f"no row beside {limit!r}"
