"""The coder's self-check (seed 004 4.2, "Coder 的自检"): "Coder 写完代码后，我要求它先自己跑一遍
验收命令，把结果附在提交里 ... Coder 的自检结果不能作为门禁的替代 ... 门禁必须独立重新跑一遍，不信任
Coder 提交的任何自检结论。"

`a2a submit --self-check COMMAND --self-check-saw passed|failed [--self-check-note TEXT]`: the
worker says what it ran and what it saw. a2a keeps it in the `submitted` event, beside the
candidate, and never reads it for a decision: the verify runs the card's checks on the exact
commit whatever the worker says. What it is for is a measure: the metrics compare each
self-check with the verdict of the first verify of that submission (metrics/views.py
`first_pass`, `self_check`): how often a worker's "it passes" was true.
"""

from __future__ import annotations

from a2a_tui.errors import A2AError, one_line
from a2a_tui.states import SelfCheck

OUTCOMES = tuple(SelfCheck)
LIMIT = 500   # characters kept of what it ran and saw: a line, not a log


def self_check(ran: str | None, saw: str | None, note: str = "") -> dict[str, str] | None:
    """The self-check as it is kept (None when none was given); a half-given one is refused."""
    if ran is None and saw is None:
        if note:
            raise A2AError("usage", "--self-check-note goes with --self-check and"
                           " --self-check-saw", exit_code=2)
        return None
    if not ran or not ran.strip() or saw not in OUTCOMES:
        raise A2AError("usage", "a self-check says what you ran (--self-check COMMAND) and what"
                       " it showed (--self-check-saw passed|failed)", exit_code=2)
    return {"ran": one_line(ran.strip())[:LIMIT], "saw": saw,
            "note": one_line(note.strip())[:LIMIT]}
