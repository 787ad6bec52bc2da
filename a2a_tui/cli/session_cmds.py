"""session new|restart|revive|fork|end, attention: the user's hands on sessions, and what waits
for them."""

# Imports inside functions: each command imports what it runs when it runs (a2a's start-up:
# tests/test_startup.py, bench/bench_cli.py).

from __future__ import annotations

from a2a_tui.cli.output import Result, ask
from a2a_tui.cli.pane_cmds import TMUX_SOCKET_HELP, split_at_dashes
from a2a_tui.errors import A2AError


def register(sub, common) -> None:
    p = sub.add_parser("session", parents=[common],
                       help="start, restart or end a managed session (each is your input)")
    ss = p.add_subparsers(dest="session_command", metavar="SUBCOMMAND", required=True)

    n = ss.add_parser("new", parents=[common],
                      help="start a session of ROLE in a new tmux pane; what you do not give"
                           " comes from [roles.ROLE] of your config")
    n.add_argument("role", help="ideation | executive | worker | reviewer")
    n.add_argument("--cli", help="claude | codex | gemini | demo (default: roles.ROLE.cli)")
    n.add_argument("--model", help="the model (default: roles.ROLE.model, else the CLI's)")
    n.add_argument("--effort", help="reasoning effort (default: roles.ROLE.effort)")
    n.add_argument("--attempt", metavar="A", help="work in the attempt's worktree, as its writer")
    n.add_argument("--session", metavar="ID", help="the session id (default: from the role)")
    n.add_argument("--assign", action="store_true",
                   help="with --attempt: its first prompt is its task (the card, the checks, the"
                        " command that delivers)")
    n.add_argument("--tmux-socket", metavar="NAME", help=TMUX_SOCKET_HELP)
    n.epilog = ("Options after `--` are passed to the CLI as they are (default:"
                " roles.ROLE.options).")
    n.__class__ = split_at_dashes(type(n))
    n.set_defaults(func=cmd_new, extra=None)

    r = ss.add_parser("restart", parents=[common],
                      help="start an exited session again: same id, role, attempt, CLI and"
                           " options; a new launch; its queued prompts follow")
    r.add_argument("session", help="the exited session's id")
    r.set_defaults(func=cmd_restart)

    v = ss.add_parser("revive", parents=[common],
                      help="start an exited session again on its CLI's own conversation (same"
                           " id and folder, a new launch; its queue follows); a CLI that cannot"
                           " resume starts afresh, and says so")
    v.add_argument("session", help="the exited session's id")
    v.set_defaults(func=cmd_revive)

    f = ss.add_parser("fork", parents=[common],
                      help="a new session on a copy of a session's conversation: same role,"
                           " CLI and options, its own id and launch, bound to no attempt")
    f.add_argument("session", help="the session to fork (running or exited)")
    f.add_argument("--as", dest="new_id", metavar="ID", help="the new session's id")
    f.add_argument("--tmux-socket", metavar="NAME", help=TMUX_SOCKET_HELP)
    f.set_defaults(func=cmd_fork)

    e = ss.add_parser("end", parents=[common],
                      help="end a session: its pane is closed, it is recorded as ended by you;"
                           " its queue is kept")
    e.add_argument("session", help="the session's id")
    e.add_argument("--yes", action="store_true", help="do not ask, even when it is at work")
    e.set_defaults(func=cmd_end)

    a = sub.add_parser("attention", parents=[common],
                       help="what waits for you: open questions, waiting and stalled panes,"
                            " rejections and feedback stops you have not seen")
    a.add_argument("--seen", action="store_true",
                   help="mark the rejections and stops so far as seen")
    a.set_defaults(func=cmd_attention)


def cmd_new(ctx, args) -> Result:
    # lazy: each command imports only what it runs (a2a's start-up cost is paid per call)
    from a2a_tui import lifecycle, settings
    from a2a_tui.tmux import socket_from_env

    extra = args.extra  # None without `--`: the config's options
    r = lifecycle.new(ctx.gate, settings.load(ctx.repo.config_path), role=args.role,
                      cli=args.cli, model=args.model, effort=args.effort,
                      options=extra, attempt=args.attempt, session=args.session,
                      tmux_socket=socket_from_env(args.tmux_socket), assign=args.assign)
    return Result(r, f"started {lifecycle.describe(r)}"
                  + (f" · {r['user_input']}" if r["user_input"] else ""), rules="spawn")


def cmd_restart(ctx, args) -> Result:
    from a2a_tui import lifecycle

    r = lifecycle.restart(ctx.gate, args.session)
    text = f"restarted {lifecycle.describe(r)} (launch #{r['launch_seq']} restarts" \
           f" #{r['restarts']})"
    if not r["options_known"]:
        text += "; its first launch did not record its options: started without any"
    return Result(r, text + (f" · {r['user_input']}" if r["user_input"] else ""))


def cmd_revive(ctx, args) -> Result:
    from a2a_tui import lifecycle

    r = lifecycle.revive(ctx.gate, args.session)
    return Result(r, lifecycle.describe_revive(r))


def cmd_fork(ctx, args) -> Result:
    from a2a_tui import lifecycle
    from a2a_tui.panes.records import check_session_id

    new_id = check_session_id(args.new_id) if args.new_id else None
    r = lifecycle.fork(ctx.gate, args.session, new_id=new_id, tmux_socket=args.tmux_socket)
    return Result(r, lifecycle.describe_fork(r), rules="spawn")


def cmd_end(ctx, args) -> Result:
    from a2a_tui import lifecycle
    from a2a_tui.panes.records import session_row

    row = session_row(ctx.store, args.session)
    if row["state"] in ("busy", "waiting") and not args.yes and not ask(
            f"{args.session} is {row['state']}. End it anyway? [y/N] "):
        raise A2AError("session_busy", f"{args.session} is {row['state']}: not ended"
                       " (`--yes` ends it anyway)")
    r = lifecycle.end(ctx.gate, args.session)
    return Result(r, f"ended {r['session']}: pane {r['pane']} "
                  + ("closed" if r["pane_closed"] else "was already gone")
                  + ("" if r["process_gone"] else "; its process still runs")
                  + f"; its queue is kept · {r['user_input']}")


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


