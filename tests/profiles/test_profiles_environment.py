"""Which variables travel from the spawner to a pane, and how the launch script sets them."""

from __future__ import annotations

import subprocess

from a2a_tui.profiles import get
from a2a_tui.profiles.codex import provider_key_names
from a2a_tui.profiles.environment import EnvFamily


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
    assert set(get("claude").pane_env((), env)[0]) == {"ANTHROPIC_API_KEY"}
    assert set(get("codex").pane_env((), env)[0]) == {"OPENAI_API_KEY"}
    assert set(get("gemini").pane_env((), env)[0]) == {"GEMINI_API_KEY"}
    assert set(get("demo").pane_env(("--protocol", "codex"), env)[0]) == {"OPENAI_API_KEY"}
    assert set(get("demo").pane_env((), env)[0]) == {"ANTHROPIC_API_KEY"}


def test_codex_passes_the_variable_a_custom_provider_reads_its_key_from(tmp_path):
    (tmp_path / "config.toml").write_text(
        '[model_providers.mine]\nname = "m"\nbase_url = "http://x/v1"\nenv_key = "MY_KEY"\n')
    extra = ("-c", 'model_providers.fake={name="f",env_key="FAKE_KEY"}')
    names = provider_key_names(extra, {"CODEX_HOME": str(tmp_path)})
    assert names == ("FAKE_KEY", "MY_KEY")
    env = {"CODEX_HOME": str(tmp_path), "FAKE_KEY": "1", "MY_KEY": "2", "OTHER": "3"}
    assert set(get("codex").pane_env(extra, env)[0]) == {"CODEX_HOME", "FAKE_KEY", "MY_KEY"}
    # A config file that is not TOML names nothing and stops nothing.
    (tmp_path / "config.toml").write_text("[[[ not toml")
    assert provider_key_names((), {"CODEX_HOME": str(tmp_path)}) == ()


def test_the_clear_line_unsets_only_the_family_inherited_from_the_server():
    fam = EnvFamily(prefixes=("ANTHROPIC_",), names=("DISABLE_TELEMETRY",))
    script = fam.clear_line() + "\nenv\n"
    inherited = {"PATH": "/usr/bin:/bin", "ANTHROPIC_MODEL": "stale", "DISABLE_TELEMETRY": "1",
                 "HTTP_PROXY": "p", "KEEP": "multi\nANTHROPIC_FAKE=line", "ANTHROPICX": "k"}
    out = subprocess.run(["/bin/sh", "-c", script], env=inherited, capture_output=True,
                         text=True, check=True).stdout
    assert "ANTHROPIC_MODEL=" not in out and "DISABLE_TELEMETRY=" not in out
    assert "HTTP_PROXY=" not in out
    assert "KEEP=multi" in out and "ANTHROPICX=k" in out
