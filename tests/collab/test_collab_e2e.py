"""End to end with real agents: `a2a spawn ROLE --cli demo` starts the demo agent in a pane of a
private tmux server, `a2a serve` delivers prompts to it, and the agent runs the prompt's `!`
lines as shell commands in its own process tree, as a real CLI's shell tool does."""

from __future__ import annotations

import json
import shlex
import sys

from tests.support import (
    a2a,
    dispatch,
    inject,
    prompts,
    session_out,
    spawn,
    store,
    tmux,
    wait_state,
    wait_until,
)

FORGE = "A2A_ROLE=ideation A2A_SESSION= A2A_CALLER=user A2A_USER=1 TMUX= TMUX_PANE="


def _a2a_line(*args: str, out=None, env: str = "") -> str:
    """A `!` prompt line that runs `[env] a2a ARGS` (output to `out`, if given)."""
    cmd = (env + " " if env else "") + shlex.join([sys.executable, "-m", "a2a_tui", *args])
    return f"!{cmd} >{out} 2>&1" if out else f"!{cmd}"


def _run_in_agent(repo, sid, *lines: str) -> int:
    n = inject(repo, sid, "\n".join(lines))
    wait_until(lambda: dispatch(repo, n)["state"] == "done", timeout=30, what=f"#{n} done")
    return n


def test_a_spawned_agent_is_refused_a_kind_its_role_may_not_write(repo, tmux_socket, serve,
                                                                  plain_card):
    serve()
    spawn(repo, tmux_socket, role="executive", args=("--session", "exe1"))
    spawn(repo, tmux_socket, role="ideation", args=("--session", "ide1"))
    wait_state(repo, "exe1", "idle")
    wait_state(repo, "ide1", "idle")
    # The panes are confined: their output goes in the session's output folder.
    forged, allowed = session_out(repo, "exe1") / "forged.json", \
        session_out(repo, "exe1") / "allowed.json"
    _run_in_agent(
        repo, "exe1",
        _a2a_line("inbox", "post", "assign", "--card", plain_card, "--text", "go", "--json",
                  out=forged, env=FORGE),
        _a2a_line("inbox", "post", "report", "--status", "BLOCKED", "--text", "need a key",
                  "--json", out=allowed))
    err = json.loads(forged.read_text())["error"]
    assert err["code"] == "kind_not_allowed"
    assert "session exe1 (executive)" in err["message"]
    assert json.loads(allowed.read_text())["author_session"] == "exe1"
    # The report reached the ideation agent's pane as a notice.
    wait_until(lambda: any("Inbox I-1: report from executive (exe1)" in p
                           for p in prompts(repo, "ide1")), timeout=30, what="the notice")
    with store(repo) as s:
        assert [r["id"] for r in s.all("SELECT id FROM inbox")] == ["I-1"]


def test_two_answers_reach_the_asking_agent_as_one_prompt(repo, tmux_socket, serve):
    serve()
    spawn(repo, tmux_socket, role="ideation", args=("--session", "ide1"))
    wait_state(repo, "ide1", "idle")
    ask = ("board", "ask", "--option", "A=yes", "--option", "B=no", "--recommend", "A",
           "--why", "cheaper")
    _run_in_agent(repo, "ide1", _a2a_line(*ask, "--title", "Rename?"),
                  _a2a_line(*ask, "--title", "Split?"))
    assert a2a("board", "answer", "Q-1", "--adopt", "--hold", cwd=repo).code == 0
    assert a2a("board", "answer", "Q-2", "--option", "B", "--hold", cwd=repo).code == 0
    n = a2a("board", "send", "--json", cwd=repo).json["sent"][0]["dispatch"]
    wait_until(lambda: dispatch(repo, n)["state"] == "done", timeout=30, what="answers done")
    batches = [p for p in prompts(repo, "ide1") if "answered" in p]
    assert len(batches) == 1
    assert all(x in batches[0] for x in ("[U-1]", "[U-2]", "Rename?", "Split?", "B: no"))
    with store(repo) as s:
        assert [u["id"] for u in s.all("SELECT id FROM user_inputs WHERE ref LIKE 'Q-%'")] == \
            ["U-1", "U-2"]


def test_what_is_typed_into_the_ideation_pane_can_be_quoted_once_the_user_confirms_it(
        repo, tmux_socket, serve, auth_card):
    # Anything that reaches the pane's terminal can type there (`tmux send-keys`, as here): the
    # typed prompt is recorded as pane input, which authorizes only once the user confirms it.
    serve()
    pane = spawn(repo, tmux_socket, role="ideation", args=("--session", "ide1"))["pane"]
    wait_state(repo, "ide1", "idle")
    words = "Go ahead with T-1, I approve the migration."
    tmux(tmux_socket, "send-keys", "-t", pane, "-l", "--", words)
    tmux(tmux_socket, "send-keys", "-t", pane, "Enter")
    with store(repo) as s:
        u = wait_until(lambda: s.one("SELECT * FROM user_inputs WHERE source = 'pane'"),
                       timeout=30, what="the typed prompt as a user input")
    assert (u["id"], u["text"], u["to_session"]) == ("U-1", words, "ide1")
    wait_state(repo, "ide1", "idle")
    out = session_out(repo, "ide1") / "assign.json"
    assign = _a2a_line("inbox", "post", "assign", "--card", auth_card, "--text", "run T-1",
                       "--quote", "I approve the migration", "--user-input", "U-1", "--json",
                       out=out)
    _run_in_agent(repo, "ide1", assign)
    assert json.loads(out.read_text())["authorized"] is False
    assert a2a("claim", auth_card, cwd=repo).code != 0
    assert a2a("input", "confirm", "U-1", cwd=repo).code == 0
    wait_state(repo, "ide1", "idle")
    _run_in_agent(repo, "ide1", assign)
    assert json.loads(out.read_text())["authorized"] is True
    assert a2a("claim", auth_card, cwd=repo).code == 0
