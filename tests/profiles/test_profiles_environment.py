"""Which variables travel from the spawner to a pane, and how the launch script sets them."""

from __future__ import annotations

import subprocess

from a2a_tui.profiles import get
from a2a_tui.profiles.codex import provider_key_names
from a2a_tui.profiles.environment import EnvFamily, launch_env, named


def test_a_family_takes_its_prefixes_names_and_the_common_ones_minus_what_the_cli_sets():
    fam = EnvFamily(prefixes=("ANTHROPIC_",), names=("DISABLE_TELEMETRY",),
                    deny=("ANTHROPIC_SESSION",))
    env = {"ANTHROPIC_API_KEY": "k", "ANTHROPIC_SESSION": "x", "DISABLE_TELEMETRY": "1",
           "HTTPS_PROXY": "http://proxy:3128", "OPENAI_API_KEY": "o", "HOME": "/h",
           "ANTHROPIC_BAD-NAME": "y"}
    assert fam.travelling(env) == {"ANTHROPIC_API_KEY": "k", "DISABLE_TELEMETRY": "1",
                                   "HTTPS_PROXY": "http://proxy:3128"}
    assert fam.travelling(env, ("OPENAI_API_KEY",))["OPENAI_API_KEY"] == "o"


def test_each_cli_hands_over_its_own_family():
    env = {"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o", "GEMINI_API_KEY": "g",
           "CLAUDE_CODE_SESSION_ID": "set-by-claude-for-its-tools", "CODEX_THREAD_ID": "t"}
    assert set(get("claude").pane_env((), env)) == {"ANTHROPIC_API_KEY"}
    assert set(get("codex").pane_env((), env)) == {"OPENAI_API_KEY"}
    assert set(get("gemini").pane_env((), env)) == {"GEMINI_API_KEY"}
    assert set(get("demo").pane_env(("--protocol", "codex"), env)) == {"OPENAI_API_KEY"}
    assert set(get("demo").pane_env((), env)) == {"ANTHROPIC_API_KEY"}


def test_codex_passes_the_variable_a_custom_provider_reads_its_key_from(tmp_path):
    (tmp_path / "config.toml").write_text(
        '[model_providers.mine]\nname = "m"\nbase_url = "http://x/v1"\nenv_key = "MY_KEY"\n')
    extra = ("-c", 'model_providers.fake={name="f",env_key="FAKE_KEY"}')
    names = provider_key_names(extra, {"CODEX_HOME": str(tmp_path)})
    assert names == ("FAKE_KEY", "MY_KEY")
    env = {"CODEX_HOME": str(tmp_path), "FAKE_KEY": "1", "MY_KEY": "2", "OTHER": "3"}
    assert set(get("codex").pane_env(extra, env)) == {"CODEX_HOME", "FAKE_KEY", "MY_KEY"}
    # A config file that is not TOML names nothing and stops nothing.
    (tmp_path / "config.toml").write_text("[[[ not toml")
    assert provider_key_names((), {"CODEX_HOME": str(tmp_path)}) == ()


def test_the_launch_starts_from_nothing_but_the_allow_list():
    inherited = {"PATH": "/usr/bin:/bin", "TERM": "tmux-256color", "LANG": "C.UTF-8",
                 "HOME": "/h", "GITHUB_TOKEN": "ghp", "ANTHROPIC_MODEL": "stale of the server",
                 "KEEP": "multi\nTERM_PROGRAM=forged", "CI": "true", "TZ": "UTC"}
    words = launch_env({"ANTHROPIC_API_KEY": "k y", "PATH": "/bin:/usr/bin", "BAD-NAME": "x"},
                       unset=("CI", "TZ"))
    out = subprocess.run(["/bin/sh", "-c", "exec " + " ".join([*words, "/usr/bin/env"])],
                         env=inherited, capture_output=True, text=True, check=True).stdout
    assert dict(line.split("=", 1) for line in out.splitlines()) == {
        "TERM": "tmux-256color", "LANG": "C.UTF-8", "HOME": "/h", "ANTHROPIC_API_KEY": "k y",
        "PATH": "/bin:/usr/bin"}


def test_the_users_settings_name_variables_or_prefixes():
    env = {"GH_TOKEN": "1", "AWS_REGION": "2", "AWSX": "3", "OTHER": "4"}
    assert named(env, ("GH_TOKEN", "AWS_*")) == {"AWS_REGION": "2", "GH_TOKEN": "1"}
    assert named(env, ()) == {}
