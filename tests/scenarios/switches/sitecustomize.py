"""Test-only: put on PYTHONPATH for the a2a processes a scenario starts (the CLI, `a2a serve`,
the panes' agents and hooks, the workbench). When `A2A_SCENARIO_OFF` names a mechanism, it is
switched off here, at interpreter start, before a2a's own code runs (registry.py); when
`A2A_SCENARIO_KILL_AFTER` names an event kind, the process dies right after appending one
(faults.py)."""

import os

if os.environ.get("A2A_SCENARIO_OFF"):
    from tests.scenarios.switches.registry import switch_off

    switch_off(os.environ["A2A_SCENARIO_OFF"], setattr)

if os.environ.get("A2A_SCENARIO_KILL_AFTER"):
    from tests.scenarios.switches.faults import install

    install(setattr)
