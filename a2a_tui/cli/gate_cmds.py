"""The gate's commands: claim, submit, verify, log, integrate, abandon, reclaim (cards:
card_cmds.py)."""

# Imports inside functions: each command imports what it runs when it runs (a2a's start-up:
# tests/test_startup.py, bench/bench_cli.py).

from __future__ import annotations

import signal
import sys

from a2a_tui import gate
from a2a_tui.cli.output import Result
from a2a_tui.gate.model import parse_scores
from a2a_tui.gate.roles import require_role
from a2a_tui.gate.verification.logs import find_log, read_log
from a2a_tui.gate.views import output_tail


def _writer(ctx, value: str | None) -> str | None:
    if value is None:
        return None
    if value == "user" or value.startswith("session:"):
        return value
    return f"session:{value}"


def cmd_claim(ctx, args) -> Result:
    r = gate.claim(ctx.gate, args.card, writer=_writer(ctx, args.writer),
                   supersede=args.supersede, force=args.force, again=args.again)
    text = (f"claimed {r.card} as {r.attempt} (fence {r.fence}, card v{r.card_version})\n"
            f"  worktree {r.worktree}\n  branch   {r.branch} from {r.start_commit[:12]}\n"
            f"  writer   {r.writer}")
    if r.superseded:
        text += f"\n  superseded {', '.join(r.superseded)}"
    return Result(r.to_json(), text, rules="claim")


def cmd_submit(ctx, args) -> Result:
    from a2a_tui.gate.attempts.selfcheck import self_check

    told = self_check(args.self_check, args.self_check_saw, args.self_check_note)
    r = gate.submit(ctx.gate, args.attempt, args.sha, args.card_version, args.fence,
                    unresolved=args.unresolved, self_check=told)
    return Result(r.to_json(), f"submitted {r.sha} as candidate {r.submission} of {r.attempt}"
                  + "".join(f"\n  open: {item}" for item in r.unresolved), rules="submit")


def cmd_verify(ctx, args) -> Result:
    from a2a_tui.gate.attempts.openitems import of_attempt
    from a2a_tui.gate.verification.interrupt import VerifyInterrupted, interruptible, output_closed

    # Checked here, at the command's entry: verify.py runs the chain for whoever may start it.
    require_role(ctx.gate, "verify", attempt=ctx.gate.attempt(args.attempt))
    quiet = getattr(args, "json", False)

    def progress(name, res):
        if quiet:
            return
        if res is None:
            line = f"  … {name}"
        else:
            mark = "ok  " if res.passed else ("skip" if res.skipped else
                                              "FAIL" if res.blocking else "warn")
            line = f"  {mark} {name} ({res.duration_s:.2f}s) {res.detail}"
            if not res.passed and not res.skipped:
                line += "\n" + failure_text(res.stdout_tail, res.stderr_tail, res.log_path)
        try:
            print(line, file=sys.stderr, flush=True)
        except BrokenPipeError:  # `a2a verify X 2>&1 | head`: the reader is gone
            raise VerifyInterrupted("output closed", signal.SIGPIPE) from None

    with interruptible():
        v = gate.verify(ctx.gate, args.attempt, progress=progress, cancel=output_closed)
    unresolved = of_attempt(ctx.store, v.attempt)
    for w in v.gate_rules.get("warnings", []):
        print(f"a2a: warning: {w}", file=sys.stderr)
    data = {"attempt": v.attempt, "run": v.run, "sha": v.sha, "card_version": v.card_version,
            "verdict": v.verdict, "passed": v.passed, "gate_rules": v.gate_rules,
            "unresolved": unresolved, "checks": [r.to_json() for r in v.results],
            "confinement": v.confinement}
    first = v.first_failure()
    word = {"passed": "PASSED", "rejected": "REJECTED", "flaky": "FLAKY (unknown)",
            "contract_invalid": "CONTRACT INVALID (the card's problem)",
            "commit_missing": "UNKNOWN (the submitted commit is missing)"}[v.verdict]
    room = v.confinement
    if room and not room.get("confined", True):
        word += " (UNCONFINED: the checks ran the candidate's code as you)"
    text = (f"{word}: {v.attempt} at {v.sha[:12]} (run {v.run})"
            + (f"; first failure: {first.name}: {first.detail}" if first else "")
            + (f"\n  log: {first.log_path} (`a2a log {v.attempt} {first.name}`)"
               if first and first.log_path else "")
            + (f"; flaky: {', '.join(v.flaky_checks())}" if v.verdict == "flaky" else "")
            + "".join(f"\n  open (from the worker): {item}" for item in unresolved))
    return Result(data, text, rules="verify", exit_code=0 if v.passed else 1)


def failure_text(stdout: str, stderr: str, log_path: str | None, lines: int = 10) -> str:
    """A failed check's last output lines and where its whole log is, indented under it."""
    out = [f"       | {ln}" for ln in output_tail(stdout, stderr, lines)]
    out.append(f"       log: {log_path}" if log_path else "       (no log: a structural check)")
    return "\n".join(out)


def cmd_log(ctx, args) -> Result:
    found = find_log(ctx.store, args.attempt, args.check, args.run)
    text, cut = read_log(found.path)
    data = {"attempt": found.attempt, "run": found.run, "check": found.check,
            "passed": found.passed, "log": str(found.path), "truncated": cut, "text": text}
    if not getattr(args, "json", False):
        # Which log this is goes to stderr: stdout stays the log itself, for a pipe.
        print(f"# {found.attempt} run {found.run} · {found.check}"
              f" ({'passed' if found.passed else 'failed'}) · {found.path}"
              + (" · cut to its end" if cut else ""), file=sys.stderr, flush=True)
    return Result(data, text.rstrip("\n"))


def cmd_integrate(ctx, args) -> Result:
    from a2a_tui.gate.attempts.openitems import of_attempt

    # No scores: asked by the gate once the attempt can be integrated (an attempt that is not
    # verified says so first); scores given are checked here.
    score = parse_scores(args.score) if args.score else None
    r = gate.integrate(ctx.gate, args.attempt, score)
    unresolved = of_attempt(ctx.store, r.attempt)
    return Result({**r.to_json(), "unresolved": unresolved},
                  f"integrated {r.attempt}: {r.target} {r.old[:12]} -> {r.new[:12]}"
                  + ("" if r.worktree_synced in (None, True)
                     else f" (worktree: {r.worktree_synced})")
                  + "".join(f"\n  open (from the worker): {item}" for item in unresolved),
                  rules="integrate")


def cmd_abandon(ctx, args) -> Result:
    score = parse_scores(args.score) if args.score else None   # none: an untouched attempt
    r = gate.abandon(ctx.gate, args.attempt, score, args.reason, force=args.force)
    return Result(r.to_json(), f"abandoned {r.attempt}", rules="abandon")


def cmd_reclaim(ctx, args) -> Result:
    rows = gate.reclaim(ctx.gate, args.attempt, force=args.force)
    lines = []
    for r in rows:
        line = f"{r.attempt}: worktree {r.worktree_state}"
        if r.kept_ref:
            line += f"; commit {(r.kept_sha or '')[:12]} kept at {r.kept_ref}"
        if r.reason:
            line += f" ({r.reason})"
        lines.append(line)
    return Result({"reclaimed": [r.to_json() for r in rows]}, "\n".join(lines)
                  or "nothing to reclaim", rules="reclaim")


def cmd_lease(ctx, args) -> Result:
    import time

    from a2a_tui.gate.attempts import leases
    from a2a_tui.gate.cards.gate_rules import load

    if args.renew:
        lease = leases.renew(ctx.gate, args.attempt, args.reason)
    else:
        require_role(ctx.gate, "lease", attempt=ctx.gate.attempt(args.attempt))
        lease = leases.lease_of(ctx.store, ctx.gate.attempt(args.attempt),
                                load(ctx.gate).rules.lease_s)

    def at(ns: int) -> str:
        return time.strftime("%H:%M:%S", time.localtime(ns / 1e9))

    state = (f"isolated since event #{lease.isolated_seq}" if lease.isolated_seq else
             f"expires {at(lease.expires_ns)}" if lease.expires_ns else "not running")
    return Result(lease.to_json(), f"{lease.attempt}: last report from {lease.writer} at"
                  f" {at(lease.last_report_ns)}; {state}")


def cmd_spot_check(ctx, args) -> Result:
    from a2a_tui.gate.integration.spotchecks import answer

    r = answer(ctx.gate, args.attempt, flag=args.verdict == "flagged", reason=args.reason)
    return Result(r.to_json(), f"spot check of {r.attempt}: {r.verdict} ({r.user_input})")
