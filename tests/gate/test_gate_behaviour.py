"""Rule 4 (seed 003 四, "区分模型行为和协调缺陷"): a writer's turn that ends while its attempt
still owes work, with no question asked and no error, is recorded as model behaviour
(`model_stopped_early`, in the Stop's transaction) and counted per CLI/model/effort apart
from the rejections."""

from __future__ import annotations

from a2a_tui.gate.attempts.behaviour import on_signal
from tests.support import a2a, commit_in, events, hooked, register_session


def writer(repo, card: str, sid: str = "w1") -> dict:
    c = a2a("claim", card, "--writer", sid, "--json", cwd=repo).json
    register_session(repo, sid, cli="claude", model="opus", effort="high",
                     attempt=c["attempt"], state="unknown")
    hooked(repo, sid, "SessionStart", then=on_signal)
    return c


def test_a_stop_with_the_work_owed_is_model_behaviour_counted_per_model(repo, ready_card):
    c = writer(repo, ready_card)
    hooked(repo, "w1", "UserPromptSubmit", "PreToolUse", "Stop", then=on_signal)
    (ev,) = events(repo, "model_stopped_early")
    assert (ev.attempt, ev.session, ev.payload["state"]) == (c["attempt"], "w1", "claimed")
    assert (ev.payload["cli"], ev.payload["model"], ev.payload["effort"]) == (
        "claude", "opus", "high")
    fp = a2a("metrics", "first-pass", "--json", cwd=repo).json["first_pass"]
    assert fp["model_behaviour"]["stopped_early"] == 1
    assert fp["model_behaviour"]["by_model"] == [{"model": "claude opus high",
                                                  "stopped_early": 1}]
    assert fp["rejections"] == 0          # apart from the coordination's defects
    assert "model behaviour" in a2a("metrics", "first-pass", cwd=repo).out


def test_a_question_an_error_or_a_delivery_is_not_model_behaviour(repo, ready_card):
    c = writer(repo, ready_card)
    hooked(repo, "w1", "UserPromptSubmit", "PermissionRequest", "Stop", then=on_signal)
    hooked(repo, "w1", "UserPromptSubmit", "StopFailure", then=on_signal)
    sha = commit_in(repo / ".a2a/worktrees" / c["attempt"], {"src/app.py": "v = 2\n"})
    assert a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
               str(c["fence"]), cwd=repo).code == 0
    hooked(repo, "w1", "UserPromptSubmit", "Stop", then=on_signal)   # it delivered: done
    register_session(repo, "w2", cli="claude", state="unknown")       # not the writer
    hooked(repo, "w2", "SessionStart", "UserPromptSubmit", "Stop", then=on_signal)
    assert not events(repo, "model_stopped_early")
