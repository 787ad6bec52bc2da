"""`a2a up`: the repository's tmux session with the orchestrator in one window, the workbench in
another, and the agents in the others. Idempotent: a running orchestrator or workbench is reused,
a missing one is started; then this terminal attaches (or, inside tmux, switches) to the
workbench. No textual here: the workbench runs in its window.

The orchestrator is its own process (`a2a serve`, window `orchestrator`), not the workbench's:
the workbench is a view, and work goes on whatever happens to it — detached (`q`, the tmux
detach key), closed, or crashed. Only a confirmed quit (`Q`) or `a2a down` stops it.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import JsonObject
from a2a_tui.panes.orchestrator import lock_holder
from a2a_tui.payloads import payload_of
from a2a_tui.payloads.house import WorkbenchUp
from a2a_tui.repo import Repo
from a2a_tui.tmux import SESSION_TAG, Tmux

WORKBENCH_TAG = "@a2a_workbench"   # pane option: the repository root the workbench serves
ORCHESTRATOR_TAG = "@a2a_orchestrator"
WINDOW_NAME = "workbench"
ORCHESTRATOR_WINDOW = "orchestrator"
BACK_KEY = "F12"                   # in a2a's tmux session: back to the workbench, from any pane
BACK_HINT = f"#[reverse] {BACK_KEY}: workbench #[default] "
START_TIMEOUT_S = 20.0


# The user's editor travels to the workbench (its `N` and `e` open it): a pane gets the tmux
# server's environment, not that of the shell that typed `a2a up`. Each `up` sets the session's
# own, and the workbench reads it at each edit: `export EDITOR=vi; a2a up` reaches a workbench
# that already runs.
EDITOR_VARS = ("VISUAL", "EDITOR")


def carry_editor(tmux: Tmux, session: str) -> None:
    """This shell's $VISUAL and $EDITOR, in `session`'s environment (unset ones removed)."""
    theirs = tmux.session_env(session)
    for name in EDITOR_VARS:
        mine = os.environ.get(name) or None
        if mine is not None and theirs.get(name) != mine:
            tmux.set_session_env(session, name, mine)
        elif mine is None and theirs.get(name) is not None:
            tmux.set_session_env(session, name, None)


def editor_env(repo: Repo, tmux_socket: str | None) -> dict[str, str]:
    """The environment an editor opened by the workbench runs in: this process's, with the
    editor the last `a2a up` carried to the session (as it is at this moment)."""
    env = dict(os.environ)
    try:
        carried = Tmux(tmux_socket).session_env(repo.config().tmux_session)
    except A2AError:
        return env
    for name in EDITOR_VARS:
        if name in carried:
            value = carried[name]
            if value is None:
                env.pop(name, None)
            else:
                env[name] = value
    return env


def workbench_argv(repo: Repo, tmux_socket: str | None) -> list[str]:
    """The command the workbench window runs: a view; the orchestrator runs beside it."""
    return [sys.executable, "-m", "a2a_tui", "workbench", "--repo", str(repo.root),
            "--no-orchestrator", *(["--tmux-socket", tmux_socket] if tmux_socket else [])]


def serve_command(repo: Repo, tmux_socket: str | None) -> list[str]:
    """`a2a serve` for the orchestrator window; if it fails, the window stays with its reason."""
    argv = [sys.executable, "-m", "a2a_tui", "serve", "--repo", str(repo.root),
            *(["--tmux-socket", tmux_socket] if tmux_socket else [])]
    script = (shlex.join(argv) + '; s=$?; [ "$s" -eq 0 ] || { echo; echo "(the orchestrator'
              ' stopped with exit $s: press Enter to close this window)"; read _; }')
    return ["/bin/sh", "-c", script]


def ensure_orchestrator(repo: Repo, tmux: Tmux, tmux_socket: str | None
                        ) -> tuple[int, str | None, bool]:
    """The orchestrator serving this repository, started in its own window if none runs;
    returns (its pid, its pane when it runs in a2a's window, whether it was started now)."""
    root = str(repo.root)
    pane = next((p for p, v in tmux.panes_tagged(ORCHESTRATOR_TAG).items() if v == root), None)
    pid = lock_holder(repo)
    if pid is not None:
        return pid, pane, False
    facts = tmux.new_pane(repo.config().tmux_session, serve_command(repo, tmux_socket), root)
    tmux.set_pane_option(facts.pane_id, ORCHESTRATOR_TAG, root)
    tmux.name_window(facts.pane_id, ORCHESTRATOR_WINDOW)
    deadline = time.monotonic() + START_TIMEOUT_S
    while (pid := lock_holder(repo)) is None:
        alive = tmux.panes().get(facts.pane_id)
        if alive is None or alive.dead or time.monotonic() > deadline:
            raise A2AError("orchestrator_failed", "the orchestrator did not start: its window"
                           f" '{ORCHESTRATOR_WINDOW}' in tmux session"
                           f" {repo.config().tmux_session} says why (or run `a2a serve`)")
        time.sleep(0.05)
    return pid, facts.pane_id, True


def ensure_workbench(repo: Repo, tmux: Tmux, tmux_socket: str | None) -> tuple[str, bool]:
    """The pane running this repository's workbench, started if none is alive; returns
    (pane id, whether it was started now)."""
    root = str(repo.root)
    for pane_id, value in tmux.panes_tagged(WORKBENCH_TAG).items():
        if value == root:
            return pane_id, False
    facts = tmux.new_pane(repo.config().tmux_session, workbench_argv(repo, tmux_socket), root)
    tmux.set_pane_option(facts.pane_id, WORKBENCH_TAG, root)
    tmux.name_window(facts.pane_id, WINDOW_NAME)
    # The workbench rings its bell when something waits for the user: tmux flags its window.
    tmux.set_window_option(facts.pane_id, "monitor-bell", "on")
    tmux.select_window(facts.pane_id)  # a plain `tmux attach -t <session>` shows it
    return facts.pane_id, True


def way_back(tmux: Tmux, session: str, pane: str) -> None:
    """From any pane of a2a's tmux session, one key (F12) shows the workbench again, and the
    session's status line says so. Both are options of that session alone (its own key table,
    its own status-left): the user's other sessions and tmux.conf are left as they are."""
    tmux.bind_key_to_pane(session, BACK_KEY, pane)
    left = tmux.global_option("status-left")
    if tmux.session_option(session, "status-left") != BACK_HINT + left:
        tmux.set_session_option(session, "status-left", BACK_HINT + left)
        length = tmux.global_option("status-left-length") or "10"
        tmux.set_session_option(session, "status-left-length",
                                str(int(length) + len(BACK_KEY) + len(" : workbench  ")))


@dataclass(frozen=True)
class Up:
    """What `a2a up` found or started: the workbench's tmux session and pane, the orchestrator,
    how to attach, and what the user is told (`text`)."""

    session: str
    pane: str
    started: bool
    tmux_socket: str | None
    attach: str
    root: str
    orchestrator_pid: int | None
    orchestrator_started: bool
    text: str

    def to_json(self) -> JsonObject:
        return {"session": self.session, "pane": self.pane, "started": self.started,
                "tmux_socket": self.tmux_socket, "attach": self.attach, "root": self.root,
                "orchestrator_pid": self.orchestrator_pid,
                "orchestrator_started": self.orchestrator_started, "text": self.text}


def up(repo: Repo, tmux_socket: str | None, *, attach: bool = True) -> Up:
    """Start what is missing, then attach this terminal to the workbench (unless `attach` is
    False). Attaching from outside tmux replaces this process with tmux."""
    tmux = Tmux(tmux_socket)
    try:
        repo.store().close()  # not initialised or unreadable: one clear error, nothing started
    except A2AError as err:
        raise elsewhere(err, tmux) from None
    session = repo.config().tmux_session
    pid, _, served = ensure_orchestrator(repo, tmux, tmux_socket)
    carry_editor(tmux, session)
    pane, started = ensure_workbench(repo, tmux, tmux_socket)
    way_back(tmux, session, pane)
    record_server(repo, tmux_socket, session, pane)
    attach_cmd = shlex.join(tmux.attach_argv(session))
    verb = "started" if started else "running"
    result = Up(session=session, pane=pane, started=started, tmux_socket=tmux_socket,
                attach=attach_cmd, root=str(repo.root), orchestrator_pid=pid,
                orchestrator_started=served,
                text=f"workbench {verb} in tmux session {session} (pane {pane}), orchestrator"
                     f" pid {pid}; attach with: {attach_cmd}")
    if not attach:
        return result
    return replace(result, text=attach_to(tmux, session, pane, result.root))


UP_EVENT = "workbench_up"


def record_server(repo: Repo, tmux_socket: str | None, session: str, pane: str) -> None:
    """Which tmux server the workbench runs on, in the store: `a2a down` (and `a2a up`) typed
    later from another terminal, inside tmux or not, finds it there."""
    with repo.store() as store, store.write() as tx:
        last = tx.one("SELECT payload FROM events WHERE kind = ? ORDER BY seq DESC LIMIT 1",
                      (UP_EVENT,))
        payload = WorkbenchUp(tmux_socket=tmux_socket, tmux_session=session, pane=pane)
        if last is None or payload_of(UP_EVENT, json.loads(last["payload"])) != payload:
            tx.append(UP_EVENT, actor="user", payload=payload)


def recorded_server(repo: Repo) -> str | None:
    """The tmux socket the last `a2a up` recorded (None: the default server, or no record)."""
    try:
        with repo.store() as store:
            last = store.one("SELECT payload FROM events WHERE kind = ? ORDER BY seq DESC"
                             " LIMIT 1", (UP_EVENT,))
    except A2AError:
        return None
    if last is None:
        return None
    up: WorkbenchUp = payload_of(UP_EVENT, json.loads(last["payload"]))
    return up.tmux_socket


def running(tmux: Tmux) -> list[dict[str, str]]:
    """The a2a sessions on this tmux server: each repository with a workbench or an
    orchestrator window, and its tmux session."""
    found: dict[str, dict[str, str]] = {}
    for tag in (WORKBENCH_TAG, ORCHESTRATOR_TAG):
        for pane, root in tmux.panes_tagged(tag).items():
            if root not in found:
                found[root] = {"root": root, "session": tmux.session_of(pane) or "?"}
    return sorted(found.values(), key=lambda r: r["root"])


def elsewhere(err: A2AError, tmux: Tmux, verb: str = "up") -> A2AError:
    """`a2a up` (or `down`) where there is no a2a repository: say how to get one, and which a2a
    sessions run on this tmux server and the command that reaches each."""
    if err.code not in ("not_initialized", "not_a_repo"):
        return err
    there = running(tmux)
    hint = (" Run `a2a init` in a git repository, or name one with `--repo PATH`." if verb == "up"
            else " Name the repository with `--repo PATH`.")
    if there:
        hint += " Running on this tmux server: " + "; ".join(
            f"{r['session']} ({r['root']}: `a2a {verb} --repo {shlex.quote(r['root'])}`)"
            for r in there)
    else:
        hint += " No a2a session runs on this tmux server (`a2a demo` shows one)."
    return A2AError(err.code, err.message.split("; run")[0] + "." + hint,
                    exit_code=err.exit_code, details={"running": there})


def attach_to(tmux: Tmux, session: str, pane: str, root: str) -> str:
    """Show the workbench pane to this terminal: switch our client when we already run inside
    this tmux server, else attach (nested when inside another server) until the user detaches;
    then what the user is told: what runs on."""
    inside = os.environ.get("TMUX", "")
    here = tmux.socket_path()
    if tmux.show_pane(pane) or (inside and here and inside.split(",")[0] == here):
        return f"switched to the workbench in tmux session {session}"
    tmux.attach(session, nested=bool(inside))
    return after_detach(tmux, session, root)


def after_detach(tmux: Tmux, session: str, root: str) -> str:
    """What the user is told once tmux gives the terminal back (tmux itself says only
    `[detached ...]`): what runs on, how to come back, how to end it."""
    if not tmux.has_session(session):
        return f"tmux session {session} has ended"
    pid = lock_holder(Repo(Path(root)))
    agents = [p for p, v in tmux.panes_tagged(SESSION_TAG).items()
              if tmux.session_of(p) == session and v]
    runs = (f"the orchestrator (pid {pid}) delivers" if pid is not None else
            "no orchestrator runs: nothing is delivered until `a2a up`")
    a2a = shlex.join(a2a_argv())
    repo = shlex.quote(root)
    lines = [f"a2a: you left tmux session {session}: {len(agents)} agent(s) keep running and"
             f" {runs}.",
             f"  back:  {a2a} up --repo {repo}",
             f"  end:   {a2a} down --repo {repo}"]
    if not on_path():
        lines.append(f"  (a2a is not on your PATH; `pipx install {source_dir()}` or"
                     f" `uv tool install {source_dir()}` puts it there:"
                     " docs/how-to/install.md)")
    return "\n".join(lines)


def a2a_argv() -> list[str]:
    """The command that runs this a2a, by its full path: the `a2a` script beside this Python
    (a venv's bin), else this Python with `-m a2a_tui`."""
    script = Path(sys.executable).parent / "a2a"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "a2a_tui"]


def on_path() -> bool:
    """Whether `a2a` typed in a shell runs this a2a."""
    found = shutil.which("a2a")
    return found is not None and Path(found).resolve() == Path(a2a_argv()[0]).resolve()


def source_dir() -> str:
    """Where this a2a's source is (what pipx or uv installs from)."""
    return str(Path(__file__).resolve().parents[2])
