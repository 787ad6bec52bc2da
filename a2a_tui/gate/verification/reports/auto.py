"""The reports of a check's run: those a2a asks for itself, and those the card declares.

- pytest: `PYTEST_ADDOPTS=--junitxml=<log>.pytest.xml -o junit_family=xunit1` (xunit1 names
  each test's file, so ids are pytest's node ids).
- `node --test`: `NODE_OPTIONS` adds a2a's reporter (node_reporter.mjs) writing
  `<log>.node.xml`, and Node's `spec` reporter on stdout as before; only when the node on the
  check's PATH takes reporters there (Node 18.15 and later): an older node refuses an option it
  does not know in NODE_OPTIONS, and every node process of the check would fail.
- cargo: a2a's runner for the test binaries (named on the card, witness/a2a_libtest.py) reads
  libtest's events and writes every test's outcome on the run's channel: that is the report.
- Any other runner: the card names the file(s) — `report = "…"` on a check, `red_report` for the
  red command: a file, a folder (every `.xml` and `.tap` below it) or a glob, inside the
  checkout. Only files the run wrote or changed count, never a file of the commit's tree, nor
  one that was there before the run; each is copied beside the log.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from a2a_tui.gate.cards.schema import glob_to_regex
from a2a_tui.gate.verification.reports import channel, junit, tap
from a2a_tui.gate.verification.reports.model import TestReport

NODE_REPORTER = Path(__file__).with_name("node_reporter.mjs")
SUFFIXES = (".pytest.xml", ".node.xml")
MAX_FILES = 200_000      # a declared glob walks the checkout; it stops after this many entries
MAX_REPORTS = 1000


def read(path: Path) -> TestReport | None:
    """One report file: JUnit XML or TAP, told apart by their content."""
    try:
        with open(path, "rb") as f:
            head = f.read(512)
    except OSError:
        return None
    if head.lstrip().startswith(b"<"):
        return junit.read(path)
    return tap.read(path)


def env_for(base: dict[str, str], log: Path, command: str = "") -> dict[str, str]:
    """The variables that make pytest and `node --test` write their reports beside `log` (and
    open the run's channel for the reporters `command` names)."""
    pytest_xml, node_xml = (log.with_suffix(s) for s in SUFFIXES)
    for p in (pytest_xml, node_xml):
        p.unlink(missing_ok=True)
    env = channel.env_for(base, log, command)
    env["PYTEST_ADDOPTS"] = _join(base.get("PYTEST_ADDOPTS"), "--junitxml=" + _q(pytest_xml),
                                  "-o junit_family=xunit1", "-p a2a_pytest_witness",
                                  "-o enable_assertion_pass_hook=true")
    if node_takes_reporters(base.get("PATH", os.defpath)):
        env["NODE_OPTIONS"] = _join(
            base.get("NODE_OPTIONS"), f"--test-reporter={_q(NODE_REPORTER)}",
            f"--test-reporter-destination={_q(node_xml)}", "--test-reporter=spec",
            "--test-reporter-destination=stdout")
    return env


def read_auto(log: Path) -> TestReport | None:
    """What pytest and node wrote beside `log` (None: neither ran), with what the run's own
    channel says of it (channel.py)."""
    found = [r for r in (read(log.with_suffix(s)) for s in SUFFIXES) if r is not None]
    w = channel.read(log)
    own = channel.report(w)  # libtest's tests, as a2a's cargo runner saw them
    return witnessed(_merge([*found, own] if own else found), w)


def witnessed(report: TestReport | None, w: channel.Witness | None) -> TestReport | None:
    """The report with the channel's records on it; an empty report when the channel shows a
    runner that never finished and no report was written."""
    if w is None:
        return report
    if report is None:
        runners = "+".join(dict.fromkeys([*w.started.values(), *w.missing]))
        return TestReport(runners, witness=w) if w.unfinished() else None
    return dataclasses.replace(report, witness=w)


def _join(*parts: str | None) -> str:
    return " ".join(p for p in parts if p)


def _q(path: Path) -> str:
    """A path for pytest's and node's option parsers: both take a double-quoted word."""
    return '"' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"'


@functools.cache
def _node_version(node: str) -> tuple[int, ...]:
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=10,
                             stdin=subprocess.DEVNULL, env={"PATH": os.defpath}).stdout
        return tuple(int(p) for p in out.strip().lstrip("v").split(".")[:3])
    except (OSError, subprocess.SubprocessError, ValueError):
        return ()


def node_takes_reporters(path: str) -> bool:
    """Whether the node found on `path` accepts --test-reporter in NODE_OPTIONS."""
    node = shutil.which("node", path=path)
    return node is not None and _node_version(os.path.realpath(node)) >= (18, 15)


def _merge(reports: list[TestReport]) -> TestReport | None:
    if not reports:
        return None
    out = reports[0]
    for r in reports[1:]:
        out = out.merged(r)
    return out


@dataclass
class Declared:
    """A check's `report` pattern, looked for in its checkout before and after the run."""

    pattern: str
    before: dict[str, tuple[int, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def snapshot(self, tree: Path) -> None:
        self.before = self._matches(tree)

    def collect(self, tree: Path, tracked: set[str], keep: Path) -> TestReport | None:
        """The report the run wrote, copied under `keep`; None (with a note) when there is
        none."""
        now = self._matches(tree)
        fresh = [rel for rel, sig in sorted(now.items())
                 if rel not in tracked and self.before.get(rel) != sig][:MAX_REPORTS]
        stale = sorted(rel for rel in now if rel in tracked)
        if stale:
            self.notes.append(f"{', '.join(stale[:5])}: in the commit, not written by the run:"
                              " ignored")
        found = []
        for rel in fresh:
            report = read(tree / rel)
            if report is None:
                self.notes.append(f"{rel}: not a JUnit XML or TAP report")
                continue
            found.append(report)
            dst = keep / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(tree / rel, dst, follow_symlinks=False)
        if not fresh:
            self.notes.append(f"the run wrote no report at {self.pattern!r}")
        return _merge(found)

    def _matches(self, tree: Path) -> dict[str, tuple[int, int]]:
        """Regular files (not symlinks) matching the pattern, inside the checkout:
        path -> (mtime_ns, size)."""
        pat = self.pattern.strip().removeprefix("./").rstrip("/")
        whole = tree / pat
        if not any(ch in pat for ch in "*?["):
            if whole.is_file() and not whole.is_symlink() and _inside(tree, whole):
                return {pat: _signature(whole)}
            if not whole.is_dir() or whole.is_symlink():
                return {}
            regex, start, suffixes = glob_to_regex(pat + "/**"), whole, (".xml", ".tap")
        else:
            regex, start, suffixes = glob_to_regex(pat), tree / _fixed_prefix(pat), ("",)
        if not _inside(tree, start):
            return {}
        out: dict[str, tuple[int, int]] = {}
        seen = 0
        for dirpath, dirnames, filenames in os.walk(start):
            dirnames[:] = [d for d in dirnames if d != ".git"]
            for name in filenames:
                seen += 1
                if seen > MAX_FILES:
                    return out
                full = Path(dirpath) / name
                rel = full.relative_to(tree).as_posix()
                if regex.match(rel) and name.endswith(suffixes) and full.is_file() \
                        and not full.is_symlink():
                    out[rel] = _signature(full)
        return out


def _signature(path: Path) -> tuple[int, int]:
    st = path.lstat()
    return st.st_mtime_ns, st.st_size


def _inside(tree: Path, path: Path) -> bool:
    return path.resolve().is_relative_to(tree.resolve())


def _fixed_prefix(pattern: str) -> str:
    """The folders of a glob before its first wildcard (where the walk starts)."""
    parts = []
    for part in pattern.split("/")[:-1]:
        if any(ch in part for ch in "*?["):
            break
        parts.append(part)
    return "/".join(parts)
