"""a2a's runner for Rust test binaries, named on a cargo check as cargo's runner:
`cargo test --config "target.'cfg(all())'.runner='$A2A_CARGO_RUNNER'"` (reports/channel.py).

cargo starts each test binary through it (`<runner> <binary> <args>`). It takes the run's
channel out of the environment, writes the start record, and runs the binary as its child,
asking libtest for its JSON events (`-Z unstable-options --format json`, with RUSTC_BOOTSTRAP=1
for the child only), which it reads from the child's standard output and shows as libtest's
own lines (`test x ... ok`, `test result: …`). Only when libtest's suite-end event came and the
child exited does it write the end-of-run record, with every test's outcome: that record is the
check's report. A test that writes a report or libtest's lines itself and ends the process
leaves a start without an end (report_incomplete); what it printed that is not an event goes to
standard error. A binary outside `deps/` (a `cargo run` program) or asked for its own format,
a listing or help runs unchanged.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I leaves it out
from a2a_witness_channel import opened  # noqa: E402

write = opened("libtest")
OWN = ("--format", "-Z", "--list", "-h", "--help", "--logfile", "--bench")
OUTCOME = {"ok": "passed", "failed": "failed", "ignored": "skipped", "timeout": "failed"}
MARK = {"passed": "ok", "failed": "FAILED", "skipped": "ignored"}


def events(child: subprocess.Popen, quiet: bool) -> tuple[dict[str, str], list[str], dict]:
    """The child's events read as they come, shown as libtest shows them: (test -> outcome,
    the failures' output, the suite's end event ({} when none came))."""
    tests: dict[str, str] = {}
    failures: list[str] = []
    end: dict = {}
    assert child.stdout is not None
    for raw in child.stdout:
        try:
            ev = json.loads(raw)
        except ValueError:
            ev = None
        if not isinstance(ev, dict):
            sys.stderr.write(raw.decode(errors="replace"))
            continue
        if ev.get("type") == "suite" and ev.get("event") == "started":
            print(f"\nrunning {ev.get('test_count', 0)} tests", flush=True)
        elif ev.get("type") == "suite" and ev.get("event") in ("ok", "failed"):
            end = ev
        elif ev.get("type") == "test" and ev.get("event") in OUTCOME:
            name, outcome = str(ev.get("name")), OUTCOME[ev["event"]]
            tests[name] = outcome
            if outcome == "failed":
                failures.append(f"---- {name} stdout ----\n{ev.get('stdout', '')}")
            if quiet and outcome == "passed":
                print(".", end="", flush=True)
            else:
                print(f"test {name} ... {MARK[outcome]}", flush=True)
    return tests, failures, end


def main(argv: list[str]) -> int:
    binary, args = argv[0], argv[1:]
    if os.path.basename(os.path.dirname(binary)) != "deps" or any(
            a.split("=")[0] in OWN for a in args):
        return subprocess.call([binary, *args])
    write({"event": "start", "binary": os.path.basename(binary)})
    quiet = any(a in ("-q", "--quiet") for a in args)
    args = [a for a in args if a not in ("-q", "--quiet")]
    child = subprocess.Popen([binary, *args, "-Z", "unstable-options", "--format", "json"],
                             stdout=subprocess.PIPE, env=dict(os.environ, RUSTC_BOOTSTRAP="1"))
    tests, failures, end = events(child, quiet)
    code = child.wait()
    if failures:
        print("\nfailures:\n\n" + "\n".join(failures))
    if end:
        n = {k: end.get(k, 0) for k in ("passed", "failed", "ignored", "measured",
                                         "filtered_out")}
        print(f"\ntest result: {'ok' if end['event'] == 'ok' else 'FAILED'}. {n['passed']}"
              f" passed; {n['failed']} failed; {n['ignored']} ignored; {n['measured']}"
              f" measured; {n['filtered_out']} filtered out\n", flush=True)
        counts: dict[str, int] = {}
        for outcome in tests.values():
            counts[outcome] = counts.get(outcome, 0) + 1
        write({"event": "end", "exit": code, "counts": counts, "binary": _crate(binary),
               "tests": tests})
    return code


def _crate(binary: str) -> str:
    """The test binary's target name, without cargo's hash."""
    return re.sub(r"-[0-9a-f]{16}$", "", os.path.basename(binary))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
