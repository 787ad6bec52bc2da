"""bench/REPORT.md: the machine, then every measure beside its physical limit, from one run."""

from __future__ import annotations

import os
import platform
import subprocess
import time
from pathlib import Path

from benchlib import ROOT, ratio

QUICK_BANNER = ("**A QUICK RUN** (`--quick`: small counts, a smoke test of the runner and of every"
                " benchmark's code path). Its figures are not ones to quote: the report to read"
                " is a full run (`bench/run_all.py`) on a quiet machine.")


def _first_line(argv: list[str]) -> str:
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "not found"
    return out.strip().splitlines()[0] if out.strip() else "not found"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict[str, str]:
    """What the run ran on, read before it starts (the load average again at the end)."""
    commit = _first_line(["git", "-C", str(ROOT), "log", "-1", "--format=%h %s"])
    dirty = _first_line(["git", "-C", str(ROOT), "status", "--porcelain"]) != "not found"
    return {
        "CPU": cpu_model(),
        "cores": str(os.cpu_count()),
        "load average before": " / ".join(f"{x:.2f}" for x in os.getloadavg()),
        "OS": f"{platform.system()} {platform.release()}",
        "Python": platform.python_version(),
        "tmux": _first_line(["tmux", "-V"]),
        "git": _first_line(["git", "--version"]),
        "a2a": commit[:72] + (" (with uncommitted changes)" if dirty else ""),
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
    }


def fmt(x: float, unit: str) -> str:
    if unit == "events/s":
        return f"{x:,.0f}/s"
    if unit == "% core":
        return f"{x:.2f} %"
    digits = 3 if abs(x) < 1 else 2 if abs(x) < 10 else 1 if abs(x) < 100 else 0
    return f"{x:,.{digits}f} {unit}"


def _cells(bench: str, r: dict) -> list[list[str]]:
    """One table line per (measure, limit); a measure without a limit has one line."""
    head = [bench, r["measure"], str(r["n"]), fmt(r["median"], r["unit"]),
            fmt(r["p99"], r["unit"])]
    if not r["limits"]:
        return [head + ["—", "", "", "", ""]]
    out = []
    for i, lim in enumerate(r["limits"]):
        q = ratio(r, lim)
        aim = r["aim"] if i == 0 else None
        verdict = "" if aim is None or q is None else ("✓" if q <= aim else "✗") + f" ≤{aim}×"
        cells = head if i == 0 else ["", "", "", "", ""]
        out.append(cells + [lim["name"], fmt(lim["median"], r["unit"]),
                            fmt(lim["p99"], r["unit"]), "—" if q is None else f"{q:.2f}×",
                            verdict])
    return out


def render(results: dict[str, dict], benches: dict[str, tuple[str, str]], before: dict,
           after: tuple[float, float, float], *, quick: bool, command: str,
           seconds: float) -> str:
    """The whole report as Markdown."""
    lines = ["# a2a benchmark report", ""]
    if quick:
        lines += [QUICK_BANNER, ""]
    lines += [f"`.venv/bin/python {command}`, {seconds / 60:.1f} min. Medians and p99 (nearest"
              " rank) from this one run. Each measure stands beside its physical limit,"
              " measured in the same run on the same machine; **ratio** = measure ÷ limit at"
              " the median (for a rate, limit ÷ measure), so 1.00× is the limit itself; the"
              " aim is within 1.5×. A row without a limit is context, or a comparison whose"
              " ratio says how many times slower the other way is.", "", "## Machine", "",
              "| | |", "|---|---|"]
    facts = {**before, "load average after": " / ".join(f"{x:.2f}" for x in after)}
    lines += [f"| {k} | {v} |" for k, v in facts.items()]
    lines += ["", "## Results", "",
              "| benchmark | measure | n | median | p99 | physical limit (same run) |"
              " limit median | limit p99 | ratio | aim |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    notes, missing = [], []
    for name, res in results.items():
        if "rows" not in res:
            missing.append(f"- **{name}** ({benches[name][1]}): "
                           + (f"skipped: {res['skipped']}" if "skipped" in res
                              else f"FAILED: {res['failed']}"))
            continue
        for r in res["rows"]:
            lines += ["| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"
                      for cells in _cells(name, r)]
            if r["note"]:
                notes.append(f"- {name} · {r['measure']}: {r['note']}")
    if missing:
        lines += ["", "## Not measured in this run", "", *missing]
    if notes:
        lines += ["", "## Notes", "", *notes]
    lines += ["", "## Time per benchmark", "", "| benchmark | what | seconds |", "|---|---|---|"]
    lines += [f"| {n} | {benches[n][1]} | {res['seconds']:.0f} |" for n, res in results.items()]
    return "\n".join(lines) + "\n"


# --- sections other commands write (bench_delivery.py), kept when run_all rewrites the report --
def _markers(name: str) -> tuple[str, str]:
    return f"<!-- section {name} -->", f"<!-- /section {name} -->"


def with_section(text: str, name: str, body: str) -> str:
    """`text` with the section `name` replaced by `body` (or appended)."""
    begin, end = _markers(name)
    block = f"{begin}\n{body.rstrip()}\n{end}\n"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        return head + block + rest.split(end, 1)[1].lstrip("\n")
    return text.rstrip("\n") + "\n\n" + block


def kept_sections(old: str, new: str) -> str:
    """`new` with every section of `old` carried over."""
    while (i := old.find("<!-- section ")) >= 0:
        name = old[i + len("<!-- section "):].split(" -->", 1)[0]
        begin, end = _markers(name)
        if end not in old:
            break
        body = old.split(begin, 1)[1].split(end, 1)[0].strip("\n")
        new = with_section(new, name, body)
        old = old.split(end, 1)[1]
    return new
