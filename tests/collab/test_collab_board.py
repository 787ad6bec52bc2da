"""The board: protected items are the user's to close, nothing is ever deleted, and the full
history (items, answers, closures) is listed as separate records."""

from __future__ import annotations

import sqlite3

import pytest

from a2a_tui.collab import board, inbox
from a2a_tui.collab.roles import PROTECTED_CATEGORIES
from a2a_tui.errors import A2AError
from tests.collab.collab_support import FORGED
from tests.support import a2a, store

OPTS = ["A=keep SQLite", "B=move to files"]


def _refused(fn, *args, code, **kw):
    with pytest.raises(A2AError) as e:
        fn(*args, **kw)
    assert e.value.code == code, e.value.message
    return e.value.message


def test_protected_items_cannot_be_closed_by_agents_but_can_by_the_user(repo, as_):
    w, exe, ide, user = (as_("w1", "worker"), as_("exe1", "executive"),
                         as_("ide1", "ideation"), as_())
    blocking = board.report(w, "CI is red on main", "since 4f2a", blocking=True).id
    by_cat = [board.report(w, f"a {c} problem", "details", category=c).id
              for c in PROTECTED_CATEGORIES]
    question = board.ask(ide, "Drop the old table?", OPTS, "A", "it is unused",
                         category="irreversible").id
    plain = board.report(w, "typo in README", "teh").id
    for item in (blocking, *by_cat, question):
        for agent in (exe, ide):
            msg = _refused(board.close, agent, item, "not a problem", code="protected_item")
            assert "only the user can close it" in msg
    # Workers and reviewers close nothing, protected or not.
    _refused(board.close, w, plain, "fixed it", code="close_not_allowed")
    _refused(board.close, as_("r1", "reviewer"), plain, "fine", code="close_not_allowed")
    # A controller closes an unprotected item, with a reason; the user closes the rest.
    assert board.close(exe, plain, "not a problem: it is a quote").status == "closed"
    _refused(board.close, exe, plain, "again", code="already_closed")
    for item in (blocking, *by_cat, question):
        assert board.close(user, item, "handled").status == "closed"
    with store(repo) as s:
        closes = s.all("SELECT item_id, role FROM board_records WHERE kind = 'close'")
    assert sorted((c["item_id"], c["role"]) for c in closes) == sorted(
        [(plain, "executive")] + [(i, "user") for i in (blocking, *by_cat, question)])


def test_an_agent_in_a_pane_cannot_close_a_protected_item(repo, panes):
    exe = panes.open("exe1", "executive")
    a2a("board", "report", "--title", "rm -rf on prod?", "--body", "b", "--category",
        "irreversible", cwd=repo)
    r = exe.run("board", "close", "F-1", "--reason", "not a problem", "--json", env=FORGED)
    assert r.json["error"]["code"] == "protected_item"
    assert a2a("board", "close", "F-1", "--reason", "checked", cwd=repo).code == 0


def test_a_close_needs_a_reason(repo, as_):
    item = board.report(as_(), "x", "y").id
    _refused(board.close, as_("exe1", "executive"), item, "  ", code="empty_text")


@pytest.mark.parametrize("table", ["board_items", "board_records", "inbox", "user_inputs",
                                   "deliveries"])
def test_nothing_can_be_deleted_or_edited(repo, as_, table):
    user = as_()
    board.ask(as_("ide1", "ideation"), "Q?", OPTS, "A", "why")
    board.answer(user, "Q-1", adopt=True, hold=True)
    board.report(user, "finding", "body")
    board.close(user, "F-1", "done")
    inbox.post(user, "report", "r", status="PASS")
    with store(repo) as s:
        if table == "deliveries":  # no pane in this test: a row as a delivery writes it
            s.conn.execute("INSERT INTO deliveries(record, session, dispatch, seq, ts_ns)"
                           " VALUES ('U-1', 'ide1', 1, 1, 1)")
        assert s.one(f"SELECT COUNT(*) FROM {table}")[0] > 0
        for sql in (f"DELETE FROM {table}", f"UPDATE {table} SET ts_ns = 0"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                s.conn.execute(sql)
    assert a2a("board", "delete", "F-1", cwd=repo).code == 2  # and no command for it


def test_only_controllers_ask_and_questions_are_well_formed(repo, as_):
    ide = as_("ide1", "ideation")
    msg = _refused(board.ask, as_("w1", "worker"), "Q?", OPTS, "A", "why", code="ask_not_allowed")
    assert "a2a board report" in msg
    _refused(board.ask, ide, "Q?", ["A=only one"], "A", "why", code="bad_option")
    _refused(board.ask, ide, "Q?", ["A=x", "A=y"], "A", "why", code="bad_option")
    _refused(board.ask, ide, "Q?", OPTS, "C", "why", code="bad_option")
    _refused(board.ask, ide, "Q?", ["A x", "B=y"], "A", "why", code="bad_option")
    _refused(board.ask, ide, "Q?", OPTS, "A", "", code="empty_text")
    _refused(board.report, ide, "t", "b", category="vibes", code="bad_category")
    with store(repo) as s:
        assert s.all("SELECT * FROM board_items") == []


def test_answers_are_user_inputs_and_status_is_derived(repo, as_):
    ide, user = as_("ide1", "ideation"), as_()
    q = board.ask(ide, "Which store?", OPTS, "A", "one file, transactions")
    assert (q.status, q.asked_by, q.protected) == ("open", "ide1", False)
    _refused(board.answer, user, "Q-1", option="C", code="bad_answer")
    _refused(board.answer, user, "Q-1", code="bad_answer")
    a = board.answer(user, "Q-1", adopt=True, text="and keep WAL on", hold=True)
    assert (a.item.status, a.user_input) == ("answered", "U-1")
    f = board.report(as_("w1", "worker"), "slow test", "12s")
    _refused(board.answer, user, f.id, option="A", code="bad_answer")
    board.close(user, "Q-1", "decided")
    _refused(board.answer, user, "Q-1", text="more", code="item_closed")
    with store(repo) as s:
        u = dict(s.one("SELECT * FROM user_inputs WHERE id = 'U-1'"))
    assert (u["kind"], u["option_key"], u["ref"], u["to_session"]) == ("choice", "A", "Q-1", "ide1")
    assert u["text"] == "A: keep SQLite (the recommendation)\nand keep WAL on"


def test_board_list_json_shows_items_answers_and_closures_as_separate_records(repo, as_):
    ide, user = as_("ide1", "ideation"), as_()
    board.ask(ide, "Which store?", OPTS, "A", "why")
    board.report(as_("w1", "worker"), "flaky", "sometimes", blocking=True)
    board.answer(user, "Q-1", option="B", hold=True)
    board.close(user, "F-1", "fixed upstream")
    data = a2a("board", "list", "--json", cwd=repo).json
    items = {i["id"]: i for i in data["items"]}
    for i in items.values():   # the table's columns in its order, then the derived status
        assert list(i) == ["id", "kind", "title", "body", "options", "recommend", "why",
                           "blocking", "category", "protected", "asked_by", "actor", "role",
                           "task", "attempt", "seq", "ts_ns", "status"]
    assert items["Q-1"]["options"] == [{"key": "A", "text": "keep SQLite"},
                                       {"key": "B", "text": "move to files"}]
    assert list(data["records"][0]) == [
        "seq", "item_id", "kind", "user_input", "reason", "actor", "session", "role", "ts_ns",
        "input_kind", "input_text", "option_key", "delivered_to", "dispatch"]
    assert (items["Q-1"]["kind"], items["Q-1"]["status"], items["Q-1"]["asked_by"]) == \
        ("question", "answered", "ide1")
    assert (items["F-1"]["kind"], items["F-1"]["status"], items["F-1"]["protected"],
            items["F-1"]["asked_by"]) == ("finding", "closed", True, "w1")
    recs = [(r["item_id"], r["kind"]) for r in data["records"]]
    assert recs == [("Q-1", "answer"), ("F-1", "close")]
    assert data["records"][0]["user_input"] == "U-1"
    assert data["records"][1]["reason"] == "fixed upstream"
    shown = a2a("board", "show", "F-1", cwd=repo)
    assert "closed by user: fixed upstream" in shown.out


def test_picking_the_recommended_option_by_its_key_is_adopting_it(repo, as_):
    """The ★ option picked by its key (the workbench's `1`, `--option A`) is the recommendation
    adopted, as `a`/`--adopt` is (issue 37); another option is not."""
    ide, user = as_("ide1", "ideation"), as_()
    board.ask(ide, "Which store?", OPTS, "A", "one file, transactions")
    board.ask(ide, "Which format?", OPTS, "A", "one file")
    board.answer(user, "Q-1", option="A", hold=True)
    board.answer(user, "Q-2", option="B", hold=True)
    with store(repo) as s:
        said = {e.payload["id"]: e.payload["adopted"] for e in s.events(
            kinds=["board_item_answered"])}
        text = s.one("SELECT text FROM user_inputs WHERE ref = 'Q-1'")["text"]
    assert said == {"Q-1": True, "Q-2": False}
    assert text == "A: keep SQLite (the recommendation)"
