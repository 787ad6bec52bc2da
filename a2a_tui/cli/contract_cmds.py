"""The gate's own rules and its escalations: `a2a gate-rules`, `a2a feedback more`."""

# Imports inside functions: each command imports what it runs when it runs (a2a's start-up:
# tests/test_startup.py, bench/bench_cli.py).

from __future__ import annotations

from a2a_tui.cli.output import Result


def cmd_gate_rules(ctx, args) -> Result:
    from a2a_tui.gate.cards import gate_rules

    loaded = gate_rules.current(ctx.gate)
    r = loaded.rules
    data = {**loaded.to_json(), "rules": r.model_dump(mode="json")}
    lines = [f"{loaded.path} ({'present' if loaded.path.exists() else 'absent: defaults'})"
             f"  {loaded.digest[:19]}",
             f"stop at the first blocking failure: {r.stop_at_first_blocking_failure}",
             f"feedback rounds: {r.feedback_rounds}   flaky reruns: {r.flaky_reruns}",
             f"timeouts: default {r.timeouts.default_s}s, max {r.timeouts.max_s}s",
             "steps that block: " + ", ".join(k for k, on in r.steps.model_dump().items() if on),
             "programs: " + ", ".join(r.commands.allow)
             + (" (and the repository's own)" if r.commands.repository else ""),
             "variables passed: " + ", ".join(r.env.allow),
             *(f"threshold {t.name}: {t.check} {'count' if t.count else 'value'}"
               + "".join(f", {w}" for w in (
                   f"at least {t.at_least:g}" if t.at_least is not None else "",
                   f"at most {t.at_most:g}" if t.at_most is not None else "",
                   "no drop" if t.no_drop else "") if w)
               + (", blocks" if t.blocking else ", recorded only") for t in r.thresholds)]
    lines += [f"warning: {w}" for w in loaded.warnings]
    from a2a_tui.collab.rulefiles import diff, pending

    changed = pending(ctx.repo)
    data["pending"] = [{"file": r.label, "digest": r.disk_digest, "diff": diff(r),
                        "weakens": gate_rules.weakened(r)} for r in changed]
    for r, p in zip(changed, data["pending"], strict=True):
        lines += [f"{r.label} changed since you accepted it; not in force until"
                  " `a2a gate-rules accept`:", diff(r).rstrip(),
                  *(f"  weakens: {w}" for w in p["weakens"])]
    return Result(data, "\n".join(lines))


def cmd_gate_rules_accept(ctx, args) -> Result:
    from a2a_tui.gate.cards import gate_rules

    done = gate_rules.accept(ctx.gate)
    text = "\n".join(f"accepted {d['file']} ({d['digest'][:19]}) · {d['user_input']}"
                     + "".join(f"\n  weakens: {w}" for w in d["weakens"])
                     for d in done) or "nothing to accept: the rule files are as in force"
    return Result({"accepted": done}, text)


def cmd_feedback_more(ctx, args) -> Result:
    from a2a_tui.gate.verification.feedback import more_rounds

    r = more_rounds(ctx.gate, args.attempt, args.rounds)
    return Result(r.to_json(), f"{r.attempt}: {r.added} more round(s) of automatic feedback"
                  f" (limit now {r.limit}, {r.rejections} rejection(s) so far) ·"
                  f" {r.user_input}")
