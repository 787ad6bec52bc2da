"""Metrics, computed on demand from the raw event log only (never from projections).

Four views: model usage (project -> task -> session), first-pass rate and rejection reasons,
attention (where the user was called back), score distribution.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from a2a_tui.store import Event, Store

TURN_END = ("stop",)
ATTENTION_KINDS = {
    "user_input": "user inputs",
    "human_intervention": "human interventions",
    "pane_released": "manual releases",
}


def compute(store: Store) -> dict[str, Any]:
    """All four views from one pass over the events."""
    task_of: dict[str, str] = {}          # attempt -> card
    sessions: dict[str, dict[str, Any]] = {}
    turns: Counter[str] = Counter()
    first_run: dict[str, bool] = {}       # attempt -> first verify passed?
    reasons: Counter[str] = Counter()
    verify_runs: Counter[str] = Counter()
    scores: dict[str, Counter[int]] = {"boundary": Counter(), "taste": Counter()}
    outcomes: Counter[str] = Counter()
    attention: dict[str, Counter[str]] = defaultdict(Counter)
    questions = 0

    for e in _all(store):
        p = e.payload
        if e.kind == "claimed" and e.attempt and e.task:
            task_of[e.attempt] = e.task
        elif e.kind == "session_launching" and e.session:
            sessions[e.session] = {"session": e.session, "role": p.get("role"),
                                   "cli": p.get("cli"), "model": p.get("model", ""),
                                   "effort": p.get("effort", ""), "attempt": e.attempt}
        elif e.kind == "writer_bound" and e.session and e.session in sessions:
            sessions[e.session]["attempt"] = e.attempt
        elif e.kind == "signal" and e.session and p.get("kind") in TURN_END:
            turns[e.session] += 1
        elif e.kind == "signal" and p.get("kind") == "waiting":
            attention[_where(e, task_of)]["permission waits"] += 1
        elif e.kind in ("verified", "rejected") and e.attempt:
            verify_runs[e.attempt] += 1
            first_run.setdefault(e.attempt, e.kind == "verified")
            if e.kind == "rejected":
                reasons[p.get("first_failure") or "unknown"] += 1
        elif e.kind in ("integrated", "abandoned") and e.attempt:
            outcomes[e.kind] += 1
            score = p.get("score") or {}
            for dim in ("boundary", "taste"):
                if dim in score:
                    scores[dim][int(score[dim])] += 1
        elif e.kind in ATTENTION_KINDS:
            attention[_where(e, task_of)][ATTENTION_KINDS[e.kind]] += 1
        elif e.kind == "board_item_posted" and p.get("kind") == "question":
            questions += 1
            attention[_where(e, task_of)]["board questions"] += 1

    usage: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for s in sessions.values():
        task = task_of.get(s["attempt"] or "", "(no task)")
        usage[task].append({**s, "turns": turns[s["session"]]})
    verified = len(first_run)
    passed_first = sum(1 for ok in first_run.values() if ok)
    return {
        "model_usage": {"project": {task: rows for task, rows in sorted(usage.items())}},
        "first_pass": {
            "attempts_verified": verified, "passed_first_time": passed_first,
            "rate": round(passed_first / verified, 3) if verified else None,
            "verify_runs": sum(verify_runs.values()),
            "rejection_reasons": dict(reasons.most_common()),
        },
        "attention": {
            "total": {k: sum(c[k] for c in attention.values())
                      for k in sorted({k for c in attention.values() for k in c})},
            "by_task": {t: dict(c) for t, c in sorted(attention.items())},
            "board_questions": questions,
        },
        "scores": {
            "outcomes": dict(outcomes),
            "boundary": {str(n): scores["boundary"][n] for n in range(4)},
            "taste": {str(n): scores["taste"][n] for n in range(4)},
        },
    }


def _all(store: Store, batch: int = 5000):
    after = 0
    while True:
        chunk = store.events(after=after, limit=batch)
        if not chunk:
            return
        yield from chunk
        after = chunk[-1].seq


def _where(e: Event, task_of: dict[str, str]) -> str:
    if e.task:
        return e.task
    if e.attempt and e.attempt in task_of:
        return task_of[e.attempt]
    return "(no task)"


def render(m: dict[str, Any]) -> str:
    lines = ["model usage (task -> session):"]
    for task, rows in m["model_usage"]["project"].items():
        lines.append(f"  {task}")
        for r in rows:
            lines.append(f"    {r['session']:<12} {r['role'] or '':<10} {r['cli'] or '':<7}"
                         f" {r['model'] or '-':<16} {r['effort'] or '-':<7} {r['turns']} turn(s)")
    fp = m["first_pass"]
    rate = "-" if fp["rate"] is None else f"{fp['rate']:.0%}"
    lines.append(f"first-pass rate: {rate} ({fp['passed_first_time']}/{fp['attempts_verified']}"
                 f" attempts, {fp['verify_runs']} verify runs)")
    for reason, n in fp["rejection_reasons"].items():
        lines.append(f"  rejected at {reason}: {n}")
    lines.append("attention:")
    for k, n in m["attention"]["total"].items():
        lines.append(f"  {k}: {n}")
    for task, c in m["attention"]["by_task"].items():
        lines.append(f"  {task}: " + ", ".join(f"{k} {n}" for k, n in sorted(c.items())))
    sc = m["scores"]
    lines.append("scores: " + ", ".join(f"{k} {n}" for k, n in sc["outcomes"].items()))
    for dim in ("boundary", "taste"):
        lines.append(f"  {dim:<8} " + "  ".join(f"{n}:{c}" for n, c in sc[dim].items()))
    return "\n".join(lines)
