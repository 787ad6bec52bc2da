"""metrics, retro."""

# Imports inside functions: each command imports what it runs when it runs (a2a's start-up:
# tests/test_startup.py, bench/bench_cli.py).

from __future__ import annotations

from a2a_tui.cli.output import Result
from a2a_tui.errors import A2AError


def view_help() -> str:
    """`a2a metrics VIEW`'s help, from the views themselves (read when its parser is built)."""
    from a2a_tui.metrics.views import VIEWS

    return f"one of {', '.join(VIEWS)}"


def _since(args) -> int | None:
    from a2a_tui.metrics import parse_since

    return None if args.since is None else parse_since(args.since)


def cmd_metrics(ctx, args) -> Result:
    from a2a_tui import metrics

    metrics.check_view(args.view)   # bad input is refused before the store is opened
    since = _since(args)
    data = metrics.compute_json(ctx.store, args.view, since_ns=since, task=args.task)
    return Result(data, metrics.render(data))


def cmd_retro(ctx, args) -> Result:
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
    sid = launched.session
    prepared = retro.place(figures, prompt_file=g.repo.session_run_dir(sid) / "retro-prompt.md",
                           out_file=g.repo.session_out_dir(sid) / "retrospective.md")
    retro.record_started(g, prepared, launched.session)
    queued = inject(g.store, launched.session, retro.first_prompt(prepared), source="retro",
                    actor=g.caller.actor)
    r = {"retro": prepared.id, "since_ns": prepared.since_ns, "prompt": prepared.prompt,
         "output": prepared.output, "prompt_digest": prepared.prompt_digest,
         "session": launched.session, "pane": launched.pane, "dispatch": queued.dispatch}
    wake(ctx.repo)
    return Result(r, f"retrospective {prepared.id}: session {sid} (pane {launched.pane}) gets"
                     f" {prepared.prompt} as #{queued.dispatch}; it saves to {prepared.output}")


def cmd_retro_save(ctx, args) -> Result:
    from a2a_tui.metrics import retro

    r = retro.save(ctx.store, ctx.caller, args.file, args.retro)
    return Result(r.to_json(), f"retrospective {r.retro} kept (event #{r.seq}, {r.bytes} bytes):"
                               f" {r.title}")
