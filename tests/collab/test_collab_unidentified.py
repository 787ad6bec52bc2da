"""Identity fails closed: the user is a positive finding, a caller that cannot be placed is
`unidentified` — it may read, and anything it writes is refused (`caller_unidentified`), never
recorded as the user.

The user is a process whose parent chain can be followed to the top, that has a controlling
terminal which is not a live managed pane's, in the PID namespace a2a recorded at `a2a init`.
The callers below are real processes running the real CLI: an orphan with no terminal (what a
command cut from its agent's tree looks like) and, where `unshare` may make one, a command in a
PID namespace of its own with a terminal (a sandbox such as Codex's workspace-write one).
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import A2A, a2a, add_ready_card, events, rows, wait_until
from tests.support.cli import Run, at_terminal

# One write through each path that takes the caller, and reads.
WRITES = [
    ("say", "hello from nowhere"),
    ("inbox", "post", "assign", "--card", "T-1", "--text", "go"),
    ("board", "report", "--title", "t", "--body", "b"),
    ("claim", "T-1"),
    ("card", "ready", "T-1"),
    ("inject", "nobody", "text"),
    ("pause", "--all"),
]
READS = [("status",), ("events",), ("inbox", "list"), ("board", "list"), ("card", "list")]


def _orphan(repo: Path, tmp: Path, commands: list[tuple[str, ...]]) -> list[Run]:
    """Run each `a2a COMMAND --json` in one process whose parent has exited and which has no
    terminal: a new session (no controlling terminal), double-forked so that its parent chain
    is cut, as a command detached from an agent's process tree."""
    lines = []
    for i, args in enumerate(commands):
        cmd = shlex.join([*A2A, *args, "--json"])
        lines.append(f"{cmd} >{tmp}/{i}.out 2>{tmp}/{i}.err; echo $? >{tmp}/{i}.rc")
    body = "; ".join(lines) + f"; touch {tmp}/done"
    # The inner job waits until its starting shell is gone, then runs with no parent chain.
    script = f"( ( while kill -0 $$ 2>/dev/null; do :; done; {body} ) & ) ; exit 0"
    subprocess.run(["sh", "-c", script], cwd=str(repo), start_new_session=True,
                   stdin=subprocess.DEVNULL, check=True)
    wait_until((tmp / "done").exists, timeout=120, what="the orphan's commands")
    return [Run(int((tmp / f"{i}.rc").read_text()), (tmp / f"{i}.out").read_text(),
                (tmp / f"{i}.err").read_text()) for i in range(len(commands))]


def _refused(r: Run) -> None:
    assert r.code == 1, (r.out, r.err)
    assert r.json["error"]["code"] == "caller_unidentified", r.out
    assert "unidentified" in r.json["error"]["message"]


def test_an_orphan_without_a_terminal_may_read_but_every_write_is_refused(repo, tmp_path):
    add_ready_card(repo)
    before = [e.seq for e in events(repo)]
    who, *runs = _orphan(repo, tmp_path, [("whoami",), *WRITES, *READS])
    assert who.code == 0, who.err
    assert who.json["is_user"] is False and who.json["session"] is None
    assert who.json["unidentified"]
    for r in runs[:len(WRITES)]:
        _refused(r)
    for r in runs[len(WRITES):]:
        assert r.code == 0, r.err
    # Nothing written by it, and nothing at all as the user: only the refusals, each naming
    # the command it refused.
    new = [e for e in events(repo) if e.seq not in before]
    assert {e.kind for e in new} == {"caller_unidentified"}, [e.kind for e in new]
    assert all(e.actor == "unidentified" for e in new)
    assert [e.payload["command"] for e in new] == [" ".join(w[:2]) if w[0] in (
        "inbox", "board", "card") else w[0] for w in WRITES]
    assert rows(repo, "SELECT * FROM user_inputs") == []
    assert rows(repo, "SELECT * FROM inbox") == []
    assert rows(repo, "SELECT * FROM attempts") == []


def test_the_same_commands_at_a_terminal_are_the_users(repo):
    add_ready_card(repo)
    me = a2a("whoami", "--json", cwd=repo)
    assert me.json["is_user"] is True and not me.json["unidentified"], me.out
    r = a2a("say", "hello", "--json", cwd=repo)
    assert r.code == 0, r.err
    assert [u["source"] for u in rows(repo, "SELECT * FROM user_inputs")] == ["cli"]


def test_a_command_without_a_terminal_is_not_the_user_even_with_its_parent_alive(repo):
    # pytest has no terminal here: a child in a session of its own has none either.
    r = subprocess.run([*A2A, "say", "hi", "--json"], cwd=str(repo), capture_output=True,
                       text=True, start_new_session=True, stdin=subprocess.DEVNULL)
    _refused(Run(r.returncode, r.stdout, r.stderr))
    assert rows(repo, "SELECT * FROM user_inputs") == []


def _unshare_pid() -> str | None:
    try:
        p = subprocess.run(["unshare", "--pid", "--fork", "--mount-proc", "true"],
                           capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unshare cannot run: {exc}"
    return None if p.returncode == 0 else f"unshare --pid is not permitted: {p.stderr.strip()}"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PID namespaces are Linux's")
def test_a_command_in_another_pid_namespace_is_unidentified_even_at_a_terminal(repo):
    why = _unshare_pid()
    if why:
        pytest.skip(why)
    add_ready_card(repo)
    before = len(events(repo))

    def sandboxed(*args: str) -> Run:
        p = at_terminal(["unshare", "--pid", "--fork", "--mount-proc", *A2A, *args, "--json"],
                        cwd=str(repo), capture_output=True, text=True, timeout=60)
        return Run(p.returncode, p.stdout, p.stderr)

    who = sandboxed("whoami")
    assert who.code == 0, who.err
    assert who.json["is_user"] is False and "PID namespace" in who.json["unidentified"]
    for args in WRITES[:4]:
        _refused(sandboxed(*args))
    assert sandboxed("status").code == 0
    new = events(repo)[before:]
    assert {e.kind for e in new} == {"caller_unidentified"}
    assert rows(repo, "SELECT * FROM user_inputs") == []
    assert rows(repo, "SELECT * FROM attempts") == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PID namespaces are Linux's")
def test_a_store_that_never_recorded_a2as_namespace_learns_it_from_init_at_a_terminal(repo):
    # A store from before the namespace was recorded: its log has none.
    from a2a_tui.store import Store

    (repo / ".a2a/a2a.db").unlink()
    for extra in ("-wal", "-shm"):
        (repo / f".a2a/a2a.db{extra}").unlink(missing_ok=True)
    # ... and from before stores had ids: the repository has no record of it either.
    (repo / ".git/a2a-store.json").unlink()
    Store(repo / ".a2a/a2a.db").close()
    r = a2a("say", "hi", "--json", cwd=repo)
    _refused(r)
    assert "a2a init" in r.json["error"]["message"]
    # Without a terminal, init does not record it: a sandboxed command cannot make its
    # namespace a2a's.
    p = subprocess.run([*A2A, "init", "--json"], cwd=str(repo), capture_output=True, text=True,
                       start_new_session=True, stdin=subprocess.DEVNULL)
    assert p.returncode == 1 and "caller_unidentified" in p.stdout
    assert not events(repo, "pid_namespace_recorded")
    assert a2a("init", cwd=repo).code == 0
    (rec,) = events(repo, "pid_namespace_recorded")
    assert rec.payload["pid_namespace"] == str(Path("/proc/self/ns/pid").readlink())
    assert a2a("say", "hi", "--json", cwd=repo).code == 0
