"""One isolated world for driving the real CLIs through a2a.

`World` holds: a network namespace with only loopback; our fake model server bound inside it; a
throwaway HOME (and CODEX_HOME) prepared as a user who had accepted the first-run dialogs would
have it; a real git repository with `a2a init`; a private tmux server; `a2a serve`. Every a2a
command, the tmux server and so the CLIs run inside the namespace. The provider settings reach
the CLIs the way a user's would: through the environment of `a2a serve` / `a2a spawn` (the
tmux server, started by the first spawn, hands it to its panes) and through the options after
`a2a spawn ... --`.

The repository lives under the install cache, not /tmp: Gemini CLI ignores a settings file
below a folder that others can write to (`work_root`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

import pytest

from a2a_tui.profiles.gemini import insecure_ancestor
from tests import support
from tests.real_cli.fakemodel import FakeModel, Reply
from tests.real_cli.install import cache_root
from tests.real_cli.isolation import DUMMY_KEY, Netns, make_home

# Provider variables that must not leak in from the machine running the tests.
SCRUB = ("ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL",
         "CLAUDE_CODE_OAUTH_TOKEN",
         "CLAUDECODE", "CLAUDE_CONFIG_DIR", "OPENAI_API_KEY", "OPENAI_BASE_URL", "GEMINI_API_KEY",
         "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL", "GEMINI_CLI_HOME", "GOOGLE_CLOUD_PROJECT",
         *support.World.scrub)
OPENAI_KEY_VAR = "A2A_FAKE_OPENAI_KEY"
GEMINI_MODEL = "gemini-2.5-flash"
API = {"claude": "anthropic", "codex": "openai", "gemini": "gemini"}   # what each CLI speaks


# Read at import, before any test replaces HOME with a throwaway one.
_USER_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "a2a-real-cli"


def work_root() -> tuple[Path, str | None]:
    """Where the test worlds live, and why Gemini cannot run there (None when it can).

    The install cache's folder when no folder above it is writable by group or others (Gemini
    CLI would ignore a2a's settings file below one); else the user's cache folder, if that one
    is safe (a checkout under /tmp, as CI clones may be)."""
    for base in (cache_root(), _USER_CACHE):
        bad = insecure_ancestor(base / "work" / "x")
        if bad is None:
            return base / "work", None
    return cache_root() / "work", (f"Gemini CLI ignores hook settings below {bad} (writable by"
                                   " group or others)")


PASTED = re.compile(r'\n\n<pasted_content id="([^"]+)">\n(.*)\n</pasted_content id="\1">\n', re.S)


def unwrap_paste(text: str) -> str:
    """The pasted text: inside Claude Code's `<pasted_content id="...">` envelope when it collapsed
    the paste, else the prompt itself (seen once in CI under load: the same 4-line paste arrived
    bare, not collapsed; FINDINGS.md)."""
    found = PASTED.fullmatch(text)
    return found.group(2) if found else text


def needs_safe_folder():
    """A mark that skips a Gemini CLI test, with the reason, where Gemini would ignore a2a's
    hook settings (every world's folder is below one writable by group or others)."""
    why = work_root()[1]
    return pytest.mark.skipif(why is not None, reason=why or "")


def mark(tag: str) -> str:
    """A unique word to find one test's prompt among everything the fake model received."""
    return f"{tag}-{uuid.uuid4().hex[:8]}"


def provider_args(cli: str, fm: FakeModel) -> list[str]:
    """What a user with a custom provider would put after `a2a spawn ... --`."""
    if cli == "codex":
        provider = ('model_providers.fake={name="fake",base_url="%s/v1",wire_api="responses",'
                    'env_key="%s",request_max_retries=0,stream_max_retries=0}'
                    % (fm.url, OPENAI_KEY_VAR))
        return ["-c", "model_provider=fake", "-c", provider, "-c", "model=gpt-fake",
                "-c", "analytics.enabled=false", "-c", "feedback.enabled=false",
                "--disable", "plugins", "--disable", "remote_plugin", "--disable",
                "plugin_sharing", "--disable", "apps", "--disable", "in_app_updates"]
    if cli == "gemini":
        # An explicit model: "Auto" first asks a router model for a JSON verdict.
        return ["--model", GEMINI_MODEL]
    return []


# Each CLI's shell tool, and the argument holding the command (the requests' tool lists).
SHELL_TOOL = {"claude": ("Bash", "command"), "codex": ("exec_command", "cmd"),
              "gemini": ("run_shell_command", "command")}


def shell_call(cli: str, command: str) -> tuple[str, dict[str, str]]:
    """A tool call running `command` in `cli`'s shell tool, for `Reply(tool=...)`."""
    name, arg = SHELL_TOOL[cli]
    return name, {arg: command}


def write_call(cli: str, cwd: Path, rel: str, text: str) -> tuple[str, dict]:
    """A tool call writing `text` to `cwd/rel` with the CLI's own edit tool (Codex has none for
    a custom provider's model: `apply_patch` through its shell, which Codex applies itself)."""
    if cli == "claude":
        return "Write", {"file_path": str(cwd / rel), "content": text}
    if cli == "gemini":
        return "write_file", {"file_path": str(cwd / rel), "content": text}
    body = "".join(f"+{line}\n" for line in text.splitlines())
    return shell_call(cli, f"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: {rel}\n{body}"
                           "*** End Patch\nEOF\n")


class World(support.World):
    """Everything one test module needs: the support World (HOME, repository, private tmux
    server, `a2a serve`) with every a2a and tmux command run inside a network namespace that
    only our fake model is reachable in; `close()` tears it all down."""

    scrub = SCRUB

    def __init__(self, bin_dir: Path, *, trust: bool = True):
        self.bin_dir = bin_dir
        work = work_root()[0]
        work.mkdir(parents=True, exist_ok=True)
        self.ns: Netns | None = None
        self.fm: FakeModel | None = None
        super().__init__(Path(tempfile.mkdtemp(prefix="w-", dir=work)), repo=False)
        try:
            self._setup(trust)
        except BaseException:
            self.close()
            raise

    def _setup(self, trust: bool) -> None:
        self.ns = Netns()
        self.fm = FakeModel(Reply(text="Done: fake answer.")).start(netns=self.ns)
        repo = self.base / "repo"
        trusted = [repo] if trust else []
        self.setenv.update(make_home(self.home, trusted=trusted))
        self.setenv.update({
            "PATH": os.pathsep.join([str(self.bin_dir), str(Path(sys.executable).parent),
                                     os.environ.get("PATH", "/usr/bin:/bin")]),
            "ANTHROPIC_BASE_URL": self.fm.url, "ANTHROPIC_API_KEY": DUMMY_KEY,
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1", "DISABLE_AUTOUPDATER": "1",
            OPENAI_KEY_VAR: "sk-fake-openai", "GEMINI_API_KEY": "fake-gemini-key",
            "GOOGLE_GEMINI_BASE_URL": self.fm.url,
            # As on CI machines, and in some users' shells: Gemini CLI turns headless and exits
            # under it unless its launch unsets it (FINDINGS.md).
            "CI": "true",
        })
        _codex_home(Path(self.setenv["CODEX_HOME"]), trusted)
        _gemini_home(self.home, trusted)
        self.init_repo(repo, {"README.md": "a repository for the real CLIs\n"})

    # --- a2a and tmux, inside the namespace ----------------------------------------------------
    def run(self, argv: list[str], **kw: Any) -> subprocess.CompletedProcess:
        assert self.ns is not None
        return self.ns.run(argv, **kw)

    def popen(self, argv: list[str], **kw: Any) -> subprocess.Popen:
        assert self.ns is not None
        return self.ns.popen(argv, **kw)

    def spawn(self, cli: str, *cli_args: str, role: str = "worker", attempt: str | None = None,
              env: dict[str, str] | None = None, resume: str | None = None,
              fork: str | None = None) -> dict[str, Any]:
        """`a2a spawn ROLE --cli CLI [--attempt A] [--resume|--fork CONVERSATION] --
        <provider options> <cli_args>` (`env`: added to the world's environment)."""
        assert self.fm is not None
        bind = ["--attempt", attempt] if attempt else []
        bind += ["--resume", resume] if resume else []
        bind += ["--fork", fork] if fork else []
        r = self.a2a("spawn", role, "--cli", cli, *bind, "--tmux-socket", self.sock, "--json",
                     "--", *provider_args(cli, self.fm), *cli_args, env=env)
        assert r.code == 0, r.out + r.err
        return r.json

    def start(self, panes: list[str], cli: str, *cli_args: str, timeout: float = 40,
              **spawn_kw: Any) -> dict[str, Any]:
        """Spawn `cli`, note its pane in `panes` (killed after the test), and wait until a
        signal made it idle; on failure the screen is in the message."""
        s = self.spawn(cli, *cli_args, **spawn_kw)
        panes.append(s["pane"])
        try:
            self.wait_state(s["session"], "idle", timeout=timeout)
        except AssertionError as exc:
            raise AssertionError(f"no idle pane: {exc}") from None
        return s

    def turns_with(self, cli: str, needle: str) -> list[str]:
        """The user prompts the fake model received from `cli` that contain `needle`."""
        assert self.fm is not None
        return [t for t in self.fm.user_texts(API[cli]) if needle in t]

    def begin_endless_turn(self, sid: str, text: str, needle: str) -> tuple[int, Any]:
        """Inject `text` (containing `needle`), whose reply never comes; return once the model
        request is in and the pane busy: (dispatch number, the recorded request)."""
        assert self.fm is not None
        self.fm.on_text(needle, Reply(text="never finished", delay_s=60))
        n = self.inject(sid, text)
        try:
            req = self.fm.wait_for(lambda r: needle in r.text and r.side is None, timeout=20,
                                   what=f"the model request holding {needle}")
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{self.explain(sid)}") from None
        self.wait_state(sid, "busy")
        return n, req

    def inject(self, sid: str, text: str) -> int:
        r = self.a2a("inject", sid, "-", "--json", input=text)
        if r.code != 0:  # say what the session went through, and what its pane shows
            raise AssertionError(f"{r.out}{r.err}\n{self.explain(sid)}")
        return r.json["dispatch"]

    def release(self, sid: str) -> dict[str, Any]:
        r = self.a2a("release", sid, "--json")
        assert r.code == 0, r.out + r.err
        return r.json

    def sessions(self) -> dict[str, dict[str, Any]]:
        return support.sessions_json(self._repo(), via=self.a2a)

    # --- teardown -------------------------------------------------------------------------------
    def close(self) -> None:
        super().close()  # a2a serve, the tmux server (its socket is reachable from outside)
        if self.fm is not None:
            self.fm.stop()
        if self.ns is not None:
            self.ns.close()
        shutil.rmtree(self.base, ignore_errors=True)


def _codex_home(codex_home: Path, trusted: list[Path]) -> None:
    """The throwaway CODEX_HOME: the folder-trust question answered for `trusted` only."""
    codex_home.mkdir(parents=True, exist_ok=True)
    lines = ["[tui]", "screen_reader_detection_done = true", ""]
    for p in trusted:
        lines += [f"[projects.{json.dumps(str(p))}]", 'trust_level = "trusted"', ""]
    (codex_home / "config.toml").write_text("\n".join(lines))


def _gemini_home(home: Path, trusted: list[Path]) -> None:
    """The throwaway ~/.gemini: API-key auth chosen, no usage statistics, `trusted` trusted."""
    gdir = home / ".gemini"
    gdir.mkdir(parents=True, exist_ok=True)
    settings = {"security": {"auth": {"selectedType": "gemini-api-key"}},
                "privacy": {"usageStatisticsEnabled": False},
                "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False}}
    (gdir / "settings.json").write_text(json.dumps(settings, indent=2))
    (gdir / "trustedFolders.json").write_text(
        json.dumps({str(p): "TRUST_FOLDER" for p in trusted}, indent=2))
