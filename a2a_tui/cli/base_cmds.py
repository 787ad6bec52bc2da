"""init, status, events, recover, rules."""

from __future__ import annotations

import json
import time
from datetime import datetime

from a2a_tui.cli.output import Result
from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.gate import views as gate_views
from a2a_tui.panes.views import sessions as session_views
from a2a_tui.repo import find_repo, init
from a2a_tui.store import pages


def cmd_init(ctx, args) -> Result:
    try:
        repo = find_repo(getattr(args, "repo", None))
    except A2AError as err:
        if err.code != "not_a_repo" or "not inside" not in err.message:
            raise
        raise A2AError(err.code, f"{err.message}: run it in one, or make one here (`git init`,"
                       " commit a first file, then `a2a init`); `a2a demo` shows a2a in a"
                       " sample repository of its own") from None
    done = init(repo, args.target, adopt_namespace=args.adopt_pid_namespace,
                new_store=args.new_store)
    text = (f"{'initialized' if done.created else 'already initialized'}: {done.a2a_dir}"
            f" (target branch {done.target_branch})")
    if done.pid_namespace != done.this_pid_namespace:
        text += (f"\na2a's PID namespace is {done.pid_namespace}, this terminal's is"
                 f" {done.this_pid_namespace}: commands from here are unidentified"
                 " (`a2a init --adopt-pid-namespace` makes this one a2a's)")
    return Result(done.to_json(), text, rules="init")


def cmd_status(ctx, args) -> Result:
    g = ctx.gate
    with g.store.snapshot() as tx:
        cards = gate_views.cards(tx)
        attempts = gate_views.attempts(tx)
        sessions = session_views(tx)
    data = {
        "target_branch": g.config.target_branch,
        "target_head": g.git.ref_value(g.target_ref()),
        "cards": [c.to_json() for c in cards],
        "attempts": [a.to_json() for a in attempts],
        "sessions": [{"id": s.id, "role": s.role, "cli": s.cli, "state": s.state,
                      "paused": int(s.paused), "pane_id": s.pane_id} for s in sessions],
        "recovered": ctx.recovered,
        "last_event": g.store.last_seq(),
        "frozen": ledger.frozen(g.store),
        "last_backup": last_backup(g.repo),
    }
    lines = [f"target {data['target_branch']} at {(data['target_head'] or '?')[:12]}"
             f" · {data['last_event']} events"]
    lines.append(f"cards ({len(cards)}):")
    lines += [f"  {c.id:<12} v{c.version} {c.status:<11} {c.title}" for c in cards]
    lines.append(f"attempts ({len(attempts)}):")
    lines += [f"  {a.id:<14} {a.state:<12} fence {a.fence} worktree {a.worktree_state}"
              f"{'  sha ' + a.submitted_sha[:12] if a.submitted_sha else ''}"
              for a in attempts]
    if sessions:
        lines.append(f"sessions ({len(sessions)}):")
        lines += [f"  {s.id:<14} {s.role:<10} {s.cli:<7} {s.state}"
                  f"{' (paused)' if s.paused else ''} {s.pane_id or ''}" for s in sessions]
    lines.append(backup_line(data["last_backup"]))
    for r in ctx.recovered:
        lines.append(f"recovered: {json.dumps(r)}")
    if data["frozen"]:
        lines.append(f"GATE FROZEN: the store was changed outside a2a (first bad seq"
                     f" #{data['frozen']['seq']}: {data['frozen']['why']}); `a2a store verify`")
    return Result(data, "\n".join(lines))


def last_backup(repo) -> dict | None:
    """The newest of a2a's own backups of the store (store/pages.py), or None."""
    newest = next(iter(pages.kept(repo.db_path)), None)
    return None if newest is None else {**newest.to_json(),
                                        "age_s": round(time.time() - newest.taken_s)}


def backup_line(last: dict | None) -> str:
    if last is None:
        return ("last backup: none yet (an orchestrator takes one as it starts, then on the"
                " schedule of [backup] in your settings)")
    return (f"last backup: {last['taken']} ({_ago(last['age_s'])} ago), events up to"
            f" #{last['last_seq']}: {last['path']}")


def _ago(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{int(seconds // size)} {unit}"
    return f"{int(seconds)} s"


def cmd_events(ctx, args) -> Result:
    store = ctx.store
    if args.tail:
        evs = list(reversed(store.events(after=args.after, limit=args.tail, kinds=args.kind,
                                         task=args.task, attempt=args.attempt,
                                         session=args.session, newest_first=True)))
    else:
        evs = store.events(after=args.after, limit=args.limit, kinds=args.kind, task=args.task,
                           attempt=args.attempt, session=args.session)
    from a2a_tui.sentences import sentence  # lazy: only `events` says them

    data = [e.to_json() for e in evs]
    lines = []
    for e in evs:   # one sentence each; the event itself is `--json`'s
        when = datetime.fromtimestamp(e.ts_ns / 1e9).strftime("%H:%M:%S.%f")[:-3]
        lines.append(f"{e.seq:>6} {when} {sentence(e)}")
    return Result(data, "\n".join(lines) if lines else "(no events)")


def cmd_recover(ctx, args) -> Result:
    g = ctx.gate  # building it runs recovery
    unknown = g.store.all("SELECT id, state FROM attempts WHERE state='unknown'")
    data = {"resolved": ctx.recovered, "unknown": [dict(r) for r in unknown],
            "at": time.time()}
    lines = [f"resolved: {json.dumps(r)}" for r in ctx.recovered] or ["nothing to resolve"]
    lines += [f"UNKNOWN: attempt {r['id']}: its outcome could not be read; look at the target,"
              f" then `a2a resolve {r['id']} --as integrated|not-applied|abandoned --reason ...`"
              for r in unknown]
    return Result(data, "\n".join(lines), rules="recover")
