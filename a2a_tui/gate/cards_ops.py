"""`a2a card add|show|ready|list`: cards enter the store only whole and valid."""

# Imports inside functions: the precheck's parser and the gate rules (pydantic) load only when
# a card is made ready, not for every card command.

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.gate.cards import Card, load_card
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.model import ACTIVE, card_body
from a2a_tui.gate.roles import require_role
from a2a_tui.gate.views import card_status
from a2a_tui.gate.weakening import weakenings
from a2a_tui.queue import wake


def add_card(g: GateContext, path: Path) -> dict[str, Any]:
    """Validate a card file and store it: a new card, a new version, or no change at all."""
    require_role(g, "card add")
    card = load_card(path)
    ledger.require_intact(g, card.id or None)
    _refuse_weakening(g, card)
    with g.store.write() as tx:
        if not card.id:
            card = card.model_copy(update={"id": f"T-{tx.next_counter('card')}"})
            while tx.one("SELECT 1 FROM cards WHERE id = ?", (card.id,)):
                card = card.model_copy(update={"id": f"T-{tx.next_counter('card')}"})
        body, digest, contract = card.body(), card.digest(), card.contract_digest()
        row = tx.one("SELECT * FROM cards WHERE id = ?", (card.id,))
        if row is not None and row["digest"] == digest:
            return {"card": card.id, "version": row["version"], "digest": digest, "changed": False,
                    "state": row["state"]}
        if row is None:
            version, state, kind = 1, "draft", "card_added"
        elif row["contract_digest"] != contract:
            # Scope or acceptance changed: a new version, and it must be confirmed ready again.
            version, state, kind = row["version"] + 1, "draft", "card_versioned"
        else:
            version, state, kind = row["version"], row["state"], "card_revised"
        seq = tx.append(kind, actor=g.caller.actor, task=card.id, session=g.caller.session,
                        payload={"version": version, "digest": digest, "source": str(path),
                                 "card": body})
        if row is None:
            tx.execute(
                "INSERT INTO cards(id, version, digest, contract_digest, state, fence, title, body,"
                " source_path, updated_seq) VALUES (?,?,?,?,?,0,?,?,?,?)",
                (card.id, version, digest, contract, state, card.title, json.dumps(body),
                 str(path), seq),
            )
        else:
            tx.execute(
                "UPDATE cards SET version=?, digest=?, contract_digest=?, state=?, title=?, body=?,"
                " source_path=?, updated_seq=? WHERE id=?",
                (version, digest, contract, state, card.title, json.dumps(body), str(path), seq,
                 card.id),
            )
        if row is None or version != row["version"]:
            tx.execute(
                "INSERT INTO card_versions(card_id, version, digest, body, seq) VALUES (?,?,?,?,?)",
                (card.id, version, digest, json.dumps(body), seq),
            )
    return {"card": card.id, "version": version, "digest": digest, "changed": True, "state": state,
            "event": kind}


def _refuse_weakening(g: GateContext, card: Card) -> None:
    """A session's new version that weakens the checks of a card under way (an active
    attempt) is refused, and the refusal recorded: that is the user's decision
    (gate/weakening.py)."""
    row = g.store.one("SELECT * FROM cards WHERE id = ?", (card.id,)) if card.id else None
    if g.caller.is_user or row is None:
        return
    active = g.store.one(f"SELECT id FROM attempts WHERE card_id = ? AND state IN"
                    f" ({','.join('?' * len(ACTIVE))}) ORDER BY n DESC LIMIT 1",
                    (row["id"], *ACTIVE))
    if active is None:
        return
    found = weakenings(Card.model_validate(card_body(row)), card)
    if not found:
        return
    message = (f"card {row['id']} is under way ({active['id']}): a version that weakens its"
               f" checks is the user's to make ({'; '.join(found)}); {g.caller.describe()}"
               " may not (ask the user on the board)")
    with g.store.write() as tx:
        tx.append("card_weakening_refused", actor=g.caller.actor, task=row["id"],
                  attempt=active["id"], session=g.caller.session,
                  payload={"version": row["version"], "weakens": found, "message": message})
    raise A2AError("card_weakened", message, details={"weakens": found,
                                                      "attempt": active["id"]})


def ready_card(g: GateContext, card_id: str) -> dict[str, Any]:
    """Confirm the card's current version as ready to be claimed."""
    require_role(g, "card ready")
    ledger.require_intact(g, card_id)
    row = g.card(card_id)
    if row["state"] != "ready":
        contract_precheck(g, row)
    with g.store.write() as tx:
        row = tx.one("SELECT * FROM cards WHERE id = ?", (card_id,))
        if row["state"] == "ready":
            return {"card": card_id, "version": row["version"], "state": "ready", "changed": False}
        seq = tx.append("card_ready", actor=g.caller.actor, task=card_id, session=g.caller.session,
                        payload={"version": row["version"], "digest": row["digest"]})
        tx.execute("UPDATE cards SET state='ready', updated_seq=? WHERE id=?", (seq, card_id))
    return {"card": card_id, "version": row["version"], "state": "ready", "changed": True}


def contract_precheck(g: GateContext, row) -> None:
    """Refuse (contract_invalid, recorded) a card whose checks cannot hold against the commit a
    claim would start from: a program missing or not allowed, a named file absent, a timeout
    above the gate's maximum (gate/verify/precheck.py)."""
    from a2a_tui.gate import escalate, gate_rules
    from a2a_tui.gate.verify import precheck
    from a2a_tui.gate.verify.run import environment

    card = Card.model_validate(card_body(row))
    rules = gate_rules.current(g).rules
    head = g.git.resolve_commit(g.target_ref())
    if head is None:
        raise A2AError("no_target", f"target branch {g.config.target_branch!r} does not exist")
    path = environment(rules.allows_variable, card.env).get("PATH", os.defpath)
    found = precheck.problems(card, rules, precheck.Runner(g.git, head, path))
    if not found:
        return
    with g.store.write() as tx:
        item, queued = escalate.card_contract_invalid(tx, row["id"], row["version"], found)
        tx.append("contract_invalid", actor=g.caller.actor, task=row["id"],
                  session=g.caller.session,
                  payload={"where": "card ready", "card": row["id"], "version": row["version"],
                           "start_commit": head, "problems": found, "item": item})
    if queued:
        wake(g.repo)
    raise A2AError("contract_invalid", f"card {row['id']} v{row['version']} cannot be ready:"
                   f" its contract does not hold at {head[:12]}: " + "; ".join(found),
                   details={"problems": found})


def show_card(g: GateContext, card_id: str) -> dict[str, Any]:
    row = g.card(card_id)
    attempts = g.store.all(
        "SELECT id, state, fence, card_version, submitted_sha FROM attempts WHERE card_id=?"
        " ORDER BY n", (card_id,))
    return {
        "card": card_id, "version": row["version"], "digest": row["digest"], "state": row["state"],
        "fence": row["fence"], "body": card_body(row),
        "attempts": [dict(a) for a in attempts],
    }


def list_cards(g: GateContext) -> list[dict[str, Any]]:
    rows = g.store.all(
        "SELECT c.id, c.title, c.version, c.state, c.fence,"
        " (SELECT a.id FROM attempts a WHERE a.card_id = c.id ORDER BY a.n DESC LIMIT 1)"
        " AS attempt,"
        " (SELECT a.state FROM attempts a WHERE a.card_id = c.id ORDER BY a.n DESC LIMIT 1)"
        "   AS attempt_state"
        " FROM cards c ORDER BY c.id COLLATE natural_ids")
    return [{**r, "status": card_status(r["state"], r["attempt_state"])} for r in map(dict, rows)]


def card_at_version(g: GateContext, card_id: str, version: int) -> Card:
    row = g.store.one("SELECT body FROM card_versions WHERE card_id=? AND version=?",
                      (card_id, version))
    if row is None:
        raise A2AError("unknown_card", f"card {card_id!r} has no version {version}")
    return Card.model_validate(json.loads(row["body"]))
