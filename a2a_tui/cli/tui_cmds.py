"""up, down, workbench, demo: the repository's tmux session, the workbench app in this
terminal, and the guided demo.

Textual is imported only when the app runs, so the rest of the CLI stays free of it.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from a2a_tui.cli.output import Result, ask
from a2a_tui.errors import A2AError

if TYPE_CHECKING:
    from a2a_tui.lifecycle import Ended


def cmd_up(ctx, args) -> Result:
    # lazy: each command imports only what it runs (a2a's start-up cost is paid per call)
    from a2a_tui.tmux import Tmux, socket_from_env
    from a2a_tui.tui.up import elsewhere, recorded_server, up

    try:
        repo = ctx.repo
    except A2AError as err:
        raise elsewhere(err, Tmux(socket_from_env(args.tmux_socket))) from None
    # Not named: the server the workbench already runs on (recorded by the last `up`), else
    # a2a's own; never the server this terminal is inside (the user's own sessions live there).
    socket = socket_from_env(args.tmux_socket, alive(recorded_server(repo), repo))
    r = up(repo, socket, attach=not args.no_attach)
    return Result(r.to_json(), r.text)


def cmd_down(ctx, args) -> Result:
    # lazy: each command imports only what it runs (a2a's start-up cost is paid per call)
    from a2a_tui import lifecycle
    from a2a_tui.demo.start import demo_of, remove_demo, started_here
    from a2a_tui.tmux import Tmux, socket_from_env
    from a2a_tui.tui.up import recorded_server

    try:
        if not ctx.repo.initialized:   # a git repository with no a2a state (a2a's own clone)
            raise A2AError("not_initialized", f"{ctx.repo.root} has no a2a state; run"
                           " `a2a init`")
    except A2AError as err:
        # Where `a2a demo` was typed: that demo (its caller is then judged in its store).
        ctx.repo = started_here(err, Tmux(socket_from_env(args.tmux_socket)))
    demo = demo_of(ctx.repo)
    socket = socket_from_env(args.tmux_socket,
                             (demo and demo.tmux_socket) or recorded_server(ctx.repo))

    def remove() -> str:
        # Before the tmux session goes: `a2a down` may be typed in one of its panes.
        ctx.close()
        return remove_demo(ctx.repo, demo)

    r = lifecycle.down(ctx.gate, socket, confirm=lambda busy: args.yes or ask(
        f"{', '.join(busy)} still at work. End them and the tmux session? [y/N] "),
        then=remove if demo is not None else None)
    lines = [ended_line(e) for e in r.ended]
    if r.orchestrator_stopped:
        lines.append(f"stopped the orchestrator (pid {r.orchestrator_stopped})")
    lines.append(f"tmux session {r.tmux_session} " + ("ended" if r.killed else "was not running"))
    if demo is not None:
        lines.append(f"removed the demo repository {r.then}")
    else:
        lines.append(f"kept: the store and the worktrees of {ctx.repo.root} (`a2a up` starts"
                     " again)")
    data = r.to_json()
    data["removed"] = data.pop("then")
    return Result(data, "\n".join(lines))


def alive(socket: str | None, repo) -> str | None:
    """`socket` when the repository's tmux session runs on it, else None."""
    from a2a_tui.tmux import Tmux  # lazy: libtmux, for `up` alone

    if socket is None:
        return None
    try:
        return socket if Tmux(socket).has_session(repo.config().tmux_session) else None
    except A2AError:
        return None


def ended_line(e: Ended) -> str:
    """What `a2a down` says of a session it ended."""
    if e.process_gone:
        return f"ended {e.session}"
    return (f"ended {e.session}: its pane is closed, but its process (pid {e.pid})"
            " had not exited 10 s after its hang-up")


def cmd_workbench(ctx, args) -> Result:
    # lazy: each command imports only what it runs (a2a's start-up cost is paid per call)
    from a2a_tui.tmux import socket_from_env
    from a2a_tui.tui.app import make_app

    repo = ctx.repo
    repo.store().close()  # a missing or broken store is one clear error, before the screen opens
    if sys.stdout.isatty():
        # Textual sizes the screen by COLUMNS and LINES before the terminal's own size, at
        # start and at every resize. In a tmux pane they are whatever the shell that started
        # the tmux server exported (Python's readline exports 80x24 from any process without a
        # terminal): the workbench stayed 80x24 in a 120x40 terminal. The pane's size is the
        # terminal's.
        for var in ("COLUMNS", "LINES"):
            os.environ.pop(var, None)
    app, _services, host = make_app(repo, tmux_socket=socket_from_env(args.tmux_socket),
                                    host_orchestrator=not args.no_orchestrator)
    try:
        app.run()
    finally:
        if host is not None:
            host.stop()
    if app.return_code:
        sys.exit(app.return_code)
    return Result({"stopped": True}, "")


def cmd_demo(ctx, args) -> Result:
    # lazy: each command imports only what it runs (a2a's start-up cost is paid per call)
    from a2a_tui.demo.start import start
    from a2a_tui.tmux import socket_from_env

    r = start(socket_from_env(args.tmux_socket), attach=not args.no_attach, where=args.dir)
    return Result(r.to_json(), r.text)


def cmd_demo_director(ctx, args) -> Result:
    # lazy: each command imports only what it runs (a2a's start-up cost is paid per call)
    from a2a_tui.demo.director import direct
    from a2a_tui.tmux import socket_from_env

    direct(ctx.repo, socket_from_env(args.tmux_socket))
    return Result({"done": True}, "demo: the scenario is over; the workbench stays yours")
