"""metrics, retro."""

# Imports inside functions: each command imports what it runs when it runs (a2a's start-up:
# tests/test_startup.py, bench/bench_cli.py).

from __future__ import annotations

from a2a_tui.cli.output import Result
from a2a_tui.errors import A2AError


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

    p = sub.add_parser(
        "retro", parents=[common], help="a retrospective: a session reads a period's figures and"
        " writes what they teach",
        description="Builds a prompt from the period's views and notable events (rejections"
                    " with first errors, interventions, stalls), launches a retro session with"
                    " it and queues the prompt; `a2a retro save --file F` keeps what it wrote.")
    p.add_argument("--since", metavar="DATE|DURATION", help="the period: 7d, 2w, 2026-01-31")
    p.add_argument("--cli", default="claude", help="the CLI to run it (default: claude)")
    p.add_argument("--model", default="", help="the model, passed to the CLI")
    p.add_argument("--effort", default="", help="the reasoning effort, passed to the CLI")
    p.add_argument("--tmux-socket", metavar="NAME", help="tmux server (-L NAME)")
    p.set_defaults(func=cmd_retro)
    rsub = p.add_subparsers(dest="retro_command", metavar="save")
    s = rsub.add_parser("save", parents=[common], help="keep a retrospective's text as an event")
    s.add_argument("--file", required=True, metavar="FILE", help="the retrospective (Markdown)")
    s.add_argument("--retro", metavar="R-N", help="which one (default: the caller's last)")
    s.set_defaults(func=cmd_retro_save)


def _since(args) -> int | None:
    from a2a_tui.metrics import parse_since

    return None if args.since is None else parse_since(args.since)


def cmd_metrics(ctx, args) -> Result:
    from a2a_tui import metrics

    metrics.check_view(args.view)   # bad input is refused before the store is opened
    since = _since(args)
    data = metrics.compute(ctx.store, args.view, since_ns=since, task=args.task)
    return Result(data, metrics.render(data))


def cmd_retro(ctx, args) -> Result:
    from a2a_tui.confine import session_paths
    from a2a_tui.metrics import retro
    from a2a_tui.panes.control import inject
    from a2a_tui.profiles import CLIS
    from a2a_tui.queue import wake
    from a2a_tui.spawn import spawn
    from a2a_tui.tmux import socket_from_env

    if args.cli not in CLIS:
        raise A2AError("usage", f"--cli {args.cli!r}: one of {', '.join(CLIS)}", exit_code=2)
    if args.since is not None:
        _since(args)  # a bad --since is refused before anything is written
    g = ctx.gate
    figures = retro.prepare(g, since=args.since)
    launched = spawn(g, role="retro", cli=args.cli, model=args.model, effort=args.effort,
                     tmux_socket=socket_from_env(args.tmux_socket))
    # The prompt in its run folder (read-only to it), the retrospective in its output folder:
    # a confined session sees nothing else of `.a2a/`.
    own = session_paths(g.repo.a2a_dir, launched["session"])
    prepared = retro.place(figures, prompt_file=own.run_dir / "retro-prompt.md",
                           out_file=own.out_dir / "retrospective.md")
    retro.record_started(g, prepared, launched["session"])
    queued = inject(g.store, launched["session"], retro.first_prompt(prepared), source="retro",
                    actor=g.caller.actor)
    r = {**prepared, "session": launched["session"], "pane": launched.get("pane"),
         "dispatch": queued["dispatch"]}
    wake(ctx.repo)
    return Result(r, f"retrospective {r['retro']}: session {r['session']} (pane {r['pane']}) gets"
                     f" {r['prompt']} as #{r['dispatch']}; it saves to {r['output']}")


def cmd_retro_save(ctx, args) -> Result:
    from a2a_tui.metrics import retro

    r = retro.save(ctx.store, ctx.caller, args.file, args.retro)
    return Result(r, f"retrospective {r['retro']} kept (event #{r['seq']}, {r['bytes']} bytes):"
                     f" {r['title']}")
