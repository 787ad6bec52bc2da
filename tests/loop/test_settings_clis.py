"""Per-CLI defaults in the user's config (`[clis.<cli>]`), and a role's model and options used
only on the CLI they were written for (issue 28): a worker role set up for Codex started on
Claude Code gets Claude Code's defaults, not Codex's model and `-c` options."""

from __future__ import annotations

import pytest

from a2a_tui import settings
from a2a_tui.repo import Repo
from tests.support import a2a, wait_state, write_user_config

CONFIG = '''
[clis.claude]
model = "sonnet"
options = ["--verbose"]

[clis.demo]
options = ["--delay", "0.2"]

[roles.worker]
cli = "codex"
model = "gpt-5-codex"
effort = "high"
options = ["-c", "model_verbosity=low"]

[roles.reviewer]
effort = "low"
'''


def test_a_roles_options_are_for_its_own_cli_and_each_cli_has_its_defaults(world, repo):
    write_user_config(world, CONFIG)
    s = settings.load(Repo(repo).config_path)
    w = s.launch("worker")
    assert (w.cli, w.model, w.effort, w.options) == ("codex", "gpt-5-codex", "high",
                                                     ("-c", "model_verbosity=low"))
    c = s.launch("worker", "claude")
    assert (c.cli, c.model, c.effort, c.options) == ("claude", "sonnet", "", ("--verbose",))
    # A role that names no CLI: its values go with whichever CLI is chosen.
    r = s.launch("reviewer", "claude")
    assert (r.model, r.effort, r.options) == ("sonnet", "low", ("--verbose",))
    shown = a2a("config", "show", "--json", cwd=repo).json
    assert shown["values"]["clis"]["claude"]["model"] == "sonnet"


@pytest.mark.tmux
def test_a_session_on_another_cli_than_its_roles_gets_that_clis_options(world, repo,
                                                                        tmux_socket, serve):
    write_user_config(world, CONFIG)
    serve()
    r = a2a("session", "new", "worker", "--cli", "demo", "--tmux-socket", tmux_socket, "--json",
            cwd=repo)
    assert r.code == 0, r.out + r.err
    assert r.json["cli"] == "demo" and r.json["model"] == ""
    assert r.json["options"] == ["--delay", "0.2"]   # demo's own, not the Codex worker's
    assert "model_verbosity=low" not in " ".join(r.json["argv"])
    wait_state(repo, r.json["session"], "idle")
