"""Sessions start from an allow-list environment (issue 35, finding 2: every variable of the
shell that ran `a2a up` — a GITHUB_TOKEN, a database password — was in every agent's
environment). An agent gets its CLI's own family, what the terminal needs, a2a's own variables
and what the user's settings name for its CLI or role; nothing else of the user's shell,
whether it reached tmux's server (the shell that started it) or the spawner (`a2a spawn`)."""

from __future__ import annotations

import pytest

from tests.boundary.pane import MODES, Attacker

pytestmark = pytest.mark.tmux

SECRETS = {"GITHUB_TOKEN": "ghp-the-users-own-token", "PGPASSWORD": "the-db-password",
           "SSH_AUTH_SOCK": "/tmp/the-users-agent.sock"}


def variables(out: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


@pytest.mark.parametrize("mode", MODES)
def test_the_users_secrets_never_reach_an_agent_what_is_allowed_does(world, repo, monkeypatch,
                                                                     mode):
    for name, value in {**SECRETS, "A2A_TEST_NAMED": "named by the user",
                        "A2A_TEST_FOR_WORKERS": "named for workers",
                        "ANTHROPIC_BASE_URL": "http://127.0.0.1:9/"}.items():
        monkeypatch.setenv(name, value)   # the shell that starts tmux's server and spawns
    monkeypatch.setenv("LANG", "C.UTF-8")
    config = ('[env]\npass = ["A2A_TEST_NAMED"]\n'
              '[env.roles.worker]\npass = ["A2A_TEST_FOR_WORKERS"]\n')
    a = Attacker(world, mode, config=config)   # an executive: the workers' name is not its
    code, out = a.run("env")
    seen = variables(out)
    assert code == 0, out
    for name, value in SECRETS.items():
        assert name not in seen and value not in out, out
    assert "A2A_TEST_FOR_WORKERS" not in seen
    assert seen["A2A_TEST_NAMED"] == "named by the user"
    assert seen["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:9/"   # its CLI's own family
    assert seen["A2A_SESSION"] == a.sid and seen["A2A_BROKER"]
    assert seen["TERM"] and seen["PATH"] and seen["HOME"] and seen["LANG"] == "C.UTF-8"
    w = Attacker(world, mode, role="worker", config=config)
    code, out = w.run("env")
    assert variables(out)["A2A_TEST_FOR_WORKERS"] == "named for workers", out
