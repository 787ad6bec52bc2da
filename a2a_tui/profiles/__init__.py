"""How each agent CLI is launched for one managed session: argv, env and generated files.

One module per CLI, one shape (`Profile`). Everything is per session: a2a never writes
`~/.claude*`, `~/.codex`, `~/.gemini` or global git config. The hook commands baked into the
generated files carry the session id, the spool folder and (for Codex) the pane id, so the hook
script needs nothing else at run time.
"""

# Imports inside functions: each CLI's module imports this one (Profile and its helpers), so
# `get` imports them when first asked; a profiles/base.py would let them import at the top.

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.profiles.environment import EnvFamily

# Replaced by the pane's own $TMUX_PANE when the launch script runs (the pane id is known only
# once tmux has made the pane, and Codex strips the variable from notify commands).
PANE_TOKEN = "@@TMUX_PANE@@"


@dataclass(frozen=True)
class LaunchContext:
    """Everything a profile may use to build a launch."""

    session: str
    role: str
    cwd: Path
    run_dir: Path            # per-session folder for generated files
    spool_dir: Path          # the session's own spool folder (`.a2a/spool/<session>/`)
    hook: Path               # hooks/a2a-hook
    model: str = ""
    effort: str = ""
    role_card: Path | None = None
    extra: tuple[str, ...] = ()   # options after `--`, passed to the CLI as they are
    # The CLI's own conversation to go on with (its session / thread id): the same one (revive),
    # or, with `fork`, a copy of it under a new id.
    continues: str | None = None
    fork: bool = False
    # The session runs confined by the OS (a2a_tui/confine) and the user lets a confined worker
    # run any command without asking: its CLI's own sandbox and prompts then guard only what
    # the confinement does not already (permissions.py).
    open_shell: bool = False
    # The session runs confined (whatever the shell may run): a CLI may then be told its
    # folder is a sandbox's (Claude Code's trust of an attempt's clone, claude.py).
    confined: bool = False
    # Where the session writes its results (a review report, a card draft): `.a2a/run/<s>/out`
    # (Repo.session_out_dir), the one part of its run folder its confinement lets it write.
    out_dir: Path | None = None
    # The project's confirmed profile, as a section of the role card (collab/project.py): given
    # to the controllers, so that their cards and plans name the real commands.
    project: str = ""

    @property
    def results_dir(self) -> Path:
        """The folder the read-only roles may write in: `out_dir`, else the run folder."""
        return self.out_dir or self.run_dir

    @property
    def repository(self) -> Path | None:
        """The main repository when the session works in a folder of its own inside it (an
        attempt's clone, `.a2a/worktrees/<attempt>`), else None."""
        repo = self.run_dir.parents[2]         # <repo>/.a2a/run/<session>
        return repo if self.cwd != repo and repo in self.cwd.parents else None

    def hook_argv(self, source: str, pane: bool = False) -> list[str]:
        """The hook command for one protocol source, with this session and its own spool folder
        baked in (the orchestrator takes the session from the folder; `--session` only names
        the files)."""
        argv = [str(self.hook), "--spool", str(self.spool_dir), "--session", self.session]
        if pane:
            argv += ["--pane", PANE_TOKEN]
        return argv + [source]

    def hook_command(self, source: str) -> str:
        return shlex.join(self.hook_argv(source))

    @property
    def githooks_dir(self) -> Path:
        """The session's generated git hooks (panes/githooks.py)."""
        return self.run_dir / "githooks"


@dataclass(frozen=True)
class Launch:
    """A prepared launch: nothing written or started yet."""

    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    unset: tuple[str, ...] = ()    # variables of the user's environment the CLI must not see
    files: dict[str, str] = field(default_factory=dict)   # name in run_dir -> content
    thread_id: str | None = None   # the CLI's conversation id when a2a chooses it
    # The CLI signals a submitted prompt (Claude Code's UserPromptSubmit, Gemini's BeforeAgent)
    # as it takes it, so a delivery that no such signal follows can be pointed out to the user.
    prompt_signal: bool = True
    # What the role was given (permissions.py): {"args", "description"[, "overridden_by"]}.
    permissions: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Profile:
    """One CLI. Subclasses fill in `prepare`."""

    name: str
    binary: str
    # Keys that empty the input box before a paste that follows a manual release: after an Esc
    # interrupt the CLI may have put the interrupted prompt back there.
    clear_input_keys: tuple[str, ...] = ("C-u",)
    # The key that stops a busy turn, as a user at the pane stops it (panes/turns.py): Esc in
    # Claude Code (no hook follows: PROTOCOLS.md A), Codex (its Interrupt hook follows), Gemini
    # CLI and the demo agent.
    interrupt_keys: tuple[str, ...] = ("Escape",)
    # Pause between the bracketed paste and Enter, so the TUI has taken the paste in first.
    enter_delay_s: float = 0.15
    # The first paste of a launch waits until the pane has been idle this long: a CLI that
    # drops a paste coming right after its start signal (Gemini CLI after --resume) gets time.
    start_settle_s: float = 0.0
    # What the user must do in a pane that has sent no signal `silent_start_s` after launch.
    silent_start_hint: str = "no signal yet: look at the pane"
    silent_start_s: float = 8.0
    # Seconds after each Enter to wait for the CLI's prompt signal (panes/confirm.py) before
    # deciding: another Enter, or the dispatch `unknown` and the user called.
    prompt_wait_s: float = 10.0
    # How many more Enters may follow the first when no signal at all came (never the paste):
    # only where a second Enter is measured harmless (on an empty box it does nothing, idle or
    # busy: bench/bench_delivery.py harmless). 0: never.
    enter_retries: int = 0
    # The CLI's provider settings: handed from the spawner to the pane (environment.py).
    env_family: EnvFamily = EnvFamily()

    def prepare(self, ctx: LaunchContext) -> Launch:
        """The launch for `ctx`: a new conversation, or `ctx.continues` (resumed or forked);
        A2AError `cannot_resume` / `cannot_fork` where the CLI has no such option."""
        raise NotImplementedError

    def resume_argv(self, ctx: LaunchContext, conversation: str) -> list[str]:
        """The argv that revives the CLI's conversation `conversation` (or A2AError)."""
        return self.prepare(replace(ctx, continues=check_conversation(conversation))).argv

    def fork_argv(self, ctx: LaunchContext, conversation: str) -> list[str]:
        """The argv that starts a copy of the conversation under a new id (or A2AError)."""
        return self.prepare(replace(ctx, continues=check_conversation(conversation),
                                    fork=True)).argv

    def state_paths(self, environ: Mapping[str, str]) -> tuple[Path, ...]:
        """The CLI's own state (login, settings, conversations) that a confined session may
        write: the folders and files the CLI keeps in HOME or where its variables say. A name
        with a suffix (`.claude.json`) is a file, any other a folder (`spawn` makes a missing
        folder before binding it, so the CLI's state outlives the session)."""
        return ()

    def family(self, extra: tuple[str, ...]) -> EnvFamily:
        """The variable family for a launch with these options (the demo agent's depends on
        the protocol it stands in for)."""
        return self.env_family

    def env_names(self, extra: tuple[str, ...], environ: Mapping[str, str]) -> tuple[str, ...]:
        """Variables outside the family that this launch names (e.g. a provider's key)."""
        return ()

    def pane_env(self, extra: tuple[str, ...], environ: Mapping[str, str]) -> dict[str, str]:
        """The spawner's variables of the CLI's family that the pane gets."""
        family, names = self.family(extra), self.env_names(extra, environ)
        return family.travelling(environ, names)

    def version(self) -> str:
        """`<binary> --version`, first line; refuses a CLI that is not installed."""
        try:
            proc = subprocess.run([self.binary, "--version"], capture_output=True, text=True,
                                  timeout=20)
        except FileNotFoundError as exc:
            raise A2AError("cli_missing", not_installed(self.name)) from exc
        except subprocess.TimeoutExpired:
            return "unknown"
        lines = (proc.stdout or proc.stderr).strip().splitlines()
        return lines[0].strip() if proc.returncode == 0 and lines else "unknown"


_CONVERSATION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


def home_of(environ: Mapping[str, str]) -> Path:
    """HOME as the launch sees it."""
    return Path(environ.get("HOME") or Path.home())


def check_conversation(conversation: str) -> str:
    """A CLI conversation id as a2a passes it on (a UUID, a Codex thread id); else A2AError."""
    if not _CONVERSATION.fullmatch(conversation):
        raise A2AError("bad_conversation", f"not a conversation id: {conversation!r}",
                       exit_code=2)
    return conversation


def cannot(what: str, cli: str, why: str) -> A2AError:
    """The error for a CLI that cannot resume or fork: the caller starts it fresh instead."""
    return A2AError(f"cannot_{what}", f"{cli} cannot {what} a conversation: {why}")


def role_card_text(ctx: LaunchContext, given: str) -> str:
    """The role card as passed to the CLI, ending with what this session was given."""
    assert ctx.role_card is not None
    card = ctx.role_card.read_text(encoding="utf-8").rstrip("\n")
    project = f"\n\n{ctx.project}" if ctx.project else ""
    return f"{card}{project}\n\nPermissions in this session: {given}.\n"


def claude_hooks_settings(ctx: LaunchContext, events: tuple[str, ...], source: str = "claude",
                          timeout: int = 10) -> dict:
    """Settings in Claude Code's hook format: every listed event runs our hook script."""
    handler = {"type": "command", "command": ctx.hook_command(source), "timeout": timeout}
    return {"hooks": {ev: [{"hooks": [handler]}] for ev in events}}


def get(cli: str) -> Profile:
    """The profile for `cli`."""
    from a2a_tui.profiles import claude, codex, demo, gemini

    table = {"claude": claude.PROFILE, "codex": codex.PROFILE, "gemini": gemini.PROFILE,
             "demo": demo.PROFILE}
    if cli not in table:
        raise A2AError("unknown_cli", f"unknown CLI {cli!r} (one of {', '.join(table)})",
                       exit_code=2)
    return table[cli]


CLIS = ("claude", "codex", "gemini", "demo")


def installed(cli: str) -> bool:
    """Whether `cli` can start here: its program is on PATH (the demo agent is a2a's own)."""
    return shutil.which(get(cli).binary) is not None


def not_installed(cli: str) -> str:
    """What to do when `cli` is not installed: the demo agent, or the real CLIs' how-to."""
    return (f"{cli} is not installed here (no `{get(cli).binary}` on PATH): pick demo, a2a's"
            " stand-in agent that needs no model or key, or install it:"
            " docs/how-to/real-clis.md")
