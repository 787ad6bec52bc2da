"""The full logs of a verify's checks: which one to read, and reading it (`a2a log`, the
workbench's log view).

A command check (and the red check) writes its whole output to
`.a2a/logs/<attempt>/run<n>/<check>.log`; the store keeps the path beside the result. The
structural checks (sanity, boundary, drift, provenance) write none: their result is their detail.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from a2a_tui.errors import A2AError

MAX_BYTES = 2_000_000       # a log longer than this is read from its end, and says so


@dataclass(frozen=True)
class CheckLog:
    """One check's log in one verify run."""

    attempt: str
    run: int
    check: str
    passed: bool
    path: Path


def find_log(db, attempt_id: str, check: str | None = None, run: int | None = None
             ) -> CheckLog:
    """The log of `check` in verify run `run` of the attempt (the last run by default). Without
    `check`: the first failed check that wrote a log, else the last check that wrote one."""
    if db.one("SELECT 1 FROM attempts WHERE id = ?", (attempt_id,)) is None:
        raise A2AError("unknown_attempt", f"no attempt {attempt_id!r} (see `a2a status`)")
    runs = [r[0] for r in db.all("SELECT run FROM verifications WHERE attempt_id = ?"
                                 " ORDER BY run", (attempt_id,))]
    if not runs:
        raise A2AError("not_verified", f"{attempt_id} has not been verified yet: no logs"
                       f" (`a2a verify {attempt_id}`)")
    if run is None:
        run = runs[-1]
    elif run not in runs:
        raise A2AError("unknown_run", f"{attempt_id} has no verify run {run}"
                       f" (runs: {', '.join(map(str, runs))})")
    results = db.all("SELECT name, passed, log_path, detail FROM check_results"
                     " WHERE attempt_id = ? AND run = ? ORDER BY id", (attempt_id, run))
    names = ", ".join(r["name"] for r in results) or "none yet"
    if check is None:
        logged = [r for r in results if r["log_path"]]
        row = next((r for r in logged if not r["passed"]), logged[-1] if logged else None)
        if row is None:
            raise A2AError("no_log", f"no check of {attempt_id}'s run {run} wrote a log"
                           f" (its checks: {names}); structural checks keep only their detail")
    else:
        row = next((r for r in results if r["name"] == check), None)
        if row is None:
            raise A2AError("unknown_check", f"{attempt_id}'s run {run} has no check"
                           f" {check!r} (its checks: {names})")
        if not row["log_path"]:
            raise A2AError("no_log", f"{check} wrote no log: it is a structural check or was"
                           f" skipped; its result: {row['detail']}")
    return CheckLog(attempt_id, run, row["name"], bool(row["passed"]), Path(row["log_path"]))


def read_log(path: Path, max_bytes: int = MAX_BYTES) -> tuple[str, bool]:
    """The log's text (its last `max_bytes` when longer) and whether it was cut."""
    try:
        with open(path, "rb") as f:
            size = f.seek(0, 2)
            f.seek(max(0, size - max_bytes))
            data = f.read()
    except FileNotFoundError as exc:
        raise A2AError("log_missing", f"the log {path} is gone (removed by hand?)") from exc
    text = data.decode("utf-8", errors="replace")
    if size > max_bytes:
        text = text.split("\n", 1)[-1]   # start on a whole line
    return text, size > max_bytes
