"""The scale curves of bench/REPORT.md: a table and a picture per curve, from the JSON that
`bench/bench_scale.py` wrote (bench/scale/<curve>.json), each measure with its shape.

    .venv/bin/python bench/scale_report.py        # rewrite REPORT.md's scale section and PNGs

bench/run_all.py calls `section()` too, so a full run redraws the pictures. The pictures need
matplotlib (`pip install -e '.[bench]'`, a benchmark-only extra); without it the tables are
written and the section says the pictures were not redrawn.

Shape: the steepest slope of log(median) against log(size) between neighbouring points — flat
(the last within 1.5× of the first), sublinear (slope under 0.8), linear (up to 1.2), worse.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from benchlib import ROOT

# isort: split
import benchreport

SCALE = ROOT / "bench" / "scale"
REPORT = ROOT / "bench" / "REPORT.md"
ORDER = ("panes", "events", "repo", "diff", "parallel")
TITLE = {"panes": ("Panes", "panes (demo agents)"), "events": ("Events", "events in the store"),
         "repo": ("Repository size", "files"),
         "diff": ("Repository size: the diff view", "files"), "parallel": ("Parallel attempts",
                                                             "verifies at once")}
# A step done once per signal, per event or per key, or that reads a bounded part of the log:
# its aim is flat (it must not grow with the size). Per curve: the workbench's first frame is
# flat in events (it reads the log's tail) but may grow with the sessions it lists.
PER_STEP = ("signal → state", "Stop → next paste", "per signal", "store open", "append one",
            "orchestrator CPU, idle", "key → screen", "--since")
FLAT_IN = {"events": ("workbench first frame",)}
AIM = {
    "panes": "per-signal steps (signal → state, Stop → paste, CPU per signal) and key → screen"
             " flat; the rest — a burst's wall time, memory, the workbench's first frame — at"
             " most linear",
    "events": "store open and append flat (the checkpoint); what reads the whole log (metric"
              " views, the chain check) at most linear; a `--since` view and the workbench's"
              " first frame flat (they read a window or the tail)",
    "repo": "claim, verify overhead and integrate at most linear in files, and within 1.5× of"
            " the bare git they need",
    "diff": "the diff view's open at most linear in files (flat: it reads one attempt's"
            " change), and within 1.5× of the bare `git diff`",
    "parallel": "each verify's time at most linear in the verifies at once (this machine has"
                " {cores} cores: past them they share the CPU)",
}


def shape(xs: list[float], ys: list[float]) -> tuple[str, float]:
    """(shape, slope) of ys over xs on log-log axes: the steepest step between neighbouring
    points (a curve that bends upwards at its end is judged by its end), flat when the last
    point is within 1.5x of the first."""
    if len(xs) < 2 or min(ys) <= 0:
        return "—", float("nan")
    slope = max(math.log(ys[i + 1] / ys[i]) / math.log(xs[i + 1] / xs[i])
                for i in range(len(xs) - 1))
    if ys[-1] / ys[0] <= 1.5:
        return "flat", slope
    return ("sublinear" if slope < 0.8 else "linear" if slope <= 1.2 else "worse"), slope


def fmt(v: float) -> str:
    return f"{v:,.0f}" if v >= 100 else f"{v:.1f}" if v >= 10 else f"{v:.2f}" if v >= 1 \
        else f"{v:.3f}"


def aim_met(curve: str, name: str, sh: str) -> str:
    if "(limit)" in name or sh == "—":
        return ""
    if any(k in name for k in (*PER_STEP, *FLAT_IN.get(curve, ()))):
        return "✓ flat" if sh == "flat" else "✗ flat"
    return "✓ ≤ linear" if sh != "worse" else "✗ ≤ linear"


def table(curve: str, data: dict) -> list[str]:
    pts = data["points"]
    xs = [p["x"] for p in pts]
    names = list(dict.fromkeys(n for p in pts for n in p["measures"]))
    head = ["measure", "unit", *(f"{x:,}" for x in xs), "shape (slope)", "aim"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name in names:
        got = [p["measures"].get(name) for p in pts]
        unit = next(g["unit"] for g in got if g)
        cells = [("—" if g is None else fmt(g["median"]) + (
            f" / {fmt(g['p99'])}" if g["n"] > 1 and "→" in name else "")) for g in got]
        have = [(x, g["median"]) for x, g in zip(xs, got, strict=True) if g]
        sh, slope = shape([x for x, _ in have], [y for _, y in have])
        sl = "" if math.isnan(slope) else f" ({slope:.2f})"
        lines.append(f"| {name} | {unit} | " + " | ".join(cells) + f" | {sh}{sl} | "
                     f"{aim_met(curve, name, sh)} |")
    lines.append("| load average (1 min) |  | " + " | ".join(f"{p['load'][0]:.2f}" for p in pts)
                 + " |  |  |")
    return lines


def draw(curve: str, data: dict, where: Path) -> bool:
    """The curve as a small log-log picture; False without matplotlib."""
    try:
        import matplotlib  # a benchmark-only extra: missing, the tables are still written
    except ImportError:
        return False
    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    pts = data["points"]
    if len(pts) < 2:
        return True   # nothing to draw yet (a long run stopped after its first point)
    names = list(dict.fromkeys(n for p in pts for n in p["measures"]))
    fig, ax = plt.subplots(figsize=(7.5, 4.2), dpi=90)
    ax.set_prop_cycle(color=plt.cm.tab20.colors)
    x0, x1 = pts[0]["x"], pts[-1]["x"]
    ax.plot([x0, x1], [1.0, x1 / x0], color="grey", linestyle=":", linewidth=1,
            label="linear (slope 1), for reference")
    for name in names:
        got = [(p["x"], p["measures"][name]["median"]) for p in pts if name in p["measures"]]
        if len(got) < 2 or p_unit(pts, name) not in ("ms", "s"):
            continue
        ax.plot([x for x, _ in got], [y for _, y in got], marker="o",
                linestyle="--" if "(limit)" in name else "-", label=name[:48])
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(TITLE[curve][1])
    ax.set_ylabel("ms (median)")
    ax.set_title(f"{TITLE[curve][0]}: time per measure (log-log; dashed: a limit)",
                 fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(where, metadata={"Software": None})   # no version stamp: redraws diff little
    plt.close(fig)
    return True


def p_unit(pts: list[dict], name: str) -> str:
    return next(p["measures"][name]["unit"] for p in pts if name in p["measures"])


def section(scale: Path = SCALE) -> str:
    """The report's scale section (markdown), pictures redrawn beside it."""
    out = ["## Scale: how each cost grows (issue 30)", "",
           "Long runs, each its own command (`.venv/bin/python bench/bench_scale.py CURVE`,"
           " bench/scale/CURVE.json); `bench/scale_report.py` draws the tables and pictures."
           " Each cell: median (with p99 after `/` for a latency), from one run; the machine's"
           " load at each point is the last row — ratios within a point are what to read. Shape:"
           " the steepest log-log slope between neighbouring points (flat: the last within 1.5×"
           " of the first).", ""]
    drawn_any = missing = False
    for curve in ORDER:
        path = scale / f"{curve}.json"
        if not path.exists():
            out += [f"### {TITLE[curve][0]}", "", "Not measured yet.", ""]
            continue
        data = json.loads(path.read_text())
        drawn = draw(curve, data, scale / f"{curve}.png")
        drawn_any |= drawn
        missing |= not drawn
        out += [f"### {TITLE[curve][0]}", "",
                f"`bench/bench_scale.py {curve}` at {data['commit']}, {data['date']},"
                f" {data['cores']} cores{', A QUICK RUN' if data.get('quick') else ''}"
                f"{', temporary files in ' + data['tmp'] if data.get('tmp') else ''}."
                f" Aim: {AIM[curve].format(cores=data['cores'])}.", "",
                *table(curve, data), ""]
        if (scale / f"{curve}.png").exists():
            out += [f"![{curve}](scale/{curve}.png)", ""]
    if missing:
        out += ["(Pictures not redrawn: matplotlib is not installed; `pip install -e"
                " '.[bench]'`.)", ""]
    return "\n".join(out)


def write(report: Path = REPORT, scale: Path = SCALE) -> None:
    old = report.read_text(encoding="utf-8") if report.exists() else ""
    report.write_text(benchreport.with_section(old, "scale", section(scale)), encoding="utf-8")


if __name__ == "__main__":
    write()
    print(f"wrote {REPORT}", file=sys.stderr)
