"""The attempt's states and a writer's self-check verdicts: the words the tables, the events and
the metrics share. Kept at the ground layer so every part that reads an attempt (the gate, the
metrics, the demo) compares against one enum, never a bare string."""

from __future__ import annotations

from enum import StrEnum


class AttemptState(StrEnum):
    """Where an attempt is (README: the gate). The values are what the tables and events hold."""

    CLAIMED = "claimed"
    SUBMITTED = "submitted"
    VERIFYING = "verifying"
    REJECTED = "rejected"
    VERIFIED = "verified"
    INTEGRATING = "integrating"
    UNKNOWN = "unknown"         # its integration's outcome could not be read: the user decides
    INTEGRATED = "integrated"
    ABANDONED = "abandoned"
    SUPERSEDED = "superseded"
    FAILED = "failed"           # its clone could not be made


# An attempt that ended by a decision about its work (never merely failing to start).
CONCLUDED = (AttemptState.INTEGRATED, AttemptState.ABANDONED, AttemptState.SUPERSEDED)


class SelfCheck(StrEnum):
    """What a writer's own check said (`submit --self-check`), and the gate's verdict beside it."""

    PASSED = "passed"
    FAILED = "failed"
