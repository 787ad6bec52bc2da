"""Lazily built things a command may need: the repository, its store, the caller."""

from __future__ import annotations

import argparse
from functools import cached_property
from typing import TYPE_CHECKING

from a2a_tui.repo import Repo, find_repo

if TYPE_CHECKING:
    from a2a_tui.gate.context import GateContext
    from a2a_tui.identity import Caller
    from a2a_tui.store import Store


class CliContext:
    # Each part is imported when a command first asks for it: `a2a sessions` needs no caller,
    # `a2a whoami` no gate (each `a2a` call pays for what it imports, bench/bench_cli.py).
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
        from a2a_tui.identity import resolve_caller

        return resolve_caller(self.store)

    @cached_property
    def gate(self) -> GateContext:
        from a2a_tui.gate import recover
        from a2a_tui.gate.context import GateContext

        g = GateContext(self.repo, self.store, self.caller)
        # Every gate command first resolves what an earlier crash left half-done.
        self.recovered = recover(g)
        return g

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
