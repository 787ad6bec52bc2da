"""The delivery section of bench/REPORT.md, from bench_delivery.py's saved results.

The section sits between two markers (`SECTION`); `write` replaces it in place, or appends it,
and bench/run_all.py carries it over when it rewrites the rest of the report.
"""

from __future__ import annotations

from pathlib import Path

from benchlib import ROOT  # noqa: F401  (makes a2a_tui importable)

# isort: split
import benchreport

from a2a_tui import profiles

SECTION = "delivery"
TITLE = "## Delivery: every pasted prompt arrives, once, whole (`bench/bench_delivery.py`)"
INTRO = (
    "Real CLIs (pinned versions, tests/real_cli) against the loopback fake model, in the"
    " real-CLI world. *loaded*: one `python -c 'while 1: pass'` per core for the whole run, on"
    " top of whatever else ran on this shared machine (the load average column says how busy"
    " it was; *not loaded* is not idle: other work shared the machine). A result never comes"
    " from the screen: the CLI's own hook signals, and the requests the fake model received."
    " An Enter not taken left the text in the box (Claude Code: lost; Gemini CLI: taken as a new"
    " line, by its source); the probe's second Enter, 10 s later, submitted it every time."
    " None of the three CLIs signals that a paste was taken, only that a prompt was submitted"
    " (tests/real_cli/FINDINGS.md): a2a confirms by that signal (panes/confirm.py).")
DELIVER_NOTE = (
    "Prompts queued with `a2a inject` (one, three and five lines in turn, each with a unique"
    " mark) in rounds of 100, each round in a freshly launched session, so that every round's"
    " first paste is a launch's first; delivered by `a2a serve` with the profile's timing and"
    " confirmation. *lost*: not done, or its mark never reached the model; *merged*: a request"
    " holding another text than the dispatch's; *sent twice*: a mark in two requests.")


def _ms(x) -> str:
    return "—" if x is None else f"{x:,.0f}"


def _load(r: dict) -> str:
    note = f"; {r['note']}" if r.get("note") else ""
    return ("loaded" if r["load"] else "not loaded") + f" ({r['loadavg'].split(' / ')[0]}{note})"


def _probe_rows(records: list[dict], mode: str) -> list[str]:
    rows = [r for r in records if r["mode"] == mode]
    rows.sort(key=lambda r: (r["cli"], r["load"], r.get("settle", 0), r["pause"]))
    head = "| CLI | machine (load) |" + (" settle after start |" if mode == "first" else "")
    out = [head + " pause paste → Enter | n | Enter not taken (a second submitted it) |"
           " paste lost | merged | twice | Enter → prompt signal p50 / p99 ms (first Enter"
           " taken) |", "|---" * (9 + (mode == "first")) + "|"]
    for r in rows:
        settle = f" {r['settle']:g} s |" if mode == "first" else ""
        lost = r["enter_lost"] + r.get("enter_in_paste", 0)
        out.append(f"| {r['cli']} | {_load(r)} |{settle} {r['pause']:g} s | {r['n']} |"
                   f" {lost} | {r['paste_lost']} | {r['merged']} | {r['twice']} |"
                   f" {_ms(r['p50_ms'])} / {_ms(r['p99_ms'])} |")
    return out


def _harmless_rows(records: list[dict]) -> list[str]:
    out = ["| CLI | machine (load) | Enters on an idle empty box | signals they gave |"
           " Enters on an empty box during a turn | extra prompts or turns |",
           "|---|---|---|---|---|---|"]
    for r in sorted((r for r in records if r["mode"] == "harmless"),
                    key=lambda r: (r["cli"], r["load"])):
        out.append(f"| {r['cli']} | {_load(r)} | {r['idle_enters']} | {r['idle_signals']} |"
                   f" {r['busy_enters']} | {r['busy_extra']} |")
    return out


def _deliver_rows(records: list[dict]) -> list[str]:
    out = ["| CLI | machine (load) | deliveries (1 / 3 / 5 lines) | lost | merged | sent twice"
           " | needed Enter again | Enters again | unknown | Enter → confirmed p50 / p99 / max ms"
           " | minutes |", "|---" * 11 + "|"]
    for r in sorted((r for r in records if r["mode"] == "deliver"),
                    key=lambda r: (r["cli"], r["load"])):
        shapes = " / ".join(str(r["shapes"].get(str(k), r["shapes"].get(k, 0)))
                            for k in range(3))
        out.append(f"| {r['cli']} | {_load(r)} | {r['n']} ({shapes}) | {r['lost']} |"
                   f" {r['merged']} | {r['twice']} | {r['recovered']} | {r['resent']} |"
                   f" {r['unknown']} | {_ms(r['p50_ms'])} / {_ms(r['p99_ms'])} /"
                   f" {_ms(r['max_ms'])} | {r['seconds'] / 60:.0f} |")
    return out


def _profiles() -> list[str]:
    out = ["| CLI | pause paste → Enter (`enter_delay_s`) | first paste waits idle"
           " (`start_settle_s`) | wait for the prompt signal per Enter (`prompt_wait_s`) |"
           " Enters again at most (`enter_retries`) |", "|---|---|---|---|---|"]
    for cli in ("claude", "codex", "gemini"):
        p = profiles.get(cli)
        out.append(f"| {cli} | {p.enter_delay_s:g} s | {p.start_settle_s:g} s |"
                   f" {p.prompt_wait_s:g} s | {p.enter_retries} |")
    return out


def render(records: list[dict]) -> str:
    """The section's Markdown (without its markers)."""
    when = sorted({r["when"] for r in records})
    lines = [TITLE, "", INTRO + (f" Runs from {when[0]} to {when[-1]}." if when else ""), ""]
    parts = [("### 1,000 deliveries through a2a (`deliver`)\n\n" + DELIVER_NOTE,
              _deliver_rows(records)),
             ("### The paste after a turn (`sweep`)", _probe_rows(records, "sweep")),
             ("### The first paste of a launch (`first`)", _probe_rows(records, "first")),
             ("### A second Enter on an empty box (`harmless`)", _harmless_rows(records))]
    for title, rows in parts:
        if len(rows) > 2:
            lines += [title, "", *rows, ""]
    lines += ["### What the profiles take from it", "", *_profiles(), ""]
    return "\n".join(line for line in lines) + "\n"


def write(path: Path, records: list[dict]) -> None:
    """Put the section into the report at `path` (replacing an older one)."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    path.write_text(benchreport.with_section(old, SECTION, render(records)), encoding="utf-8")
