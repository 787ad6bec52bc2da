"""The `a2a` console script: thin, so that an agent's call costs about what starting Python does.

In a managed session's processes (A2A_BROKER set) it is the broker's client, in this very
process: argv goes to the orchestrator's broker, which runs the command as the session whose
socket it came in on (`client.py`; nothing this process could compute about itself counts).
Nothing of the command line is imported for that: it imports the standard library and
`client.py` alone, where the command line's `main` imported a2a whole and then started the
client in a second interpreter. Anywhere else it is the command line (`a2a_tui.cli.main`),
unchanged.
"""

from __future__ import annotations

import os
import sys

BROKER_ENV = "A2A_BROKER"   # a2a_tui.resources.BROKER_ENV, not imported: this file stays thin


def main() -> int:
    """`a2a ARGS`: handed to the session's broker, or run here."""
    if os.environ.get(BROKER_ENV):
        from a2a_tui.broker import client  # only when handing over: the fallback needs none

        return client.main(sys.argv[1:])
    # Imported here, not above: the hand-over must not pay for the whole command line.
    from a2a_tui.cli import main as cli_main

    return cli_main()
