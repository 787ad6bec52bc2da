"""serve, spawn, inject, pause, resume, release, sessions."""

from __future__ import annotations

import os
import sys
import time

from a2a_tui.cli.output import Result
from a2a_tui.errors import A2AError
from a2a_tui.panes.views import sessions
from a2a_tui.profiles import CLIS  # noqa: F401
from a2a_tui.queue import wake

# CLIS (imported above): the choices of `a2a spawn --cli`, named by the command table
# (cli/table.py).


def cmd_serve(ctx, args) -> Result:
    # lazy: each command imports only what it runs (a2a's start-up cost is paid per call)
    from a2a_tui.gate.attempts.behaviour import on_signal
    from a2a_tui.gate.attempts.leases import sweeper
    from a2a_tui.metrics.retro import propose_if_due
    from a2a_tui.panes.orchestrator import Orchestrator
    from a2a_tui.tmux import socket_args, socket_from_env

    socket = socket_from_env(args.tmux_socket)
    orch = Orchestrator(ctx.repo, socket, sweeps=(sweeper(ctx.repo),),
                        observers=(on_signal,))

    def serving() -> None:   # once it holds the lock: a refused serve never says it serves
        propose_if_due(ctx.repo, ctx.store)   # a board question once per retro_every, if set
        print(f"a2a: serving {ctx.repo.root} (pid {os.getpid()},"
              f" tmux {' '.join(socket_args(socket))})", file=sys.stderr, flush=True)

    orch.run_forever(serving)
    return Result({"stopped": True}, "a2a: orchestrator stopped")


def cmd_spawn(ctx, args) -> Result:
    # lazy: each command imports only what it runs (a2a's start-up cost is paid per call)
    from a2a_tui.spawn import spawn
    from a2a_tui.tmux import socket_from_env

    extra = list(args.extra)
    socket = socket_from_env(args.tmux_socket)
    r = spawn(ctx.gate, role=args.role, cli=args.cli, model=args.model, effort=args.effort,
              attempt=args.attempt, session=args.session, tmux_socket=socket,
              extra=tuple(extra), continues=args.resume or args.fork, fork=args.fork is not None)
    wake(ctx.repo)
    text = (f"spawned {r.session} ({r.role}, {r.cli} {r.cli_version}) in pane"
            f" {r.pane} of tmux session {r.tmux_session}"
            + (f", writer of {r.attempt}" if r.attempt else ""))
    # Nothing serving the repository: the session would stay `unknown`, its prompts held and
    # its `a2a` unanswered (the broker is the orchestrator's). Started as `a2a up` starts it.
    data = {**r.to_json(), "orchestrator_started": None}
    if _orchestrator_pid(ctx) is None:
        # lazy: libtmux and the up machinery, only when there is an orchestrator to start
        from a2a_tui.tmux import Tmux
        from a2a_tui.tui.up import ORCHESTRATOR_WINDOW, ensure_orchestrator

        pid, _pane, _ = ensure_orchestrator(ctx.repo, Tmux(socket), socket)
        data["orchestrator_started"] = pid
        text += (f"; no orchestrator ran: started it (pid {pid}, tmux window"
                 f" '{ORCHESTRATOR_WINDOW}'; `a2a down` ends both)")
    return Result(data, text, rules="spawn")


def cmd_inject(ctx, args) -> Result:
    from a2a_tui.panes import control  # lazy: `a2a sessions` only reads (~5 ms)

    text = sys.stdin.read() if args.text == "-" else args.text
    source = "user" if ctx.caller.is_user else "session"
    r = control.inject(ctx.store, args.session, text, source=source, actor=ctx.caller.actor)
    wake(ctx.repo)
    msg = control.queued_line(r, f"`a2a resume {r.session}`")
    if _orchestrator_pid(ctx) is None:
        msg += "; no orchestrator runs: it is delivered once `a2a serve` (or the TUI) starts"
    return Result(r.to_json(), msg, rules="inject")


def cmd_pause(ctx, args) -> Result:
    return _pause(ctx, args, True)


def cmd_resume(ctx, args) -> Result:
    return _pause(ctx, args, False)


def _pause(ctx, args, paused: bool) -> Result:
    from a2a_tui.panes import control  # lazy: `a2a sessions` only reads (~5 ms)

    if bool(args.session) == bool(args.all):
        raise A2AError("usage", "name one SESSION or give --all", exit_code=2)
    changed = control.set_paused(ctx.store, None if args.all else [args.session], paused,
                                 actor=ctx.caller.actor)
    wake(ctx.repo)
    verb = "paused" if paused else "resumed"
    return Result({verb: changed}, f"{verb}: {', '.join(changed)}" if changed
                  else f"nothing to change (already {verb})")


def cmd_release(ctx, args) -> Result:
    from a2a_tui.panes import control  # lazy: `a2a sessions` only reads (~5 ms)

    r = control.release(ctx.store, args.session, actor=ctx.caller.actor)
    wake(ctx.repo)
    return Result(r.to_json(), f"released {r.session} (was {r.was})", rules="release")


def cmd_sessions(ctx, args) -> Result:
    with ctx.store.snapshot() as tx:
        views = sessions(tx)
    now = time.time_ns()
    lines = []
    for s in views:
        age_s = s.last_signal_age_s(now)
        age = "-" if age_s is None else f"{age_s:.0f}s"
        flags = " paused" if s.paused else ""
        lines.append(f"{s.id:<10} {s.role:<10} {s.cli:<7} {s.pane_id or '-':<5}"
                     f" {s.state:<8}{flags} queue {s.queue}"
                     f" in-flight {s.in_flight or '-'} last signal {age}"
                     + (f"  [{s.hint}]" if s.hint else "")
                     + (f"  UNKNOWN dispatches {list(s.unknown_dispatches)}"
                        if s.unknown_dispatches else ""))
    return Result([s.to_json(now) for s in views], "\n".join(lines) or "(no sessions)")


def split_at_dashes(base: type) -> type:
    """A parser class that hands everything after the first `--` to `extra` untouched (argparse
    alone cannot have a positional ROLE and pass-through options after it)."""

    class SplitParser(base):  # type: ignore[misc, valid-type]
        def parse_known_args(self, args=None, namespace=None):
            args = list(sys.argv[1:] if args is None else args)
            extra: list[str] | None = None
            if "--" in args:
                i = args.index("--")
                args, extra = args[:i], args[i + 1:]
            ns, rest = super().parse_known_args(args, namespace)
            if extra is not None:  # else the parser's default (`session new`: the config's)
                ns.extra = extra
            return ns, rest

    return SplitParser


def _orchestrator_pid(ctx) -> int | None:
    # lazy: each command imports only what it runs (a2a's start-up cost is paid per call)
    from a2a_tui.panes.orchestrator import lock_holder

    return lock_holder(ctx.repo)
