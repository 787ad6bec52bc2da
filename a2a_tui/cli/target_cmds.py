"""The user's decisions at the gate: resolve an unknown attempt; adopt or restore a moved target."""

from __future__ import annotations

from a2a_tui import gate
from a2a_tui.cli.output import Result
from a2a_tui.gate.integration import targets
from a2a_tui.gate.integration.resolution import RESOLUTIONS


def register(sub, common) -> None:
    p = sub.add_parser("resolve", parents=[common],
                       help="(user) decide what an attempt whose outcome is unknown was")
    p.add_argument("attempt", help="the `unknown` attempt (e.g. T-1-a2)")
    p.add_argument("--as", dest="as_", required=True, choices=RESOLUTIONS,
                   help="what you found: the target holds the SHA (integrated), does not"
                        " (not-applied), or end the attempt without counting it (abandoned)")
    p.add_argument("--reason", required=True, help="what you looked at and saw")
    p.set_defaults(func=cmd_resolve)

    t = sub.add_parser("target", parents=[common],
                       help="the gate's view of a target branch; adopt or restore a moved one")
    tsub = t.add_subparsers(dest="target_cmd", metavar="CMD", required=True)
    p = tsub.add_parser("show", parents=[common],
                        help="where the gate last left the branch, and where it is")
    p.add_argument("branch", nargs="?", help="default: the configured target branch")
    p.set_defaults(func=cmd_target_show)
    p = tsub.add_parser("adopt", parents=[common],
                        help="(user) make a moved branch's current head the gate's baseline")
    p.add_argument("branch", help="the target branch (e.g. main)")
    p.add_argument("--reason", required=True, help="why: recorded with your decision")
    p.set_defaults(func=cmd_target_adopt)
    p = tsub.add_parser("restore", parents=[common],
                        help="(user) move a moved branch back to the gate's baseline")
    p.add_argument("branch", help="the target branch (e.g. main)")
    p.add_argument("--reason", required=True, help="why: recorded with your decision")
    p.set_defaults(func=cmd_target_restore)


def cmd_resolve(ctx, args) -> Result:
    r = gate.resolve(ctx.gate, args.attempt, args.as_, args.reason)
    return Result(r.to_json(), f"resolved {r.attempt} as {r.as_}: now {r.state}"
                  f" ({r.user_input})", rules="resolve")


def cmd_target_show(ctx, args) -> Result:
    g = ctx.gate
    branch = args.branch or g.config.target_branch
    head = g.git.ref_value(targets.ref_of(branch))
    t = targets.view(g.store, branch)
    data = {"target": branch, "head": head, "baseline": None, "diverged": False,
            **(t.to_json() if t else {})}
    if t is None:
        text = f"{branch} at {(head or 'missing')[:12]}: the gate has no record of it yet"
    else:
        state = ("DIVERGED: the user decides (adopt or restore)" if t.diverged_head
                 else "off the record: the next claim or integrate records it"
                 if head != t.baseline else "where the gate left it")
        text = (f"{branch} at {(head or 'missing')[:12]}; the gate left it at {t.baseline[:12]}"
                f" ({t.source}, event #{t.seq}): {state}")
    return Result(data, text)


def cmd_target_adopt(ctx, args) -> Result:
    r = targets.adopt(ctx.gate, args.branch, args.reason)
    return Result(r.to_json(), f"adopted {r.head[:12]} as {r.target}'s baseline"
                  f" (was {r.previous[:12]}; {r.user_input})", rules="target adopt")


def cmd_target_restore(ctx, args) -> Result:
    r = targets.restore(ctx.gate, args.branch, args.reason)
    moved = (f"moved {r.target} back from {r.from_[:12]} to {r.head[:12]}" if r.moved
             else f"{r.target} is at {r.head[:12]} already; the divergence is closed")
    return Result(r.to_json(), f"{moved} ({r.user_input})", rules="target restore")
