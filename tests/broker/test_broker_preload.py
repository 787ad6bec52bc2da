"""The broker imports, before its first fork, everything an agent's command imports: a request's
child then imports nothing (an import costs milliseconds in every child, each time)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support import register_session

# In a fresh interpreter: the broker's preload, then one request handled as its child handles it
# (the request sent first on a socket pair, then served here); prints the modules it imported.
CHILD = r"""
import json, os, socket, sys
from pathlib import Path
from a2a_tui.broker import __main__ as broker_main
broker_main.preload()
from a2a_tui import cli
from a2a_tui.broker import client, commands, request
from a2a_tui.repo import Repo
repo, argv = sys.argv[1], json.loads(sys.argv[2])
sys.stdin.readline()   # registered as a session's pane by now
served = request.Served(Repo(Path(repo)), None, commands.command_paths(cli.build_parser()))
ours, theirs = socket.socketpair()
null = os.open(os.devnull, os.O_RDWR)
client.send(ours, {"v": client.VERSION, "argv": argv, "cwd": "/", "env": {}}, [null] * 3)
before = set(sys.modules)
code = request.handle(theirs, "w1", served)
print(json.dumps({"code": code, "new": sorted(set(sys.modules) - before)}), flush=True)
"""

COMMANDS = [["whoami"], ["status"], ["board", "report", "--title", "Flaky", "--body", "b"],
            ["board", "list"], ["card", "list"], ["inbox", "list"], ["input", "list"],
            ["events", "--json"], ["sessions"], ["rules"], ["attention"]]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_a_brokered_command_imports_nothing_in_the_child(repo, argv):
    p = subprocess.Popen([sys.executable, "-c", CHILD, str(repo), json.dumps(argv)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=repo)
    register_session(repo, "w1", "worker", p.pid)
    out, err = p.communicate("go\n", timeout=60)
    got = json.loads(out.strip().splitlines()[-1])
    assert got["code"] == 0, err
    assert got["new"] == [], f"`a2a {' '.join(argv)}` imported in the child: {got['new']}"
