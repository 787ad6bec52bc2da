"""The demo agent's event loop: keys in, turns driven, timers fired, screen redrawn.

One thread owns all state. It waits in select() on the terminal and a wake pipe (signals,
finished tool calls) with a timeout set by the nearest timer (turn delay, permission and idle
notifications, the Esc disambiguation). Hooks run synchronously on this thread, as Claude Code
waits for its hooks; keys typed meanwhile wait in the terminal and are read afterwards.

Behaviour that consumers rely on (REAL_CLIS.md, PROTOCOLS.md A):
- Esc (or Ctrl-C) while busy interrupts: no hook fires, "Interrupted" is shown, and the
  interrupted prompt is put back into the input box (with any queued prompts and what was
  already typed, in that order); the idle_prompt timer starts.
- Text submitted while busy is queued and submitted after the turn ends (after its Stop).
- Notification idle_prompt fires once, --idle-notify seconds after a turn ends or is
  interrupted, unless a key arrives first (Claude Code: messageIdleNotifThresholdMs).
- `--drop-enters N`: the first N Enters after each paste are lost and the text stays in the box,
  as Claude Code loses the Enter that follows its first paste when the machine is loaded
  (tests/real_cli/FINDINGS.md); Enter on an empty box does nothing, as in the real CLIs.
- Ctrl-D on an empty box, `/exit`, or Ctrl-C twice on an empty box exit with SessionEnd
  `prompt_input_exit`; SIGHUP/SIGTERM/SIGINT or a closed terminal exit with `other`.
- A worker's task is remembered (`Task`): a turn of `!` commands then delivers it.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import tempfile
import time
from collections import deque
from pathlib import Path

from a2a_tui.demo_agent.claude import ClaudeSignals
from a2a_tui.demo_agent.codex import CodexSignals
from a2a_tui.demo_agent.editor import InputBox
from a2a_tui.demo_agent.hooks import HookConfig, HookRunner
from a2a_tui.demo_agent.keys import ESC_TIMEOUT, Key, KeyDecoder
from a2a_tui.demo_agent.options import Options
from a2a_tui.demo_agent.screen import BOLD, CYAN, DIM, RED, YELLOW, RawTerminal, Screen
from a2a_tui.demo_agent.signals import Signals, Task, Turn
from a2a_tui.demo_agent.tools import BashRun
from a2a_tui.demo_agent.transcript import Transcript, transcript_path
from a2a_tui.demo_agent.turn import AskPermission, RunTool, Sleep, new_turn, run_turn, show_outcome

CTRL_C_WINDOW = 2.0
EXIT_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


class DemoAgent:
    """An interactive stand-in for Claude Code / Codex in a terminal."""

    def __init__(self, opts: Options, hooks: HookConfig | None = None, in_fd: int = 0,
                 out_fd: int = 1):
        self.opts = opts
        self.in_fd = in_fd
        self.screen = Screen(out_fd)
        self.box = InputBox()
        self.decoder = KeyDecoder()
        self.queue: deque[str] = deque()
        path = transcript_path(opts.transcript_dir, opts.cwd, opts.session_id)
        self.transcript = Transcript(path, opts.session_id, opts.cwd, opts.model)
        self.hooks = hooks or HookConfig.empty()
        self.runner = HookRunner(self.hooks, opts.cwd)
        self.signals: Signals = (CodexSignals(opts) if opts.protocol == "codex"
                                 else ClaudeSignals(self.runner, opts, str(path)))
        self.turn: Turn | None = None
        self.task = Task()
        self.gen = None
        self.waiting: Sleep | AskPermission | RunTool | None = None
        self.wake_at: float | None = None
        self.tool: BashRun | None = None
        self.perm_notify_at: float | None = None
        self.idle_at: float | None = None
        self.esc_at: float | None = None
        self.ctrl_c_at: float | None = None
        self.last_prompt_id: str | None = None
        self.exit_reason: str | None = None
        self.enters_to_drop = 0
        self._pending_signals: list[int] = []
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)

    # ---- life cycle -------------------------------------------------------------------------

    def run(self) -> str:
        """Run until exit; returns the SessionEnd reason."""
        old_handlers = {s: signal.signal(s, self._on_signal)
                        for s in (*EXIT_SIGNALS, signal.SIGWINCH)}
        old_wakeup = signal.set_wakeup_fd(self._wake_w)
        try:
            with RawTerminal(self.in_fd):
                self.screen.start()
                self._header()
                show_outcome(self.screen, self.signals.session_start())
                self._render()
                try:
                    self._loop()
                finally:
                    self._shutdown()
        finally:
            signal.set_wakeup_fd(old_wakeup)
            for s, h in old_handlers.items():
                signal.signal(s, h)
            os.close(self._wake_r)
            os.close(self._wake_w)
        return self.exit_reason or "other"

    def _on_signal(self, signum: int, frame) -> None:
        self._pending_signals.append(signum)
        if signum in EXIT_SIGNALS and self.exit_reason is None:
            # A hook or tool may be holding the loop: stop them now so exit is prompt.
            self.runner.kill_running()
            if self.tool is not None:
                self.tool.kill()

    def _shutdown(self) -> None:
        if self.exit_reason is None:
            self.exit_reason = "other"
        if self.tool is not None:
            self.tool.kill()
        self._prompt_path.unlink(missing_ok=True)
        self.gen = None
        self.screen.log(f"session ended ({self.exit_reason})", DIM)
        self._render()
        show_outcome(self.screen, self.signals.session_end(self.exit_reason, self.last_prompt_id))
        self.signals.close(0.5)
        self.screen.finish()

    def _header(self) -> None:
        o = self.opts
        self.screen.log(o.role_title or "demo agent", BOLD, prefix="✻ ")
        facts = [f"session {o.session_id}", f"protocol {o.protocol}"]
        facts += [f"model {o.model}"] if o.model else []
        facts += [f"effort {o.effort}"] if o.effort else []
        self.screen.log(" · ".join(facts), DIM, prefix="  ")
        self.screen.log(f"cwd {o.cwd}", DIM, prefix="  ")
        if o.protocol == "claude":
            n = sum(len(h) for groups in self.hooks.groups.values() for _, h in groups)
            self.screen.log(f"settings {o.settings or '(none)'} · {n} command hook(s)", DIM,
                            prefix="  ")
        elif o.notify:
            self.screen.log(f"notify {o.notify}", DIM, prefix="  ")
        for note in self.hooks.notes:
            self.screen.log(note, YELLOW, prefix="  ")
        if self.transcript.error:
            self.screen.log(self.transcript.error, YELLOW, prefix="  ")

    # ---- the loop ---------------------------------------------------------------------------

    def _loop(self) -> None:
        while self.exit_reason is None:
            try:
                ready, _, _ = select.select([self.in_fd, self._wake_r], [], [], self._timeout())
            except OSError:
                ready = []
            if self._wake_r in ready:
                self._drain_wake()
            self._handle_signals()
            if self.exit_reason is not None:
                break
            if self.in_fd in ready:
                self._read_input()
            now = time.monotonic()
            # A lone ESC is the Esc key only if nothing came after it: on a loaded machine the
            # rest of a sequence may be waiting unread by the time the timer is looked at.
            if self.esc_at is not None and now >= self.esc_at and not self._input_waiting():
                self.esc_at = None
                self._keys(self.decoder.flush())
            self._tick()
            self._render()

    def _timeout(self) -> float | None:
        deadlines = [t for t in (self.wake_at, self.perm_notify_at, self.idle_at, self.esc_at)
                     if t is not None]
        if self.waiting is None and self.gen is None and self.queue:
            return 0.0
        if not deadlines:
            return None
        return max(min(deadlines) - time.monotonic(), 0.0)

    def _drain_wake(self) -> None:
        with contextlib.suppress(BlockingIOError):
            while os.read(self._wake_r, 512):
                pass

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError):   # the pipe is full: a wake-up is pending
            os.write(self._wake_w, b"t")

    def _handle_signals(self) -> None:
        while self._pending_signals:
            signum = self._pending_signals.pop(0)
            if signum == signal.SIGWINCH:
                self.screen.resized()
            elif self.exit_reason is None:
                self.exit_reason = "other"

    def _input_waiting(self) -> bool:
        try:
            return bool(select.select([self.in_fd], [], [], 0)[0])
        except OSError:
            return False

    def _read_input(self) -> None:
        try:
            data = os.read(self.in_fd, 65536)
        except OSError:
            data = b""  # EIO: the terminal hung up
        if not data:
            self.exit_reason = "other"
            return
        self._keys(self.decoder.feed(data))
        if self.decoder.waiting_for_escape:
            if self.esc_at is None:
                self.esc_at = time.monotonic() + ESC_TIMEOUT
        else:
            self.esc_at = None

    # ---- keys -------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self.gen is not None

    def _keys(self, keys: list[Key]) -> None:
        for key in keys:
            if self.exit_reason is not None:
                return
            self.idle_at = None  # any key cancels the pending idle_prompt
            if isinstance(self.waiting, AskPermission):
                self._permission_key(key)
                continue
            self._edit_key(key)

    def _edit_key(self, key: Key) -> None:
        # One case per key (an elif chain read as nesting ten deep); tab, arrows and other
        # sequences match none: ignored (no completion, no cursor movement).
        match key.name:
            case "text":
                self.box.insert(key.text)
            case "paste":
                self.box.paste(key.text)
                self.enters_to_drop = self.opts.drop_enters
            case "newline":
                self.box.insert("\n")
            case "backspace":
                self.box.backspace()
            case "ctrl-u":
                self.box.clear()
            case "enter" if self.enters_to_drop > 0:
                self.enters_to_drop -= 1   # lost: the pasted text stays in the box
            case "enter":
                self._submit()
            case "esc" if self.busy:
                self._interrupt()
            case "ctrl-c":
                self._ctrl_c()
            case "ctrl-d" if self.box.empty:
                self._exit("prompt_input_exit")

    def _ctrl_c(self) -> None:
        now = time.monotonic()
        if self.busy:
            self._interrupt()
        elif not self.box.empty:
            self.box.clear()
        elif self.ctrl_c_at is not None and now - self.ctrl_c_at < CTRL_C_WINDOW:
            self._exit("prompt_input_exit")
        else:
            self.ctrl_c_at = now
            self.screen.log("Press Ctrl-C again to exit", DIM, prefix="  ")

    def _permission_key(self, key: Key) -> None:
        """The permission dialog owns the keyboard: y/Enter = yes, n/Esc = no."""
        answer = None
        if key.name == "text":
            c = key.text[:1].lower()
            answer = True if c in ("y", "1") else False if c in ("n", "3") else None
        elif key.name == "enter":
            answer = True  # Claude Code's dialog has "Yes" highlighted
        elif key.name in ("esc", "ctrl-c"):
            answer = False
        if answer is None:
            self.perm_notify_at = (time.monotonic() + self.opts.permission_notify_after
                                   if self.perm_notify_at is not None else None)
            return
        self.perm_notify_at = None
        self._advance(answer)

    def _submit(self) -> None:
        text = self.box.text
        if not text.strip():
            return
        self.box.take()
        if text.strip() in ("/exit", "/quit"):
            self._exit("prompt_input_exit")
            return
        if self.busy:
            self.queue.append(text)
            return
        self._start_turn(text)

    def _exit(self, reason: str) -> None:
        if self.busy:
            self._stop_turn()
        self.exit_reason = reason

    # ---- turns ------------------------------------------------------------------------------

    def _start_turn(self, prompt: str) -> None:
        self.idle_at = None
        self.screen.log(prompt, CYAN, prefix="> ")
        self.turn = new_turn(prompt, self.opts, self.task)
        self.last_prompt_id = self.turn.prompt_id
        self.gen = run_turn(self.turn, self.signals, self.screen, self.transcript, self.opts)
        self._advance(None)

    def _advance(self, value) -> None:
        """Resume the turn with `value` and set up whatever it waits for next."""
        self.waiting = None
        try:
            req = self.gen.send(value)
        except StopIteration:
            self._turn_ended()
            return
        except Exception as err:  # noqa: BLE001 - a bug in a turn must not end the session
            self.screen.log(f"internal error in turn: {err!r}", RED, prefix="  ⎿  ")
            self._turn_ended()
            return
        self.waiting = req
        if isinstance(req, Sleep):
            self.wake_at = time.monotonic() + req.seconds
        elif isinstance(req, AskPermission):
            self.perm_notify_at = time.monotonic() + self.opts.permission_notify_after
        elif isinstance(req, RunTool):
            env = dict(os.environ)
            if self.opts.protocol == "claude":
                env["CLAUDECODE"] = "1"  # Claude Code marks its Bash tool's environment
            else:
                env["CODEX_THREAD_ID"] = self.opts.session_id
            env["DEMO_PROMPT"] = self._prompt_file()
            self.tool = BashRun(req.call.command, self.opts.cwd, env, self.opts.tool_timeout,
                                self._wake, tuple(self.opts.shell)).start()

    @property
    def _prompt_path(self) -> Path:
        return Path(tempfile.gettempdir()) / f"demo-prompt-{self.opts.session_id}.txt"

    def _prompt_file(self) -> str:
        """The turn's prompt in a file of its own, for its commands to read ($DEMO_PROMPT);
        the agent removes it when it exits."""
        assert self.turn is not None
        self._prompt_path.write_text(self.turn.prompt, encoding="utf-8")
        return str(self._prompt_path)

    def _tick(self) -> None:
        """Fire whatever timer or completion is due."""
        now = time.monotonic()
        if isinstance(self.waiting, Sleep) and self.wake_at is not None and now >= self.wake_at:
            self.wake_at = None
            self._advance(None)
        elif isinstance(self.waiting, RunTool) and self.tool and self.tool.finished.is_set():
            result, self.tool = self.tool.result, None
            self._advance(result)
        elif (isinstance(self.waiting, AskPermission) and self.perm_notify_at is not None
              and now >= self.perm_notify_at):
            self.perm_notify_at = None
            notify = (self.signals.needs_input if self.waiting.auto_check
                      else self.signals.permission_prompt)
            show_outcome(self.screen, notify(self.turn, self.waiting.call))
        if self.idle_at is not None and now >= self.idle_at and not self.busy:
            self.idle_at = None
            show_outcome(self.screen, self.signals.idle_prompt(self.last_prompt_id))
        if not self.busy and self.queue and self.exit_reason is None:
            self._start_turn(self.queue.popleft())

    def _turn_ended(self) -> None:
        self._clear_turn()
        if not self.queue:
            self._arm_idle()

    def _clear_turn(self) -> None:
        self.gen = None
        self.turn = None
        self.waiting = None
        self.wake_at = None
        self.perm_notify_at = None

    def _arm_idle(self) -> None:
        if self.opts.idle_notify > 0:
            self.idle_at = time.monotonic() + self.opts.idle_notify

    def _stop_turn(self) -> Turn | None:
        """Abandon the running turn without letting any more of it run (no hooks)."""
        turn, gen = self.turn, self.gen
        if self.tool is not None:
            self.tool.kill()
            self.tool = None
        self._clear_turn()
        if gen is not None:
            gen.close()
        return turn

    def _interrupt(self) -> None:
        turn = self._stop_turn()
        if self.opts.protocol == "codex":
            self.screen.log("Conversation interrupted - tell the model what to do differently",
                            RED, prefix="■ ")
            parts = list(self.queue)
        else:
            self.screen.log("Interrupted · What should Claude do instead?", RED, prefix="  ⎿  ")
            # Claude Code puts the interrupted prompt back into the input box (REAL_CLIS.md).
            parts = ([turn.prompt] if turn else []) + list(self.queue)
        if not self.box.empty:
            parts.append(self.box.text)
        self.queue.clear()
        self.box.text = "\n".join(parts)
        self._arm_idle()

    # ---- drawing ----------------------------------------------------------------------------

    def _render(self) -> None:
        cols, _ = self.screen.size()
        status: list[tuple[str, str]] = [("─" * (cols - 1), DIM)]
        if isinstance(self.waiting, AskPermission) and self.waiting.auto_check:
            status += [("Auto mode can't check actions in this session", BOLD + YELLOW),
                       ("  " + self.waiting.call.command, ""),
                       ("Enter / y to approve this one · n / Esc to cancel", YELLOW)]
        elif isinstance(self.waiting, AskPermission):
            status += [("Bash command", BOLD + YELLOW),
                       ("  " + self.waiting.call.command, ""),
                       ("Do you want to proceed?  y / Enter = yes · n / Esc = no", YELLOW)]
        elif self.busy:
            what = "Running…" if isinstance(self.waiting, RunTool) else "Thinking…"
            status.append((f"✻ {what} (esc to interrupt)", YELLOW))
        else:
            status.append(("? ctrl-j newline · ctrl-u clear · ctrl-d exit", DIM))
        if self.queue:
            status.append((f"{len(self.queue)} queued message(s)", DIM))
        self.screen.render(status, self.box.text.split("\n"))


def run_agent(opts: Options) -> str:
    """Load the settings, then run the agent on this terminal; returns the exit reason."""
    hooks = HookConfig.load(opts.settings) if opts.settings else HookConfig.empty()
    return DemoAgent(opts, hooks).run()

