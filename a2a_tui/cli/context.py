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
READS_OR_OWN_RULES = frozenset({
    "cmd_init", "cmd_status", "cmd_events", "cmd_metrics", "cmd_recover", "cmd_card_show",
    "cmd_card_list", "cmd_sessions", "cmd_input_list", "cmd_input_show", "cmd_inbox_list",
    "cmd_inbox_show", "cmd_board_list", "cmd_board_show", "cmd_rules", "cmd_whoami", "cmd_serve",
    "cmd_demo_agent", "cmd_store_verify",
    # A restore judges its caller itself: the store it replaces may be missing or not this
    # repository's (cli/store_cmds.py).
    "cmd_store_restore",
})


class CliContext:
    # Each part is imported when a command first asks for it: `a2a sessions` needs no caller,
    # `a2a whoami` no gate (each `a2a` call pays for what it imports, bench/bench_cli.py).
    def __init__(self, args: argparse.Namespace, forced: Forced | None = None):
        self.args = args
        self.forced = forced
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
        """Refuse, before it runs, a command that writes when its caller is unidentified; the
        refusal is recorded (as nobody: actor `unidentified`), for the user to see."""
        func = getattr(self.args, "func", None)
        if getattr(func, "__name__", "") in READS_OR_OWN_RULES:
            return
        try:
            caller = self.identity
        except A2AError as exc:
            if exc.code in ("not_a_repo", "not_initialized"):
                return  # no store, so nobody to act for: the command answers for itself (demo)
            raise
        if caller.unidentified is None:
            return
        from a2a_tui import identity

        sub = getattr(self.args, f"{self.args.command.replace('-', '_')}_cmd", None)
        command = f"{self.args.command} {sub}" if sub else self.args.command
        with self.store.write() as tx:
            tx.append("caller_unidentified", actor=identity.UNIDENTIFIED,
                      payload={"command": command, "why": caller.unidentified,
                               "pid": os.getpid()})
        raise caller.refusal(f"`a2a {command}` writes")

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
