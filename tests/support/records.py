"""Reading the real store: a fresh connection (so a fresh snapshot) per call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from a2a_tui.store import Event, Store, chain
from a2a_tui.store.db import Tx, dumps
from tests.support.wait import wait_until


def store(repo: Path) -> Store:
    """A connection to the repository's store (close it, or use it in a `with`)."""
    return Store(repo / ".a2a" / "a2a.db")


def append_as_written(tx: Tx, kind: str, *, actor: str, task: str | None = None,
                      attempt: str | None = None, session: str | None = None,
                      payload: dict[str, Any] | None = None, ts_ns: int) -> int:
    """Append an event whose payload is a plain dict, chained like any other, whatever its
    kind: an event as an older a2a (or a hand with the database file) wrote it, which `Tx.append`
    refuses for a kind with a payload type (a2a_tui/payloads). Its seq."""
    last, prev = chain.tip(tx.conn)
    text = dumps(payload or {})
    tx.execute("INSERT INTO events(seq, ts_ns, kind, actor, task, attempt, session, payload, hash)"
               " VALUES (?,?,?,?,?,?,?,?,?)",
               (last + 1, ts_ns, kind, actor, task, attempt, session, text,
                chain.link(prev, last + 1, ts_ns, kind, actor, task, attempt, session, text)))
    return last + 1


def rows(repo: Path, sql: str, params: tuple = ()) -> list[dict[str, Any]]:
    with store(repo) as s:
        return [dict(r) for r in s.all(sql, params)]


def session(repo: Path, sid: str) -> dict[str, Any]:
    """The session's row ({} when there is none)."""
    with store(repo) as s:
        row = s.one("SELECT * FROM sessions WHERE id = ?", (sid,))
        return dict(row) if row else {}


def dispatch(repo: Path, n: int) -> dict[str, Any]:
    with store(repo) as s:
        return dict(s.one("SELECT * FROM dispatches WHERE n = ?", (n,)))


def events(repo: Path, *kinds: str, session: str | None = None) -> list[Event]:
    with store(repo) as s:
        return s.events(kinds=list(kinds) or None, session=session)


def signals(repo: Path, sid: str, *names: str) -> list[dict[str, Any]]:
    """The payloads of the session's signals (only those named `names`, when given)."""
    return [e.payload for e in events(repo, "signal", session=sid)
            if not names or e.payload["event"] in names]


def wait_state(repo: Path, sid: str, state: str, timeout: float = 30,
               interval: float = 0.05) -> dict[str, Any]:
    """Wait until the session is in `state`; its row."""
    return wait_until(lambda: (s := session(repo, sid)).get("state") == state and s,
                      timeout=timeout, interval=interval, what=f"{sid} to be {state}")
