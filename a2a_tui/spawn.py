"""`a2a spawn`: start a managed agent session in a new tmux pane, and record the launch; and
`a2a review start`, which launches a reviewer that way (`spawn_reviewer`).

A use case above the gate and the panes: it binds the attempt's writer (gate), writes the
session's git hooks and starts its pane (panes, tmux), and hands it the records that waited for
its role (collaboration).

Order, so that a crash leaves a true record: the launch intent (argv, versions, digests) is
recorded first with the sessions row; then the per-session files are written and the pane is
started; then what tmux reports (pane id, pid and its start time, tty) is recorded. A failure
after the intent marks the session `exited` with the reason.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from a2a_tui import host, profiles, settings
from a2a_tui.collab.backlog import deliver_backlog_in_tx
from a2a_tui.collab.project import profile_confirmed, section
from a2a_tui.confine import Confinement, Request, confine
from a2a_tui.confine.plan import check_machine
from a2a_tui.errors import A2AError
from a2a_tui.faults import crashpoint
from a2a_tui.gate.attempts.ownership import bind_writer
from a2a_tui.gate.reviews import launch as review_start
from a2a_tui.gate.roles import CONTROLLERS
from a2a_tui.git import clone_head
from a2a_tui.identity import session_leader, start_time
from a2a_tui.jsontypes import JsonObject
from a2a_tui.kinds import EventKind
from a2a_tui.panes.githooks import git_config_env, write_hooks
from a2a_tui.panes.records import check_session_id, record_launched, record_launching
from a2a_tui.payloads.sessions import PaneExited, SessionLaunching
from a2a_tui.profiles.environment import A2A_NAMES, launch_env, named, write_private
from a2a_tui.resources import BROKER_ENV, broker_client, hooks_dir, rolecards_dir
from a2a_tui.tmux import SESSION_TAG, Tmux

ROLES = ("ideation", "executive", "worker", "reviewer", "retro")
ID_PREFIX = {"ideation": "idea", "executive": "exec", "worker": "w", "reviewer": "r",
             "retro": "retro"}
DEMO_CLI = "demo"
DEMO_UNCONFINED = "a2a's own demo agent, in the sample repository of `a2a demo`, starts anyway"


@dataclass(frozen=True)
class Launched:
    """A session started: its id and pane, what runs there (role, CLI and version, model,
    effort, argv), where (attempt, folder, tmux), its launch record's seq and its confinement
    as recorded."""

    session: str
    pane: str
    role: str
    cli: str
    cli_version: str
    model: str
    effort: str
    attempt: str | None
    cwd: str
    launch_seq: int
    argv: tuple[str, ...]
    tmux_session: str
    tmux_socket: str | None
    pid: int
    confinement: JsonObject

    def to_json(self) -> JsonObject:
        return {"session": self.session, "pane": self.pane, "role": self.role, "cli": self.cli,
                "cli_version": self.cli_version, "model": self.model, "effort": self.effort,
                "attempt": self.attempt, "cwd": self.cwd, "launch_seq": self.launch_seq,
                "argv": list(self.argv), "tmux_session": self.tmux_session,
                "tmux_socket": self.tmux_socket, "pid": self.pid,
                "confinement": self.confinement}


def spawn(g, *, role: str, cli: str, model: str = "", effort: str = "",
          attempt: str | None = None, session: str | None = None,
          tmux_socket: str | None = None, extra: tuple[str, ...] = (),
          continues: str | None = None, fork: bool = False, restarts: int | None = None,
          user_input: str | None = None, cwd: Path | None = None,
          note: dict[str, Any] | None = None) -> Launched:
    """Launch one session; `g` is the GateContext (repo, store, caller) of the command.

    `continues`: the CLI's own conversation to resume (or, with `fork`, to copy). `restarts`:
    the launch seq of the exited session `session` that this launch brings back (same id, a
    new launch record; see `a2a_tui.lifecycle.restart`), kept as `revives` when it goes on
    with its conversation. `user_input`: the U-<n> that asked for it, kept in the launch
    record. `cwd`: the folder to work in, in place of the one the role and attempt would give
    (a fork works where its original did; a reviewer in its read-only checkout). `note`: more
    facts for the launch record (why a revive started afresh...)."""
    # Longer than most on purpose: it is the crash-safe order (module docstring) read top to
    # bottom: the intent recorded, then the writer bound, the files and the pane, then what
    # tmux reports; each step's parts are the helpers below.
    if role not in ROLES:
        raise A2AError("unknown_role", f"unknown role {role!r} (one of {', '.join(ROLES)})",
                       exit_code=2)
    profile = profiles.get(cli)
    repo, store = g.repo, g.store
    cwd, task = (cwd, None) if cwd is not None else _cwd(g, attempt)
    card, card_digest = _role_card(role)
    project = profile_confirmed(store) if role in CONTROLLERS else None   # rule 8: the profile
    version = profile.version()
    # An attempt's clone is its agent's: its head is read from its files as data, no git runs
    # there (gate/attempts/clones.py); None when they say nothing git would write.
    commit = clone_head(cwd) if task is not None else repo.git.head_commit(cwd)
    tmux = Tmux(tmux_socket)
    tmux_session = repo.config().tmux_session
    sid = check_session_id(session) if session else None
    boxing = _Boxing(repo, tmux, write_cwd=attempt is not None, cli=cli)

    with store.write() as tx:
        sid = sid or _new_id(tx, role)
        _check_free(tx, sid, restarts)
        ctx = profiles.LaunchContext(
            session=sid, role=role, cwd=cwd, run_dir=repo.session_run_dir(sid),
            spool_dir=repo.session_spool_dir(sid),
            hook=hooks_dir() / "a2a-hook", model=model, effort=effort,
            role_card=card if card.is_file() and cli != "demo" else None, extra=tuple(extra),
            continues=profiles.check_conversation(continues) if continues else None, fork=fork,
            open_shell=boxing.open_shell, confined=boxing.will_confine,
            out_dir=repo.session_out_dir(sid), project=section(project.profile) if project else "")
        launch = profile.prepare(ctx)
        # The spawner's provider settings, and what the user's `[env]` names, go to the pane by
        # the launch script; only their names are recorded (profiles/environment.py).
        travel = {**named(os.environ, (*A2A_NAMES, *boxing.env_pass.names(cli, role))),
                  **profile.pane_env(tuple(extra), os.environ)}
        box = boxing.confine(ctx, profile, launch)
        record = _launch_record(
            ctx, launch, restarts, cli=cli, cli_version=version, argv=list(launch.argv),
            env=sorted(launch.env), role_card=str(card), role_card_digest=card_digest,
            repo_commit=commit, tmux_socket=tmux_socket, tmux_session=tmux_session,
            env_passed=sorted(travel), confinement=box.to_json(),
            broker_socket=str(repo.broker_socket(sid)), **(note or {}),
            project_profile=project.seq if project else None,
            user_input=user_input or None)
        seq = record_launching(
            tx, sid, actor=g.caller.actor, role=role, cli=cli, cwd=str(cwd), record=record,
            cli_version=version, model=model, effort=effort, attempt=attempt,
            tmux_socket=tmux_socket, tmux_session=tmux_session, thread_id=launch.thread_id,
            replace=restarts is not None)
    if attempt:
        try:
            bind_writer(g, attempt, sid)
        except A2AError as exc:
            _failed(store, sid, attempt, f"{exc.code}: {exc.message}")
            raise
    try:
        trailers = {"A2A-Task": task or "", "A2A-Attempt": attempt or "", "A2A-Session": sid,
                    "A2A-Role": role, "A2A-CLI": f"{cli} {version}", "A2A-Model": model,
                    "A2A-Effort": effort, "A2A-Launch": str(seq)}
        _write_files(repo, ctx, launch, trailers, tmux_socket, cwd, travel, box)
        facts = _start_pane(tmux, tmux_session, ctx, cwd)
    except (A2AError, OSError) as exc:
        _failed(store, sid, attempt, str(exc))
        raise
    _record_started(g, tmux, facts, ctx, attempt=attempt, seq=seq, confined=box.confined)
    return Launched(session=sid, pane=facts.pane_id, role=role, cli=cli, cli_version=version,
                    model=model, effort=effort, attempt=attempt, cwd=str(cwd), launch_seq=seq,
                    argv=tuple(launch.argv), tmux_session=tmux_session,
                    tmux_socket=tmux_socket, pid=facts.pid, confinement=box.to_json())


def _role_card(role: str) -> tuple[Path, str | None]:
    """The role's card and its digest (None when there is no card)."""
    card = rolecards_dir() / f"{role}.md"
    return card, ("sha256:" + hashlib.sha256(card.read_bytes()).hexdigest()
                  if card.is_file() else None)


def _check_free(tx, sid: str, restarts: int | None) -> None:
    """Refuse a session id in use, but for the exited session this launch brings back."""
    old = tx.one("SELECT state, launch_seq FROM sessions WHERE id = ?", (sid,))
    if old is not None and (restarts, "exited") != (old["launch_seq"], old["state"]):
        raise A2AError("session_exists", f"session {sid} already exists" + (
            " and has not exited (or was restarted meanwhile)" if restarts else ""))


def _launch_record(ctx: profiles.LaunchContext, launch: profiles.Launch,
                   restarts: int | None, **facts: Any) -> SessionLaunching:
    """The launch record: what the launch context and the prepared launch say; for a launch
    that goes on from another, the conversation it resumes (or forks) and the launch it brings
    back (`revives` when it resumes it); then `facts` (the CLI, its version, the role card,
    tmux..., a note and the user input)."""
    back: dict[str, Any] = {}
    if ctx.continues:
        back |= {"continues": ctx.continues, "fork": ctx.fork}
    if restarts is not None:
        back["revives" if ctx.continues and not ctx.fork else "restarts"] = restarts
    return SessionLaunching(
        role=ctx.role, model=ctx.model, effort=ctx.effort, cwd=str(ctx.cwd),
        thread_id=launch.thread_id, prompt_signal=launch.prompt_signal,
        permissions=launch.permissions, extra=list(ctx.extra),
        # The session's two channels: the socket it reaches a2a through (in `facts`), the
        # folder its hooks signal into (both bound into its sandbox alone).
        spool=str(ctx.spool_dir), **back, **facts)


def _start_pane(tmux: Tmux, tmux_session: str, ctx: profiles.LaunchContext, cwd: Path):
    """The session's pane, running its launch script, tagged with its id, and its death
    signalled through the session's hook."""
    sid = ctx.session
    facts = tmux.new_pane(tmux_session, ["/bin/sh", str(ctx.run_dir / "launch.sh")], str(cwd))
    tmux.set_pane_option(facts.pane_id, SESSION_TAG, sid)
    exit_cmd = shlex.join([str(ctx.hook), "--spool", str(ctx.spool_dir), "--session", sid,
                           "--pane", facts.pane_id, "tmux"])
    tmux.on_pane_death(facts.pane_id, exit_cmd)
    return facts


def _record_started(g, tmux: Tmux, facts, ctx: profiles.LaunchContext, *,
                    attempt: str | None, seq: int, confined: bool) -> None:
    """Record what tmux reports of the started pane, hand the session what waited for its role,
    and mark it exited when its process is already gone."""
    sid = ctx.session
    pid_start = start_time(facts.pid)
    with g.store.write() as tx:
        record_launched(tx, sid, actor=g.caller.actor, attempt=attempt, launch_seq=seq,
                        pane_id=facts.pane_id, pid=facts.pid, pid_start=pid_start,
                        tty=facts.tty, leader=session_leader(facts.pid),
                        subreaper=host.linux() and not confined)
        # What was addressed to this role while no session of it ran comes to this one.
        deliver_backlog_in_tx(tx, sid, ctx.role, actor="orchestrator")
    # A process that died before its pane-died hook was set would never signal it.
    after = tmux.panes().get(facts.pane_id)
    if after is None or after.dead:
        _failed(g.store, sid, attempt, "the CLI exited at once", state_event="pane_exited")


class _Boxing:
    """The confinement of a launch: the machine and the user's settings are asked before
    anything is recorded (a launch that may not start unconfined is refused first); the
    policy is built once the session's folders are known."""

    def __init__(self, repo, tmux: Tmux, *, write_cwd: bool, cli: str) -> None:
        self.repo = repo
        self.write_cwd = write_cwd
        # The user's own file only: the repository's config never widens confinement, nor
        # what of the user's environment a session gets (`[env]`).
        user = settings.load()
        self.settings, self.env_pass = user.confinement, user.env
        self.tmux_dir = Path(tmux.socket_dir())
        self.hooks = repo.git.own_hooks_dir(repo.root)
        # `a2a demo` comes up on a machine that cannot confine: a2a's own demo agent, in the
        # sample repository `a2a demo` built (its marker is under .a2a/, out of any agent's
        # reach), may start unconfined there, recorded and shown as such. No agent CLI may.
        demo = cli == DEMO_CLI and repo.demo() is not None
        self.allow_unconfined = self.settings.allow_unconfined or demo
        self.allowed_by = "" if self.settings.allow_unconfined or not demo else DEMO_UNCONFINED
        # Refused here, before anything is recorded, when the session may not start.
        self.will_confine = check_machine(
            enabled=self.settings.enabled, allow_unconfined=self.allow_unconfined,
            allowed_by=self.allowed_by) is None

    @property
    def open_shell(self) -> bool:
        """Whether a confined worker may run any command without its CLI asking."""
        return self.will_confine and self.settings.any_command

    def confine(self, ctx: profiles.LaunchContext, profile: profiles.Profile,
                launch: profiles.Launch) -> Confinement:
        extra = self.settings.extra(ctx.role, ctx.session)
        repo, sid = self.repo, ctx.session
        state = profile.state_paths(os.environ)
        if self.will_confine:
            _make_state_folders(state)
        req = Request(
            repo_root=repo.root, a2a_dir=repo.a2a_dir, run_dir=ctx.run_dir,
            out_dir=repo.session_out_dir(sid), spool_dir=ctx.spool_dir,
            broker_dir=repo.session_broker_dir(sid), cwd=ctx.cwd,
            write_cwd=self.write_cwd, binary=launch.argv[0],
            search_path=host.path_with_a2a(), state=state,
            home=Path(os.environ["HOME"]) if os.environ.get("HOME") else None,
            extra_read=extra.read, extra_write=extra.write, hooks_dir=self.hooks,
            tmux_dir=self.tmux_dir)
        return confine(req, enabled=self.settings.enabled,
                       allow_unconfined=self.allow_unconfined, allowed_by=self.allowed_by,
                       caps=self.settings.session_limits, name=f"session-{sid}")



def _make_state_folders(state: tuple[Path, ...]) -> None:
    """Make the CLI's missing state folders (empty, the user's alone), as the CLI does on its
    first start unconfined: a folder that does not exist cannot be bound into the sandbox,
    and what the CLI kept in its stand-in (login, conversations) would end with the session.
    Never a file, never a folder whose parent is missing, nothing written inside."""
    for path in state:
        if path.suffix or path.exists() or not path.parent.is_dir():
            continue
        try:
            path.mkdir(mode=0o700)
        except OSError:
            pass    # made meanwhile, or not ours to make: the launch record's note says so


def _cwd(g, attempt: str | None) -> tuple[Path, str | None]:
    if attempt is None:
        return g.repo.root, None
    att = g.attempt(attempt)
    path = Path(att.worktree)
    if att.worktree_state != "present" or not path.is_dir():
        raise A2AError("no_worktree", f"attempt {attempt} has no worktree to work in"
                       f" ({att.worktree_state})")
    return path, att.card_id


def _new_id(tx, role: str) -> str:
    prefix = ID_PREFIX[role]
    while True:
        sid = f"{prefix}{tx.next_counter(f'session:{prefix}')}"
        if tx.one("SELECT 1 FROM sessions WHERE id = ?", (sid,)) is None:
            return sid


def _write_files(repo, ctx: profiles.LaunchContext, launch: profiles.Launch,
                 trailers: dict[str, str], tmux_socket: str | None, cwd: Path,
                 travel: dict[str, str], box: Confinement) -> None:
    ctx.run_dir.mkdir(parents=True, exist_ok=True)
    os.chmod(ctx.run_dir, 0o700)  # the launch script may hold provider keys
    for folder in (repo.session_out_dir(ctx.session), *([ctx.run_dir / "tmp"] if box.env else [])):
        folder.mkdir(parents=True, exist_ok=True)
    for name, text in launch.files.items():
        (ctx.run_dir / name).write_text(text, encoding="utf-8")
    # The repository's own hooks, never the working folder's: an attempt's clone has a git
    # directory of its own, which its agent writes.
    orig = repo.git.own_hooks_dir(repo.root)
    hooks = ctx.githooks_dir
    write_hooks(hooks, orig, trailers)
    channel, shim_dir = _channel(repo, ctx)
    # The pane's environment comes from the tmux server, not from us: give it our PATH, with the
    # session's `a2a` (the broker's client) first, then this a2a's own bin folder.
    path = str(shim_dir) + os.pathsep + host.path_with_a2a()
    env = {**travel, **git_config_env(hooks), **launch.env, **box.env, **channel,
           "A2A_SESSION": ctx.session, "PATH": path}
    if tmux_socket:
        env["A2A_TMUX_SOCKET"] = tmux_socket
    # Nothing else of the user's shell (the tmux server's environment): `env -i` and the
    # allow-list (profiles/environment.py).
    lines = ["#!/bin/sh", f"# a2a launch of session {ctx.session} ({ctx.role}); generated.",
             f"cd {shlex.quote(str(cwd))} || exit 1",
             *box.enter(),
             "exec " + " ".join([*launch_env(env, launch.unset),
                                 *(_quote_arg(a) for a in (*_subreaper(box), *box.prefix,
                                                            *launch.argv))])]
    write_private(ctx.run_dir / "launch.sh", "\n".join(lines) + "\n")


def _channel(repo, ctx: profiles.LaunchContext) -> tuple[dict[str, str], Path]:
    """The session's two channels, made before its pane starts (a sandbox binds both folders at
    the same paths): its spool folder, the only one its hooks write into (`ctx.spool_dir`); and
    its broker folder (0700), where the orchestrator's broker listens on the session's socket.
    Returns the variable that names the socket and the folder of the session's `a2a`: a shim that
    runs the broker's thin client (a2a_tui/broker/client.py), first on the pane's PATH."""
    ctx.spool_dir.mkdir(parents=True, exist_ok=True)
    folder = repo.session_broker_dir(ctx.session)
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    shim_dir = ctx.run_dir / "bin"
    shim_dir.mkdir(exist_ok=True)
    shim = (f"#!/bin/sh\n# the a2a of session {ctx.session}: its broker's client; generated.\n"
            f"exec {shlex.quote(sys.executable)} -I -S {shlex.quote(str(broker_client()))}"
            ' "$@"\n')
    fd = os.open(shim_dir / "a2a", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o700)
    os.fchmod(fd, 0o700)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(shim)
    return {BROKER_ENV: str(repo.broker_socket(ctx.session))}, shim_dir


# 36 = PR_SET_CHILD_SUBREAPER. If it fails the CLI does not start: the pane's process exits with
# the reason on its screen, so a live session recorded with `subreaper: true` has one.
SUBREAPER_EXEC = ("import ctypes, os, sys; libc = ctypes.CDLL(None, use_errno=True);"
                  " libc.prctl(36, 1, 0, 0, 0) and sys.exit('a2a: prctl(PR_SET_CHILD_SUBREAPER): '"
                  " + os.strerror(ctypes.get_errno())); os.execvp(sys.argv[1], sys.argv[1:])")


def _subreaper(box: Confinement) -> tuple[str, ...]:
    """The words that make what follows a child subreaper before it is exec'd (Linux).

    A command the CLI starts that detaches itself (setsid, double fork) is then re-parented to
    the CLI, not to init, so it stays inside the pane's process tree and is still known as this
    session's. Other systems have no subreaper: the CLI is exec'd as it is, still the leader of
    the pane's session, and identity falls back on that and on the terminal. In a PID namespace
    (bwrap) nothing can leave: an orphan goes to the sandbox's own init, which ends them all
    when the CLI exits; the prctl is kept for an unconfined session."""
    if not host.linux() or box.confined:
        return ()
    return (sys.executable, "-I", "-S", "-c", SUBREAPER_EXEC)


def _quote_arg(arg: str) -> str:
    # The pane id is known only inside the pane: splice "$TMUX_PANE" into the quoted word.
    return shlex.quote(arg).replace(profiles.PANE_TOKEN, "'\"$TMUX_PANE\"'")


def _failed(store, sid: str, attempt: str | None, reason: str,
            state_event: str = "session_launch_failed") -> None:
    with store.write() as tx:
        tx.append(state_event, actor="orchestrator", attempt=attempt, session=sid,
                  payload=PaneExited(reason=reason) if state_event == EventKind.PANE_EXITED
                  else {"reason": reason})
        tx.execute("UPDATE sessions SET state='exited', state_since_ns=? WHERE id=?",
                   (time.time_ns(), sid))


def spawn_reviewer(g, attempt: str, *, cli: str, model: str = "", effort: str = "",
                   tmux_socket: str | None = None, extra: tuple[str, ...] = ()
                   ) -> review_start.ReviewStarted:
    """`a2a review start`: a fresh reviewer session in a read-only checkout of exactly the
    attempt's submitted SHA, recorded with that SHA, its first prompt queued (gate/reviews/launch.py
    says what it holds). The role's permissions come with the launch (`profiles`, role
    "reviewer"), as for any session."""
    profiles.get(cli)   # an unknown CLI is refused before anything is written
    g.attempt(attempt)
    with review_start.launch_lock(g, attempt):
        planned = review_start.plan(g, attempt)
        try:
            launched = spawn(g, role="reviewer", cli=cli, model=model, effort=effort,
                             tmux_socket=tmux_socket, cwd=planned.checkout, extra=extra)
        except (A2AError, OSError) as exc:
            review_start.failed(g, planned, str(exc))
            raise
        crashpoint("review_start:after_spawn")
        # In the session's output folder: the one place of its run folder it may write.
        report = g.repo.session_out_dir(launched.session) / "review.md"
        return review_start.started(g, planned, launched, report)
