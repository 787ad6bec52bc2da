"""Benchmark the agent-facing commands' start-to-answer time against `python -c pass` (one run).

A real git repository in a temporary folder, `a2a init`, a card claimed for a session, and two
managed sessions whose pane processes are alive, so that identity has work to do: an ideation
session (`say` and the inbox deliver to it) and an executive session, the attempt's writer,
whose "pane" is a small runner process that starts the agent's commands as its own children
(`whoami` then finds it by the process tree). The user's commands start from this process and
walk their whole ancestry without a match.

Each command runs as a subprocess through the installed console script (`a2a` beside the
interpreter) and through `python -m a2a_tui`; the commands and the baseline are interleaved in
rounds, so machine load hits them alike, after one round that is not counted. Prints the median
and p90 of each, the median over all commands and its ratio to the baseline.

Bytecode: every interpreter here reads and writes compiled modules under a temporary
PYTHONPYCACHEPREFIX, as an installed package has them (pip compiles at install); with
`--no-pyc` the environment's PYTHONDONTWRITEBYTECODE stays, and an editable checkout is then
compiled from source at every start.

`.venv/bin/python bench/bench_cli.py [--runs 20] [--also OTHER_VENV/bin/python]`
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import pct  # first: it makes `tests` importable

# isort: split
from tests.support import at_terminal, commit_in, make_repo, register_session, write_card

ROOT = Path(__file__).resolve().parents[1]

# A "pane": runs the argv it reads (one JSON list a line) as its child, answers the wall time.
RUNNER = """\
import json, subprocess, sys, time
for line in sys.stdin:
    argv = json.loads(line)
    t0 = time.perf_counter()
    p = subprocess.run(argv, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    print(json.dumps([dt, p.returncode, p.stdout[-400:] + p.stderr[-400:]]), flush=True)
"""


class Runner:
    """Runs commands as children of a process that is a managed session's pane process."""

    def __init__(self, cwd: Path, env: dict[str, str]):
        self.proc = subprocess.Popen([sys.executable, "-c", RUNNER], cwd=cwd, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, argv: list[str]) -> tuple[float, int, str]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(argv) + "\n")
        self.proc.stdin.flush()
        dt, code, out = json.loads(self.proc.stdout.readline())
        return dt, code, out

    def close(self) -> None:
        self.proc.stdin.close()  # type: ignore[union-attr]
        self.proc.wait(timeout=10)


def direct(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int, str]:
    # At a terminal of its own, as the user runs it (a2a takes no terminal-less caller for
    # the user); the pty is made before the clock starts.
    t0 = time.perf_counter()
    p = at_terminal(argv, cwd=cwd, env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    return dt, p.returncode, p.stdout[-400:] + p.stderr[-400:]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20, help="rounds (runs of each command)")
    ap.add_argument("--no-pyc", action="store_true",
                    help="keep PYTHONDONTWRITEBYTECODE from the environment (see above)")
    ap.add_argument("--also", action="append", default=[], metavar="PYTHON",
                    help="another interpreter with a2a installed (another checkout, a"
                         " non-editable install), measured in the same rounds")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="a2a-bench-cli-"))
    home = tmp / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\tname = B\n\temail = b@example.com\n")
    env = dict(os.environ, HOME=str(home), GIT_CONFIG_GLOBAL=str(home / ".gitconfig"),
               GIT_CONFIG_NOSYSTEM="1")
    env.pop("A2A_PLATFORM", None)
    if not args.no_pyc:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    os.environ.update(env)  # the helpers run git and a2a with this process's environment
    pythons = [sys.executable, *args.also]
    for py in pythons:
        if not (Path(py).parent / "a2a").exists():
            raise SystemExit(f"no console script beside {py}: install the package there")
    repo = make_repo(tmp / "repo")

    def setup(*a: str) -> dict:
        p = at_terminal([sys.executable, "-m", "a2a_tui", *a, "--json"], cwd=repo, env=env,
                        capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"a2a {' '.join(a)}: {p.stdout}{p.stderr}")
        return json.loads(p.stdout)

    setup("init")
    setup("card", "add", str(write_card(repo, "T-1")))
    setup("card", "ready", "T-1")
    runner = Runner(repo, env)
    pane = subprocess.Popen(["sleep", "3600"])  # the ideation session's pane process
    try:
        register_session(repo, "x1", "executive", runner.proc.pid)
        register_session(repo, "i1", "ideation", pane.pid)
        claim = setup("claim", "T-1", "--writer", "x1")
        sha = commit_in(Path(claim["worktree"]), {"src/app.py": "x = 1\n"})
        commands = {
            "whoami": ["whoami"],
            "status": ["status"],
            "sessions": ["sessions"],
            "say": ["say", "hello"],
            # as the executive session x1, the attempt's writer:
            "whoami (session)": ["whoami"],
            "submit": ["submit", claim["attempt"], "--sha", sha, "--card-version", "1",
                       "--fence", str(claim["fence"])],
            "inbox post": ["inbox", "post", "report", "--text", "done", "--card", "T-1",
                           "--status", "PASS"],
            "board ask": ["board", "ask", "--title", "Which?", "--option", "a=one",
                          "--option", "b=two", "--recommend", "a", "--why", "because"],
            "board report": ["board", "report", "--title", "Flaky", "--body", "it flakes"],
        }
        as_user = ("whoami", "status", "sessions", "say")
        results = []
        for r in range(args.runs + 1):
            if r == 1:  # the first round compiled and cached the modules: it does not count
                results.clear()
            for py in pythons:
                entries = {"a2a": [str(Path(py).parent / "a2a")],
                           "python -m a2a_tui": [py, "-m", "a2a_tui"]}
                results.append((py, "baseline", "", direct([py, "-c", "pass"], repo, env)[0]))
                for entry, head in entries.items():
                    for name, argv in commands.items():
                        dt, code, out = (direct([*head, *argv], repo, env) if name in as_user
                                         else runner.run([*head, *argv]))
                        if code != 0:
                            raise SystemExit(f"{entry} {' '.join(argv)} failed ({code}): {out}")
                        if name == "whoami (session)" and "session x1" not in out:
                            raise SystemExit(f"the runner is not taken for session x1: {out}")
                        results.append((py, entry, name, dt))
                    results.append((py, "baseline", "", direct([py, "-c", "pass"], repo,
                                                                 env)[0]))
    finally:
        runner.close()
        pane.kill()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"agent-facing commands, {args.runs} runs each, interleaved with `python -c pass`;"
          f" bytecode {'as the environment has it' if args.no_pyc else 'cached'}; load average"
          f" {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for py in pythons:
        report(py, [(e, n, t) for p, e, n, t in results if p == py])


def report(py: str, results: list[tuple[str, str, float]]) -> None:
    """Median and p90 of each command, and of all of them against the baseline."""
    def line(label: str, v: list[float], extra: str = "") -> None:
        print(f"  {label:<38} median {statistics.median(v) * 1e3:6.0f} ms"
              f"   p90 {pct(v, 0.9) * 1e3:6.0f} ms{extra}")

    print(py)
    baseline = [t for e, _n, t in results if e == "baseline"]
    line("python -c pass", baseline)
    base = statistics.median(baseline)
    for entry in dict.fromkeys(e for e, _n, _t in results if e != "baseline"):
        runs = [(n, t) for e, n, t in results if e == entry]
        for name in dict.fromkeys(n for n, _t in runs):
            line(f"{entry} {name}", [t for n, t in runs if n == name])
        med = statistics.median(t for _n, t in runs)
        line(f"{entry}: all commands", [t for _n, t in runs],
             f"   ratio to python -c pass {med / base:4.1f}x")


if __name__ == "__main__":
    main()
