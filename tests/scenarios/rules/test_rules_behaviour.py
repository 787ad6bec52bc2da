"""Rule 4 (seed 003 四, "区分模型行为和协调缺陷"): the orchestrator records a writer's turn that
ends with its work owed as model behaviour, counted per model apart from the rejections."""

from __future__ import annotations

from tests.panes.test_panes_spool import hook
from tests.scenarios.flows import card, claim
from tests.scenarios.switches import scenario
from tests.support import a2a, barrier, events, register_session, wait_until


@scenario("model_behaviour_apart")
def test_a_turn_ended_with_the_work_owed_is_the_models_not_the_coordinations(
        repo, tmux_socket, serve):
    card(repo)
    c = claim(repo, "T-1", "--writer", "w1")
    register_session(repo, "w1", cli="claude", model="opus", effort="high",
                     attempt=c["attempt"], state="unknown")
    (repo / ".a2a/spool/w1").mkdir(parents=True, exist_ok=True)
    serve()
    for ev in ("SessionStart", "UserPromptSubmit", "Stop"):
        hook(repo / ".a2a/spool/w1", "w1", {"hook_event_name": ev, "session_id": "x",
                                         "source": "startup", "prompt": "go on"})
    wait_until(lambda: len([e for e in events(repo, "signal") if e.session == "w1"]) == 3,
               what="the three signals")
    barrier(repo)
    assert [e.attempt for e in events(repo, "model_stopped_early")] == [c["attempt"]]
    fp = a2a("metrics", "first-pass", "--json", cwd=repo).json["first_pass"]
    assert fp["model_behaviour"]["by_model"] == [{"model": "claude opus high",
                                                  "stopped_early": 1}]
    assert fp["rejections"] == 0
