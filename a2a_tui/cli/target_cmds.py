"""The user's decisions at the gate: resolve an unknown attempt; adopt or restore a moved target."""

from __future__ import annotations

from a2a_tui import gate
from a2a_tui.cli.output import Result
from a2a_tui.gate.integration import targets
from a2a_tui.gate.integration.resolution import RESOLUTIONS  # noqa: F401

# RESOLUTIONS (imported above): the choices of `a2a resolve --as`, named by the command table
# (cli/table.py).


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
