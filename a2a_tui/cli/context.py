"""Lazily built things a command may need: the repository, its store, the caller."""

# Imports inside functions: each command imports what it runs when it runs (a2a's start-up:
# tests/test_startup.py, bench/bench_cli.py).

from __future__ import annotations

import argparse
import os
from functools import cached_property
from typing import TYPE_CHECKING, Protocol

from a2a_tui.errors import A2AError
from a2a_tui.repo import Repo, find_repo

if TYPE_CHECKING:
    from a2a_tui.gate.context import GateContext
    from a2a_tui.identity import Caller
    from a2a_tui.store import Store


class Forced(Protocol):
    """A command run for someone whose repository and identity are settled before it runs:
    a request that came in on a session's broker socket (a2a_tui/broker). The command neither
    finds the repository from its arguments or folder nor asks the process tree who calls."""

    repo: Repo
    caller: Caller
    store: Store | None   # the repository's store, opened already (the command closes it)

    def admit(self, ctx: CliContext) -> None:
        """Refuse (A2AError) what may not run this way, before the command runs; may replace
        the parsed arguments' file paths with copies of what the caller sent."""

# Commands that an unidentified caller may run (identity.py): they read, or never act for a
# caller (init records only from a terminal; recover, run first by every gate command, records
# what it reads from facts, as the gate; serve is the orchestrator; demo-agent is the stand-in
# CLI). Every other command writes for its caller and needs one that is placed: a command not
# named here is refused to an unidentified caller, so a new command fails closed.
# Reads are the rows of the role table open to everyone (gate/roles.py); this set adds the
# commands that act by rules of their own.
READS_OR_OWN_RULES = frozenset({
    "cmd_init", "cmd_status", "cmd_events", "cmd_metrics", "cmd_recover", "cmd_card_show",
    "cmd_card_list", "cmd_sessions", "cmd_input_list", "cmd_input_show", "cmd_inbox_list",
    "cmd_inbox_show", "cmd_board_list", "cmd_board_show", "cmd_rules", "cmd_whoami", "cmd_serve",
    "cmd_demo_agent", "cmd_store_verify", "cmd_target_show", "cmd_config_show",
    "cmd_gate_rules", "cmd_review_show", "cmd_log", "cmd_diff", "cmd_show", "cmd_profile",
    # A restore judges its caller itself: the store it replaces may be missing or not this
    # repository's (cli/store_cmds.py).
    "cmd_store_restore",
})


def command_key(args: argparse.Namespace, words: str | None) -> str | None:
    """The command `args` runs, as the role table names it: `words`, the words of its function
    in the parser (`cli.command_paths`); `comment list` for a comment command that lists."""
    if words == "comment" and (getattr(args, "words", None) or [""])[0] == "list":
        return "comment list"
    return words


class CliContext:
    # Each part is imported when a command first asks for it: `a2a sessions` needs no caller,
    # `a2a whoami` no gate (each `a2a` call pays for what it imports, bench/bench_cli.py).
    def __init__(self, args: argparse.Namespace, forced: Forced | None = None,
                 words: str | None = None):
        self.args = args
        self.forced = forced
        self.words = words   # the command's words in the parser ("session new")
        self._store: Store | None = None

    @cached_property
    def repo(self) -> Repo:
        if self.forced is not None:
            return self.forced.repo
        return find_repo(getattr(self.args, "repo", None))

    @property
    def store(self) -> Store:
        if self._store is None:
            opened = self.forced.store if self.forced is not None else None
            self._store = opened if opened is not None else self.repo.store()
        return self._store

    @cached_property
    def identity(self) -> Caller:
        """Who is calling, unidentified included (for reads: whoami, rules, the gate's views)."""
        if self.forced is not None:
            return self.forced.caller
        from a2a_tui.identity import resolve_caller  # lazy: psutil, for commands that ask

        return resolve_caller(self.store)

    @property
    def caller(self) -> Caller:
        """The caller a write is recorded for; an unidentified one is refused here."""
        caller = self.identity
        if caller.unidentified is not None:
            raise caller.refusal()
        return caller

    def admit(self) -> None:
        """Refuse, before it runs, a command that writes when its caller is unidentified, and
        one the role table (gate/roles.py) does not give the caller's role; each refusal is
        recorded (an unidentified caller as nobody: actor `unidentified`), for the user to
        see."""
        from a2a_tui.gate import roles  # lazy: the table, for commands that write

        func = getattr(self.args, "func", None)
        key = command_key(self.args, self.words)
        if key is not None and roles.ROLE_TABLE.get(key) == (roles.EVERYONE,):
            return
        try:
            caller = self.identity
        except A2AError as exc:
            if exc.code in ("not_a_repo", "not_initialized"):
                return  # no store, so nobody to act for: the command answers for itself (demo)
            # No caller can be placed (the store is missing, say): init and restore judge their
            # caller themselves.
            if getattr(func, "__name__", "") in READS_OR_OWN_RULES:
                return
            raise
        if caller.unidentified is None:
            self._require_role(key, caller)
            return
        if getattr(func, "__name__", "") in READS_OR_OWN_RULES:
            return
        from a2a_tui import identity
        from a2a_tui.payloads.boundary import CallerUnidentified

        command = key or self.args.command
        with self.store.write() as tx:
            tx.append("caller_unidentified", actor=identity.UNIDENTIFIED,
                      payload=CallerUnidentified(command=command, why=caller.unidentified,
                                                 pid=os.getpid()))
        raise caller.refusal(f"`a2a {command}` writes")

    def _require_role(self, key: str | None, caller: Caller) -> None:
        """The role table's rule for the command, for the rows the CLI enforces
        (`roles.ENFORCED_AT_ENTRY`; the others' commands check it themselves). Options after
        `--` that set a CLI's permissions need their own row (`spawn permission options`)."""
        from a2a_tui.gate import roles
        from a2a_tui.profiles.permissions import weakening

        if key not in roles.ROLE_TABLE and not caller.is_user:
            # A command with no row (a table out of step): no session runs it.
            raise A2AError("role_forbidden", f"`a2a {key or self.args.command}` has no role"
                           " rule: only the user may run it")
        if key not in roles.ENFORCED_AT_ENTRY:
            return
        if key == "inject" and caller.session is not None and caller.session == getattr(
                self.args, "session", None):
            key = "inject own"   # a prompt into its own pane
        target = getattr(self.args, "session", None) if key.split()[0] in (
            "inject", "pause", "resume", "release", "session") else None
        detail = f" {target}" if target else ""
        if not roles.allows(key, caller):
            roles.refuse(self.store, caller, key, detail=detail)
        options = weakening(getattr(self.args, "extra", None) or [])
        if options and not roles.allows("spawn permission options", caller):
            roles.refuse(self.store, caller, "spawn permission options",
                         detail=f" ({' '.join(options)})")

    def rules_read(self, command: str | None) -> bool:
        """Whether the rules of `command` may be left out (a line says where they are): the
        caller is the user, who was shown them in full before (noted now, the first time). A
        managed session, a model, gets them in full every time."""
        if not command:
            return False
        from a2a_tui.cli.rules import note_shown, shown_before  # lazy: commands with rules

        try:
            if not self.identity.is_user:
                return False
        except A2AError:   # nobody placed (no store yet): the rules in full
            return False
        if shown_before(command):
            return True
        note_shown(command)
        return False

    @cached_property
    def gate(self) -> GateContext:
        from a2a_tui.gate import ledger, recover  # lazy: commands without the gate skip them
        from a2a_tui.gate.context import GateContext
        from a2a_tui.metrics.retro import propose_if_due  # lazy: gate commands only

        g = GateContext(self.repo, self.store, self.identity)
        # A chain break the open found is recorded, gate tables that are gone are rebuilt.
        ledger.on_open(g)
        # Every gate command first resolves what an earlier crash left half-done; not while the
        # gate is frozen (its tables cannot be trusted to say what is half-done).
        self.recovered = [] if ledger.frozen(g.store) else recover(g)
        propose_if_due(self.repo, self.store)   # a board question once per retro_every, if set
        return g

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
