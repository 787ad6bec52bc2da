"""What tests and benchmarks share: a World to run a2a in, and the ways to look into it.

- `World` (world.py): throwaway HOME with a git identity, a private tmux server, a repository
  with `a2a init`, `a2a serve`; the `world` fixture gives one to every test.
- The real CLI: `a2a`, `a2a_as`, `add_ready_card` (cli.py). Git: `git`, `make_repo`,
  `commit_in`, `write_card` (gitrepo.py). tmux: `tmux` (tmux.py); the user's own terminal,
  attached to a2a's tmux session from outside it: `Terminal`, `attach_command` (terminal.py).
  Waiting: `wait_until`, `holds_for` (wait.py). The user's config file: `write_user_config`
  (userconfig.py).
- The broker: `broker_as` (`a2a` through a session's socket, as its agent's `a2a` runs it),
  `AgentProcess` (the same in steps), `serving` (broker.py).
- Reviews: `review_report` (a report with its verdict block), `start_review`, `as_session`
  (a2a run as an existing session), `give_verdict`, `error_code` (reviews.py).
- The store: `store`, `rows`, `session`, `dispatch`, `events`, `signals`, `wait_state`
  (records.py); sessions without a CLI, recorded as a launch records them: `register_session`,
  `repoint_session`, `set_session`; a session's output folder, which a confined pane writes
  and a test reads: `session_out` (sessions.py); `a2a serve` and the commands around it
  (serve.py).

Tests import from here, not from the package's modules, for what is only their set-up: a module
the package moves is then fixed in one place.
"""

from tests.support.broker import AgentProcess, broker_as, serving
from tests.support.cli import A2A, Run, a2a, a2a_as, add_ready_card, at_terminal
from tests.support.gitrepo import CARD_TOML, commit_in, git, make_repo, write_card
from tests.support.records import dispatch, events, rows, session, signals, store, wait_state
from tests.support.reviews import as_session, error_code, give_verdict, review_report, start_review
from tests.support.serve import (
    Served,
    barrier,
    enqueue,
    inject,
    prompts,
    sessions_json,
    spawn,
)
from tests.support.sessions import (
    collab_as,
    hooked,
    proc_start,
    process_alive,
    register_session,
    repoint_session,
    session_out,
    set_session,
)
from tests.support.terminal import Terminal, attach_command
from tests.support.tmux import tmux
from tests.support.userconfig import write_user_config
from tests.support.wait import holds_for, wait_until
from tests.support.world import World

__all__ = [
    "a2a", "A2A", "a2a_as", "add_ready_card", "AgentProcess", "broker_as", "serving",
    "as_session", "at_terminal", "barrier",
    "CARD_TOML", "collab_as", "commit_in", "dispatch", "enqueue", "error_code", "events", "git",
    "give_verdict", "holds_for", "hooked", "inject", "make_repo", "proc_start", "process_alive",
    "prompts",
    "register_session", "repoint_session", "review_report", "rows", "Run", "Served", "session",
    "sessions_json", "session_out", "set_session", "signals", "spawn", "start_review", "store",
    "tmux", "wait_state", "wait_until", "World", "write_card", "Terminal", "attach_command",
    "write_user_config",
]
