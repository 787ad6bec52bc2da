"""A card that needs the user's authorization is claimable only through an assign that quotes a
user input record verbatim; anything else is stored as unauthorized and blocks the claim."""

from __future__ import annotations

import pytest

from a2a_tui.collab import inbox
from a2a_tui.collab.user_input import say
from a2a_tui.errors import A2AError
from tests.support import a2a, write_card

USER_WORDS = "Yes — go ahead and run T-1 tonight, the migration is fine."


def _claim(repo, card="T-1"):
    return a2a("claim", card, "--json", cwd=repo)


def test_an_unauthorized_assign_blocks_the_claim_and_a_verbatim_quote_unblocks_it(
        repo, panes, auth_card):
    ide = panes.open("ide1", "ideation")
    r = ide.run("inbox", "post", "assign", "--card", auth_card, "--text", "run T-1", "--json")
    assert r.code == 0, r.err
    assert r.json["authorized"] is False  # stored, unauthorized
    refused = _claim(repo)
    assert refused.json["error"]["code"] == "unauthorized_assignment"
    assert "I-1" in refused.json["error"]["message"]
    assert a2a("say", USER_WORDS, cwd=repo).code == 0  # U-1
    r = ide.run("inbox", "post", "assign", "--card", auth_card, "--text", "run T-1",
                "--quote", "go ahead and run T-1 tonight", "--user-input", "U-1", "--json")
    assert r.json["authorized"] is True, r.json
    claim = _claim(repo)
    assert claim.code == 0, claim.out
    assert claim.json["attempt"] == "T-1-a1"


QUOTES = {
    "changed case": ("yes — go ahead and run t-1 tonight", "U-1"),
    "cites another record": ("go ahead and run T-1", "U-2"),  # verbatim in U-1 only
    "extra word": ("go ahead and just run T-1 tonight", "U-1"),
    "joined whitespace": ("go ahead  and run T-1", "U-1"),
    "ascii dash for em dash": ("Yes - go ahead and run T-1", "U-1"),
    "from a refusal": ("run T-1", "U-3"),
    "no such record": ("go ahead and run T-1 tonight", "U-99"),
    "an inbox entry as user input": ("run T-1", "I-1"),
    "short fragment": ("Yes", "U-1"),
    "blank": ("   ", "U-1"),
}


@pytest.mark.parametrize("case", sorted(QUOTES))
def test_a_quote_not_found_verbatim_in_a_user_input_is_unauthorized(repo, as_, auth_card, case):
    user = as_()
    say(user, USER_WORDS)  # U-1
    say(user, "Let's talk about T-1 tomorrow.")  # U-2
    say(user, "No, do not run T-1. I said no.", kind="refusal")  # U-3
    ide = as_("ide1", "ideation")
    inbox.post(ide, "revise", "an earlier entry", card=auth_card)  # I-1
    quote, uid = QUOTES[case]
    e = inbox.post(ide, "assign", "run T-1", card=auth_card, quote=quote, user_input=uid)
    assert e.authorized is False, e.authorization_note
    assert _claim(repo).json["error"]["code"] == "unauthorized_assignment"


def test_the_whole_message_may_be_quoted_even_if_short(repo, as_, auth_card):
    say(as_(), "OK")
    e = inbox.post(as_("ide1", "ideation"), "assign", "go", card=auth_card, quote="OK",
                   user_input="U-1")
    assert e.authorized is True


def test_a_new_card_version_needs_a_new_authorization(repo, as_, auth_card):
    say(as_(), USER_WORDS)
    ide = as_("ide1", "ideation")
    inbox.post(ide, "assign", "go", card=auth_card, quote=USER_WORDS, user_input="U-1")
    # The acceptance changes: the user authorized the old contract, not this one.
    card = write_card(repo, extra="needs_user_authorization = true")
    card.write_text(card.read_text().replace("exits non-zero", "exits 3"))
    assert a2a("card", "add", str(card), cwd=repo).code == 0
    assert a2a("card", "ready", "T-1", cwd=repo).code == 0
    refused = _claim(repo).json["error"]
    assert refused["code"] == "unauthorized_assignment" and "version 2" in refused["message"]
    inbox.post(ide, "assign", "go", card=auth_card, quote=USER_WORDS, user_input="U-1")
    assert _claim(repo).code == 0


def test_quote_and_user_input_go_together_and_only_on_an_assign(repo, as_, auth_card):
    ide = as_("ide1", "ideation")
    with pytest.raises(A2AError) as e:
        inbox.post(ide, "assign", "go", card=auth_card, quote="go")
    assert e.value.code == "bad_entry"
    with pytest.raises(A2AError) as e:
        inbox.post(ide, "revise", "go", card=auth_card, quote="go", user_input="U-1")
    assert e.value.code == "bad_entry"
