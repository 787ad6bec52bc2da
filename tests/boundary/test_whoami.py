"""`a2a whoami` from a pane never says "the user", by any route: the session's `a2a` (the
broker's thin client), the CLI run as a module, a Python script that patches identity and
calls a2a in-process (through `main`, which hands over to the broker, and through `run`, which
does not), a call with A2A_BROKER unset, and an orphan (`setsid -f`) with a terminal of its own
(`script`). Through the broker the answer is the session of the socket; around it, a confined
pane has no store in sight (`.a2a/` is hidden) and every such route ends in `not_initialized`.

Unconfined (the user's `[confinement] enabled = false`), the route around the broker with
identity patched in-process is the user: the attack is real, and the confinement is what stops
it. The assertions read the identity itself (`--json`), never a word of a message.
"""

from __future__ import annotations

import shlex
import sys

import pytest

from tests.boundary.pane import MODES, Attacker, identity_of

pytestmark = pytest.mark.tmux
PATCH = ("import a2a_tui.identity as i, a2a_tui.cli as c;"
         " i.resolve_caller = lambda *a, **k: i.Caller(); ")
AROUND = "env -u A2A_BROKER "


def routes(a: Attacker, repo) -> dict[str, str]:
    py = shlex.quote(sys.executable)
    who = f"{py} -m a2a_tui whoami --json"
    def orphan(cmd: str, n: int) -> str:
        # It outlives the tool shell's command: wait (10 s at most) for its answer.
        log = f"{a.out}/orphan-{n}.log"
        return (f"setsid -f script -qec {shlex.quote(cmd)} {log} </dev/null >/dev/null 2>&1;"
                f" for i in $(seq 100); do grep -q '}}' {log} 2>/dev/null && break; sleep 0.1;"
                f" done; cat {log}")

    return {
        "shim": "a2a whoami --json",
        "module": f"cd {repo} && {who}",
        "patched, main": f"cd {repo} && {py} -c "
                         + shlex.quote(PATCH + "c.main(['whoami', '--json'])"),
        "patched, run": f"cd {repo} && {py} -c "
                        + shlex.quote(PATCH + "c.run(['whoami', '--json'])"),
        "around the broker": f"cd {repo} && {AROUND}{who}",
        "patched around the broker": f"cd {repo} && {AROUND}{py} -c "
                                     + shlex.quote(PATCH + "c.main(['whoami', '--json'])"),
        "orphan with a pty": orphan(f"cd {repo} && {who}", 1),
        "orphan with a pty, around the broker": orphan(f"cd {repo} && {AROUND}{who}", 2),
    }


@pytest.mark.parametrize("mode", MODES)
def test_whoami_is_never_the_user(world, repo, serve, mode):
    serve()
    a = Attacker(world, mode)
    said = {name: identity_of(a.run(cmd)[1]) for name, cmd in routes(a, repo).items()}
    through = ("shim", "module", "patched, main", "orphan with a pty")
    for name in through:      # the broker names the session of the socket, in both modes
        me = said[name]
        assert (me.get("session"), me.get("is_user"), me.get("via")) == (a.sid, False,
                                                                          "broker"), (name, me)
    around = [name for name in said if name not in through]
    if a.confined:
        for name in around:   # no store in sight: nothing to be anyone to
            assert said[name].get("error", {}).get("code") == "not_initialized", (name, said)
        assert not any(me.get("is_user") for me in said.values()), said
    else:
        assert said["patched around the broker"]["is_user"] is True, said
        assert said["patched, run"]["is_user"] is True, said
