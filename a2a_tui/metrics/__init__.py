"""Metrics, computed on demand from the raw event log only: nothing is stored precomputed and no
projection table is read, so a view written today works on last year's history.

Views (seed 003 三.9, seed 001's fair comparison): `usage` (project -> task -> attempt ->
session), `first-pass` (and rejections by step and code), `attention` (every time the user was
needed, with the time it waited), `scores` (boundary and taste beside the objective fields) and
`tasks` (per task: rounds, wall time, waiting, rework, interventions). `history.py` reads the
events; `views.py` folds them; `tables.py` prints them; `retro.py` builds retrospectives.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from datetime import datetime

from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import JsonObject
from a2a_tui.kinds import GateEvent
from a2a_tui.metrics import tables as _tables
from a2a_tui.metrics.history import History, load
from a2a_tui.metrics.views import VIEWS, series_json

__all__ = ["VIEWS", "History", "check_view", "compute_json", "history", "parse_since", "render",
           "series_json"]

JSON_KEY = {name: name.replace("-", "_") for name in VIEWS}
_DURATION = re.compile(r"^(\d+)\s*([smhdw])$")
_UNIT_S = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}

# History by (store file, since): reused while the log has not grown (its last seq is the key).
_CACHE: OrderedDict[tuple[str, int | None], History] = OrderedDict()
_CACHE_SIZE = 8
_CACHE_LOCK = threading.Lock()


def parse_since(text: str, now_ns: int | None = None) -> int:
    """`7d`, `12h`, `30m`, `2w`, `90s` before now, or a local date/time (`2026-01-31`,
    `2026-01-31T09:00`), as nanoseconds since the epoch."""
    text = text.strip()
    now_ns = time.time_ns() if now_ns is None else now_ns
    m = _DURATION.match(text)
    if m:
        return now_ns - int(m[1]) * _UNIT_S[m[2]] * 1_000_000_000
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise A2AError("bad_since", f"--since {text!r}: give a duration (90s, 30m, 12h, 7d, 2w)"
                       " or a date (2026-01-31, 2026-01-31T09:00)", exit_code=2) from None
    return int(when.timestamp() * 1e9)


def history(store, *, since_ns: int | None = None) -> History:
    """The history from `since_ns` on; a cached one while no event was appended since."""
    key = (str(store.path), since_ns)
    last = store.last_seq()
    with _CACHE_LOCK:
        h = _CACHE.get(key)
        if h is not None and h.last_seq == last:
            _CACHE.move_to_end(key)
            return h
    h = load(store, since_ns=since_ns)
    with _CACHE_LOCK:
        _CACHE[key] = h
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return h


def check_view(view: str | None) -> None:
    """Refuse a view name that is not one of VIEWS (None: all of them)."""
    if view is not None and view not in VIEWS:
        raise A2AError("bad_view", f"no metrics view {view!r}: one of {', '.join(VIEWS)}",
                       exit_code=2)


def compute_json(store, view: str | None = None, *, since_ns: int | None = None,
                 task: str | None = None) -> JsonObject:
    """One view (or all, when `view` is None) as JSON-ready data, from the events alone."""
    check_view(view)
    h = history(store, since_ns=since_ns)
    if task is not None:
        if task not in h.cards and not _has_card(store, task):
            raise A2AError("unknown_task", f"no task {task!r} in the event log (see `a2a card"
                           " list`)", exit_code=2)
        h = h.only_task(task)
    out: JsonObject = {"last_seq": h.last_seq, "since_ns": since_ns, "task": task}
    for name in [view] if view else list(VIEWS):
        out[JSON_KEY[name]] = VIEWS[name](h)
    return out


def _has_card(store, task: str) -> bool:
    """Whether the log holds the task's card (a `--since` history holds only its period's)."""
    return store.one("SELECT 1 FROM events INDEXED BY events_task WHERE task = ? AND kind = ?"
                     " LIMIT 1", (task, GateEvent.CARD_ADDED)) is not None


def render(data: JsonObject) -> str:
    """The views in `data` (as `compute_json` returns them) as text tables."""
    since = data.get("since_ns")
    scope = [f"events to #{data['last_seq']}"]
    if since is not None:
        scope.insert(0, "since " + datetime.fromtimestamp(since / 1e9).strftime("%Y-%m-%d %H:%M"))
    if data.get("task"):
        scope.insert(0, f"task {data['task']}")
    lines: list[str] = []
    for name in VIEWS:
        if JSON_KEY[name] in data:
            if lines:
                lines.append("")
            lines.append(f"== {_tables.TITLES[name]} · {' · '.join(scope)} ==")
            lines += _tables.RENDER[name](data[JSON_KEY[name]])
    return "\n".join(lines)
