"""The log decides: the gate's state is the fold of the append-only event log, and the fold is
its only writer.

A gate command decides, then `record`s its event: the event is appended and the same
transaction applies it to the gate's tables (cards, attempts, submissions, verifications,
check_results, test_reports, integrations, scores, reviews and what hangs off them, approvals,
the targets' record, line comments), one handler per event kind and table family
(ledger/attempts.py, reviews.py, targets.py). No other module writes those tables
(tests/gate/test_gate_fold_writer.py). The same handlers replay the log in memory (`fold`,
`load`): the tables are a cache of the log, and anything that can open the database file can
rewrite them, so the gate does not take them on trust. `compare` names the first row that
disagrees with the log; `rebuild` writes the tables again from it.

Before every gate decision the card's rows are compared with the log (`require_intact`), and
before every integrate the whole chain and every gate table are (`before_integrate`). A
disagreement, or a break in the events' hash chain (store/chain.py), freezes the gate: a
`store_tampered` event and a protected board item record it, gate writes refuse
(`store_tampered`, naming the first bad seq), reads go on, until the user repairs the store
(`a2a store rebuild`, or for a broken chain `a2a store reseal` after looking; cli/store_cmds.py).

Columns the log does not hold are not compared, and a rebuild keeps them from the rows it
replaces: an attempt's `claimed_ns`/`ended_ns` (the writer's clock; the log's are the events'
times) and a check's output tails and unrounded duration (its log file keeps the output).
"""

from a2a_tui.gate.ledger.check import FREEZE_KINDS, Mismatch, against_log, compare, frozen
from a2a_tui.gate.ledger.guard import (
    before_integrate,
    chain_problem,
    freeze,
    mismatch_problem,
    on_open,
    require_intact,
    tampered_error,
    verify,
)
from a2a_tui.gate.ledger.repairs import rebuild, rebuild_in, repair, reseal
from a2a_tui.gate.ledger.rows import (
    Ledger,
    Rows,
    TxRows,
    last_verdict,
    state_after_interrupt,
)
from a2a_tui.gate.ledger.tables import BY_NAME, CHECKED, TABLES, Row, Table
from a2a_tui.gate.ledger.writer import HANDLERS, apply, fold, gate_events, load, record
from a2a_tui.kinds import GateEvent

__all__ = [
    "BY_NAME", "CHECKED", "FREEZE_KINDS", "HANDLERS", "TABLES", "GateEvent", "Ledger", "Mismatch",
    "Row", "Rows", "Table", "TxRows", "against_log", "apply",
    "before_integrate", "chain_problem", "compare", "fold", "freeze", "frozen", "gate_events",
    "last_verdict", "load", "mismatch_problem", "on_open", "rebuild", "rebuild_in", "record",
    "repair", "require_intact", "reseal", "state_after_interrupt", "tampered_error", "verify",
]
