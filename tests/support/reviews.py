"""Reviews as a reviewer makes them: a report with its verdict block, a review launched with
`a2a review start`, and a2a run as that reviewer session."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.support.cli import A2A, Run, a2a
from tests.support.sessions import repoint_session

Issue = tuple[str, str, Sequence[str]]   # (id, title, evidence "path:line" ...)


def review_report(verdict: str, *, issues: Sequence[Issue] = (), risks: Sequence[str] = (),
                  follow_up: bool = False, body: str = "# Review\n\nRead the diff and the tests.\n"
                  ) -> str:
    """A Markdown report that ends with its ```verdict block (TOML)."""
    lines = [body.rstrip("\n"), "", "```verdict", f"verdict = {json.dumps(verdict)}",
             f"recommends_follow_up = {'true' if follow_up else 'false'}"]
    if risks:
        lines.append(f"risks = {json.dumps(list(risks))}")
    for iid, title, evidence in issues:
        lines += ["", "[[blocking_issues]]", f"id = {json.dumps(iid)}",
                  f"title = {json.dumps(title)}", f"evidence = {json.dumps(list(evidence))}"]
    return "\n".join([*lines, "```", ""])


def start_review(repo: Path, sock: str, attempt: str, *opts: str, cli: str = "demo",
                 check: bool = True) -> Run:
    """`a2a review start ATTEMPT --cli CLI` on the private tmux server (`--json`)."""
    r = a2a("review", "start", attempt, "--cli", cli, "--tmux-socket", sock, "--json", *opts,
            cwd=repo)
    if check:
        assert r.code == 0, r.out + r.err
    return r


def as_session(repo: Path, sid: str, *args: str) -> Run:
    """`a2a ARGS` run as the existing session `sid`: the process is made its pane process (its
    launch stays the recorded one), as a command typed in that pane would be attributed."""
    proc = subprocess.Popen(["sh", "-c", 'read go; exec "$@"', "sh", *A2A, *args], cwd=str(repo),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    repoint_session(repo, sid, proc.pid)
    out, err = proc.communicate("go\n", timeout=120)
    return Run(proc.returncode, out, err)


def give_verdict(repo: Path, sid: str, attempt: str, sha: str, report: str,
                 name: str = "review.md") -> Run:
    """The reviewer `sid` writes `report` and submits it (`--json`)."""
    path = repo.parent / f"{sid}-{name}"
    path.write_text(report, encoding="utf-8")
    return as_session(repo, sid, "review", "verdict", attempt, "--sha", sha, "--file",
                      str(path), "--json")


def error_code(r: Run) -> Any:
    """The stable error code of a refused `--json` command."""
    assert r.code != 0, r.out
    return json.loads(r.out)["error"]["code"]
