"""The real CLIs through the whole gate (issue 16): a worker session of each CLI, bound to a
claimed attempt, gets its task as a prompt; the fake model answers with the CLI's own tool calls
that write a file, test it with pytest, commit with a plain message, read the commit's SHA and
run `a2a submit`; the commit carries a2a's trailers, the submission is the worker session's,
verify passes and integrate moves the target. A second card whose commit leaves the card's
paths is rejected, and the gate's feedback (`⟦门禁 #n⟧`) comes back to the model in the
worker's next request.

Nothing here asks the user: the role's permissions (profiles/permissions.py) let a worker edit,
commit and run a2a in its worktree without a dialog (the tests fail on any pane that waits).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.real_cli.fakemodel import Reply, Request
from tests.real_cli.harness import World, mark, needs_safe_folder, shell_call, write_call
from tests.real_cli.isolation import require
from tests.support import git

require()
pytestmark = pytest.mark.real_cli

CARD = '''id = "{id}"
title = "Say hello"
goal = "src/hello.txt says hello"
non_goals = ["Nothing outside src/"]
allowed_paths = ["src/**"]
acceptance = ["src/hello.txt says hello"]
task_type = "feature"
complexity = "S"
source_ticket = "GH-1"

[executor]
cli = "{cli}"
model = "fake"
effort = "low"

[[checks]]
name = "hello"
# The expected text is the check's own (not a file the worker writes, which the contract's
# precheck refuses as the only thing a check runs): the file must say exactly hello.
command = 'test "$(cat src/hello.txt)" = hello'
blocking = true
timeout_s = 60
'''
CLIS = ["claude", "codex", pytest.param("gemini", marks=needs_safe_folder())]


def claim(w: World, card_id: str, cli: str) -> dict:
    path = w.base / f"{card_id}.toml"
    path.write_text(CARD.format(id=card_id, cli=cli))
    for args in (("card", "add", str(path)), ("card", "ready", card_id)):
        r = w.a2a(*args)
        assert r.code == 0, r.err
    r = w.a2a("claim", card_id, "--json")
    assert r.code == 0, r.err
    return r.json


def submit_after_rev_parse(cli: str, att: dict):
    """The model reads the SHA that `git rev-parse HEAD` printed, and submits it."""
    def reply(req: Request) -> Reply:
        shas = re.findall(r"\b[0-9a-f]{40}\b", req.tool_results[-1])
        assert shas, f"no SHA in the tool output: {req.tool_results[-1]!r}"
        cmd = (f"a2a submit {att['attempt']} --sha {shas[-1]} --card-version"
               f" {att['card_version']} --fence {att['fence']}")
        return Reply(text="Submitting.", tool=shell_call(cli, cmd))
    return reply


# The worker tests its work with pytest in its clone: a command no allow-list names, which a
# confined worker runs without a prompt (permissions.py).
PYTEST = ("printf 'def test_hello():\\n    assert open(\"src/hello.txt\").read() =="
          " \"hello\\\\n\"\\n' > src/test_hello.py && python -m pytest -q -p no:cacheprovider src")


def script_work(w: World, cli: str, att: dict, rel: str, needle: str,
                test: bool = False) -> None:
    wt = Path(att["worktree"])
    w.fm.script(
        needle,
        Reply(text="Writing the file.", tool=write_call(cli, wt, rel, "hello\n")),
        *([Reply(text="Testing it.", tool=shell_call(cli, PYTEST))] if test else []),
        Reply(text="Committing.", tool=shell_call(cli, f"git add -A && git commit -q -m "
                                                       f"{shlex.quote('Say hello')}")),
        Reply(text="Reading the SHA.", tool=shell_call(cli, "git rev-parse HEAD")),
        submit_after_rev_parse(cli, att),
        Reply(text=f"Submitted {att['attempt']}."))


def start_worker(w: World, panes: list[str], cli: str, att: dict) -> str:
    # Codex signals nothing before its first turn ends: a first prompt makes the pane idle.
    first = [f"say hello {mark('HELLO')}"] if cli == "codex" else []
    return w.start(panes, cli, *first, attempt=att["attempt"], timeout=60)["session"]


def work_on(w: World, panes: list[str], cli: str, card_id: str, rel: str,
            test: bool = False) -> tuple[dict, str]:
    """Claim `card_id`, start a worker on it and let it write `rel` (and, with `test`, test it
    with pytest), commit and submit; the worker is never asked anything. Returns (the claim,
    the worker's session)."""
    att = claim(w, card_id, cli)
    sid = start_worker(w, panes, cli, att)
    m = mark("TASK")
    script_work(w, cli, att, rel, m, test)
    n = w.inject(sid, f"Implement card {card_id} in your worktree, commit and submit it. {m}")
    w.wait_dispatch(n, "done", timeout=90)
    never_waited(w, sid)
    if test:
        said = [r for r in w.fm.turns() if m in r.text][-1].tool_results
        assert any("1 passed" in out for out in said), said
    return att, sid


def never_waited(w: World, sid: str) -> None:
    waits = [p for p in w.signals(sid) if p["to"] == "waiting"]
    assert waits == [], f"the worker was asked: {waits}\n{w.explain(sid)}"


@pytest.mark.parametrize("cli", CLIS)
def test_a_worker_commits_submits_and_the_gate_integrates_then_rejects_a_stray_path(
        fresh_world, cli):
    w, panes = fresh_world, []
    att, sid = work_on(w, panes, cli, "T-1", "src/hello.txt", test=True)

    wt = Path(att["worktree"])
    sha = git(wt, "rev-parse", "HEAD")
    message = git(wt, "log", "-1", "--format=%B")
    assert message.startswith("Say hello\n")
    trailers = dict(line.split(": ", 1) for line in message.splitlines() if line[:4] == "A2A-")
    assert trailers["A2A-Attempt"] == att["attempt"] and trailers["A2A-Session"] == sid
    assert trailers["A2A-Role"] == "worker" and trailers["A2A-CLI"].startswith(f"{cli} ")
    submitted = w.events("submitted")
    said = [r.tool_results for r in w.fm.turns() if r.tool_results][-1:]
    assert [(e.actor, e.payload["sha"]) for e in submitted] == [(f"session:{sid}", sha)], said

    ver = w.a2a("verify", att["attempt"], "--json")
    assert ver.code == 0 and ver.json["passed"] is True, ver.out + ver.err
    done = w.a2a("integrate", att["attempt"], "--score", "boundary=3:stayed in src",
                 "--score", "taste=3:one small file", "--json")
    assert done.code == 0, done.out + done.err
    assert git(w.repo, "rev-parse", "main") == sha

    # A second card: the commit writes outside src/**, the gate rejects it, and its feedback
    # reaches the model as the worker's next prompt.
    att2, _ = work_on(w, panes, cli, "T-2", "docs/hello.txt")
    ver2 = w.a2a("verify", att2["attempt"], "--json")
    assert ver2.code != 0 or ver2.json["passed"] is False, ver2.out
    feedback = [e for e in w.events("gate_feedback") if e.attempt == att2["attempt"]]
    assert feedback and feedback[0].payload["sent"] is True, feedback
    req = w.fm.wait_for(lambda r: "⟦门禁 #" in r.text and r.side is None, timeout=60,
                        what="the gate's feedback in a model request")
    assert "boundary" in req.text and "docs/hello.txt" in req.text, req.text
    assert git(w.repo, "rev-parse", "main") == sha  # the stray commit went nowhere
