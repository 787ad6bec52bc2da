"""metrics, retro."""

from __future__ import annotations

from a2a_tui.cli.output import Result


def register(sub, common) -> None:
    from a2a_tui.metrics.views import VIEWS

    p = sub.add_parser(
        "metrics", parents=[common],
        help="model usage, first pass, attention, scores, per-task figures (from the event log)",
        description="Each view is computed from the raw events: usage (project > task > attempt"
                    " > session), first-pass (and rejections by step and code), attention"
                    " (every time you were needed, and how long it waited), scores, tasks (the"
                    " fair-comparison figures). No VIEW: all of them.")
    p.add_argument("view", nargs="?", metavar="VIEW", help=f"one of {', '.join(VIEWS)}")
    p.add_argument("--since", metavar="DATE|DURATION",
                   help="only what started since then: 7d, 12h, 2w or 2026-01-31[T09:00]")
    p.add_argument("--task", metavar="ID", help="only this task")
    p.set_defaults(func=cmd_metrics)


def _since(args) -> int | None:
    from a2a_tui.metrics import parse_since

    return None if args.since is None else parse_since(args.since)


def cmd_metrics(ctx, args) -> Result:
    from a2a_tui import metrics

    # Bad input is refused before the store is opened.
    if args.view is not None and args.view not in metrics.VIEWS:
        metrics.compute(None, args.view)  # raises bad_view
    since = _since(args)
    data = metrics.compute(ctx.store, args.view, since_ns=since, task=args.task)
    return Result(data, metrics.render(data))
