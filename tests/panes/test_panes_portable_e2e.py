"""Attribution and exits with Linux's facilities and without them (as on macOS), end to end.

The same scenario runs twice on a private tmux server with the demo agent: once as Linux runs
it (the CLI a child subreaper, pidfds, inotify) and once with `A2A_PLATFORM=darwin`, which makes
`a2a spawn` and `a2a serve` take the portable branches (`a2a_tui/host.py`). Commands run as the
agent's Bash tool runs them (`sh -c` in a session of its own, no terminal), typed as `!` lines,
calling a2a directly (A2A_BROKER unset: the process-tree rules, the fallback for a direct call;
through the broker the same rules are its second check, tests/broker). A direct call reaches the
store only from an unconfined session (a confined one has `.a2a/` out of sight), so both legs
start theirs unconfined by the user's setting: on Linux `enabled = false`, on the darwin branch
(no sandbox-exec off macOS) `allow_unconfined`.

- a command in the pane is its session's, by process tree, in both;
- a command detached with `( … &)` while the tool shell still runs is its session's in both:
  re-parented to the CLI under the subreaper (process tree), orphaned but still in a session
  led by the tool shell without it (session);
- the user's own shell outside the pane is the user in both;
- the gap `identity.py` states: an orphan that has lost both the tool shell's session (it
  exited, or the orphan called `setsid`) and the terminal is the session's only with the
  subreaper, and unidentified (neither the session nor the user) without it.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import sys
from pathlib import Path

import pytest

from tests.support import (
    a2a,
    dispatch,
    events,
    inject,
    session,
    wait_state,
    wait_until,
    write_user_config,
)

WHO = shlex.join(["env", "-u", "A2A_BROKER", sys.executable, "-m", "a2a_tui", "whoami",
                  "--json"])

# `detach.sh OUT TOOL [gone]`, started in the background by `( … &)` or `setsid -f` from the tool
# shell TOOL: wait until re-parented (the parent is no longer a child of TOOL: the subshell or
# `setsid` that started it has exited), with `gone` until TOOL has exited too; then record the
# new parent and ask who it is.
DETACH = f"""#!/bin/sh
pp() {{ ps -o ppid= -p "$1" | tr -d ' '; }}
while [ "$(pp "$(pp $$)")" = "$2" ]; do sleep 0.02; done
if [ "$3" = gone ]; then while kill -0 "$2" 2>/dev/null; do sleep 0.02; done; fi
pp $$ > "$1.ppid"
{WHO} > "$1.tmp"
mv "$1.tmp" "$1"
"""


def _answer(path: Path) -> dict:
    return wait_until(lambda: path.exists() and json.loads(path.read_text()), timeout=30,
                      what=f"the whoami in {path.name}")


@pytest.mark.parametrize("platform", ["linux", "darwin"])
def test_the_same_commands_are_attributed_the_same_way_with_and_without_linux_facilities(
        world, repo, tmux_socket, serve, tmp_path, platform):
    env = {"A2A_PLATFORM": platform}
    if platform == "darwin":
        # The darwin branch on Linux finds no sandbox-exec: its sessions start only unconfined,
        # by the user's setting (a2a_tui/confine, tests/boundary/test_seatbelt.py).
        write_user_config(world, "[confinement]\nallow_unconfined = true\n")
    else:
        # Confined, the pane's direct call would find no store; the subreaper is for the
        # unconfined session (in bwrap's PID namespace nothing leaves the sandbox's tree).
        write_user_config(world, "[confinement]\nenabled = false\n")
    served = serve(env)
    r = a2a("spawn", "executive", "--cli", "demo", "--tmux-socket", tmux_socket, "--json",
            cwd=repo, env=env)
    assert r.code == 0, r.out + r.err
    sid, pid = r.json["session"], r.json["pid"]
    (launched,) = events(repo, "session_launched", session=sid)
    assert launched.payload["subreaper"] is (platform == "linux")
    assert launched.payload["sid"] == pid   # the pane's process leads its own session
    wait_state(repo, sid, "idle")

    d = tmp_path / "out"
    d.mkdir()
    detach = tmp_path / "detach.sh"
    detach.write_text(DETACH)
    detach.chmod(0o755)
    line = (f"!{WHO} > {d}/inside; ({detach} {d}/bg $$ &);"
            f" while [ ! -e {d}/bg ]; do sleep 0.05; done;"
            f" ({detach} {d}/gap $$ gone &); setsid -f {detach} {d}/setsid $$")
    n = inject(repo, sid, line)
    wait_until(lambda: dispatch(repo, n)["state"] == "done", timeout=60, what="the turn")

    inside = _answer(d / "inside")
    assert (inside["session"], inside["via"]) == (sid, "process tree")

    bg = _answer(d / "bg")
    assert bg["session"] == sid
    if platform == "linux":
        assert bg["via"] == "process tree" and int((d / "bg.ppid").read_text()) == pid
    else:
        assert bg["via"] == "session" and int((d / "bg.ppid").read_text()) != pid

    user = a2a("whoami", "--json", cwd=repo, env={**env, "A2A_SESSION": sid}).json
    assert user["is_user"] is True and user["session"] is None

    for gap in ("gap", "setsid"):
        me = _answer(d / gap)
        if platform == "linux":
            assert (me["session"], me["via"]) == (sid, "process tree"), gap
        else:
            # The stated gap: nothing left to tie it to the pane, nor to the user.
            assert me["is_user"] is False and me["unidentified"], gap

    # Exits are still known: the pidfd watcher or the polled one, and tmux's pane-died hook.
    os.kill(pid, signal.SIGKILL)
    wait_state(repo, sid, "exited")
    assert session(repo, sid)["state"] == "exited"
    inotify_off = "inotify unavailable" in served.output()
    assert inotify_off is (platform == "darwin")
