"""review start|verdict|dispose|override|show, approve."""

# Imports inside functions: each command imports what it runs when it runs (a2a's start-up:
# tests/test_startup.py, bench/bench_cli.py).

from __future__ import annotations

from a2a_tui.cli.output import Result
from a2a_tui.errors import A2AError

REVIEW_COMMANDS = ("start", "verdict", "dispose", "override", "show")
NEW_FORM = ("the verdict is now a report: `a2a review verdict ATTEMPT --sha SHA --file REPORT.md`"
            " (Markdown ending in a ```verdict block; `a2a rules review verdict`)")


def naming_the_new_form(base: type) -> type:
    """A parser class for `a2a review` that answers the form before reports (`a2a review ATTEMPT
    --verdict ...`) by naming what replaced it, rather than argparse's "invalid choice"."""

    class ReviewParser(base):  # type: ignore[misc, valid-type]
        def parse_known_args(self, args=None, namespace=None):
            args = list(args or [])
            # The first word that is neither an option nor --repo's value names the command.
            word = next((a for i, a in enumerate(args) if not a.startswith("-")
                         and (i == 0 or args[i - 1] != "--repo")), None)
            if word is not None and word not in REVIEW_COMMANDS:
                raise A2AError("usage", f"a2a review: no command {word!r}"
                               f" ({', '.join(REVIEW_COMMANDS)}); {NEW_FORM}", exit_code=2)
            return super().parse_known_args(args, namespace)

    return ReviewParser


def cmd_start(ctx, args) -> Result:
    from a2a_tui import settings
    from a2a_tui.queue import wake
    from a2a_tui.spawn import spawn_reviewer
    from a2a_tui.tmux import socket_from_env

    # The options your config gives a reviewer on this CLI ([clis.<cli>], [roles.reviewer]);
    # a config that does not load stops no review (none are passed).
    try:
        options = settings.load(ctx.repo.config_path).launch("reviewer", args.cli).options
    except A2AError:
        options = ()
    r = spawn_reviewer(ctx.gate, args.attempt, cli=args.cli, model=args.model,
                       effort=args.effort, tmux_socket=socket_from_env(args.tmux_socket),
                       extra=options)
    wake(ctx.repo)
    which = "first review" if r.round == 0 else f"follow-up round {r.round}"
    return Result(r.to_json(), f"review {r.review} ({which}) of {r.attempt} at {r.sha[:12]}:"
                  f" session {r.session} (pane {r.pane}) in {r.checkout}, read-only;"
                  f" its prompt is #{r.dispatch}; the report goes to {r.report}",
                  rules="review start")


def cmd_verdict(ctx, args) -> Result:
    from a2a_tui import gate

    r = gate.review(ctx.gate, args.attempt, args.sha, args.file)
    issues = f" ({', '.join(r.blocking_issues)})" if r.blocking_issues else ""
    return Result(r.to_json(), f"review {r.review} of {r.attempt} at {r.sha[:12]}:"
                  f" {r.verdict}{issues} (advice)", rules="review verdict")


def cmd_dispose(ctx, args) -> Result:
    from a2a_tui.gate.reviews.dispositions import dispose
    from a2a_tui.queue import wake

    r = dispose(ctx.gate, args.attempt, args.issue, args.decision, args.reason)
    if r.feedback and r.feedback.sent:
        wake(ctx.repo)
    return Result(r.to_json(), f"{r.issue} of {r.attempt} at {r.sha[:12]}: {r.decision}"
                  + (f" ({r.user_input})" if r.user_input else ""), rules="review dispose")


def cmd_override(ctx, args) -> Result:
    from a2a_tui.gate.reviews.dispositions import override

    r = override(ctx.gate, args.attempt, args.reason)
    return Result(r.to_json(), f"the review of {r.attempt} at {r.sha[:12]} is overridden"
                  f" ({r.user_input})", rules="review override")


def cmd_show(ctx, args) -> Result:
    from a2a_tui.gate.reviews.views import review_state

    st = review_state(ctx.store, args.attempt)
    return Result(st.to_json(), "\n".join(show_lines(st)))


def cmd_approve(ctx, args) -> Result:
    import time

    from a2a_tui.config import duration_s
    from a2a_tui.errors import A2AError
    from a2a_tui.gate.reviews.approvals import approve, revoke

    if args.revoke:
        if args.valid_for is not None:
            raise A2AError("usage", "--valid-for is for an approval, not a revocation",
                           exit_code=2)
        v = revoke(ctx.gate, args.attempt, args.reason)
        return Result(v.to_json(), f"revoked approval {v.revoked} of {v.attempt} ({v.user_input})",
                      rules="approve")
    valid = None
    if args.valid_for is not None:
        valid = duration_s(args.valid_for)
        if not valid:
            raise A2AError("usage", f"--valid-for {args.valid_for!r}: give a duration (90s,"
                           " 30m, 12h, 7d)", exit_code=2)
    r = approve(ctx.gate, args.attempt, valid_for_s=valid)
    note = "" if r.required else " (the card does not ask for it)"
    until = time.strftime("%Y-%m-%d %H:%M", time.localtime(r.expires_ns / 1e9))
    return Result(r.to_json(), f"approval {r.approval} ({r.user_input}): integrate {r.attempt}"
                  f" at {r.sha[:12]} into {r.target_branch}, card v{r.card_version}, evidence"
                  f" {r.evidence[:19]}, valid until {until}{note}", rules="approve")


def show_lines(st) -> list[str]:
    needs = [w for w, on in (("review required", st.review_required),
                             ("the user's approval", st.approval_required)) if on]
    lines = [f"{st.attempt} ({st.attempt_state})"
             + (f" at {st.sha[:12]}, submission {st.submission}" if st.sha else "")
             + f" · card {st.card}: {', '.join(needs) or 'no review or approval required'}"]
    lines += [f"  review {r.id}: round {r.round}, {r.sha[:12]}, {r.state}"
              + (f" {r.verdict}" if r.verdict else "") + (f" ({r.session})" if r.session else "")
              + (" · recommends a follow-up" if r.follow_up else "") for r in st.runs]
    lines += [f"  issue {i.id}: {i.decision or 'not disposed of'} · {i.title} ·"
              f" {', '.join(i.evidence)}" + (f" · {i.by}: {i.reason}" if i.reason else "")
              for i in st.issues]
    if st.override:
        lines.append(f"  overridden by the user: {st.override}")
    lines += [f"  approval {a.id}: {a.state}" + (f" ({a.why})" if a.why else "")
              for a in st.approvals]
    lines.append("  integrate: " + (f"{st.blocked[0]}: {st.blocked[1]}" if st.blocked
                                    else "nothing in the review or approval stops it"))
    return lines
