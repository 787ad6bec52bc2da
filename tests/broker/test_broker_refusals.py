"""The broker runs only agent-facing commands, only in its own repository and tmux server, and
reads a file an agent names through the agent's client: the broker, running as the user
unconfined, never opens a path an agent names."""

from __future__ import annotations

import shutil
import textwrap

import pytest

from tests.support import AgentProcess, broker_as, events, rows, tmux, write_card

CARD_INSIDE = "T-9"
CARD_OUTSIDE = "T-8"


@pytest.mark.parametrize("argv", [
    ("approve", "T-1-a1"), ("resolve", "T-1-a1", "--as", "abandoned", "--reason", "x"),
    ("target", "adopt", "main", "--reason", "mine"), ("init",), ("serve",), ("demo-agent",),
    ("store", "reseal", "--reason", "x"), ("board", "answer", "Q-1", "--adopt"),
    ("store", "backup", "/tmp/anywhere.db"), ("store", "restore", "/tmp/anywhere.db"),
    ("card", "edit", "T-1"),
], ids=lambda a: " ".join(a[:2]))
def test_a_command_that_is_not_agent_facing_is_refused_and_recorded(repo, serve, argv):
    serve()
    r = broker_as(repo, "exec1", "executive", *argv)
    assert r.code == 1 and r.err.strip().endswith("[broker_refused]"), r.err
    (ev,) = events(repo, "broker_refused")
    assert ev.actor == "session:exec1" and ev.payload["command"] == " ".join(
        a for a in argv[:2] if not a.startswith(("T-", "Q-", "--", "main")))
    assert not rows(repo, "SELECT id FROM user_inputs")


def test_another_repository_or_tmux_server_is_refused(repo, serve, tmp_path, tmux_socket):
    serve()
    other = broker_as(repo, "exec1", "executive", "--repo", str(tmp_path), "whoami")
    assert other.code == 1 and "[broker_refused]" in other.err and "--repo" in other.err
    server = broker_as(repo, "exec1", "executive", "spawn", "worker", "--cli", "demo",
                       "--tmux-socket", "the-users-own")
    assert server.code == 1 and "[broker_refused]" in server.err, server.err
    assert not rows(repo, "SELECT id FROM sessions WHERE role = 'worker'")
    # Left out, the new pane goes on the orchestrator's own server.
    ok = broker_as(repo, "exec1", "executive", "spawn", "worker", "--cli", "demo", "--json")
    assert ok.code == 0, ok.err
    assert ok.json["tmux_socket"] == tmux_socket
    assert ok.json["pane"] in tmux(tmux_socket, "list-panes", "-a", "-F", "#{pane_id}")


@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare(1)")
def test_a_file_argument_is_read_by_the_client_inside_its_namespace_not_by_the_broker(
        repo, serve, tmp_path):
    """The client runs in a mount namespace of its own (as in a sandbox) where a private tmpfs
    hides what lies at that path outside: the card added is the one the client sees."""
    serve()
    hidden = tmp_path / "cards"
    hidden.mkdir()
    shutil.copy(write_card(repo, CARD_OUTSIDE), hidden / "card.toml")   # what the broker sees
    inside = write_card(repo, CARD_INSIDE, name="inside.toml")          # what the client sees
    script = textwrap.dedent(f"""\
        mount -t tmpfs none {hidden} || exit 99
        cd {hidden} && cp {inside} card.toml && exec "$@"
    """)
    if AgentProcess(repo, "probe", "executive", argv=["unshare", "-rm", "true"],
                    wait=False).go().code != 0:
        pytest.skip("unprivileged user and mount namespaces are not available here")
    p = AgentProcess(repo, "exec1", "executive", "card", "add", "card.toml", "--json",
                     wrap=["unshare", "-rm", "sh", "-c", script, "sh"], cwd=hidden)
    r = p.go()
    assert r.code == 0, r.err
    assert r.json["card"] == CARD_INSIDE
    assert {c["id"] for c in rows(repo, "SELECT id FROM cards")} == {CARD_INSIDE}
    (ev,) = events(repo, "card_added")
    assert ev.payload["source"] == "card.toml" and ev.actor == "session:exec1"


def test_a_file_the_client_cannot_open_or_that_is_no_file_is_refused(repo, serve, tmp_path):
    serve()
    gone = broker_as(repo, "exec1", "executive", "card", "add", str(tmp_path / "nope.toml"))
    assert gone.code == 2 and "[broker_file]" in gone.err and "No such file" in gone.err
    device = broker_as(repo, "exec1", "executive", "card", "add", "/dev/zero")
    assert device.code == 2 and "not a file" in device.err
    folder = broker_as(repo, "exec1", "executive", "card", "add", str(tmp_path))
    assert folder.code == 2 and "[broker_file]" in folder.err
    assert not rows(repo, "SELECT id FROM cards")


def test_a_review_report_comes_from_the_client_too(repo, serve, tmp_path):
    serve()
    report = tmp_path / "review.md"
    report.write_text("# no verdict block\n")
    r = broker_as(repo, "r1", "reviewer", "review", "verdict", "T-1-a1", "--sha", "0" * 40,
                  "--file", str(report))
    # The report reached the gate (which judged it); the broker read no path.
    assert r.code != 0 and "[broker_" not in r.err, r.err


def test_a_card_template_is_printed_for_an_agent_and_nothing_else_of_card_new(repo, serve,
                                                                              tmp_path):
    """`card new --print` is what the ideation role card names; without it, `card new` opens
    an editor and writes a file, which the broker does for nobody."""
    serve()
    printed = broker_as(repo, "idea1", "ideation", "card", "new", "--print")
    assert printed.code == 0, printed.err
    assert "non_goals" in printed.out
    target = tmp_path / "written-by-the-broker.toml"
    for argv in (("card", "new", "--no-edit", "--file", str(target)), ("card", "new")):
        r = broker_as(repo, "idea1", "ideation", *argv)
        assert r.code == 1 and r.err.strip().endswith("[broker_refused]"), r.err
        assert "--print" in r.err
    assert not target.exists()
    assert not (repo / ".a2a" / "cards").exists()
    assert [e.payload["command"] for e in events(repo, "broker_refused")] == ["card new"] * 2
