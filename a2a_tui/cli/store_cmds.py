"""store verify, rebuild, reseal: check the record; repair it after a freeze (gate/ledger/).
store backup, restore: copy the record while it runs; put a copy of it back (store/backup.py)."""

from __future__ import annotations

from pathlib import Path

from a2a_tui.cli.output import Result
from a2a_tui.collab.user_input import record_user_input_in_tx
from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.payloads.record import StoreRestored
from a2a_tui.store import chain, pages


def cmd_store_verify(ctx, args) -> Result:
    # SQLite's full check of every page and index first, before the gate reads (or writes)
    # anything: the open ran the quick one only if the file changed (store/pages.py).
    pages.check(ctx.store.conn, ctx.store.path, full=True)
    g = ctx.gate
    check = ledger.verify(g.store)
    r = {**check.to_json(), "pages": "ok"}
    if check.problem is not None:
        ledger.freeze(g, check.problem)
        return Result(r, f"TAMPERED: first bad seq #{r['seq']}: {r['why']}\nthe gate is frozen;"
                         " `a2a store rebuild` (gate tables) or, for the event chain, look at"
                         " the events and `a2a store reseal --reason`", rules="store",
                      exit_code=1)
    text = (f"intact: every page sound (SQLite's integrity check), {r['events']} events"
            " chained, every gate table agrees with the log")
    if r["frozen"]:
        text += (f"\nthe gate is still frozen (#{r['frozen']['seq']}: {r['frozen']['why']}):"
                 " `a2a store rebuild` lifts it")
    return Result(r, text, rules="store")


def _user(ctx, what: str) -> None:
    if not ctx.caller.is_user:
        raise A2AError("user_only", f"{what} is the user's alone; {ctx.caller.describe()} is a"
                       " managed session")


def cmd_store_rebuild(ctx, args) -> Result:
    _user(ctx, "rebuilding the store's tables")
    g = ctx.gate
    brk = chain.check(g.store.conn)
    if brk is not None:
        ledger.freeze(g, ledger.chain_problem(brk))
        raise A2AError("chain_broken", f"{brk.why}: the log itself was changed, so it cannot be"
                       " rebuilt from; look at the events from there (`a2a events --after"
                       f" {brk.seq - 1}`) and restore .a2a/a2a.db from a copy, or accept them"
                       " with `a2a store reseal --reason`", details=brk.to_json())
    with g.store.write() as tx:
        r = {**ledger.rebuild_in(tx, reason="a2a store rebuild", actor=ctx.caller.actor).to_json(),
             "repaired": ledger.repair(tx, actor=ctx.caller.actor, how="rebuild")}
    text = f"rebuilt {', '.join(r['rebuilt'])} from the log"
    if r["first_difference"]:
        text += f"; first difference was {r['first_difference']}"
    if r["repaired"]:
        text += "; the gate is no longer frozen"
    return Result(r, text, rules="store")


def cmd_store_reseal(ctx, args) -> Result:
    _user(ctx, "resealing the event chain")
    g = ctx.gate
    brk = chain.check(g.store.conn)
    if brk is None:
        raise A2AError("chain_whole", "every event's hash is right: nothing to reseal"
                       " (`a2a store rebuild` repairs the gate's tables)")
    with g.store.write() as tx:
        r = ledger.reseal(tx, from_seq=brk.seq, reason=args.reason,
                          actor=ctx.caller.actor).to_json()
        r["user_input"] = record_user_input_in_tx(
            tx, "action", f"resealed the event chain from #{brk.seq}: {args.reason}",
            source="cli")
        r["rebuilt"] = ledger.rebuild_in(tx, reason=f"reseal from #{brk.seq}",
                                         actor=ctx.caller.actor).to_json()
        r["repaired"] = ledger.repair(tx, actor=ctx.caller.actor, how="reseal")
    return Result(r, f"resealed from #{brk.seq} ({r['rehashed']} hash(es) recomputed), recorded"
                     f" as {r['user_input']}; gate tables rebuilt; the gate is no longer frozen",
                  rules="store")


def cmd_store_backup(ctx, args) -> Result:
    from a2a_tui.store import backup  # lazy: only these two commands need it

    info = backup.backup(ctx.store, Path(args.path))
    return Result(info.to_json(), f"backed up {info.events} events (up to #{info.last_seq}) of"
                                  f" store {(info.store_id or '?')[:12]} to {info.path}",
                  rules="store")


def cmd_store_restore(ctx, args) -> Result:
    # lazy: only this command needs them
    from a2a_tui.panes.orchestrator import take_lock
    from a2a_tui.store import backup, owner

    repo = ctx.repo
    info, conn = backup.inspect(_backup_to_restore(repo, args))
    try:
        who = _restorer(ctx, conn)
        if not who.is_user:
            raise A2AError("user_only", "restoring the store is the user's alone;"
                           f" {who.describe()} is not the user")
        owner.check_restorable(repo.root, info.identity, Path(info.path))
        lock = take_lock(repo, "stop it before restoring (`a2a down`, or Q in the workbench)")
        try:
            previous = backup.put_in_place(conn, repo.db_path)
            owner.restored(repo.root, repo.db_path, info.store_id, info.last_seq)
        finally:
            lock.close()
    finally:
        conn.close()
    with repo.store() as store, store.write() as tx:
        seq = tx.append("store_restored", actor=who.actor,
                        payload=StoreRestored(from_=info.path, last_seq=info.last_seq,
                                              previous=str(previous) if previous else None))
        uid = record_user_input_in_tx(tx, "action", f"restored the store from {info.path}"
                                      f" (up to #{info.last_seq})", source="cli")
    data = {**info.to_json(), "restored_seq": seq, "user_input": uid,
            "previous": str(previous) if previous else None}
    kept = f"; the store it replaced is kept at {previous}" if previous else ""
    return Result(data, f"restored {info.events} events (up to #{info.last_seq}) from"
                        f" {info.path}, recorded as {uid}{kept}", rules="store")


def _backup_to_restore(repo, args) -> Path:
    """FILE (or --from FILE), else the newest of a2a's own backups that SQLite finds sound."""
    if args.path and args.source and args.path != args.source:
        raise A2AError("usage", "name the backup once: FILE or --from FILE", exit_code=2)
    if args.path or args.source:
        return Path(args.path or args.source)
    good = pages.newest_good(repo.db_path)
    if good is None:
        raise A2AError("no_backup", f"no good backup in {pages.backups_dir(repo.db_path)}: name"
                       " one with `a2a store restore --from FILE`")
    return good.path


def _restorer(ctx, backup_conn):
    """Who restores: judged against the store when it opens, else (it is missing, foreign,
    rewound: what a restore is for) against the backup's record."""
    try:
        return ctx.identity
    except A2AError as err:
        if not err.code.startswith("store_"):
            raise
    from a2a_tui.identity import resolve_caller  # lazy: psutil, for this command only
    from a2a_tui.store.backup import Reader

    return resolve_caller(Reader(backup_conn))
