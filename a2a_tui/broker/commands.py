"""Which commands the broker runs for a session, and what each may make a2a touch for it.

The broker's child runs a command as the user, unconfined, for an agent whose sandbox hides
most of the machine: a confused deputy unless no argument can make it read, write or start
what the sandbox withholds. So the commands are an explicit allow-list (AGENT, by the words
after `a2a`): those the role table (gate/roles.py, the one table of who may run what) gives some
session. Every other command, and any command added later with no row, is refused
(`broker_refused`): tests/broker/test_broker_commands.py walks the command table so that a new
command fails closed until it has a row (and so a place in AGENT or REFUSED, with its reason).

The audit of every agent-facing command's arguments (what names a path, what starts a process):

- Interactive programs and files written where the caller says are not run for an agent:
  `card edit` (an editor), `card new` except `--print` (ONLY), `store backup|restore`.
- Files an agent names are read by the client, inside its sandbox, and only their bytes reach
  the command (FILE_ARGS: `card add FILE`, `review verdict --file`, `retro save --file`): the
  broker opens no path an agent names. The bytes become a file in the request's private folder
  (mode 0700, removed after the command), named by the path's last part.
- Standard input is the client's own descriptor (`inject SESSION -`, a pipe into any command):
  read there, never opened by a name.
- `--repo` is refused: the broker serves its own repository only. `--tmux-socket` may name only
  the orchestrator's own tmux server (the default when it is left out).
- Processes started for the caller: `spawn`, `session new|restart|revive|fork`, `review
  start` and `retro` start an agent CLI in a new pane on the orchestrator's tmux server, through
  the same launch as every session (its CLI from a2a's fixed table, its folder from the
  attempt's record or the repository, its run folder named by a validated session id, the
  options after `--` handed to the CLI inside its pane); `verify` runs the card's own check
  commands in a fresh checkout under the gate's isolation. Their role rules are the gate's.
- Paths a2a writes for the caller are a2a's own, chosen from ids it validated: worktrees
  (`claim`), review checkouts (`review start`), retro prompts (`retro`), run folders (`spawn`);
  `reclaim` removes only worktrees its records name. `log` prints the log file its record
  names, whatever CHECK says (a check's name selects a row).
- `diff` and `show` read an attempt's commits through a2a's hardened git (`show ATTEMPT:PATH`
  names a path inside a commit, never a file on disk); before a submission the diff brings the
  clone's head in as data (gate/attempts/clones.py).
- Everything else only reads or appends to the store: status, events, metrics, card
  new --print|show|list|ready, claim, submit, integrate, abandon, review show|dispose, input
  list|show, inbox, board ask|report|close|list|show, rules, whoami, sessions, config show,
  gate-rules, target show, store verify, recover, attention (its `--seen` is the
  user's), doctor (and the machine's confinement probe, a fixed command), profile (the
  project's marker files, by fixed names).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from a2a_tui.cli import command_paths
from a2a_tui.gate import roles

__all__ = ["AGENT", "FILE_ARGS", "REFUSED", "command_paths", "refusal"]

# One table decides who may run what (gate/roles.py): a command some session's role may run is
# run for agents (the role rule then says which: the CLI checks it before the command runs);
# the user's own commands and a2a's own processes are refused here, with the reason.
AGENT = frozenset(c for c in roles.ROLE_TABLE
                  if c not in roles.QUALIFIERS and roles.for_sessions(c))

_USERS = "the user's own: run it from your terminal"
_A2AS = "a2a's own process, never started for an agent"
# Where a refusal has more to say than whose the command is.
_WHY = {
    # An editor in the terminal of whoever runs it, on a file a2a writes: the broker starts no
    # interactive program and writes no file for an agent (it has no terminal of the agent's
    # to edit in, and a confined agent writes its card in its own folder).
    "card edit": "opens an editor: the user's own. Write the card's TOML in your session folder"
                 " (`a2a card show ID` gives the current version) and `a2a card add FILE`",
}
REFUSED = {c: _WHY.get(c) or (_A2AS if c in roles.A2A_PROCESSES else _USERS)
           for c in roles.ROLE_TABLE
           if c not in roles.QUALIFIERS and not roles.for_sessions(c)}

# Commands an agent may run in one form only: the test on the parsed arguments, and why any
# other form is refused. `card new` without `--print` opens an editor and writes a file (as
# `card edit`); the template alone is what the ideation role card names.
ONLY: dict[str, tuple[Callable[[argparse.Namespace], bool], str]] = {
    "card new": (lambda args: bool(getattr(args, "print_only", False)),
                 "only `a2a card new --print` (the template) runs for an agent: write the card"
                 " in your session folder and `a2a card add FILE`"),
}

# The commands that read a file an agent names, and the argument (dest) that names it.
FILE_ARGS = {"card add": "file", "review verdict": "file", "retro save": "file"}


def refusal(words: str | None, args: argparse.Namespace | None = None) -> str | None:
    """Why the broker does not run `a2a WORDS` (parsed as `args`) for a session; None when it
    does. A command with one allowed form (ONLY) is refused without its arguments."""
    if words in AGENT:
        if words in ONLY and (args is None or not ONLY[words][0](args)):
            return ONLY[words][1]
        return None
    if words in REFUSED:
        return REFUSED[words]
    return "not a command a2a runs for an agent"
