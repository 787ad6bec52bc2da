"""Lazily built things a command may need: the repository, its store, the caller."""

from __future__ import annotations

import argparse
from functools import cached_property

from a2a_tui.gate.context import GateContext
from a2a_tui.identity import Caller, resolve_caller
from a2a_tui.repo import Repo, find_repo
from a2a_tui.store import Store


class CliContext:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self._store: Store | None = None

    @cached_property
    def repo(self) -> Repo:
        return find_repo(getattr(self.args, "repo", None))

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = self.repo.store()
        return self._store

    @cached_property
    def caller(self) -> Caller:
        return resolve_caller(self.store)

    @cached_property
    def gate(self) -> GateContext:
        from a2a_tui.gate import recover  # lazy: commands that never build the gate skip it
        from a2a_tui.metrics.retro import propose_if_due  # lazy: gate commands only

        g = GateContext(self.repo, self.store, self.caller)
        # Every gate command first resolves what an earlier crash left half-done.
        self.recovered = recover(g)
        propose_if_due(self.repo, self.store)   # a board question once per retro_every, if set
        return g

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
