"""Benchmark the per-test evidence: what holding a candidate to its base, test by test, costs a
verify on a 500-test pytest suite (one run, in-process, the real gate and store).

Each verify is of a new card's attempt on the same target head (the check: `python -m pytest -q
tests`, 10 files of 50 tests), the candidate changing `src/` only unless said:
- without the base comparison: the chain with its per-test step replaced by a pass (the gate as
  it was before it; the check's own run and its report are still there);
- base run now: each card's env differs, so no run of its check on the base is in the log (the
  first attempt after the target moved): the check runs on the base too;
- base from the log: the target has not moved since a verify recorded the base's tests (the
  cache hit);
- a test file edited: base from the log, and the base's test files run against the candidate's
  code (a third run).
And what a2a's own reporter costs beside the runner alone (issue 36): the same suite run by
pytest with only its JUnit report (what a2a asked before), and with a2a's plugin and the run's
channel as well (`reports.env_for`: the start and end-of-run records, the outcome and
assertion counts, `enable_assertion_pass_hook`). Aim: within 5 %. Likewise, where the runner
is here (the test samples' shared npm folders, cargo on PATH): jest and vitest with and without
a2a's reporter beside their JUnit one, and `cargo test` with and without a2a's runner.
`python bench/bench_tests.py [--tests 500] [--cards 3]`
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import row

# isort: split
from a2a_tui.gate import GateContext, add_card, claim, ready_card, submit, verify
from a2a_tui.gate.verification import chain as chain_module
from a2a_tui.gate.verification import reports
from a2a_tui.gate.verification.results import CheckResult
from a2a_tui.repo import Repo
from tests.support import World, commit_in, write_card

FILES = 10
CHECK = f"{sys.executable} -m pytest -q tests"


def suite(tests: int) -> dict[str, str]:
    per = max(1, tests // FILES)
    files = {"pytest.ini": "[pytest]\naddopts = -p no:cacheprovider\n", "src/app.py": "x = 0\n"}
    for f in range(FILES):
        files[f"tests/test_{f:02d}.py"] = "".join(
            f"def test_{f}_{i}():\n    assert {i} + 1 == {i + 1}\n\n\n" for i in range(per))
    return files


class Bench:
    def __init__(self, w: World):
        self.w, self.n = w, 0
        self.r = Repo(w.repo)
        self.store = self.r.store()
        self.g = GateContext(self.r, self.store)

    def verify_one(self, env: str, files: dict[str, str]) -> float:
        """Seconds one verify of a new card's candidate takes (it must pass)."""
        self.n += 1
        card_id = f"B-{self.n}"
        card = write_card(self.w.repo, card_id, CHECK, extra=f'[env]\nBENCH_ENV = "{env}"\n')
        add_card(self.g, card)
        ready_card(self.g, card_id)
        c = claim(self.g, card_id)
        sha = commit_in(Path(c.worktree), files, env=self.w.env)
        submit(self.g, c.attempt, sha, c.card_version, c.fence)
        t0 = time.perf_counter()
        v = verify(self.g, c.attempt)
        wall = time.perf_counter() - t0
        assert v.passed, [x.detail for x in v.results if not x.passed]
        return wall


def _no_base_comparison(_c, _own) -> CheckResult:
    return CheckResult("per-test", "per-test", True, True, detail="(benchmark: left out)")


def measure(tests: int, cards: int) -> dict[str, list[float]]:
    w = World(repo=False)
    w.enter()
    w.init_repo(files=suite(tests))
    b = Bench(w)
    out: dict[str, list[float]] = {k: [] for k in ("without", "base run now", "from the log",
                                                   "test file edited")}
    edited = {"tests/test_00.py": suite(tests)["tests/test_00.py"]
              + "def test_new():\n    assert True\n"}
    try:
        b.verify_one("warm", {"src/app.py": "x = 1\n"})   # the base's tests for env "warm"
        real = chain_module.per_test.tests
        for i in range(cards):
            chain_module.per_test.tests = _no_base_comparison
            try:
                out["without"].append(b.verify_one("warm", {"src/app.py": f"x = {i + 2}\n"}))
            finally:
                chain_module.per_test.tests = real
            out["base run now"].append(b.verify_one(f"new-{i}", {"src/app.py": f"y = {i}\n"}))
            out["from the log"].append(b.verify_one("warm", {"src/app.py": f"z = {i}\n"}))
            out["test file edited"].append(b.verify_one("warm", edited))
    finally:
        b.store.close()
        w.close()
    return out


def reporter_cost(tests: int, runs: int) -> dict[str, list[float]]:
    """Seconds pytest takes on the suite: with its JUnit report only, and with a2a's plugin and
    channel too (alternating, so both see the same machine)."""
    out: dict[str, list[float]] = {"junit only": [], "a2a's reporter": []}
    with tempfile.TemporaryDirectory(prefix="a2a-bench-reporter-") as tmp:
        root = Path(tmp)
        for rel, text in suite(tests).items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text)
        log = root / "logs" / "run.log"
        log.parent.mkdir()
        base = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
        for _ in range(runs + 1):  # the first of each is a warm-up
            for kind in out:
                env = dict(base, PYTHONSAFEPATH="1", **reports.env_for(base, log))
                if kind == "junit only":
                    env["PYTEST_ADDOPTS"] = f'--junitxml="{log.with_suffix(".pytest.xml")}"'
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-m", "pytest", "-q", "tests"], cwd=root,
                               env=env, stdout=subprocess.DEVNULL, check=True)
                out[kind].append(time.perf_counter() - t0)
                reports.read_auto(log)  # the channel's token is taken back
    return {k: v[1:] for k, v in out.items()}


NPM = {"jest": Path("/tmp/a2a-test-jest-29-junit-16/node_modules"),
       "vitest": Path("/tmp/a2a-test-vitest-3/node_modules")}
WHAT = {"cargo": "runner (libtest's events read, its lines shown)"}
JS_TEST = "test('t{i}', () => {{ expect({i} + 1).toBe({i1}); }});\n"


def _runner_projects(root: Path, tests: int) -> dict[str, tuple[list[str], list[str]]]:
    """Each runner found here: a project of `tests` tests under `root`, and its argv without
    and with a2a's reporter (or runner)."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    witness = reports.channel.WITNESS
    per = max(1, tests // FILES)
    js = {f"test/t{f}.test.js": "".join(JS_TEST.format(i=i, i1=i + 1) for i in range(per))
          for f in range(FILES)}
    if (NPM["jest"] / ".bin/jest").exists():
        _write(root / "jest", {"package.json": "{}\n", **js})
        argv = [str(NPM["jest"] / ".bin/jest"), "--ci", "--watchman=false",
                "--reporters=default", f"--reporters={NPM['jest'] / 'jest-junit'}"]
        out["jest"] = (argv, [*argv, f"--reporters={witness / 'a2a_jest.cjs'}"])
    if (NPM["vitest"] / ".bin/vitest").exists():
        _write(root / "vitest", {"package.json": "{}\n", **js})
        argv = [str(NPM["vitest"] / ".bin/vitest"), "run", "--globals", "--reporter=default",
                "--reporter=junit", "--outputFile=vitest.xml"]
        out["vitest"] = (argv, [*argv, f"--reporter={witness / 'a2a_vitest.mjs'}"])
    cargo = shutil.which("cargo")
    if cargo:
        lib = "".join(f"#[test]\nfn t{i}() {{ assert_eq!({i} + 1, {i + 1}); }}\n"
                      for i in range(tests))
        _write(root / "cargo", {"Cargo.toml": '[package]\nname = "b"\nversion = "0.1.0"\n'
                                              'edition = "2021"\n', "src/lib.rs": lib})
        runner = f"{sys.executable} -I {witness / 'a2a_libtest.py'}"
        argv = [cargo, "test", "-q"]
        out["cargo"] = (argv, [*argv, "--config", f"target.'cfg(all())'.runner='{runner}'"])
    return out


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def runner_costs(tests: int, runs: int) -> dict[str, dict[str, list[float]]]:
    """Seconds each runner found here takes on its project: alone (with its JUnit report) and
    with a2a's reporter or runner on the run's channel (alternating; the first a warm-up)."""
    out: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory(prefix="a2a-bench-runners-") as tmp:
        log = Path(tmp) / "logs" / "run.log"
        log.parent.mkdir()
        base = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
        for name, (alone, with_a2a) in _runner_projects(Path(tmp), tests).items():
            times: dict[str, list[float]] = {"alone": [], "a2a": []}
            for _ in range(runs + 1):
                for kind, argv in (("alone", alone), ("a2a", with_a2a)):
                    env = dict(base, **reports.env_for(base, log, " ".join(argv)))
                    t0 = time.perf_counter()
                    subprocess.run(argv, cwd=Path(tmp) / name, env=env, check=False,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    times[kind].append(time.perf_counter() - t0)
                    reports.read_auto(log)
            out[name] = {k: v[1:] for k, v in times.items()}
    return out


def rows(quick: bool) -> list[dict]:
    tests, cards = (50, 1) if quick else (500, 3)
    t = measure(tests, cards)
    without = [("verify without the base comparison (the check's run alone)", t["without"])]
    cost = reporter_cost(tests, 3 if quick else 7)
    others = [row(f"{name}, {tests} tests, with a2a's {WHAT.get(name, 'reporter')}", "s",
                  c["a2a"], limits=[(f"{name} alone", c["alone"])], aim=1.05,
                  note="its start and end-of-run records on the run's channel")
              for name, c in runner_costs(tests, 3 if quick else 7).items()]
    return [*others,
        row(f"pytest, {tests} tests, with a2a's reporter and channel", "s",
            cost["a2a's reporter"], limits=[("pytest with its JUnit report alone",
                                             cost["junit only"])], aim=1.05,
            note="the plugin's start and end-of-run records, outcome and assertion counts"),
        row(f"verify, {tests} tests, base from the log (target not moved)", "s",
            t["from the log"], limits=without,
            note="the cache hit: the base's tests read from the log, compared test by test"),
        row(f"verify, {tests} tests, base run now (target moved)", "s", t["base run now"],
            limits=without, aim=None,
            note="the check runs on the base too: about one more run of the suite"),
        row(f"verify, {tests} tests, a test file edited", "s", t["test file edited"],
            limits=without, aim=None,
            note="base from the log; the base's test files run against the candidate's code"),
    ]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tests", type=int, default=500)
    ap.add_argument("--cards", type=int, default=3)
    args = ap.parse_args()
    costs = {f"{name} {kind}": v for name, c in runner_costs(args.tests, 5).items()
             for kind, v in c.items()}
    for k, v in {**costs, **reporter_cost(args.tests, 5),
                 **measure(args.tests, args.cards)}.items():
        print(f"{k:<18} " + "  ".join(f"{x:.2f}s" for x in v))


if __name__ == "__main__":
    main()
