"""A known history, made the way a day with a2a makes it: the real CLI, the real gate, demo agents
in real tmux panes that run `a2a` themselves, and the user's own keys and commands.

- T-1 (bugfix, S): claimed by the executive controller exec1, written by w1 (demo fast low),
  verified and integrated by exec1 first time (scores 3/2).
- T-2 (feature, M): claimed by exec1, written by w2 (demo deep high); its first submission is
  rejected at the card's `tests` check (feedback goes to w2's pane), the user types into w2's
  pane, w2 fixes it, exec1 integrates (scores 2/3).
- T-3 (refactor, S): the user claims, commits without a2a trailers (a human intervention),
  submits, verifies and abandons it (scores 1/1).
- exec1 asks two board questions, the user answers each; the user Esc-interrupts w1 and
  releases its pane.
Reviews and the user's approval are in test_metrics_reviews.py (a history of their own).
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path
from typing import Any

from tests.support import (
    a2a,
    commit_in,
    dispatch,
    git,
    inject,
    register_session,
    spawn,
    tmux,
    wait_state,
    wait_until,
    write_card,
)

CHECK = "grep -q fixed src/app.py"


def card(repo: Path, card_id: str, task_type: str, complexity: str) -> None:
    p = write_card(repo, card_id, check=CHECK)
    text = p.read_text().replace('task_type = "bugfix"', f'task_type = "{task_type}"')
    p.write_text(text.replace('complexity = "S"', f'complexity = "{complexity}"'))
    assert a2a("card", "add", str(p), cwd=repo).code == 0
    assert a2a("card", "ready", card_id, cwd=repo).code == 0


def line(*args: str) -> str:
    """A shell command running this a2a."""
    return shlex.join([sys.executable, "-m", "a2a_tui", *args])


def run_in(repo: Path, sid: str, command: str) -> int:
    """Inject `!command` into the agent and wait until its turn is over."""
    n = inject(repo, sid, "!" + command)
    wait_until(lambda: dispatch(repo, n)["state"] == "done", timeout=60, what=f"#{n} done")
    return n


def submit_line(attempt: str, fence: int, text: str) -> str:
    """Commit src/app.py saying `text` in the agent's worktree (its trailers added by a2a's
    hook) and submit that commit."""
    return (f"printf '{text}\\n' > src/app.py && git commit -qam '{text}' && "
            f'{line("submit", attempt)} --sha "$(git rev-parse HEAD)" --card-version 1'
            f" --fence {fence}")


def ask(title: str) -> str:
    return line("board", "ask", "--title", title, "--option", "a=yes", "--option", "b=no",
                "--recommend", "a", "--why", "cheaper")


def wait_answered(repo: Path, qid: str) -> None:
    n = a2a("board", "answer", qid, "--option", "a", "--json", cwd=repo).json["sent"][0]
    wait_until(lambda: dispatch(repo, n["dispatch"])["state"] == "done", timeout=60,
               what=f"the answer to {qid} done")


def fence_of(repo: Path, attempt: str) -> int:
    evs = a2a("events", "--kind", "claimed", "--attempt", attempt, "--json", cwd=repo).json
    return evs[0]["payload"]["fence"]


def build(repo: Path, sock: str, serve) -> None:
    """Make the history above; the orchestrator is stopped at the end, so the log stays put."""
    card(repo, "T-1", "bugfix", "S")
    card(repo, "T-2", "feature", "M")
    card(repo, "T-3", "refactor", "S")
    served = serve()
    spawn(repo, sock, role="executive", args=("--session", "exec1", "--model", "ctl"))
    wait_state(repo, "exec1", "idle")
    run_in(repo, "exec1", line("claim", "T-1") + " && " + ask("Rename?"))
    pane = {"w1": worker(repo, sock, "w1", "T-1-a1", "fast", "low")}
    run_in(repo, "w1", submit_line("T-1-a1", fence_of(repo, "T-1-a1"), "fixed"))
    wait_answered(repo, "Q-1")
    # T-2 is claimed once T-1 is in: its start commit already says "fixed".
    run_in(repo, "exec1", " && ".join([
        line("verify", "T-1-a1"),
        line("integrate", "T-1-a1", "--score", "boundary=3:stayed in src", "--score",
             "taste=2:fine"),
        line("claim", "T-2"), ask("Split?")]))
    pane["w2"] = worker(repo, sock, "w2", "T-2-a1", "deep", "high")
    run_in(repo, "w2", submit_line("T-2-a1", fence_of(repo, "T-2-a1"), "broken"))
    run_in(repo, "exec1", line("verify", "T-2-a1"))
    # The rejection's feedback reaches w2 as a prompt; then the user types into its pane.
    feedback = wait_until(lambda: _queued(repo, "w2", "gate"), timeout=60,
                          what="the gate's feedback queued for w2")
    wait_until(lambda: dispatch(repo, feedback)["state"] == "done", timeout=60,
               what="the gate's feedback done in w2")
    tmux(sock, "send-keys", "-t", pane["w2"], "-l", "--", "let me look")
    tmux(sock, "send-keys", "-t", pane["w2"], "Enter")
    wait_until(lambda: a2a("events", "--kind", "human_intervention", "--json", cwd=repo).json,
               timeout=60, what="the intervention")
    wait_state(repo, "w2", "idle", timeout=60)
    run_in(repo, "w2", submit_line("T-2-a1", fence_of(repo, "T-2-a1"), "fixed twice"))
    wait_answered(repo, "Q-2")
    run_in(repo, "exec1", line("verify", "T-2-a1") + " && " + line(
        "integrate", "T-2-a1", "--score", "boundary=2:one stray file", "--score",
        "taste=3:clean"))
    # w1: a long command, interrupted with Esc; no Stop comes, so the user releases the pane.
    n = inject(repo, "w1", "!sleep 30")
    wait_until(lambda: dispatch(repo, n)["state"] == "delivered", timeout=60, what="sleep taken")
    tmux(sock, "send-keys", "-t", pane["w1"], "Escape")
    r = a2a("release", "w1", "--json", cwd=repo)
    assert r.code == 0 and r.json["from"] == "busy", r.out + r.err
    # T-3, all by the user.
    c = a2a("claim", "T-3", "--json", cwd=repo).json
    sha = commit_in(Path(c["worktree"]), {"src/app.py": "fixed by hand\n"})
    assert a2a("submit", "T-3-a1", "--sha", sha, "--card-version", "1", "--fence",
               str(c["fence"]), cwd=repo).code == 0
    assert a2a("verify", "T-3-a1", cwd=repo).code == 0
    assert a2a("abandon", "T-3-a1", "--score", "boundary=1:a", "--score", "taste=1:b",
               cwd=repo).code == 0
    served.stop()


def worker(repo: Path, sock: str, sid: str, attempt: str, model: str, effort: str) -> str:
    """A demo worker session bound to `attempt` as its writer; returns its pane."""
    pane = spawn(repo, sock, args=("--session", sid, "--attempt", attempt, "--model", model,
                                   "--effort", effort))["pane"]
    wait_state(repo, sid, "idle")
    return pane


def _queued(repo: Path, sid: str, source: str) -> int | None:
    evs = a2a("events", "--kind", "dispatch_queued", "--session", sid, "--json", cwd=repo).json
    return next((e["payload"]["n"] for e in evs if e["payload"]["source"] == source), None)


class Log:
    """The raw event log, for the expected figures: each is stated from the events it is
    defined by (e.g. an attempt's wall time is its outcome's time minus its claim's)."""

    def __init__(self, repo: Path):
        self.events: list[dict[str, Any]] = a2a("events", "--json", cwd=repo).json

    def one(self, kind: str, **where: Any) -> dict[str, Any]:
        found = self.all(kind, **where)
        assert len(found) == 1, (kind, where, found)
        return found[0]

    def all(self, kind: str, **where: Any) -> list[dict[str, Any]]:
        return [e for e in self.events if e["kind"] == kind and all(
            e.get(k, e["payload"].get(k)) == v for k, v in where.items())]

    def secs(self, a: dict[str, Any], b: dict[str, Any]) -> float:
        return round((b["ts_ns"] - a["ts_ns"]) / 1e9, 3)

    def last(self, before: dict[str, Any], kinds: tuple[str, ...], session: str
             ) -> dict[str, Any]:
        return [e for e in self.events if e["seq"] < before["seq"] and e["kind"] in kinds
                and e["session"] == session][-1]

    def session_wall(self, sid: str) -> float:
        mine = [e for e in self.events if e["session"] == sid]
        start = self.one("session_launching", session=sid)
        return round((mine[-1]["ts_ns"] - start["ts_ns"]) / 1e9, 3)

    def count(self, kind: str, **where: Any) -> int:
        return len(self.all(kind, **where))


def table(text: str, *header: str) -> list[list[str]]:
    """The rows of the text table whose header cells are `header` (cells split on 2+ spaces)."""
    lines = text.splitlines()
    for i, ln in enumerate(lines):
        if re.split(r"\s{2,}", ln.strip()) == list(header):
            rows = []
            for row in lines[i + 1:]:
                if not row.startswith("  ") or not row.strip():
                    break
                rows.append(re.split(r"\s{2,}", row.strip()))
            return rows
    raise AssertionError(f"no table {header} in:\n{text}")


def git_head(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD")


# --- a fixed history, in process, stamped by a clock that moves one second per reading ---------

T0 = 1_767_225_600_000_000_000   # 2026-01-01 00:00:00 UTC
SEC = 1_000_000_000
DAY = 86_400 * SEC


def launched(repo: Path, sid: str, role: str, cli: str, model: str, effort: str) -> None:
    """A session as `a2a spawn` records it (its launch event and row), without a pane."""
    register_session(repo, sid, role, cli=cli, model=model, effort=effort)


def build_fixed(repo: Path, clock: list[int]) -> None:
    """Three days: T-1 (bugfix S) by w1 (claude opus high) integrated first time; T-2 (feature
    M) by w2 (codex gpt-5 medium) rejected once then integrated; T-3 (refactor S) by the user,
    rejected and abandoned. The executive exec1 asks a question each day; the user answers.
    Every commit lacks a2a trailers, so each is a human intervention."""
    from a2a_tui.collab import board
    from a2a_tui.collab.context import Collab
    from a2a_tui.gate import GateContext, abandon, bind_writer, claim, integrate, submit, verify
    from a2a_tui.gate.cards.commands import add_card, ready_card
    from a2a_tui.gate.model import Score
    from a2a_tui.identity import Caller
    from a2a_tui.repo import Repo

    r = Repo(repo)
    store = r.store()
    g = GateContext(r, store)
    launched(repo, "exec1", "executive", "claude", "opus", "high")
    launched(repo, "w1", "worker", "claude", "opus", "high")
    launched(repo, "w2", "worker", "codex", "gpt-5", "medium")
    exe, user = Collab(r, store, Caller(session="exec1", role="executive")), Collab(r, store)
    plan = [("T-1", "bugfix", "S", "w1", ["fixed"], (3, 2)),
            ("T-2", "feature", "M", "w2", ["broken", "fixed again"], (2, 3)),
            ("T-3", "refactor", "S", None, ["broken"], (1, 1))]
    for n, (task, ttype, size, sid, rounds, (b, t)) in enumerate(plan):
        clock[0] = T0 + n * DAY
        p = write_card(repo, task, check=CHECK)
        p.write_text(p.read_text().replace('task_type = "bugfix"', f'task_type = "{ttype}"')
                     .replace('complexity = "S"', f'complexity = "{size}"'))
        add_card(g, p)
        ready_card(g, task)
        q = board.ask(exe, f"{task}: which way?", ["a=this", "b=that"], "a", "simpler")
        c = claim(g, task)
        if sid:
            bind_writer(g, c.attempt, sid)
        for text in rounds:
            sha = commit_in(Path(c.worktree), {"src/app.py": f"{text}\n"}, message=text)
            submit(g, c.attempt, sha, 1, c.fence)
            verify(g, c.attempt)
        board.answer(user, q.id, option="a")
        score = Score(b, "boundary reason", t, "taste reason")
        if task == "T-3":
            abandon(g, c.attempt, score, "not worth it")
        else:
            integrate(g, c.attempt, score)
    store.close()
