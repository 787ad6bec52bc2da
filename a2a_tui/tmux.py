"""The one adapter for tmux (libtmux underneath): nothing else in a2a talks to tmux.

Pane state never comes from here: this module launches panes, tags them, pastes and presses keys,
and tells whether a pane still exists. It never reads a pane's screen.
"""

# Imports inside functions: libtmux on first use (~0.1 s the CLI and the first frame do
# without; see `_libtmux`).

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import threading
import types
from dataclasses import dataclass

from a2a_tui.errors import A2AError

SOCKET_ENV = "A2A_TMUX_SOCKET"
# a2a's own tmux server (`tmux -L a2a`): its panes never go to the user's default server, where
# their own sessions, hooks and key bindings live.
DEFAULT_SOCKET = "a2a"
# How long a2a's server waits after an Esc for the rest of a sequence: tmux's default 500 ms
# made Esc late and an Esc followed quickly by Tab Alt-Tab (vim/neovim advise <= 10-50 ms).
ESCAPE_TIME_MS = 10
_PANE_FMT = "#{pane_id}\t#{pane_pid}\t#{pane_tty}\t#{pane_dead}\t#{pane_dead_status}"


class TmuxError(A2AError):
    """A tmux command failed; the message carries tmux's own first line."""

    def __init__(self, message: str):
        super().__init__("tmux_failed", message)


@dataclass(frozen=True)
class PaneFacts:
    """What tmux says about one pane."""

    pane_id: str
    pid: int
    tty: str
    dead: bool
    dead_status: int | None


# The pane option that names the a2a session a pane runs (set at launch, spawn.py): what tells
# an agent's pane from any other, the user's own windows among them.
SESSION_TAG = "@a2a_session"

def socket_from_env(explicit: str | None, recorded: str | None = None) -> str:
    """The tmux server to use: --tmux-socket, else $A2A_TMUX_SOCKET, else `recorded` (where
    something already runs), else a2a's own server (`DEFAULT_SOCKET`); never the user's
    default server."""
    return explicit or os.environ.get(SOCKET_ENV) or recorded or DEFAULT_SOCKET


def socket_args(socket: str | None) -> list[str]:
    """How tmux is told which server: `-S PATH` for a socket path, `-L NAME` for a name."""
    if not socket:
        return []
    return ["-S", socket] if "/" in socket else ["-L", socket]


_IMPORT_LOCK = threading.Lock()


def _libtmux() -> types.ModuleType:
    """libtmux, imported on first use (~0.1 s that the CLI and the workbench's first frame do
    without). It reads `sys.stdout.encoding` at import (libtmux/_compat.py); inside the workbench
    sys.stdout is Textual's print capture, which has none, so the import sees the real stream."""
    with _IMPORT_LOCK:
        if "libtmux" not in sys.modules and getattr(sys.stdout, "encoding", None) is None:
            saved = sys.stdout
            sys.stdout = sys.__stdout__ or types.SimpleNamespace(encoding="utf-8")
            try:
                import libtmux
            finally:
                sys.stdout = saved
        import libtmux
    return libtmux


class Tmux:
    """One tmux server: `tmux -L <socket>` (or `-S <path>` when the socket is a path). None is
    the user's default server: only for what was recorded there before a2a had a server of its
    own (`socket_from_env` never gives it)."""

    def __init__(self, socket: str | None = None):
        if shutil.which("tmux") is None:
            raise A2AError("tmux_missing", "tmux is not installed or not on PATH")
        self.socket = socket
        if socket and "/" in socket:
            self.server = _libtmux().Server(socket_path=socket)
        else:
            self.server = _libtmux().Server(socket_name=socket)

    def _cmd(self, *args: str) -> list[str]:
        proc = self.server.cmd(*args)
        if proc.returncode != 0:
            first = proc.stderr[0] if proc.stderr else f"exit {proc.returncode}"
            raise TmuxError(f"tmux {args[0]} failed: {first}")
        return proc.stdout

    def _argv(self, *args: str) -> list[str]:
        """The tmux command line for `args` on this server (for exec, or for a person to type)."""
        return ["tmux", *socket_args(self.socket), *args]

    def _stdin_cmd(self, data: str, *args: str) -> None:
        # libtmux has no stdin path; load-buffer reads the text from stdin so that no temp file
        # holds it and no argv length limit applies.
        proc = subprocess.run(self._argv(*args), input=data.encode(), capture_output=True)
        if proc.returncode != 0:
            first = proc.stderr.decode(errors="replace").strip().splitlines()
            raise TmuxError(f"tmux {args[0]} failed: {first[0] if first else proc.returncode}")

    # --- sessions and panes -------------------------------------------------------------
    def has_session(self, name: str) -> bool:
        """Whether the tmux session exists (False when the server is not running)."""
        return self.server.cmd("has-session", "-t", f"={name}").returncode == 0

    def new_pane(self, session: str, command: list[str], cwd: str) -> PaneFacts:
        """Start `command` (argv, executed directly) in a new window of `session`, created if
        missing. The pane survives its process (remain-on-exit) so its death can be signalled."""
        fmt = ["-P", "-F", _PANE_FMT]
        for _ in range(2):
            if self.has_session(session):
                out = self._cmd("new-window", "-d", "-t", f"={session}:", "-c", cwd, *fmt,
                                *command)
                return _facts(out[0])
            try:
                out = self._cmd("new-session", "-d", "-s", session, "-x", "200", "-y", "50",
                                "-c", cwd, *fmt, *command)
                self._own_server()
                return _facts(out[0])
            except TmuxError as exc:
                if "duplicate session" not in exc.message:
                    raise
                # Another spawn created it a moment ago: add a window to it instead.
        raise TmuxError(f"tmux could not create a pane in session {session!r}")

    def open_window(self, session: str, cwd: str, name: str,
                    env: dict[str, str] | None = None) -> str:
        """A new window named `name` in `session` (created if missing) running the user's own
        shell in `cwd`, with `env` set in it; returns its pane id. Nothing watches it: it is
        the user's window, not an agent's. `env` goes through `env(1)`, not `-e`: tmux gives
        a new pane the PATH of the client that asked for it whatever `-e` says. The shell is
        then not a login shell: one reads /etc/profile, which sets PATH anew on many systems."""
        fmt = ["-P", "-F", "#{pane_id}"]
        where = ["-c", cwd, "-n", name]
        shell = (["env", *(f"{k}={v}" for k, v in env.items()), user_shell()] if env else [])
        if self.has_session(session):
            out = self._cmd("new-window", "-d", "-t", f"={session}:", *where, *fmt, *shell)
        else:
            out = self._cmd("new-session", "-d", "-s", session, "-x", "200", "-y", "50",
                            *where, *fmt, *shell)
            self._own_server()
        return out[0]

    def _own_server(self) -> None:
        """What a2a's own server is set to once a session made it start (never the user's
        default server, and never through a config file): a short escape-time."""
        if self.socket:
            self._cmd("set-option", "-s", "escape-time", str(ESCAPE_TIME_MS))

    def set_pane_option(self, pane_id: str, name: str, value: str) -> None:
        self._cmd("set-option", "-p", "-t", pane_id, name, value)

    def pane_option(self, pane_id: str, name: str) -> str | None:
        proc = self.server.cmd("show-options", "-p", "-q", "-v", "-t", pane_id, name)
        return proc.stdout[0] if proc.returncode == 0 and proc.stdout else None

    def on_pane_death(self, pane_id: str, shell_command: str) -> None:
        """Run `shell_command` (with the exit status appended) when the pane's process dies.

        tmux 3.3 runs a pane-scoped `pane-exited` hook only while the pane still exists, so the
        pane is kept (remain-on-exit) and `pane-died` fires instead; the dead pane stays visible
        with its last output until the user closes it. tmux 3.3a skips `pane-died` for about
        half of the processes killed by SIGKILL (measured), so the orchestrator also watches each
        pane process's pidfd (panes/exits.py); this hook is the second witness.
        """
        self._cmd("set-option", "-p", "-t", pane_id, "remain-on-exit", "on")
        hook = "run-shell -b " + _tmux_quote(f"{shell_command} pane-died #{{pane_dead_status}}")
        self._cmd("set-hook", "-p", "-t", pane_id, "pane-died", hook)

    def panes(self) -> dict[str, PaneFacts]:
        """Every pane of the server by id; empty when the server is not running."""
        proc = self.server.cmd("list-panes", "-a", "-F", _PANE_FMT)
        if proc.returncode != 0:
            return {}
        return {f.pane_id: f for f in (_facts(line) for line in proc.stdout if line)}

    def kill_pane(self, pane_id: str) -> None:
        self._cmd("kill-pane", "-t", pane_id)

    def kill_session(self, session: str) -> None:
        """End `session` and every pane in it (tmux hangs their processes up)."""
        self._cmd("kill-session", "-t", f"={session}")

    # --- a2a's own session: options set on it alone, never globally ------------------------
    def set_session_option(self, session: str, name: str, value: str | None) -> None:
        """Set an option of `session` only (None unsets it, so the global value shows again)."""
        if value is None:
            self._cmd("set-option", "-u", "-t", f"={session}:", name)
        else:
            self._cmd("set-option", "-t", f"={session}:", name, value)

    def session_option(self, session: str, name: str) -> str | None:
        """The value `session` itself sets for `name` (None when it inherits the global one)."""
        proc = self.server.cmd("show-options", "-q", "-v", "-t", f"={session}:", name)
        return proc.stdout[0] if proc.returncode == 0 and proc.stdout else None

    def set_session_env(self, session: str, name: str, value: str | None) -> None:
        """Set `name` in the environment tmux gives `session`'s new processes (None removes
        it there)."""
        if value is None:
            self._cmd("set-environment", "-t", f"={session}", "-u", name)
        else:
            self._cmd("set-environment", "-t", f"={session}", name, value)

    def session_env(self, session: str) -> dict[str, str | None]:
        """What `session` itself sets in its environment (None: removed there)."""
        proc = self.server.cmd("show-environment", "-t", f"={session}")
        if proc.returncode != 0:
            return {}
        env: dict[str, str | None] = {}
        for line in proc.stdout:
            name, eq, value = line.partition("=")
            if name.startswith("-"):
                env[name[1:]] = None
            elif eq:
                env[name] = value
        return env

    def global_option(self, name: str) -> str:
        """The global (server-wide default) value of a session option, e.g. status-right."""
        proc = self.server.cmd("show-options", "-g", "-q", "-v", name)
        return proc.stdout[0] if proc.returncode == 0 and proc.stdout else ""

    def bind_key_to_pane(self, session: str, key: str, pane_id: str) -> str:
        """Bind `key`, for the clients of `session` alone, to showing the pane's window: the
        session gets a key table of its own (`a2a-<session>`: a copy of the root table, so
        every key bound there, the mouse's included, still works, plus `key`), named by its
        `key-table` option. Nothing global changes; other sessions keep the root table.
        Returns the table's name."""
        command = ["select-window", "-t", pane_id]
        table = f"a2a-{session}"
        proc = self.server.cmd("list-keys", "-T", "root")
        root = proc.stdout if proc.returncode == 0 else []
        lines = [line.replace(" -T root ", f" -T {table} ", 1) for line in root
                 if line.startswith("bind-key") and " -T root " in line]
        lines.append(" ".join(["bind-key", "-T", table, key, *map(_tmux_quote, command)]))
        self._stdin_cmd("\n".join(lines) + "\n", "source-file", "-")
        self.set_session_option(session, "key-table", table)
        return table

    def set_window_option(self, pane_id: str, name: str, value: str) -> None:
        """Set an option of the window holding `pane_id` only."""
        self._cmd("set-option", "-w", "-t", pane_id, name, value)

    # --- input --------------------------------------------------------------------------
    def paste(self, pane_id: str, text: str, buffer: str) -> None:
        """One bracketed paste of `text` into the pane (a multi-line text stays one prompt).

        The buffer is named per delivery and deleted by the paste; the target is a pane id, never
        an index that could point elsewhere after a layout change.
        """
        self._stdin_cmd(text, "load-buffer", "-b", buffer, "-")
        try:
            self._cmd("paste-buffer", "-p", "-d", "-b", buffer, "-t", pane_id)
        except TmuxError:
            self.server.cmd("delete-buffer", "-b", buffer)
            raise

    def send_keys(self, pane_id: str, *keys: str) -> None:
        """Press named keys (`Enter`, `C-u`, `Escape`) in the pane."""
        self._cmd("send-keys", "-t", pane_id, *keys)

    def send_text(self, pane_id: str, text: str) -> None:
        """Type literal text (no key-name lookup), as a user at the keyboard would."""
        self._cmd("send-keys", "-l", "-t", pane_id, "--", text)

    # --- the workbench (a2a up): showing panes, attaching, detaching ----------------------
    def select_window(self, pane_id: str) -> None:
        """Make the pane's window the current one of its session (what an attach shows)."""
        self._cmd("select-window", "-t", pane_id)

    def show_pane(self, pane_id: str) -> bool:
        """Make the pane the current one of its window, and its window the current one of its
        session. Returns whether the tmux client running us followed it there (False when we
        are not inside this server, e.g. the app runs outside tmux)."""
        self._cmd("select-window", "-t", pane_id)
        self._cmd("select-pane", "-t", pane_id)
        if not os.environ.get("TMUX"):
            return False
        # No -c: tmux takes the client from $TMUX, i.e. the one showing the workbench.
        return self.server.cmd("switch-client", "-t", pane_id).returncode == 0

    def panes_tagged(self, option: str, *, dead: bool = False) -> dict[str, str]:
        """Live panes (and dead ones kept on screen, with `dead`) that carry the user option
        `option` (e.g. @a2a_workbench): id -> value."""
        proc = self.server.cmd("list-panes", "-a", "-F",
                               f"#{{pane_id}}\t#{{pane_dead}}\t#{{{option}}}")
        if proc.returncode != 0:
            return {}
        out = {}
        for line in proc.stdout:
            pane_id, is_dead, value = (line.split("\t") + ["", ""])[:3]
            if value and (dead or is_dead != "1"):
                out[pane_id] = value
        return out

    def name_window(self, pane_id: str, name: str) -> None:
        """Name the pane's window (tmux then stops renaming it after its command)."""
        self._cmd("rename-window", "-t", pane_id, name)

    def socket_path(self) -> str | None:
        """The server's socket path (to tell whether $TMUX is this server); None if not running."""
        proc = self.server.cmd("display-message", "-p", "#{socket_path}")
        return proc.stdout[0] if proc.returncode == 0 and proc.stdout else None

    def socket_dir(self) -> str:
        """The folder of the server's socket: where it is, or where tmux would make it
        (`$TMUX_TMPDIR`, else /tmp, then `tmux-<uid>`) when the server is not running yet."""
        path = self.socket_path()
        if path:
            return os.path.dirname(path)
        return os.path.join(os.environ.get("TMUX_TMPDIR") or "/tmp", f"tmux-{os.getuid()}")

    def session_of(self, pane_id: str) -> str | None:
        """The name of the session holding the pane, or None when this server has no such pane."""
        proc = self.server.cmd("display-message", "-p", "-t", pane_id, "#{session_name}")
        return proc.stdout[0] if proc.returncode == 0 and proc.stdout else None

    def switch_client(self, target: str) -> None:
        """Move the tmux client running us (inside this server) to `target`."""
        self._cmd("switch-client", "-t", target)

    def detach_clients(self, session: str) -> None:
        """Detach every client attached to `session` (the session and its panes keep running)."""
        proc = self.server.cmd("detach-client", "-s", f"={session}")
        if proc.returncode != 0 and not any("no client" in e or "can't find" in e
                                            for e in proc.stderr):
            raise TmuxError(f"tmux detach-client failed: {proc.stderr[:1]}")

    def attach_argv(self, target: str) -> list[str]:
        """The command that attaches a terminal to `target` (what `attach` runs; what we tell a
        person to type)."""
        return self._argv("attach-session", "-t", target)

    def kill_session_argv(self, session: str) -> list[str]:
        """The command that ends `session` and every pane in it (for a person to type)."""
        return self._argv("kill-session", "-t", session)

    def attach(self, target: str, *, nested: bool = False) -> None:
        """Hand this terminal to tmux, attached to `target`, until the client detaches (or the
        session ends); then return, so the caller can say what runs on.

        `nested` attaches from inside another tmux server's pane (tmux refuses unless $TMUX is
        cleared for it)."""
        argv = self.attach_argv(target)
        env = dict(os.environ)
        if nested:
            env.pop("TMUX", None)
        proc = subprocess.run(argv, env=env)
        if proc.returncode != 0:
            raise TmuxError(f"tmux attach-session failed: exit {proc.returncode}")


def _tmux_quote(s: str) -> str:
    """Quote one argument for tmux's own command parser (double quotes: \\, \" and $ escaped)."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$") + '"'


def _facts(line: str) -> PaneFacts:
    pane_id, pid, tty, dead, status = (line.split("\t") + [""] * 5)[:5]
    return PaneFacts(pane_id, int(pid or 0), tty, dead == "1",
                     int(status) if status.strip().lstrip("-").isdigit() else None)


def user_shell() -> str:
    """The user's shell, as tmux picks its default one: $SHELL, else the password file's."""
    shell = os.environ.get("SHELL", "")
    if not os.path.isabs(shell):
        try:
            shell = pwd.getpwuid(os.getuid()).pw_shell
        except KeyError:
            shell = ""
    return shell if shell and os.access(shell, os.X_OK) else "/bin/sh"
