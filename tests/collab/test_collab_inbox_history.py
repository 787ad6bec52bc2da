"""`a2a inbox list --json` shows the full history: acks and dispositions are entries of their own,
and an entry's state is derived from them, never by editing it."""

from __future__ import annotations

import pytest

from a2a_tui.collab import inbox
from a2a_tui.errors import A2AError
from tests.support import a2a, store

FIELDS = {"id", "kind", "author_session", "author_role", "status", "authorized", "ref",
          "recipient", "card_id", "state", "text"}


def test_inbox_list_json_shows_entries_acks_and_dispositions_as_records(repo, as_, auth_card,
                                                                        plain_card):
    ide, exe = as_("ide1", "ideation"), as_("exe1", "executive")
    inbox.post(ide, "assign", "run T-2", card=plain_card)                     # I-1
    inbox.post(exe, "ack", "on it", ref="I-1")                                # I-2
    inbox.post(exe, "report", "T-2 integrated", card=plain_card, status="PASS", ref="I-1")  # I-3
    inbox.post(ide, "disposition", "relayed to the user", ref="I-3")          # I-4
    inbox.post(ide, "assign", "run T-1", card=auth_card)                      # I-5
    rows = a2a("inbox", "list", "--json", cwd=repo).json
    assert [r["id"] for r in rows] == ["I-1", "I-2", "I-3", "I-4", "I-5"]
    for r in rows:   # the table's columns in its order, then what is derived
        assert FIELDS <= set(r), FIELDS - set(r)
        assert list(r) == ["id", "n", "kind", "author_session", "author_role", "recipient",
                           "card_id", "card_version", "status", "ref", "text", "quote",
                           "user_input", "authorized", "authorization_note", "seq", "ts_ns",
                           "state", "responses", "delivered"]
    by = {r["id"]: r for r in rows}
    assert (by["I-1"]["state"], by["I-1"]["responses"]) == ("acked", ["I-2", "I-3"])
    assert (by["I-2"]["kind"], by["I-2"]["ref"], by["I-2"]["recipient"]) == ("ack", "I-1",
                                                                               "ideation")
    assert (by["I-3"]["status"], by["I-3"]["state"]) == ("PASS", "disposed")
    assert (by["I-4"]["author_session"], by["I-4"]["author_role"], by["I-4"]["recipient"]) == \
        ("ide1", "ideation", "executive")
    assert by["I-5"]["authorized"] is False and by["I-1"]["authorized"] is None
    shown = a2a("inbox", "show", "I-3", "--json", cwd=repo).json
    assert [x["id"] for x in shown["responses"]] == ["I-4"]
    assert "UNAUTHORIZED" in a2a("inbox", "list", cwd=repo).out


def test_bad_references_and_shapes_are_refused_and_write_nothing(repo, as_, plain_card):
    ide = as_("ide1", "ideation")
    cases = [
        (dict(kind="ack", text="ok"), "bad_entry"),                           # no --ref
        (dict(kind="ack", text="ok", ref="I-9"), "unknown_ref"),
        (dict(kind="assign", text="go"), "bad_entry"),                        # no --card
        (dict(kind="assign", text="go", card="NOPE"), "unknown_card"),
        (dict(kind="stop", text="halt"), "bad_entry"),
        (dict(kind="assign", text="  \n", card=plain_card), "empty_text"),
        (dict(kind="shout", text="hey"), "bad_entry"),
    ]
    for kw, code in cases:
        with pytest.raises(A2AError) as e:
            inbox.post(ide, kw.pop("kind"), kw.pop("text"), **kw)
        assert e.value.code == code, (code, e.value.message)
    with store(repo) as s:
        assert s.all("SELECT * FROM inbox") == []
        assert s.one("SELECT value FROM counters WHERE name = 'I'") is None
    r = a2a("inbox", "show", "I-1", cwd=repo)
    assert r.code == 1 and "[unknown_entry]" in r.err
