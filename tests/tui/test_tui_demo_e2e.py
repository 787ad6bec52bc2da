"""`a2a demo --no-attach` end to end, on a private tmux server: the workbench is driven with
send-keys and read with capture-pane, like a newcomer at 80x24 would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import a2a, rows, tmux, wait_until

pytestmark = pytest.mark.tmux


def screen(sock: str, pane: str) -> str:
    return tmux(sock, "capture-pane", "-p", "-t", pane)


def test_demo_answer_by_keyboard_reaches_the_asking_agent_as_one_prompt(tmp_path, tmux_socket):
    r = a2a("demo", "--no-attach", "--json", "--tmux-socket", tmux_socket, "--dir",
            str(tmp_path / "demo"), cwd=tmp_path, env={"A2A_DEMO_PACE": "0.3"})
    assert r.code == 0, r.out + r.err
    info = r.json
    root, pane = Path(info["root"]), info["workbench_pane"]
    tmux(tmux_socket, "resize-window", "-t", pane, "-x", "80", "-y", "24")

    def questions() -> list[dict]:
        return rows(root, "SELECT id, title FROM board_items WHERE kind = 'question'"
                    " AND asked_by = 'exec1' ORDER BY seq")

    wait_until(lambda: len(questions()) == 2, timeout=90, what="exec1's two questions")
    wait_until(lambda: "Q-2" in screen(tmux_socket, pane), timeout=20,
               what="the questions on the Board")
    # The director's narration is on the workbench's own screen, under the status line.
    wait_until(lambda: screen(tmux_socket, pane).splitlines()[1].startswith(" demo "),
               what="the narration line")
    tmux(tmux_socket, "send-keys", "-t", pane, "Tab")
    # The focused panel shows the highlighted item's options: the Board has the keys now.
    wait_until(lambda: "Q-1 question" in screen(tmux_socket, pane), what="the Board focused")
    tmux(tmux_socket, "send-keys", "-t", pane, "a")  # adopt the recommendation: held
    wait_until(lambda: "held" in screen(tmux_socket, pane), what="Q-1 held on screen")
    assert rows(root, "SELECT * FROM deliveries d JOIN user_inputs u ON u.id = d.record") == []
    tmux(tmux_socket, "send-keys", "-t", pane, "j")
    wait_until(lambda: "Q-2 question" in screen(tmux_socket, pane), what="Q-2 highlighted")
    tmux(tmux_socket, "send-keys", "-t", pane, "1")  # the last one: both go, as ONE prompt

    answers = wait_until(lambda: len(got := rows(
        root, "SELECT u.id, u.kind, u.option_key, u.ref, d.dispatch FROM user_inputs u"
        " JOIN deliveries d ON d.record = u.id ORDER BY u.n")) == 2 and got,
        what="both answers delivered")
    assert [(a["ref"], a["kind"], a["option_key"]) for a in answers] == [
        ("Q-1", "choice", "a"), ("Q-2", "choice", "now")]
    assert answers[0]["dispatch"] == answers[1]["dispatch"]

    def prompts_with_answers() -> list[str]:
        with_ids = []
        for e in rows(root, "SELECT payload FROM events WHERE kind = 'signal'"
                      " AND session = 'exec1'"):
            p = json.loads(e["payload"])
            prompt = (p.get("raw") or {}).get("prompt", "")
            if p.get("event") == "UserPromptSubmit" and answers[0]["id"] in prompt:
                with_ids.append(prompt)
        return with_ids

    [prompt] = wait_until(prompts_with_answers, timeout=30, what="exec1 to take the answers")
    first = answers[0]["dispatch"]
    assert answers[1]["id"] in prompt and prompt.startswith(f"⟦主控 #{first} · 用户⟧")

    # The task went through the gate on its own: claim, submit, a rejection, verify, integrate.
    wait_until(lambda: rows(root, "SELECT state FROM attempts WHERE id = 'T-1-a1'")
               == [{"state": "integrated"}], timeout=90, what="T-1 integrated")
    kinds = [e["kind"] for e in rows(root, "SELECT kind FROM events WHERE attempt = 'T-1-a1'"
                                     " ORDER BY seq")]
    for k in ("claimed", "submitted", "rejected", "verified", "integrated"):
        assert k in kinds
    assert kinds.index("rejected") < kinds.index("verified") < kinds.index("integrated")
    # The inbox exchange between the controllers, and the gate's feedback queued to the worker.
    wait_until(lambda: [(e["kind"], e["status"]) for e in rows(
        root, "SELECT kind, status FROM inbox ORDER BY n")] == [
        ("assign", None), ("ack", None), ("report", "PASS"), ("report", "PASS")],
        what="the inbox exchange: assign, ack, report, relay")
    assert rows(root, "SELECT COUNT(*) AS n FROM dispatches WHERE source = 'gate'"
                " AND session = 'w1'") == [{"n": 1}]
    # And the screen says so, at 80x24.
    wait_until(lambda: "integrated" in screen(tmux_socket, pane), what="Gate shows it")
    # A call's toast (bottom right, for a few seconds) may cover a panel's title meanwhile.
    text = wait_until(lambda: all(t in (s := screen(tmux_socket, pane)) for t in (
        "Sessions", "Board", "Inbox", "Gate", "Events")) and s, timeout=20,
        what="every panel's title, once the toasts are gone")
    assert len(text.splitlines()) <= 24 and all(len(line) <= 80 for line in text.splitlines())
    for title in ("Sessions", "Board", "Inbox", "Gate", "Events"):
        assert title in text
