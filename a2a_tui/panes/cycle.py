"""One pass of the orchestrator's work: ingest every waiting spool file in order, then deliver
to every ready pane.

A session's last file in the batch begins its next dispatch in the transaction that records it
(`delivery.begin_now`): Stop → next paste takes one durable commit, not two. Only its last: a
later file of the same session (the user typed in the pane meanwhile) must be applied before
anything is begun, as when ingestion and delivery were two passes."""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path

from a2a_tui.panes import delivery, spool


def ingest_and_deliver(store, io: delivery.PaneIO, tmux_socket: str | None, top: Path,
                       folders: set[Path] | None, sleep=time.sleep,
                       observers: tuple[spool.Then, ...] = ()) -> delivery.Delivered:
    """Ingest the files waiting in `folders` (every folder when None), then deliver one
    dispatch to each ready pane. `observers` see every signal in its transaction (the gate's
    record of model behaviour, handed in by whoever starts the orchestrator)."""
    files = spool.pending(top, folders)
    last = {path.parent: i for i, path in enumerate(files)}
    begin = partial(delivery.begin_now, tmux_socket=tmux_socket)
    begun = []
    for i, path in enumerate(files):
        got = spool.ingest(store, path, _then(observers, begin if last[path.parent] == i
                                              else None))
        if got is not None and got.then is not None:
            begun.append(got.then)
    return delivery.deliver_ready(store, io, tmux_socket, sleep=sleep, begun=begun)


def _then(observers: tuple[spool.Then, ...], begin: spool.Then | None) -> spool.Then | None:
    """One `then` for a signal's transaction: every observer, then the dispatch begun."""
    if not observers:
        return begin

    def then(tx, session: str):
        for observe in observers:
            observe(tx, session)
        return begin(tx, session) if begin is not None else None
    return then
