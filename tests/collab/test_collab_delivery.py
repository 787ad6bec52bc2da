"""New inbox entries, user messages and board answers are queued to the right pane; answers for
one session go back as one prompt, and every answer is its own user input record."""

from __future__ import annotations

from tests.support import a2a, process_alive, store, tmux, wait_until

ASK = ("board", "ask", "--option", "A=yes", "--option", "B=no", "--recommend", "A",
       "--why", "cheaper")


def _dispatches(repo, session=None):
    with store(repo) as s:
        sql = "SELECT n, session, source, actor, text FROM dispatches"
        rows = s.all(sql + (" WHERE session = ?" if session else "") + " ORDER BY n",
                     (session,) if session else ())
    return [dict(r) for r in rows]


def _wakes(repo):
    return list((repo / ".a2a/spool").glob("*.wake"))


def test_a_new_entry_is_queued_to_the_recipients_pane_as_a_short_notice(repo, panes, plain_card):
    ide, exe = panes.open("ide1", "ideation"), panes.open("exe1", "executive")
    r = ide.run("inbox", "post", "assign", "--card", plain_card, "--text",
                "Run T-2 first.\nThen tell me.", "--json")
    assert r.json["delivered"]["session"] == "exe1"
    [d] = _dispatches(repo)
    assert (d["session"], d["source"], d["actor"]) == ("exe1", "inbox", "session:ide1")
    assert d["text"].startswith(f"⟦主控 #{d['n']} · ide1⟧ Inbox I-1: assign from ideation (ide1)")
    assert "Run T-2 first." in d["text"] and "Then tell me." not in d["text"]  # first line only
    assert "a2a inbox show I-1" in d["text"]
    assert _wakes(repo)  # a running orchestrator is told at once
    r = exe.run("inbox", "post", "report", "--status", "BLOCKED", "--ref", "I-1", "--text",
                "the schema is locked", "--json")
    assert r.json["delivered"]["session"] == "ide1"
    # The ideation controller's relay goes to the user: no pane.
    r = ide.run("inbox", "post", "report", "--status", "NO_GO", "--ref", "I-2", "--text",
                "relayed", "--json")
    assert r.json["recipient"] == "user" and r.json["delivered"] is None
    assert [d["session"] for d in _dispatches(repo)] == ["exe1", "ide1"]


def test_the_most_recent_live_session_of_the_role_gets_the_notice(repo, panes, as_):
    from a2a_tui.collab import inbox

    panes.open("exe-old", "executive")
    new = panes.open("exe-new", "executive")
    ide = as_("ide1", "ideation")
    a2a("inbox", "post", "report", "--status", "PASS", "--text", "x", cwd=repo)  # I-1 (user)
    assert inbox.post(ide, "revise", "smaller", ref="I-1").delivered.session == "exe-new"
    tmux(panes.socket, "kill-pane", "-t", new.pane_id)  # its process is gone, not yet "exited"
    wait_until(lambda: not process_alive(new.pid), what="the pane process to end")
    assert inbox.post(ide, "revise", "smaller", ref="I-1").delivered.session == "exe-old"


def test_say_queues_the_users_message_to_the_ideation_pane_with_its_id(repo, panes):
    r = a2a("say", "nobody listens", "--json", cwd=repo)
    assert (r.json["id"], r.json["dispatch"], r.json["to_session"]) == ("U-1", None, None)
    panes.open("ide1", "ideation")
    r = a2a("say", "Ship T-2 today.\nNot T-3.", "--kind", "approval", "--json", cwd=repo)
    assert r.code == 0, r.err
    [d] = _dispatches(repo)
    assert (d["n"], d["session"], d["source"], d["actor"]) == (r.json["dispatch"], "ide1",
                                                               "user", "user")
    assert "U-2" in d["text"] and d["text"].endswith("Ship T-2 today.\nNot T-3.")
    with store(repo) as s:
        u = dict(s.one("SELECT * FROM user_inputs WHERE id = 'U-2'"))
    assert (u["kind"], u["to_session"], u["source"]) == ("approval", "ide1", "cli")
    assert a2a("say", "hi", "--kind", "shout", cwd=repo).code == 2


def test_two_answers_go_back_as_one_prompt_recorded_as_two_user_inputs(repo, panes):
    ide, exe = panes.open("ide1", "ideation"), panes.open("exe1", "executive")
    for title in ("Rename the table?", "Keep the old API?"):
        assert ide.run(*ASK, "--title", title).code == 0
    assert exe.run(*ASK, "--title", "Retry the flaky check?").code == 0
    for q in ("Q-1", "Q-2", "Q-3"):
        r = a2a("board", "answer", q, "--adopt", "--hold", "--json", cwd=repo)
        assert r.json["sent"] == [] and r.json["held"] is True
    assert _dispatches(repo) == []
    sent = a2a("board", "send", "--json", cwd=repo).json["sent"]
    assert sorted((s["session"], tuple(s["user_inputs"])) for s in sent) == [
        ("exe1", ("U-3",)), ("ide1", ("U-1", "U-2"))]
    [to_ide] = _dispatches(repo, "ide1")
    assert to_ide["source"] == "board" and to_ide["actor"] == "user"
    for part in ("answered 2 of your board items", "Q-1", "Rename the table?", "[U-1]", "Q-2",
                 "[U-2]", "A: yes (the recommendation)"):
        assert part in to_ide["text"]
    with store(repo) as s:
        inputs = s.all("SELECT id, kind, ref FROM user_inputs ORDER BY n")
        delivered = s.all("SELECT record, dispatch FROM deliveries ORDER BY record")
    assert [(u["id"], u["kind"], u["ref"]) for u in inputs] == [
        ("U-1", "choice", "Q-1"), ("U-2", "choice", "Q-2"), ("U-3", "choice", "Q-3")]
    assert {d["record"]: d["dispatch"] for d in delivered} == {
        "U-1": to_ide["n"], "U-2": to_ide["n"], "U-3": _dispatches(repo, "exe1")[0]["n"]}
    # Nothing is sent twice.
    assert a2a("board", "send", "--json", cwd=repo).json["sent"] == []
    assert len(_dispatches(repo)) == 2


def test_an_answer_sent_at_once_takes_the_held_ones_for_that_session_along(repo, panes):
    ide = panes.open("ide1", "ideation")
    for title in ("One?", "Two?"):
        ide.run(*ASK, "--title", title)
    a2a("board", "answer", "Q-1", "--option", "B", "--hold", cwd=repo)
    r = a2a("board", "answer", "Q-2", "--text", "your call", "--json", cwd=repo)
    assert [s["user_inputs"] for s in r.json["sent"]] == [["U-1", "U-2"]]
    [d] = _dispatches(repo)
    assert "B: no" in d["text"] and "your call" in d["text"]


def test_answers_for_a_session_that_is_gone_stay_pending(repo, panes):
    ide = panes.open("ide1", "ideation")
    ide.run(*ASK, "--title", "One?")
    tmux(panes.socket, "kill-pane", "-t", ide.pane_id)
    wait_until(lambda: not process_alive(ide.pid), what="the pane process to end")
    r = a2a("board", "answer", "Q-1", "--adopt", "--json", cwd=repo)
    assert r.json["sent"][0]["dispatch"] is None and "not live" in r.json["sent"][0]["why"]
    assert _dispatches(repo) == []
    with store(repo) as s:
        assert s.all("SELECT * FROM deliveries") == []
