"""Orchestration (seed 003 三.10) with agents at work: gate feedback into the writer's pane,
batched answers, twenty panes at once, a silent pane escalated, a detached workbench."""

from __future__ import annotations

import shlex
import subprocess
import sys

from tests.scenarios.flows import card, claim, submit, verify, worktree
from tests.scenarios.switches import scenario
from tests.support import (
    A2A,
    a2a,
    at_terminal,
    barrier,
    commit_in,
    dispatch,
    enqueue,
    events,
    inject,
    prompts,
    rows,
    session,
    spawn,
    wait_state,
    wait_until,
    write_user_config,
)


def in_agent(*args: str) -> str:
    """A `!` prompt line: the agent runs `a2a ARGS` with its shell tool, in its own tree."""
    return "!" + shlex.join([sys.executable, "-m", "a2a_tui", *args])


@scenario("gate_feedback")
def test_a_rejection_reaches_the_writers_pane_as_gate_feedback(repo, tmux_socket, serve):
    card(repo, check="echo 'E   assert name != \"\"' >&2; exit 1")
    c = claim(repo)
    serve()
    sid = spawn(repo, tmux_socket, "--delay", "0.1", args=("--attempt", c["attempt"]))["session"]
    wait_state(repo, sid, "idle")
    assert submit(repo, c, commit_in(worktree(repo, c), {"src/app.py": "v = 1\n"})).code == 0
    assert verify(repo, c["attempt"]).code == 1
    fb = [e.payload for e in events(repo, "gate_feedback")]
    assert len(fb) == 1 and fb[0]["sent"], fb
    got = wait_until(lambda: [p for p in prompts(repo, sid) if "门禁" in p],
                     what="the feedback in the worker's pane")
    first, second = got[0].splitlines()[:2]
    assert first.startswith(f"⟦门禁 #1⟧ The gate rejected {c['attempt']} at step checks")
    assert second == 'E   assert name != ""'


@scenario("answers_batched")
def test_answers_to_two_questions_go_back_as_one_prompt(repo, tmux_socket, serve):
    serve()
    spawn(repo, tmux_socket, "--delay", "0.1", role="ideation", args=("--session", "ide1"))
    wait_state(repo, "ide1", "idle")
    ask = ("board", "ask", "--option", "A=yes", "--option", "B=no", "--recommend", "A",
           "--why", "cheaper")
    n = inject(repo, "ide1", "\n".join([in_agent(*ask, "--title", "Rename?"),
                                        in_agent(*ask, "--title", "Split?")]))
    wait_until(lambda: dispatch(repo, n)["state"] == "done", timeout=30, what="the questions")
    assert a2a("board", "answer", "Q-1", "--adopt", "--hold", cwd=repo).code == 0
    assert a2a("board", "answer", "Q-2", "--option", "B", "--hold", cwd=repo).code == 0
    sent = a2a("board", "send", "--json", cwd=repo).json["sent"]
    assert len({s["dispatch"] for s in sent}) == 1, sent
    wait_until(lambda: dispatch(repo, sent[0]["dispatch"])["state"] == "done", timeout=30,
               what="the answers delivered")
    batches = [p for p in prompts(repo, "ide1") if "answered" in p]
    assert len(batches) == 1, batches
    batch = batches[0]
    assert all(x in batch for x in ("[U-1]", "[U-2]", "Rename?", "Split?", "B: no"))


@scenario("paste_targets_pane_id")
def test_twenty_panes_at_once_each_get_their_own_prompt_once(repo, tmux_socket, serve):
    serve()
    procs = [at_terminal([*A2A, "spawn", "worker", "--cli", "demo", "--tmux-socket",
                          tmux_socket, "--session", f"w{i}", "--json", "--", "--delay", "0.1"],
                         runner=subprocess.Popen, cwd=str(repo), stdout=subprocess.DEVNULL)
             for i in range(20)]
    for p in procs:
        assert p.wait(timeout=120) == 0
        p.close_terminal()
    sids = [f"w{i}" for i in range(20)]
    for sid in sids:
        wait_state(repo, sid, "idle", timeout=60)
    ns = {sid: enqueue(repo, sid, f"only for {sid}") for sid in sids}
    barrier(repo)
    # Settled either way: all twenty done, or a pane took a prompt that was not its own.
    wait_until(lambda: all(dispatch(repo, n)["state"] == "done" for n in ns.values())
               or any(p != f"⟦主控 #{ns[sid]} · 用户⟧ only for {sid}"
                      for sid in sids for p in prompts(repo, sid)),
               timeout=30, what="twenty dispatches done")
    for sid, n in ns.items():
        assert prompts(repo, sid) == [f"⟦主控 #{n} · 用户⟧ only for {sid}"], sid


@scenario("stall_escalation")
def test_a_silent_busy_pane_is_escalated_to_the_board_and_left_alone(
        world, repo, tmux_socket, serve):
    write_user_config(world, "[stall.demo]\nhint_after_s = 0.5\nboard_after_s = 1\n")
    serve()
    sid = spawn(repo, tmux_socket)["session"]
    wait_state(repo, sid, "idle")
    n = inject(repo, sid, "think for a while #delay=3")
    wait_until(lambda: events(repo, "pane_stalled", session=sid)
               or dispatch(repo, n)["state"] == "done", timeout=10, what="the stall")
    stalls = events(repo, "pane_stalled", session=sid)
    assert len(stalls) == 1, "no stall was recorded while the pane was silent"
    stall = stalls[0]
    [finding] = rows(repo, "SELECT kind, actor FROM board_items WHERE id = ?",
                     (stall.payload["item"],))
    assert finding == {"kind": "finding", "actor": "orchestrator"}
    # Left alone: the turn ends on its own, nothing else was sent to it.
    wait_until(lambda: dispatch(repo, n)["state"] == "done", timeout=20, what="the turn's end")
    assert prompts(repo, sid) == [dispatch(repo, n)["text"]]
    assert session(repo, sid)["state"] == "idle"


