"""The user's config: `$XDG_CONFIG_HOME/a2a/config.toml` under the repository's
`.a2a/config.toml`, value by value; each bad value one error naming the file and the field;
`a2a config show` says where every value came from."""

from __future__ import annotations

import pytest

from a2a_tui import settings
from a2a_tui.collab.roles import ROLES
from a2a_tui.errors import A2AError
from a2a_tui.profiles import CLIS
from a2a_tui.repo import Repo
from tests.support import a2a, write_user_config


def add_to_repo_config(repo, text: str, *, accept: bool = True) -> None:
    """Add to the repository's config; the user accepts it (a rule file is in force only then:
    tests/gate/test_gate_rules_accept.py)."""
    path = Repo(repo).config_path
    path.write_text(path.read_text() + "\n" + text, encoding="utf-8")
    if accept:
        r = a2a("gate-rules", "accept", "--json", cwd=repo)
        assert r.code == 0, r.out + r.err


def test_the_repositorys_file_overrides_the_users_value_by_value(world, repo):
    user = write_user_config(world, '[roles.worker]\ncli = "codex"\nmodel = "m-user"\n'
                                    "[stall.codex]\nhint_after_s = 100\nboard_after_s = 900\n")
    add_to_repo_config(repo, '[roles.worker]\nmodel = "m-repo"\n[stall.codex]\n'
                             "board_after_s = 300\n")
    s = settings.load(Repo(repo).config_path)
    assert s.role("worker").cli == "codex" and s.role("worker").model == "m-repo"
    assert (s.stall_for("codex").hint_after_s, s.stall_for("codex").board_after_s) == (100, 300)
    assert s.stall_for("claude").hint_after_s == 600  # untouched: the default
    assert s.sources["roles.worker.cli"] == str(user)
    assert s.sources["roles.worker.model"] == str(Repo(repo).config_path)
    assert s.sources["stall.claude.hint_after_s"] == "default"

    r = a2a("config", "show", "--json", cwd=repo)
    assert r.code == 0, r.err
    assert r.json["values"]["roles"]["worker"]["model"] == "m-repo"
    assert r.json["sources"]["roles.worker.cli"] == str(user)
    assert r.json["sources"]["target_branch"] == str(Repo(repo).config_path)
    assert r.json["sources"]["layout.events_rows"] == "default"
    text = a2a("config", "show", cwd=repo).out
    line = next(ln for ln in text.splitlines() if ln.startswith("roles.worker.model"))
    assert '"m-repo"' in line and line.endswith(str(Repo(repo).config_path))


@pytest.mark.parametrize("text, where, field", [
    ('[roles.worker]\ncli = "cladue"\n', "user", "roles.worker.cli"),
    ("[stall.codex]\nhint_after_s = -1\n", "user", "stall.codex.hint_after_s"),
    ("[notify]\nbel = true\n", "user", "notify.bel"),
    ("[rolez.worker]\n", "user", "rolez"),
    ("[layout]\nevents_rows = 'many'\n", "repo", "layout.events_rows"),
    ("[stall.demo]\nboard_after_s = 5\n", "repo", "stall.demo"),  # shorter than the hint
    ("[roles.worker\n", "user", "line 1"),
])
def test_a_bad_value_is_one_error_naming_its_file_and_field(world, repo, text, where, field):
    path = write_user_config(world, text) if where == "user" else Repo(repo).config_path
    if where == "repo":
        add_to_repo_config(repo, text, accept=False)
    with pytest.raises(A2AError) as exc:
        settings.load(Repo(repo).config_path)
    assert exc.value.code == "bad_config"
    assert exc.value.message.startswith(f"{path}: ") and field in exc.value.message
    # The user's file is read as it is; the repository's is refused when accepted, and until
    # then the accepted one stands.
    r = a2a("gate-rules" if where == "repo" else "config",
            "accept" if where == "repo" else "show", "--json", cwd=repo)
    assert r.code == 1 and r.json["error"]["code"] == "bad_config", r.out
    assert field in r.json["error"]["message"] and "\n" not in r.json["error"]["message"]


def test_the_users_file_alone_outside_a_repository(world, tmp_path):
    user = write_user_config(world, "[notify]\nbell = false\n")
    r = a2a("config", "show", "--json", cwd=tmp_path)
    assert r.code == 0, r.err
    assert r.json["values"]["notify"] == {"bell": False, "status": True}
    assert r.json["sources"]["notify.bell"] == str(user) and "repo" not in r.json["files"]


def test_roles_and_clis_are_the_packages_own():
    assert settings.ROLE_NAMES == ROLES
    assert set(settings.DEFAULTS["stall"]) == set(CLIS)


def test_env_names_what_passes_per_session_cli_and_role_in_the_users_file_only(world, repo):
    user = write_user_config(world, '[env]\npass = ["GH_HOST", "AWS_*"]\n'
                                    '[env.roles.worker]\npass = ["GITHUB_TOKEN"]\n'
                                    '[env.clis.codex]\npass = ["OPENAI_ORG"]\n')
    s = settings.load(Repo(repo).config_path)
    assert s.env.names("codex", "worker") == ("GH_HOST", "AWS_*", "OPENAI_ORG", "GITHUB_TOKEN")
    assert s.env.names("claude", "reviewer") == ("GH_HOST", "AWS_*")
    r = a2a("config", "show", "--json", cwd=repo)
    assert r.json["values"]["env"]["pass"] == ["GH_HOST", "AWS_*"]
    assert r.json["sources"]["env.pass"] == str(user)
    write_user_config(world, '[env]\npass = ["NOT A NAME"]\n')
    with pytest.raises(A2AError, match="env.pass: 'NOT A NAME'"):
        settings.load()
    # The repository's file (an agent may propose it) never widens what reaches sessions.
    write_user_config(world, "")
    add_to_repo_config(repo, '[env]\npass = ["GITHUB_TOKEN"]\n', accept=False)
    assert settings.load(Repo(repo).config_path).env.names("claude", "worker") == ()
