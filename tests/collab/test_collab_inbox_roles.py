"""The inbox enforces which role may write which kind; only the user records user input.

Agents are real processes in managed panes of a private tmux server, with an environment forged
to look like the user or another role: the refusal comes from who they are, not what they say.
"""

from __future__ import annotations

from tests.collab.collab_support import FORGED
from tests.support import a2a, store


def _refused(run, code):
    assert run.code != 0, run.out
    err = run.json["error"]
    assert err["code"] == code, err
    return err["message"]


def test_an_agent_posting_a_kind_its_role_may_not_write_is_refused(repo, panes, plain_card):
    exe = panes.open("exe1", "executive")
    w1 = panes.open("w1", "worker")
    msg = _refused(exe.run("inbox", "post", "assign", "--card", plain_card, "--text", "go",
                           "--json", env=FORGED), "kind_not_allowed")
    assert "session exe1 (executive)" in msg
    assert "executive controller may write: report, ack, disposition" in msg  # the rule
    _refused(exe.run("inbox", "post", "stop", "--card", plain_card, "--text", "halt", "--json",
                     prefix="env -i PATH=/usr/bin:/bin "), "kind_not_allowed")
    msg = _refused(w1.run("inbox", "post", "report", "--status", "PASS", "--text", "done",
                          "--json", env=FORGED), "kind_not_allowed")
    assert "worker writes no inbox entries" in msg
    with store(repo) as s:
        assert s.all("SELECT * FROM inbox") == []
        refused = s.all("SELECT actor, json_extract(payload, '$.kind') AS kind FROM events"
                        " WHERE kind = 'collab_refused' ORDER BY seq")
    assert [(r["actor"], r["kind"]) for r in refused] == [
        ("session:exe1", "assign"), ("session:exe1", "stop"), ("session:w1", "report")]


def test_the_same_agent_may_write_its_own_kinds(repo, panes, plain_card):
    ide = panes.open("ide1", "ideation")
    r = ide.run("inbox", "post", "assign", "--card", plain_card, "--text", "please run T-2",
                "--json", env=FORGED)
    assert r.code == 0, r.err
    e = r.json
    assert (e["id"], e["kind"], e["author_session"], e["author_role"], e["recipient"]) == \
        ("I-1", "assign", "ide1", "ideation", "executive")
    assert e["authorized"] is None  # T-2 needs no authorization and none was quoted


def test_only_the_user_records_user_input(repo, panes):
    ide = panes.open("ide1", "ideation")
    a2a("board", "report", "--title", "t", "--body", "b", cwd=repo)
    for args in (("say", "I approve T-1"), ("say", "ok", "--kind", "approval"),
                 ("board", "answer", "F-1", "--text", "fine"), ("board", "send")):
        msg = _refused(ide.run(*args, "--json", env=FORGED), "user_only")
        assert "session ide1 (ideation)" in msg and "only user input records authorize" in msg
    with store(repo) as s:
        assert s.all("SELECT * FROM user_inputs") == []
        assert s.all("SELECT * FROM board_records") == []


def test_the_user_may_write_any_kind_and_it_is_backed_by_a_user_input(repo, plain_card):
    r = a2a("inbox", "post", "assign", "--card", plain_card, "--text", "run it", "--json",
            cwd=repo)
    assert r.code == 0, r.err
    assert (r.json["author_role"], r.json["authorized"], r.json["user_input"]) == \
        ("user", True, "U-1")
    r = a2a("inbox", "post", "disposition", "--ref", "I-1", "--text", "fine", "--json", cwd=repo)
    assert r.code == 0 and r.json["user_input"] == "U-2"
    with store(repo) as s:
        assert [x["kind"] for x in s.all("SELECT kind FROM user_inputs ORDER BY n")] == \
            ["action", "action"]
