"""The `a2a` console script is a thin entry (`a2a_tui/broker/entry.py`): in a managed session's
process (A2A_BROKER set) it hands argv to the session's broker in this very process, importing
nothing of a2a but the client; anywhere else it is today's command line, whole."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points

from tests.support.broker import AgentProcess, broker_as

ENTRY = (sys.executable, "-c", "import sys; from a2a_tui.broker.entry import main;"
         " sys.exit(main())")


def test_the_console_script_is_the_thin_entry():
    (a2a,) = [e for e in entry_points(group="console_scripts") if e.name == "a2a"]
    assert a2a.value == "a2a_tui.broker.entry:main"


def test_in_a_session_it_hands_over_importing_nothing_of_the_command_line(repo, serve):
    serve()
    r = AgentProcess(repo, "w1", "worker", argv=[ENTRY[0], "-X", "importtime", *ENTRY[1:],
                                                 "whoami"]).go()
    assert r.code == 0 and "session w1 (worker)" in r.out, r.err
    imported = {line.split("|")[-1].strip() for line in r.err.splitlines() if "|" in line}
    ours = {m for m in imported if m.startswith("a2a_tui")}
    assert ours == {"a2a_tui", "a2a_tui.broker", "a2a_tui.broker.entry",
                    "a2a_tui.broker.client"}, ours
    # The same answer, exit code and error line as the session's shim gives.
    for args in (("whoami", "--json"), ("no-such-command",), ("board", "report")):
        thin = AgentProcess(repo, "w1", "worker", argv=[*ENTRY, *args]).go()
        shim = broker_as(repo, "w1", "worker", *args)
        assert (thin.code, thin.out, thin.err) == (shim.code, shim.out, shim.err), args


def test_outside_a_session_it_is_the_command_line(repo):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(repo)}
    for args in (("whoami", "--json"), ("no-such-command",)):
        thin = subprocess.run([*ENTRY, *args], cwd=repo, capture_output=True, text=True,
                              env=env)
        full = subprocess.run([sys.executable, "-m", "a2a_tui", *args], cwd=repo,
                              capture_output=True, text=True, env=env)
        assert (thin.returncode, thin.stdout, thin.stderr) == (
            full.returncode, full.stdout, full.stderr), args
