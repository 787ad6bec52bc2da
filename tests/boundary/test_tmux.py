"""The tmux server is not the agent's: from a confined pane no tmux command reaches it.

Unconfined (as before issue 27) each of these worked from a demo worker's tool shell: a new
window or split running a2a as the user, a respawned pane, keys sent into the workbench, the
screen of another pane, and code planted for every window the user opens later.
"""

from __future__ import annotations

import os

import pytest

from tests.boundary.pane import MODES, Attacker

pytestmark = pytest.mark.tmux

# tmux finds its server from $TMUX (unset inside), else from -L/-S: an agent that knows the
# socket's name and folder (from `a2a sessions --json`, its own launch record) tries both.
ATTACKS = {
    "new-window": "new-window -d 'touch {mark}'",
    "split-window": "split-window -d 'touch {mark}'",
    "respawn-pane": "respawn-pane -k -t {victim} 'touch {mark}'",
    "send-keys": "send-keys -t {victim} -l 'typed-by-the-agent'",
    "capture-pane": "capture-pane -p -t {victim}",
    "set -g default-command": "set -g default-command 'touch {mark}'",
    "set-hook -g": "set-hook -g after-new-window 'run-shell \"touch {mark}\"'",
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_no_tmux_command_reaches_the_server(world, repo, mode, attack):
    a = Attacker(world, mode)
    victim = world.tmux("split-window", "-d", "-P", "-F", "#{pane_id}", "-t", a.pane,
                        "sleep 600").strip()
    mark = world.base / f"mark-{attack.replace(' ', '_')}"
    before = (world.tmux("list-panes", "-a", "-F", "#{pane_id} #{pane_dead}"),
              world.tmux("show-options", "-g", "default-command"),
              world.tmux("show-hooks", "-g"))
    sock_dir = world.tmux_tmp / f"tmux-{os.getuid()}"
    cmd = ATTACKS[attack].format(mark=mark, victim=victim)
    tries = [f"TMUX={sock_dir}/{world.sock},1,0 tmux {cmd}",
             f"tmux -S {sock_dir}/{world.sock} {cmd}",
             f"TMUX_TMPDIR={world.tmux_tmp} tmux -L {world.sock} {cmd}"]
    results = [a.run(t) for t in tries]
    after = (world.tmux("list-panes", "-a", "-F", "#{pane_id} #{pane_dead}"),
             world.tmux("show-options", "-g", "default-command"),
             world.tmux("show-hooks", "-g"))
    reached = any(code == 0 for code, _ in results) or after != before or mark.exists() \
        or "typed-by-the-agent" in world.screen(victim)
    if a.confined:
        assert not reached, results
        assert all("no server running" in out or "error connecting" in out
                   for _, out in results), results
    else:
        assert reached, results   # the attack is real: the confinement is what stops it
