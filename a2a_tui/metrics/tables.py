"""The views as text tables: columns two spaces apart, '-' for nothing, so a line reads (and
splits) the same way everywhere."""

from __future__ import annotations

from typing import Any


def fmt_s(s: float | None) -> str:
    """A duration: 4.2s, 3m05s, 2h03m, 3d04h; '-' when there is none."""
    if s is None:
        return "-"
    if s < 60:
        return f"{s:.1f}s"
    m, sec = divmod(int(round(s)), 60)
    if m < 60:
        return f"{m}m{sec:02d}s"
    h, m = divmod(m, 60)
    if h < 48:
        return f"{h}h{m:02d}m"
    d, h = divmod(h, 24)
    return f"{d}d{h:02d}h"


def fmt_rate(r: float | None) -> str:
    return "-" if r is None else f"{r:.0%}"


def fmt_mean(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def cell(v: Any) -> str:
    if v is None or v == "":
        return "-"
    return str(v)


def table(headers: list[str], rows: list[list[Any]], indent: str = "  ") -> list[str]:
    """Aligned columns; every cell is non-empty so a line splits back on two spaces."""
    cells = [[cell(c) for c in r] for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    out = [indent + "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()]
    out += [indent + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
            for r in cells]
    return out


USAGE_HEAD = ["task", "attempt", "outcome", "rounds", "wall", "session", "as", "role", "cli",
              "model", "effort", "turns", "dispatches", "session wall"]


def usage_rows(v: dict[str, Any]) -> list[list[Any]]:
    """project > task > attempt > session, one row per session (an attempt with none: one row)."""
    rows = []
    for t in v["tasks"]:
        for a in t["attempts"]:
            head = [t["task"], a["attempt"], a["outcome"], a["rounds"], fmt_s(a["wall_s"])]
            for s in a["sessions"] or [None]:
                rows.append(head + (["-"] * 9 if s is None else [
                    s["session"], s["as"], s["role"], s["cli"], s["model"], s["effort"],
                    s["turns"], s["dispatches"], fmt_s(s["wall_s"])]))
    for s in v["other_sessions"]:
        rows.append(["-", "-", "-", "-", "-", s["session"], "-", s["role"], s["cli"], s["model"],
                     s["effort"], s["turns"], s["dispatches"], fmt_s(s["wall_s"])])
    return rows


def usage(v: dict[str, Any]) -> list[str]:
    p = v["project"]
    lines = [f"project {p['name'] or '-'}: {p['tasks']} task(s), {p['attempts']} attempt(s),"
             f" {p['sessions']} session(s), {p['turns']} turn(s), {p['dispatches']}"
             f" dispatch(es), {fmt_s(p['wall_s'])} session time"]
    rows = usage_rows(v)
    if rows:
        lines += table(USAGE_HEAD, rows)
    if v["by_model"]:
        lines.append("by CLI / model / effort:")
        lines += table(["cli", "model", "effort", "sessions", "turns", "dispatches", "wall",
                        "attempts", "outcomes"],
                       [[g["cli"], g["model"], g["effort"], g["sessions"], g["turns"],
                         g["dispatches"], fmt_s(g["wall_s"]), g["attempts"],
                         " ".join(f"{k}:{n}" for k, n in g["outcomes"].items())]
                        for g in v["by_model"]])
    return lines


def _pass_cells(g: dict[str, Any]) -> list[Any]:
    return [g["attempts"], g["concluded"], g["integrated"], g["first_pass"], fmt_rate(g["rate"]),
            g["rejections"]]


_PASS_HEAD = ["attempts", "concluded", "integrated", "first pass", "rate", "rejections"]
PASS_HEAD = ["group"] + _PASS_HEAD
STEP_HEAD = ["step", "code", "count"]


def pass_rows(v: dict[str, Any]) -> list[list[Any]]:
    """All attempts, then per CLI/model, then per task type and complexity."""
    return ([["all"] + _pass_cells(v)] + [[g["model"]] + _pass_cells(g) for g in v["by_model"]]
            + [[f"{g['task_type']} {g['complexity']}"] + _pass_cells(g) for g in v["by_type"]])


def step_rows(v: dict[str, Any]) -> list[list[Any]]:
    return [[r["step"], r["code"], r["count"]] for r in v["by_step"]]


def first_pass(v: dict[str, Any]) -> list[str]:
    lines = [f"first-pass rate {fmt_rate(v['rate'])}: {v['first_pass']} of {v['concluded']}"
             f" concluded attempt(s) integrated with no rejection ({v['attempts']} attempt(s),"
             f" {v['verify_runs']} verify run(s), {v['rejections']} rejection(s),"
             f" {v['flaky']} flaky, {v['contract_invalid']} contract problem(s))"]
    if v.get("tests"):
        lines.append(f"tests: {fmt_tests(v['tests'])} (run and passed: each attempt's last"
                     " verify; masked and dropped: over all its verifies)")
    if v["by_step"]:
        lines.append("rejections by step and code:")
        lines += table(STEP_HEAD, step_rows(v))
    sc = v.get("self_check") or {}
    if sc.get("reported"):
        lines.append(f"self-check (the worker's own, never trusted): agreed with the gate"
                     f" {sc['agreed']} of {sc['reported']} ({fmt_rate(sc['rate'])});"
                     f" said passed where the gate failed: {sc['said_passed_gate_failed']}")
    sp = v.get("spot_checks") or {}
    if sp.get("asked"):
        lines.append(f"spot checks: {sp['asked']} asked, {sp['answered']} answered,"
                     f" {sp['flagged']} flagged by you")
    mb = v.get("model_behaviour") or {}
    if mb.get("stopped_early"):
        lines.append(f"model behaviour (not a rejection, not a coordination defect):"
                     f" {mb['stopped_early']} turn(s) ended with the work owed, in"
                     f" {mb['attempts']} attempt(s):")
        lines += table(["model", "stopped early"],
                       [[g["model"], g["stopped_early"]] for g in mb["by_model"]])
    if v["by_model"]:
        lines.append("by CLI / model:")
        lines += table(["model"] + _PASS_HEAD, [[g["model"]] + _pass_cells(g)
                                                for g in v["by_model"]])
    if v["by_type"]:
        lines.append("by task type and complexity:")
        lines += table(["type", "complexity"] + _PASS_HEAD,
                       [[g["task_type"], g["complexity"]] + _pass_cells(g)
                        for g in v["by_type"]])
    return lines


def attention(v: dict[str, Any]) -> list[str]:
    t = v["total"]
    lines = [f"the user was needed {t['count']} time(s), {fmt_s(t['waited_s'])} waited in all,"
             f" {t['open']} still open"]
    if v["by_kind"]:
        lines += table(["kind", "count", "waited", "open"],
                       [[g["kind"], g["count"], fmt_s(g["waited_s"]), g["open"]]
                        for g in v["by_kind"]])
    for field, title in (("task", "per task"), ("session", "per session"), ("day", "per day")):
        groups = v[f"by_{field}"]
        if groups:
            lines.append(f"{title}:")
            lines += table([field, "count", "waited", "open"],
                           [[g[field], g["count"], fmt_s(g["waited_s"]), g["open"]]
                            for g in groups])
    if v["items"]:
        lines.append("every time:")
        lines += table(ATTENTION_HEAD, attention_rows(v))
    return lines


ATTENTION_HEAD = ["kind", "ref", "task", "session", "waited", "state"]


def attention_rows(v: dict[str, Any]) -> list[list[Any]]:
    return [[i["kind"], i["ref"], i["task"], i["session"], fmt_s(i["waited_s"]), i["state"]]
            for i in v["items"]]


def _score_cells(g: dict[str, Any]) -> list[Any]:
    dist = {d: " ".join(str(g[d][str(n)]) for n in range(4)) for d in ("boundary", "taste")}
    lines = ("-" if g["lines_added"] is None
             else f"+{g['lines_added']}/-{g['lines_removed']}")
    return [g["n"], dist["boundary"], fmt_mean(g["boundary_mean"]), dist["taste"],
            fmt_mean(g["taste_mean"]), fmt_mean(g["rounds_mean"]), fmt_s(g["wall_s_mean"]),
            g["rejections"], lines]


_SCORE_HEAD = ["n", "boundary 0 1 2 3", "mean", "taste 0 1 2 3", "mean", "rounds", "wall",
               "rejections", "lines"]


SCORE_HEAD = ["group"] + _SCORE_HEAD


def score_rows(v: dict[str, Any]) -> list[list[Any]]:
    return ([["all"] + _score_cells(v["all"])]
            + [[g["model"]] + _score_cells(g) for g in v["by_model"]]
            + [[f"type {g['task_type']}"] + _score_cells(g) for g in v["by_type"]])


def scores(v: dict[str, Any]) -> list[str]:
    lines = ["scored: " + (", ".join(f"{k} {n}" for k, n in v["outcomes"].items()) or "none")]
    return lines + table(SCORE_HEAD, score_rows(v))


TASKS_HEAD = ["task", "type", "size", "outcome", "attempts", "rounds", "rejections", "wall",
              "waiting", "interventions", "tests", "writers"]


def fmt_tests(t: dict[str, int] | None) -> str:
    """`passed/run`, then the masked and dropped ones when there are any."""
    if not t:
        return "-"
    more = [f"{t[k]} {k}" for k in ("masked", "dropped") if t.get(k)]
    return ", ".join([f"{t['passed']}/{t['run']} passed", *more])


def task_rows(v: list[dict[str, Any]]) -> list[list[Any]]:
    return [[t["task"], t["task_type"], t["complexity"], t["outcome"], t["attempts"],
             t["rounds"], t["rejections"], fmt_s(t["wall_s"]), fmt_s(t["waiting_s"]),
             t["interventions"], fmt_tests(t.get("tests")), ", ".join(t["writers"]) or "-"]
            for t in v]


def tasks(v: list[dict[str, Any]]) -> list[str]:
    return table(TASKS_HEAD, task_rows(v)) if v else ["no task in this period"]


TITLES = {"usage": "model usage", "first-pass": "first pass and rejections",
          "attention": "attention", "scores": "scores", "tasks": "per task (fair comparison)"}
RENDER = {"usage": usage, "first-pass": first_pass, "attention": attention, "scores": scores,
          "tasks": tasks}
