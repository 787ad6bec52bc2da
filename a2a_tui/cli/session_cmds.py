"""session new|restart|revive|fork|end, attention: the user's hands on sessions, and what waits
for them."""

# Imports inside functions: each command imports what it runs when it runs (a2a's start-up:
# tests/test_startup.py, bench/bench_cli.py).

from __future__ import annotations

from a2a_tui.cli.output import Result, ask
from a2a_tui.errors import A2AError


def cmd_new(ctx, args) -> Result:
    # lazy: each command imports only what it runs (a2a's start-up cost is paid per call)
    from a2a_tui import lifecycle, settings
    from a2a_tui.tmux import socket_from_env

    extra = args.extra  # None without `--`: the config's options
    r = lifecycle.new(ctx.gate, settings.of_repo(ctx.repo), role=args.role,
                      cli=args.cli, model=args.model, effort=args.effort,
                      options=extra, attempt=args.attempt, session=args.session,
                      tmux_socket=socket_from_env(args.tmux_socket), assign=args.assign)
    return Result(r.to_json(), f"started {lifecycle.describe(r)}"
                  + (f" · {r.user_input}" if r.user_input else ""), rules="spawn")


def cmd_restart(ctx, args) -> Result:
    from a2a_tui import lifecycle

    r = lifecycle.restart(ctx.gate, args.session)
    text = f"restarted {lifecycle.describe(r)} (launch #{r.launched.launch_seq} restarts" \
           f" #{r.restarts})"
    if not r.options_known:
        text += "; its first launch did not record its options: started without any"
    return Result(r.to_json(), text + (f" · {r.user_input}" if r.user_input else ""))


def cmd_revive(ctx, args) -> Result:
    from a2a_tui import lifecycle

    r = lifecycle.revive(ctx.gate, args.session)
    return Result(r.to_json(), lifecycle.describe_revive(r))


def cmd_fork(ctx, args) -> Result:
    from a2a_tui import lifecycle
    from a2a_tui.panes.records import check_session_id

    new_id = check_session_id(args.new_id) if args.new_id else None
    r = lifecycle.fork(ctx.gate, args.session, new_id=new_id, tmux_socket=args.tmux_socket)
    return Result(r.to_json(), lifecycle.describe_fork(r), rules="spawn")


def cmd_end(ctx, args) -> Result:
    from a2a_tui import lifecycle
    from a2a_tui.panes.records import session_row

    row = session_row(ctx.store, args.session)
    if row["state"] in ("busy", "waiting") and not args.yes and not ask(
            f"{args.session} is {row['state']}. End it anyway? [y/N] "):
        raise A2AError("session_busy", f"{args.session} is {row['state']}: not ended"
                       " (`--yes` ends it anyway)")
    r = lifecycle.end(ctx.gate, args.session)
    return Result(r.to_json(), f"ended {r.session}: pane {r.pane} "
                  + ("closed" if r.pane_closed else "was already gone")
                  + ("" if r.process_gone else "; its process still runs")
                  + f"; its queue is kept · {r.user_input}")


def cmd_attention(ctx, args) -> Result:
    from a2a_tui.panes.calls import mark_seen, waiting

    if args.seen:
        if not ctx.caller.is_user:
            raise A2AError("user_only", "only the user marks what they have seen")
        mark_seen(ctx.store)
    things = waiting(ctx.store)
    lines = [f"{t.kind:<9} {t.text}" for t in things] or ["nothing waits for you"]
    return Result({"count": len(things), "waiting": [t.to_json() for t in things]},
                  "\n".join(lines))


