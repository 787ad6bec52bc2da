"""Retrospectives: `a2a retro` writes a prompt from the period's views and notable events,
launches a retro session (a demo agent in a real pane) and queues the prompt to it; what the
session writes is kept with `a2a retro save` as a `retro_saved` event. `retro_every` puts one
board question per period, from a gate command or the orchestrator; nothing runs on its own."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

from a2a_tui.metrics.retro import propose_if_due
from a2a_tui.repo import Repo
from tests.metrics.metrics_support import line, run_in
from tests.support import (
    a2a,
    a2a_as,
    commit_in,
    dispatch,
    prompts,
    wait_state,
    wait_until,
    write_card,
)

FAILING = ("grep -q fixed src/app.py || { echo 'FAILED tests/test_app.py::test_fixed - app is"
           " not fixed'; exit 1; }")


def set_retro_every(repo: Path, every: str) -> None:
    r = Repo(repo)
    r.write_config(dataclasses.replace(r.config(), retro_every=every))


def test_a_retrospective_runs_in_a_session_and_is_kept(repo, tmux_socket, serve, tmp_path):
    assert a2a("card", "add", str(write_card(repo, check=FAILING)), cwd=repo).code == 0
    assert a2a("card", "ready", "T-1", cwd=repo).code == 0
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    sha = commit_in(Path(c["worktree"]), {"src/app.py": "broken\n"})
    assert a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence",
               str(c["fence"]), cwd=repo).code == 0
    assert a2a("verify", "T-1-a1", cwd=repo).code == 1
    set_retro_every(repo, "1s")
    time.sleep(1.1)
    serve()   # the orchestrator starting proposes one (a second of history is a period here)
    board = a2a("board", "list", "--json", cwd=repo).json["items"]
    assert [i["title"] for i in board if i["kind"] == "question"] == \
        ["Run a retrospective of the last 1s?"]
    set_retro_every(repo, "1h")   # no second question while this test runs

    r = a2a("retro", "--cli", "demo", "--since", "1h", "--tmux-socket", tmux_socket, "--json",
            cwd=repo)
    assert r.code == 0, r.out + r.err
    started = r.json
    sid, prompt_file = started["session"], Path(started["prompt"])
    assert started["retro"] == "R-1" and sid == "retro1"
    text = prompt_file.read_text()
    assert "first-pass rate -: 0 of 0 concluded attempt(s)" in text
    assert ("T-1-a1 (T-1) at checks / tests: FAILED tests/test_app.py::test_fixed -"
            " app is not fixed") in text
    assert "T-1 (no session): commit" in text   # the user's own commit, an intervention
    assert f"a2a retro save --file {started['output']}" in text
    launch = a2a("events", "--kind", "session_launching", "--session", sid, "--json",
                 cwd=repo).json[0]["payload"]
    assert launch["role"] == "retro" and launch["role_card"].endswith("rolecards/retro.md")
    assert launch["role_card_digest"].startswith("sha256:")

    wait_state(repo, sid, "idle", timeout=60)
    wait_until(lambda: dispatch(repo, started["dispatch"])["state"] == "done", timeout=60,
               what="the prompt delivered")
    assert prompts(repo, sid)[0].endswith(f"Retrospective R-1: read {prompt_file} and follow it"
                                          f" (write to {started['output']}, then `a2a retro save"
                                          f" --file {started['output']}`).")
    # The session reads its prompt, writes its retrospective and saves it, as the role card
    # says: both files where its confinement lets it (its run and output folders).
    out = started["output"]
    run_in(repo, sid, f"grep -q '^# Retrospective R-1$' {prompt_file} && "
           f"printf '# R-1: one rejection\\nthe card check was fine\\n' > {out} && "
           + line("retro", "save", "--file", out))
    saved = a2a("events", "--kind", "retro_saved", "--json", cwd=repo).json
    assert len(saved) == 1 and saved[0]["session"] == sid
    assert saved[0]["payload"]["id"] == "R-1"
    assert saved[0]["payload"]["text"] == "# R-1: one rejection\nthe card check was fine\n"
    assert saved[0]["payload"]["since_ns"] == started["since_ns"]

    # Only the retro session or the user keeps a retrospective.
    w = a2a_as(repo, "w9", "worker", "retro", "save", "--file", out, "--json")
    assert w.code == 1 and w.json["error"]["code"] == "role_forbidden"


def test_bad_retro_input_is_one_clear_error(repo, tmp_path):
    empty = tmp_path / "empty.md"
    empty.write_text("  \n")
    for args, code in ((("retro", "save", "--file", str(tmp_path / "none.md")), "bad_file"),
                       (("retro", "save", "--file", str(empty)), "bad_file"),
                       (("retro", "--since", "someday"), "bad_since"),
                       (("retro", "--cli", "nosuch"), "usage")):
        r = a2a(*args, "--json", cwd=repo)
        assert r.code == 2 and r.json["error"]["code"] == code, (args, r.out)
    assert a2a("events", "--kind", "retro_saved", "--kind", "retro_started", "--json",
               cwd=repo).json == []


def test_retro_every_asks_once_per_period(repo):
    assert propose_if_due(Repo(repo), Repo(repo).store(), now_ns=time.time_ns() + 10**18) is None
    set_retro_every(repo, "1s")
    time.sleep(1.1)
    assert a2a("status", cwd=repo).code == 0          # a gate command: the question is asked
    set_retro_every(repo, "1h")   # (a second is too short a period to run a command within)
    assert a2a("status", cwd=repo).code == 0          # ... once in the period
    items = a2a("board", "list", "--json", cwd=repo).json["items"]
    assert [(i["id"], i["kind"]) for i in items] == [("Q-1", "question")]
    proposed = a2a("events", "--kind", "retro_proposed", "--json", cwd=repo).json
    assert [e["payload"]["question"] for e in proposed] == ["Q-1"]

    set_retro_every(repo, "7d")
    store = Repo(repo).store()
    now = time.time_ns()
    assert propose_if_due(Repo(repo), store, now_ns=now + 6 * 86400 * 10**9) is None
    assert propose_if_due(Repo(repo), store, now_ns=now + 8 * 86400 * 10**9) == "Q-2"
    assert propose_if_due(Repo(repo), store, now_ns=now + 9 * 86400 * 10**9) is None
    store.close()

    config = repo / ".a2a/config.toml"
    config.write_text(config.read_text().replace('retro_every = "7d"', 'retro_every = "weekly"'))
    r = a2a("status", "--json", cwd=repo)
    assert r.code != 0 and r.json["error"]["code"] == "bad_config"
    assert "retro_every" in json.dumps(r.json)
