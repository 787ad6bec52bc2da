"""The views, each a fold of one `History` into the JSON document `a2a metrics --json` prints.

model usage, first pass and rejections, attention, scores, and per task the figures a fair
comparison of ways of working needs (seed 001: rounds, wall time, waiting, rework, the user's
interventions); `series_json` gives the workbench's charts.

A JSON edge by contract: each view's document is what `a2a metrics --json` prints and a
retrospective's prompt quotes, and the text tables (tables.py) and the workbench's metrics
screen render that same document, so what a script reads and what a person sees cannot drift.
The typed records are below it (metrics/records.py: `History`, `Attempt`, `Session`, ...).
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from a2a_tui.jsontypes import JsonObject
from a2a_tui.metrics.history import NO_TASK, Attempt, History, Session, model_label
from a2a_tui.states import AttemptState, SelfCheck

ATTENTION_KINDS = ("question", "permission", "release", "intervention", "feedback_stop",
                   "stall", "unknown", "approval", "divergence")


def _s(x: float | None) -> float | None:
    return None if x is None else round(x, 3)


def _rate(n: int, d: int) -> float | None:
    return round(n / d, 3) if d else None


def _mean(xs: list[float]) -> float | None:
    return round(sum(xs) / len(xs), 3) if xs else None


def day(ts_ns: int) -> str:
    """The local calendar day of an instant."""
    return time.strftime("%Y-%m-%d", time.localtime(ts_ns / 1e9))


def writer_label(h: History, a: Attempt) -> str:
    s = h.writer_of(a)
    return s.label if s else model_label(None, None, None)


def _by_task(h: History) -> dict[str, list[Attempt]]:
    out: dict[str, list[Attempt]] = defaultdict(list)
    for a in sorted(h.attempts.values(), key=lambda a: a.seq):
        out[a.task].append(a)
    return out


# --- model usage -----------------------------------------------------------------------------

def _session_json(s: Session, serving: str) -> JsonObject:
    return {"session": s.id, "role": s.role, "as": serving, "cli": s.cli, "model": s.model,
            "effort": s.effort, "turns": s.turns, "dispatches": s.dispatches,
            "wall_s": _s(s.wall_s), "relaunch": s.relaunch}


def usage_json(h: History) -> JsonObject:
    """project -> task -> attempt -> session, and the totals per CLI/model/effort."""
    tasks, serving_ids = [], set()
    for task, attempts in _by_task(h).items():
        rows = []
        for a in attempts:
            sessions = []
            for sid, what in [(a.writer, "writer"), *((k, ", ".join(v))
                                                      for k, v in a.served.items())]:
                if sid and sid in h.sessions:
                    sessions.append(_session_json(h.sessions[sid], what))
                    serving_ids.add(sid)
            rows.append({"attempt": a.id, "outcome": a.outcome or "open", "rounds": a.rounds,
                         "wall_s": _s(a.wall_s), "writer": writer_label(h, a),
                         "sessions": sessions})
        tasks.append({"task": task, "title": h.card(task).title, "attempts": rows})
    other = [_session_json(s, "") for s in h.sessions.values() if s.id not in serving_ids]

    groups: dict[tuple[str, str, str], JsonObject] = {}

    def group_json(cli: str, model: str, effort: str) -> JsonObject:
        return groups.setdefault((cli, model, effort), {
            "cli": cli, "model": model, "effort": effort, "sessions": 0, "turns": 0,
            "dispatches": 0, "wall_s": 0.0, "attempts": 0, "outcomes": Counter()})

    for s in h.sessions.values():
        g = group_json(s.cli, s.model, s.effort)
        g["sessions"] += 1
        g["turns"] += s.turns
        g["dispatches"] += s.dispatches
        g["wall_s"] += s.wall_s or 0.0
    for a in h.attempts.values():
        w = h.writer_of(a)
        g = group_json(w.cli, w.model, w.effort) if w else group_json("(user)", "", "")
        g["attempts"] += 1
        g["outcomes"][a.outcome or "open"] += 1
    by_model = [{**g, "wall_s": _s(g["wall_s"]), "outcomes": dict(sorted(g["outcomes"].items()))}
                for _, g in sorted(groups.items())]
    return {
        "project": {"name": h.project, "tasks": len(tasks), "attempts": len(h.attempts),
                    "sessions": len(h.sessions),
                    "turns": sum(s.turns for s in h.sessions.values()),
                    "dispatches": sum(s.dispatches for s in h.sessions.values()),
                    "wall_s": _s(sum(s.wall_s or 0.0 for s in h.sessions.values()))},
        "tasks": tasks,
        "other_sessions": other,
        "by_model": by_model,
    }


# --- first pass and rejections ------------------------------------------------------------------

def _pass_json(attempts: list[Attempt]) -> JsonObject:
    concluded = [a for a in attempts if a.concluded]
    first = sum(1 for a in concluded if a.first_pass)
    return {"attempts": len(attempts), "concluded": len(concluded),
            "integrated": sum(1 for a in concluded if a.outcome == AttemptState.INTEGRATED),
            "first_pass": first, "rate": _rate(first, len(concluded)),
            "rejections": sum(len(a.rejections) for a in attempts),
            # the model's behaviour, beside (never among) the rejections (seed 003 四)
            "stopped_early": sum(len(a.stopped_early) for a in attempts)}


def model_behaviour_json(attempts: Iterable[Attempt]) -> JsonObject:
    """Turns a writer ended with its work owed (no question, no error): the model's behaviour,
    counted per CLI/model/effort apart from the coordination's defects (seed 003 四)."""
    per = Counter(label for a in attempts for label in a.stopped_early)
    return {"stopped_early": sum(per.values()),
            "attempts": sum(1 for a in attempts if a.stopped_early),
            "by_model": [{"model": m, "stopped_early": n} for m, n in sorted(per.items())]}


def _grouped_json(attempts: Iterable[Attempt], key: Callable[[Attempt], tuple[str, ...]],
             names: tuple[str, ...], row: Callable[[list[Attempt]], JsonObject]
             ) -> list[JsonObject]:
    groups: dict[tuple[str, ...], list[Attempt]] = defaultdict(list)
    for a in attempts:
        groups[key(a)].append(a)
    return [{**dict(zip(names, k, strict=True)), **row(v)} for k, v in sorted(groups.items())]


def test_counts(attempts: Iterable[Attempt]) -> dict[str, int] | None:
    """Tests run and passed (each attempt's last verify that reported tests), masked and dropped
    (over all its runs), summed; None when no attempt's verify reported tests."""
    found = [a.tests for a in attempts if a.tests is not None]
    if not found:
        return None
    return {k: sum(t[k] for t in found) for k in ("run", "passed", "masked", "dropped")}


def _agreement_json(pairs: list[tuple[str, str]]) -> JsonObject:
    agreed = sum(1 for said, gate in pairs if said == gate)
    return {"reported": len(pairs), "agreed": agreed, "rate": _rate(agreed, len(pairs)),
            "said_passed_gate_failed": sum(
                1 for said, gate in pairs if said == SelfCheck.PASSED and gate == SelfCheck.FAILED)}


def self_checks_json(h: History, attempts: list[Attempt]) -> JsonObject:
    """How often a writer's own check (`submit --self-check`) agreed with the gate's first
    verdict on that submission, overall and per CLI/model (seed 004 4.2: kept, never trusted)."""
    per: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for a in attempts:
        per[writer_label(h, a)] += a.self_checks
    return {**_agreement_json([p for a in attempts for p in a.self_checks]),
            "by_model": [{"model": m, **_agreement_json(v)} for m, v in sorted(per.items()) if v]}


def _spot_json(attempts: list[Attempt]) -> JsonObject:
    asked = [a for a in attempts if a.spot_check]
    flagged = sum(1 for a in asked if a.spot_check == "flagged")
    answered = sum(1 for a in asked if a.spot_check != "asked")
    return {"asked": len(asked), "answered": answered, "flagged": flagged,
            "rate": _rate(flagged, answered)}


def spot_checks_json(h: History, attempts: list[Attempt]) -> JsonObject:
    """Integrations the user was asked to re-check (every Nth, seed 004 5.4), answered, and
    flagged: the gate let something through a person would not have; per CLI/model."""
    asked = [a for a in attempts if a.spot_check]
    return {**_spot_json(asked),
            "by_model": _grouped_json(asked, lambda a: (writer_label(h, a),), ("model",),
                                      _spot_json)}


def first_pass_json(h: History) -> JsonObject:
    """Share of concluded attempts integrated with no rejection; rejections by step and code;
    the tests their verifies ran, passed, masked and dropped."""
    attempts = list(h.attempts.values())
    steps = Counter((r.step, r.code) for a in attempts for r in a.rejections)
    return {
        **_pass_json(attempts),
        "tests": test_counts(attempts),
        "verify_runs": sum(a.verify_runs for a in attempts),
        "flaky": sum(a.flaky for a in attempts),
        "contract_invalid": sum(a.contract_invalid for a in attempts),
        "model_behaviour": model_behaviour_json(attempts),
        "self_check": self_checks_json(h, attempts),
        "spot_checks": spot_checks_json(h, attempts),
        "by_step": [{"step": s, "code": c, "count": n}
                    for (s, c), n in sorted(steps.items(), key=lambda kv: (-kv[1], kv[0]))],
        "by_model": _grouped_json(attempts, lambda a: (writer_label(h, a),), ("model",),
                                  _pass_json),
        "by_type": _grouped_json(attempts, lambda a: (h.card(a.task).task_type,
                                                      h.card(a.task).complexity),
                                 ("task_type", "complexity"), _pass_json),
    }


# --- attention ---------------------------------------------------------------------------------

def _sum_json(items: list[JsonObject]) -> JsonObject:
    waits = [i["waited_s"] for i in items if i["waited_s"] is not None]
    return {"count": len(items), "waited_s": _s(sum(waits)) if waits else 0.0,
            "open": sum(1 for i in items if i["state"] == "open")}


def _attention_groups_json(items: list[JsonObject], field: str) -> list[JsonObject]:
    groups: dict[str, list[JsonObject]] = defaultdict(list)
    for i in items:
        groups[i[field] or "(none)"].append(i)
    return [{field: k, **_sum_json(v), "kinds": dict(sorted(Counter(i["kind"] for i in v).items()))}
            for k, v in sorted(groups.items())]


def attention_json(h: History) -> JsonObject:
    """Every time the user was needed, how long it waited, per kind, task, session and day."""
    items = [{"kind": i.kind, "ref": i.ref, "task": h.task_of(i), "attempt": i.attempt,
              "session": i.session, "asked_ns": i.asked_ns, "acted_ns": i.acted_ns,
              "waited_s": _s(i.waited_s), "state": i.state, "day": day(i.asked_ns)}
             for i in h.attention]
    by_kind = [{"kind": k, **_sum_json([i for i in items if i["kind"] == k])}
               for k in ATTENTION_KINDS if any(i["kind"] == k for i in items)]
    return {"total": _sum_json(items), "by_kind": by_kind,
            "by_task": _attention_groups_json(items, "task"),
            "by_session": _attention_groups_json(items, "session"),
            "by_day": [{k: v for k, v in g.items() if k != "kinds"}
                       for g in _attention_groups_json(items, "day")],
            "items": items}


# --- scores ------------------------------------------------------------------------------------

def _score_json(attempts: list[Attempt]) -> JsonObject:
    out: JsonObject = {"n": len(attempts)}
    for dim in ("boundary", "taste"):
        vals = [int(a.score[dim]) for a in attempts if a.score and dim in a.score]
        out[dim] = {str(n): vals.count(n) for n in range(4)}
        out[f"{dim}_mean"] = _mean(vals)
    lines = [a.lines for a in attempts if a.lines is not None]
    out.update({
        "rounds_mean": _mean([a.rounds for a in attempts]),
        "wall_s_mean": _mean([a.wall_s for a in attempts if a.wall_s is not None]),
        "rejections": sum(len(a.rejections) for a in attempts),
        "lines_added": sum(x[0] for x in lines) if lines else None,
        "lines_removed": sum(x[1] for x in lines) if lines else None,
    })
    return out


def scores_json(h: History) -> JsonObject:
    """Boundary and taste (0-3) by CLI/model and by task type, beside the objective fields."""
    scored = [a for a in h.attempts.values() if a.score is not None]
    return {"outcomes": dict(sorted(Counter(a.outcome or "open" for a in scored).items())),
            "all": _score_json(scored),
            "by_model": _grouped_json(scored, lambda a: (writer_label(h, a),), ("model",),
                                      _score_json),
            "by_type": _grouped_json(scored, lambda a: (h.card(a.task).task_type,),
                                     ("task_type",), _score_json)}


# --- per task: the fair-comparison figures -------------------------------------------------------

def tasks_json(h: History) -> list[JsonObject]:
    """Per task: outcome, rework (attempts), rounds, wall time, time waiting on the user, the
    user's interventions, who wrote it, and the tests its verifies ran, passed, masked and
    dropped."""
    waits: dict[str, list[float]] = defaultdict(list)
    interventions: Counter[str] = Counter()
    for i in h.attention:
        t = h.task_of(i)
        if i.waited_s is not None:
            waits[t].append(i.waited_s)
        if i.kind == "intervention":
            interventions[t] += 1
    out = []
    for task, attempts in _by_task(h).items():
        card = h.card(task)
        open_ = any(a.outcome in (None, AttemptState.UNKNOWN) for a in attempts)
        ends = [a.ended_ns for a in attempts if a.ended_ns is not None]
        outcome = (AttemptState.INTEGRATED
                   if any(a.outcome == AttemptState.INTEGRATED for a in attempts)
                   else "open" if open_ else attempts[-1].outcome or "open")
        out.append({
            "task": task, "title": card.title, "task_type": card.task_type,
            "complexity": card.complexity, "outcome": outcome, "attempts": len(attempts),
            "rounds": sum(a.rounds for a in attempts),
            "rejections": sum(len(a.rejections) for a in attempts),
            "wall_s": None if open_ or not ends else _s((max(ends) - attempts[0].claimed_ns) / 1e9),
            "waiting_s": _s(sum(waits[task])) if waits[task] else 0.0,
            "interventions": interventions[task],
            "writers": sorted({writer_label(h, a) for a in attempts}),
            "tests": test_counts(attempts),
        })
    if waits[NO_TASK] or interventions[NO_TASK]:
        out.append({"task": NO_TASK, "title": "", "task_type": "", "complexity": "",
                    "outcome": "", "attempts": 0, "rounds": 0, "rejections": 0, "wall_s": None,
                    "waiting_s": _s(sum(waits[NO_TASK])), "interventions": interventions[NO_TASK],
                    "writers": [], "tests": None})
    return out


# --- chart series --------------------------------------------------------------------------------

def series_json(h: History) -> JsonObject:
    """What the workbench draws: first-pass rate per day, rejections per step, attention per day,
    mean scores per model."""
    per_day: dict[str, list[Attempt]] = defaultdict(list)
    for a in h.attempts.values():
        if a.concluded and a.ended_ns is not None:
            per_day[day(a.ended_ns)].append(a)
    seen = attention_json(h)
    sc = scores_json(h)
    return {
        "first_pass_by_day": [{"day": d, **_pass_json(v)} for d, v in sorted(per_day.items())],
        "rejections_by_step": [
            {"step": s, "count": n} for s, n in sorted(
                Counter(r.step for a in h.attempts.values() for r in a.rejections).items(),
                key=lambda kv: (-kv[1], kv[0]))],
        "attention_by_day": seen["by_day"],
        "scores_by_model": [{k: g[k] for k in ("model", "n", "boundary_mean", "taste_mean")}
                            for g in sc["by_model"]],
    }


VIEWS: dict[str, Callable[[History], Any]] = {
    "usage": usage_json, "first-pass": first_pass_json, "attention": attention_json,
    "scores": scores_json, "tasks": tasks_json,
}
