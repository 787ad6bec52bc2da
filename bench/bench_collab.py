"""Collaboration records: how long identity, posting, answering and listing take.

Run: `python bench/bench_collab.py` (a temporary git repository; no tmux, no agents).
Prints medians and 95th percentiles from one run.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def stats(name: str, samples: list[float], unit: str = "ms") -> None:
    k = 1e3 if unit == "ms" else 1e6
    s = sorted(samples)
    p95 = s[int(len(s) * 0.95) - 1]
    print(f"{name:<48} median {statistics.median(s) * k:8.2f} {unit}"
          f"   p95 {p95 * k:8.2f} {unit}   n={len(s)}")


def timed(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    from a2a_tui.collab import board, inbox
    from a2a_tui.collab.context import Collab
    from a2a_tui.identity import Caller, proc_stat, resolve_caller
    from a2a_tui.repo import Repo

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
        for cmd in (["git", "init", "-q", "-b", "main"],
                    ["git", "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q",
                     "--allow-empty", "-m", "i"],
                    [sys.executable, "-m", "a2a_tui", "init"]):
            subprocess.run(cmd, cwd=root, env=env, check=True, capture_output=True)
        repo = Repo(root)
        store = repo.store()
        # 50 sessions whose pane processes are not ours: the caller walks its whole ancestry.
        me = proc_stat(os.getppid())
        with store.write() as tx:
            for i in range(50):
                seq = tx.append("bench_session", actor="user", session=f"s{i}")
                tx.execute("INSERT INTO sessions(id, role, cli, cwd, pane_pid, pane_pid_start,"
                           " pane_tty, state, state_since_ns, launch_seq, created_ns)"
                           " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                           (f"s{i}", "worker", "demo", tmp, 10_000_000 + i, me[2], "/dev/null",
                            "exited", 0, seq, 0))
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
        t = [0.0] * 10
        for i in range(10):
            s = time.perf_counter()
            subprocess.run([sys.executable, "-m", "a2a_tui", "inbox", "list", "--json"],
                           cwd=root, env=env, check=True, capture_output=True)
            t[i] = time.perf_counter() - s
        stats("`a2a inbox list --json` CLI, 600 entries", t)
        stats("board.list_board, 10 items + 10 answers",
              timed(lambda: board.list_board(store), 50))
        store.close()


if __name__ == "__main__":
    main()
