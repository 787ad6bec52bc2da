"""Collaboration records: how long identity, posting, answering and listing take.

Run: `python bench/bench_collab.py` (a temporary git repository; no tmux, no agents).
Prints medians and 95th percentiles from one run.
"""

from __future__ import annotations

import os
import statistics

from benchlib import timed

# isort: split
from a2a_tui.collab import board, inbox
from a2a_tui.collab.context import Collab
from a2a_tui.identity import Caller, resolve_caller
from a2a_tui.repo import Repo
from tests.support import World, proc_start, register_session


def stats(name: str, samples: list[float], unit: str = "ms") -> None:
    k = 1e3 if unit == "ms" else 1e6
    s = sorted(samples)
    p95 = s[int(len(s) * 0.95) - 1]
    print(f"{name:<48} median {statistics.median(s) * k:8.2f} {unit}"
          f"   p95 {p95 * k:8.2f} {unit}   n={len(s)}")


def main() -> None:
    with World() as w:
        run(w)


def run(w: World) -> None:
    repo = Repo(w.repo)
    store = repo.store()
    # 50 sessions whose pane processes are not ours: the caller walks its whole ancestry.
    me = proc_start(os.getppid())
    for i in range(50):
        register_session(store, f"s{i}", "worker", pid=10_000_000 + i, start=me,
                         tty="/dev/null", state="exited")
    stats("resolve_caller, 50 sessions (user)", timed(lambda: resolve_caller(store), 500),
          "us")
    ide = Collab(repo, store, Caller("ide1", "ideation"))
    exe = Collab(repo, store, Caller("exe1", "executive"))
    user = Collab(repo, store, Caller())
    stats("inbox.post report (executive)",
          timed(lambda: inbox.post(exe, "report", "r", status="INCOMPLETE"), 300))
    stats("inbox.post relay (ideation, --ref)",
          timed(lambda: inbox.post(ide, "report", "r", status="BLOCKED", ref="I-1"), 300))
    for i in range(10):
        board.ask(ide, f"Q{i}?", ["A=a", "B=b"], "A", "why")
    stats("board.answer --hold", timed(
        lambda: board.answer(user, f"Q-{1 + len(store.all('SELECT 1 FROM board_records'))}",
                             adopt=True, hold=True), 10))
    stats("inbox.list_entries, 600 entries", timed(lambda: inbox.list_entries(store), 20))

    def inbox_list() -> None:
        r = w.a2a("inbox", "list", "--json")
        if r.code != 0:
            raise SystemExit(f"a2a inbox list: {r.err}")

    stats("`a2a inbox list --json` CLI, 600 entries", timed(inbox_list, 10))
    stats("board.list_board, 10 items + 10 answers",
          timed(lambda: board.list_board(store), 50))
    store.close()


if __name__ == "__main__":
    main()
