"""Rule 5 (seed 000 07, "连续 360 秒没有 Cursor 事件就停止"): a turn with no signal from its CLI for
the user's `stop_after_s` is stopped with the CLI's interrupt key, and that is recorded."""

from __future__ import annotations

from tests.loop.test_turn_limits import shown, started
from tests.scenarios.switches import scenario
from tests.support import events, wait_until


@scenario("turn_limits")
def test_a_turn_silent_past_its_limit_is_stopped(world, repo, tmux_socket, serve):
    s, _ = started(world, repo, tmux_socket, serve, "stop_after_s = 1\n",
                   "think for a long time #delay=20")
    wait_until(lambda: "Interrupted" in shown(tmux_socket, s["pane"]), timeout=6,
               what="the demo agent interrupted")
    [stopped] = events(repo, "turn_stopped", session=s["session"])
    assert stopped.payload["why"] == "silent"
