"""Probing a real CLI's input box directly: paste, pause, Enter, and what the CLI signals.

bench_delivery.py's `sweep` and `harmless` modes use it. The CLI is launched by `a2a spawn`
exactly as a2a launches it (its hooks write to the spool), but no `a2a serve` runs: this module
drives tmux itself (the same `Tmux.paste` / `send_keys` a2a's delivery uses) and reads the
CLI's signals straight from the spool files, so that the pause between paste and Enter is the
one under test, not the profile's.
"""

from __future__ import annotations

import os
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from benchlib import ROOT  # noqa: F401  (makes tests/ and a2a_tui importable)

# isort: split
from a2a_tui.panes.signals import MalformedSignal, Signal, parse
from a2a_tui.profiles import get as profile
from a2a_tui.repo import find_repo
from a2a_tui.tmux import Tmux
from tests.real_cli.harness import World, unwrap_paste

# The shapes a prompt takes: one line; three lines (Claude Code keeps them in the box as they
# are); five lines (Claude Code collapses them into "[Pasted text #N]").
SHAPES = ("one line {m}", "first line {m}\n  second, indented\nthird",
          "first line {m}\nsecond\n\nfourth after a blank\nfifth")


class Spool:
    """The signals a session's hooks wrote, read from the spool as they land (nobody else
    ingests them: no `a2a serve` runs)."""

    def __init__(self, spool_dir: Path, session: str):
        self.dir = spool_dir
        self.session = session
        self.seen: set[str] = set()
        self.signals: list[Signal] = []

    def poll(self) -> list[Signal]:
        new = []
        for root, _dirs, files in os.walk(self.dir):
            if Path(root).name == "quarantine":
                continue
            for name in files:
                path = Path(root) / name
                if name.startswith(".") or str(path) in self.seen:
                    continue
                self.seen.add(str(path))
                try:
                    sig = parse(path.read_bytes())
                except (MalformedSignal, OSError):
                    continue
                if sig.session == self.session:
                    new.append(sig)
        new.sort(key=lambda s: s.ts_ns)
        self.signals += new
        return new

    def wait(self, pred, timeout: float) -> Signal | None:
        """The first signal (already seen or new) matching `pred`, or None after `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            self.poll()
            for s in self.signals:
                if pred(s):
                    return s
            if time.monotonic() > deadline:
                return None
            time.sleep(0.01)

    def after(self, ts_ns: int) -> list[Signal]:
        self.poll()
        return [s for s in self.signals if s.ts_ns > ts_ns]


def carries(sig: Signal, m: str) -> bool:
    """The signal says the prompt holding `m` was taken (a prompt hook; Codex: a turn's end)."""
    text = sig.submitted_text
    return sig.kind in ("prompt", "stop") and text is not None and m in text


def turn_end(sig: Signal) -> bool:
    return sig.kind == "stop" and not sig.is_codex_title_turn


@dataclass
class Outcome:
    """One probed delivery."""

    shape: int
    result: str   # ok | enter_lost | enter_in_paste | paste_lost | merged | twice
    enter_to_signal_ms: float | None = None
    text: str | None = None


@dataclass
class Probe:
    """One CLI in a world, driven by hand."""

    world: World
    cli: str
    session: str = ""
    pane: str = ""
    tmux: Tmux | None = None
    spool: Spool | None = None
    outcomes: list[Outcome] = field(default_factory=list)

    def start(self, timeout: float = 90, settle: float | None = None) -> Probe:
        """Launch the CLI and wait for its first signal; then `settle` seconds (None: the
        profile's `start_settle_s`; 0: the first paste comes right after the start signal)."""
        w = self.world
        first = ["say ready"] if self.cli == "codex" else []
        s = w.spawn(self.cli, *first)
        self.session, self.pane = s["session"], s["pane"]
        w.enter()
        self.tmux = Tmux(w.sock)
        self.spool = Spool(find_repo(w.repo).spool_dir, self.session)
        want = turn_end if self.cli == "codex" else (lambda s: s.kind == "start")
        if self.spool.wait(want, timeout) is None:
            raise RuntimeError(f"{self.cli}: no start signal in {timeout} s:\n"
                               f"{w.screen(self.pane)}")
        time.sleep(profile(self.cli).start_settle_s if settle is None else settle)
        return self

    def deliver(self, i: int, pause: float, wait_s: float = 10.0) -> Outcome:
        """Paste prompt i, wait `pause`, press Enter; judge from the signals alone."""
        assert self.tmux is not None and self.spool is not None
        m = f"P{i}-{uuid.uuid4().hex[:6]}"
        shape = i % len(SHAPES)
        text = SHAPES[shape].format(m=m)
        self.tmux.paste(self.pane, text, f"probe-{i}")
        time.sleep(pause)
        enter_ns = time.time_ns()
        self.tmux.send_keys(self.pane, "Enter")
        got = self.spool.wait(lambda s: s.ts_ns > enter_ns and carries(s, m), wait_s)
        result = "ok"
        if got is None:
            # Was the text in the box (the Enter lost) or not there at all (the paste lost)?
            again = time.time_ns()
            self.tmux.send_keys(self.pane, "Enter")
            got = self.spool.wait(lambda s: s.ts_ns > again and carries(s, m), wait_s)
            result = "enter_lost" if got is not None else "paste_lost"
            if got is not None and (got.submitted_text or "") != text and \
                    unwrap_paste(got.submitted_text or "") != text:
                # The first Enter went into the box as a new line (Gemini CLI takes an Enter
                # that comes too soon after a paste as part of it); the second submitted both.
                result = "enter_in_paste"
            if got is None:
                self.tmux.send_keys(self.pane, *profile(self.cli).clear_input_keys)
        out = Outcome(shape, result)
        if got is not None:
            out.enter_to_signal_ms = (got.ts_ns - enter_ns) / 1e6
            out.text = got.submitted_text
            end = self.spool.wait(lambda s: s.ts_ns >= got.ts_ns and turn_end(s), 60)
            if end is None:
                raise RuntimeError(f"{self.cli}: turn {m} never ended:\n"
                                   f"{self.world.screen(self.pane)}")
            taken = [s for s in self.spool.signals if carries(s, m) and s.kind == "prompt"]
            if len(taken) > 1:
                out.result = "twice"
            elif out.text is not None and unwrap_paste(out.text).strip() != text.strip():
                out.result = "merged"
        self.outcomes.append(out)
        return out

    def enter_on_empty_box(self, quiet_s: float = 3.0) -> list[Signal]:
        """Press Enter in the idle pane (its box empty after a finished turn): the signals it
        gave within `quiet_s` (none: harmless)."""
        assert self.tmux is not None and self.spool is not None
        ts = time.time_ns()
        self.tmux.send_keys(self.pane, "Enter")
        time.sleep(quiet_s)
        return self.spool.after(ts)

    def enter_while_busy(self, i: int, slow) -> int:
        """Deliver prompt i with a slow reply (`slow(marker)` scripts it), and press Enter on
        the empty box while its turn runs: the prompt signals and turns beyond the one prompt
        (0: harmless)."""
        assert self.tmux is not None and self.spool is not None
        m = f"B{i}-{uuid.uuid4().hex[:6]}"
        slow(m)
        self.tmux.paste(self.pane, f"slow one {m}", f"probe-{i}")
        time.sleep(0.5)
        enter_ns = time.time_ns()
        self.tmux.send_keys(self.pane, "Enter")
        if self.cli == "codex":
            self.world.fm.wait_for(lambda r: m in r.text and r.side is None, timeout=20,
                                   what=f"the model request holding {m}")
        elif self.spool.wait(lambda s: s.ts_ns > enter_ns and carries(s, m), 20) is None:
            raise RuntimeError(f"{self.cli}: slow prompt {m} not taken")
        again = time.time_ns()
        self.tmux.send_keys(self.pane, "Enter")
        end = self.spool.wait(lambda s: s.ts_ns > again and turn_end(s), 60)
        if end is None:
            raise RuntimeError(f"{self.cli}: slow turn {m} never ended")
        time.sleep(2.0)   # anything the second Enter started would have begun by now
        extra = [s for s in self.spool.after(again) if s.kind == "prompt"]
        stops = [s for s in self.spool.after(again) if turn_end(s)]
        turns = [r for r in self.world.fm.turns() if r.t * 1e9 > again]
        return len(extra) + max(0, len(stops) - 1) + max(0, len(turns) - 1)
