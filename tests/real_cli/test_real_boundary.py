"""The boundary from a real Claude Code and Codex pane (issue 27), and the CLIs' own sandboxes
on inside it: a worker, confined by a2a, in its attempt's clone, with Codex's
`workspace-write` (its own bwrap, nested in a2a's) and Claude Code running any command without
a prompt. Its model commits in the clone (which works), then tries the tmux server, the
repository's `.git` and the store (each refused). `a2a submit` from the pane needs the broker
(tests/boundary/test_broker.py); here the user submits the commit the worker made.
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from pathlib import Path

import pytest

from tests.real_cli.fakemodel import Reply
from tests.real_cli.harness import World, mark, shell_call
from tests.real_cli.isolation import require
from tests.real_cli.test_real_gate import claim, never_waited, start_worker
from tests.support import git

require()
pytestmark = pytest.mark.real_cli


def _attacks(w: World) -> list[tuple[str, str]]:
    db = w.repo / ".a2a" / "a2a.db"
    sock = w.tmux_tmp / f"tmux-{__import__('os').getuid()}" / w.sock
    return [
        ("commit", "echo hello > src/hello.txt && git add -A && git commit -q -m 'Say"
                   " hello' && echo sha=$(git rev-parse HEAD); echo rc=$?"),
        ("tmux", f"tmux -S {sock} new-window -d 'touch {w.base}/tmux-pwned'; echo rc=$?"),
        ("git", f"git -C {w.repo} config core.fsmonitor 'touch {w.base}/fsm'; echo rc=$?"),
        ("store", f"{sys.executable} -c \"import sqlite3; sqlite3.connect('file:{db}?mode=rw',"
                  f" uri=True).execute('DROP TRIGGER events_no_update')\"; echo rc=$?"),
    ]


@pytest.mark.parametrize("cli", ["codex", "claude"])
def test_a_confined_worker_commits_in_its_clone_and_is_refused_everything_else(
        fresh_world, cli):
    w, panes = fresh_world, []
    att = claim(w, "T-1", cli)
    clone = Path(att["worktree"])
    (clone / "src").mkdir(exist_ok=True)
    # The user trusts the repository (the world's HOME), never the clone: a2a extends that
    # trust to the clone for the launch (codex.py, claude.py), or the pane would wait on
    # "trust this folder?" and never signal.
    assert str(clone) not in json.loads((w.home / ".claude.json").read_text())["projects"]
    sid = start_worker(w, panes, cli, att)
    launch = w.events("session_launching", session=sid)[0].payload
    assert launch["confinement"]["confined"] is True, launch["confinement"]
    if cli == "claude":
        assert "CLAUDE_CODE_SANDBOXED" in launch["env"], launch["env"]
    attacks = _attacks(w)
    m = mark("BOUNDARY")
    w.fm.script(m, *[Reply(text=f"Trying {name}.", tool=shell_call(cli, cmd))
                     for name, cmd in attacks], Reply(text="Done."))
    n = w.inject(sid, f"Try these. {m}")
    w.wait_dispatch(n, "done", timeout=120)
    never_waited(w, sid)
    results = [r for r in w.fm.turns() if m in r.text][-1].tool_results
    said = dict(zip([name for name, _ in attacks], results[-len(attacks):], strict=True))

    found = re.findall(r"sha=([0-9a-f]{40})", said["commit"])
    assert found and git(clone, "rev-parse", "HEAD") == found[0], said["commit"]
    sha = found[0]
    trailers = git(clone, "log", "-1", "--format=%B")
    assert f"A2A-Session: {sid}" in trailers and f"A2A-Attempt: {att['attempt']}" in trailers
    assert "rc=0" not in said["tmux"] and not (w.base / "tmux-pwned").exists(), said["tmux"]
    assert "rc=0" not in said["git"], said["git"]
    assert "fsmonitor" not in (w.repo / ".git" / "config").read_text()
    assert "rc=0" not in said["store"], said["store"]
    with sqlite3.connect(w.repo / ".a2a" / "a2a.db") as db:
        assert db.execute("SELECT 1 FROM sqlite_master WHERE name='events_no_update'").fetchone()
    # The user submits what the worker committed: it comes in from the clone, verified.
    r = w.a2a("submit", att["attempt"], "--sha", sha, "--card-version",
              str(att["card_version"]), "--fence", str(att["fence"]), "--json")
    assert r.code == 0, r.out
    ver = w.a2a("verify", att["attempt"], "--json")
    assert ver.code == 0 and ver.json["passed"] is True, ver.out
