"""What a step of the verify chain may read and record (issue 39): the narrow interface the
steps (per_test.py, red_step.py, baseline.py) are written against, so none of them names the
`Chain` that runs them, and the chain's bookkeeping (pending steps, halting, progress) stays its
own. `chain.Chain` satisfies it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # annotations only, each a module below the steps (no circle)
    from a2a_tui.gate.cards.gate_rules import GateRules
    from a2a_tui.gate.cards.schema import Card
    from a2a_tui.gate.context import GateContext
    from a2a_tui.gate.verification.checkout import Checkout, Workspace
    from a2a_tui.gate.verification.isolated import RunResult
    from a2a_tui.gate.verification.results import Verification


class StepContext(Protocol):
    """One verify run as a step sees it: the repository and store, the run's record, the card and
    gate rules it is judged by, where its logs go, the runs that decided each check, and one way
    to run a command on a checkout."""

    @property
    def g(self) -> GateContext: ...

    @property
    def v(self) -> Verification: ...

    @property
    def card(self) -> Card: ...

    @property
    def rules(self) -> GateRules: ...

    @property
    def logs(self) -> Path: ...

    @property
    def evidence(self) -> Mapping[str, RunResult]: ...

    @property
    def task(self) -> str:
        """The card the attempt is on."""
        ...

    @property
    def start_commit(self) -> str:
        """The commit the attempt was claimed at."""
        ...

    def run_in(self, command: str, where: Checkout | Workspace, log: Path, timeout: int | None,
               report: str | None = None, commit: str | None = None) -> RunResult:
        """Run a command in a checkout of `commit` (default: the candidate), confined."""
        ...
