"""`a2a card add|show|ready|list`: cards enter the store only whole and valid."""

# Imports inside functions: the precheck's parser and the gate rules (pydantic) load only when
# a card is made ready, not for every card command.

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.gate.cards.schema import Card, load_card
from a2a_tui.gate.cards.weakening import weakenings
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.ledger.records import CardRecord
from a2a_tui.gate.model import ACTIVE, CardState, CommandResult, contract_lines
from a2a_tui.gate.roles import require_role
from a2a_tui.gate.views import card_status
from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads import attempts as pa
from a2a_tui.payloads import verify as pv
from a2a_tui.queue import wake


@dataclass(frozen=True)
class CardAdded(CommandResult):
    card: str
    version: int
    digest: str
    changed: bool                  # False: the file matched the card's current version
    state: CardState
    filled: tuple[str, ...]        # what the gate filled in (id, title, source_ticket)
    title: str
    event: str | None = None       # card_added | card_versioned | card_revised (when changed)

    def to_json(self) -> JsonObject:
        out = super().to_json()
        if self.event is None:
            del out["event"]
        return out

    def verb(self) -> str:
        """What happened, in a word: unchanged, added, versioned, revised."""
        return (self.event or "").replace("card_", "") if self.changed else "unchanged"

    def filled_note(self) -> str:
        return f"; filled in: {', '.join(self.filled)}" if self.filled else ""


@dataclass(frozen=True)
class CardReady(CommandResult):
    card: str
    version: int
    state: CardState
    changed: bool                  # False: it was ready already


def add_card(g: GateContext, path: Path, *, source_ticket: str | None = None) -> CardAdded:
    """Validate a card file and store it: a new card, a new version, or no change at all.

    What the author left out, the gate fills in (seed 003): the id (T-<n>), the title (the
    goal's first line, cards.py) and the source ticket (`source_ticket` when given, else
    `source_of` the caller); `filled` in the answer and the event names them."""
    require_role(g, "card add")
    card = load_card(path)
    ledger.require_intact(g, card.id or None)
    _refuse_weakening(g, card)
    filled = [] if gives_title(path) else ["title"]
    with g.store.write() as tx:
        if not card.id:
            filled.append("id")
            card = card.model_copy(update={"id": f"T-{tx.next_counter('card')}"})
            while tx.one("SELECT 1 FROM cards WHERE id = ?", (card.id,)):
                card = card.model_copy(update={"id": f"T-{tx.next_counter('card')}"})
        row = tx.one("SELECT * FROM cards WHERE id = ?", (card.id,))
        if not card.source_ticket:
            filled.append("source_ticket")
            kept = CardRecord.of(row).body.get("source_ticket") if row is not None else None
            card = card.model_copy(update={
                "source_ticket": kept or source_ticket or source_of(tx, g.caller)})
        body, digest, contract = card.body_json(), card.digest(), card.contract_digest()
        if row is not None and row["digest"] == digest:
            return CardAdded(card.id, row["version"], digest, False, row["state"],
                             tuple(filled), card.title)
        if row is None:
            version, state, kind = 1, CardState.DRAFT, ledger.GateEvent.CARD_ADDED
        elif row["contract_digest"] != contract:
            # Scope or acceptance changed: a new version, and it must be confirmed ready again.
            version, state = row["version"] + 1, CardState.DRAFT
            kind = ledger.GateEvent.CARD_VERSIONED
        else:
            version, state, kind = row["version"], row["state"], ledger.GateEvent.CARD_REVISED
        # The card's row (and a new version's) is written by the fold (gate/ledger/).
        ledger.record(tx, kind, actor=g.caller.actor, task=card.id, session=g.caller.session,
                      payload=pa.CARD_BODY[kind](version=version, digest=digest,
                                                 source=str(path), card=body, filled=filled))
    return CardAdded(card.id, version, digest, True, state, tuple(filled), card.title, kind)


def source_of(tx, caller) -> str:
    """The source ticket of a card its author did not give one: for a managed session (the
    ideation controller), the newest user input delivered to it — what the user said that the
    card answers; else who wrote it (`user`, `session:<id>`)."""
    if caller.session:
        row = tx.one("SELECT id FROM user_inputs WHERE to_session = ? ORDER BY n DESC LIMIT 1",
                     (caller.session,))
        if row is not None:
            return row["id"]
    return caller.actor


def gives_title(path: Path) -> bool:
    """Whether the card file gives a title of its own (else the gate fills it from the goal)."""
    import tomllib

    try:
        return bool(str(tomllib.loads(path.read_text(encoding="utf-8")).get("title", "")).strip())
    except (OSError, ValueError):
        return True


def _refuse_weakening(g: GateContext, card: Card) -> None:
    """A session's new version that weakens the checks of a card under way (an active
    attempt) is refused, and the refusal recorded: that is the user's decision
    (gate/cards/weakening.py)."""
    row = g.store.one("SELECT * FROM cards WHERE id = ?", (card.id,)) if card.id else None
    if g.caller.is_user or row is None:
        return
    active = g.store.one(f"SELECT id FROM attempts WHERE card_id = ? AND state IN"
                    f" ({','.join('?' * len(ACTIVE))}) ORDER BY n DESC LIMIT 1",
                    (row["id"], *ACTIVE))
    if active is None:
        return
    found = weakenings(Card.model_validate(CardRecord.of(row).body), card)
    if not found:
        return
    message = (f"card {row['id']} is under way ({active['id']}): a version that weakens its"
               f" checks is the user's to make ({'; '.join(found)}); {g.caller.describe()}"
               " may not (ask the user on the board)")
    with g.store.write() as tx:
        tx.append("card_weakening_refused", actor=g.caller.actor, task=row["id"],
                  attempt=active["id"], session=g.caller.session,
                  payload=pa.CardWeakeningRefused(version=row["version"], weakens=found,
                                                  message=message))
    raise A2AError("card_weakened", message, details={"weakens": found,
                                                      "attempt": active["id"]})


def ready_card(g: GateContext, card_id: str) -> CardReady:
    """Confirm the card's current version as ready to be claimed."""
    require_role(g, "card ready")
    ledger.require_intact(g, card_id)
    card = g.card(card_id)
    if card.state != CardState.READY:
        contract_precheck(g, card)
    with g.store.write() as tx:
        row = tx.one("SELECT * FROM cards WHERE id = ?", (card_id,))
        if row["state"] == CardState.READY:
            return CardReady(card_id, row["version"], CardState.READY, False)
        ledger.record(tx, ledger.GateEvent.CARD_READY, actor=g.caller.actor, task=card_id,
                      session=g.caller.session,
                      payload=pa.CardReady(version=row["version"], digest=row["digest"]))
    return CardReady(card_id, row["version"], CardState.READY, True)


def contract_precheck(g: GateContext, row: CardRecord) -> None:
    """Refuse (contract_invalid, recorded) a card whose checks cannot hold against the commit a
    claim would start from: a program missing or not allowed, a named file absent, a timeout
    above the gate's maximum (gate/cards/precheck.py)."""
    from a2a_tui.gate import escalate
    from a2a_tui.gate.cards import gate_rules, precheck
    from a2a_tui.gate.cards.gate_rules import environment

    card = Card.model_validate(row.body)
    rules = gate_rules.current(g).rules
    head = g.git.resolve_commit(g.target_ref())
    if head is None:
        raise A2AError("no_target", f"target branch {g.config.target_branch!r} does not exist")
    path = environment(rules.allows_variable, card.env).get("PATH", os.defpath)
    found = precheck.problems(card, rules, precheck.Runner(g.git, head, path))
    if not found:
        return
    with g.store.write() as tx:
        item, queued = escalate.card_contract_invalid(tx, row.id, row.version, found)
        ledger.record(tx, ledger.GateEvent.CONTRACT_INVALID, actor=g.caller.actor, task=row.id,
                      session=g.caller.session,
                      payload=pv.ContractInvalid(where="card ready", card=row.id,
                                                 version=row.version, start_commit=head,
                                                 problems=found, item=item))
    if queued:
        wake(g.repo)
    raise A2AError("contract_invalid", f"card {row.id} v{row.version} cannot be ready:"
                   f" its contract does not hold at {head[:12]}: " + "; ".join(found),
                   details={"problems": found})


@dataclass(frozen=True)
class CardShown(CommandResult):
    """A card as `a2a card show` gives it: the log's version, state and fence, its fields, and
    its attempts (id, state, fence, card_version, submitted_sha each)."""

    card: str
    version: int
    digest: str
    state: CardState
    fence: int
    body: JsonObject
    attempts: tuple[JsonObject, ...]


def show_card(g: GateContext, card_id: str) -> CardShown:
    row = g.card(card_id)
    attempts = g.store.all(
        "SELECT id, state, fence, card_version, submitted_sha FROM attempts WHERE card_id=?"
        " ORDER BY n", (card_id,))
    return CardShown(card_id, row.version, row.digest, row.state, row.fence, row.body,
                     tuple(dict(a) for a in attempts))


def list_cards(g: GateContext) -> list[JsonObject]:
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


# --- card files a person edits (`a2a card new|edit`, the workbench's N and e) ------------------
def cards_dir(repo) -> Path:
    """Where `card new` and `card edit` keep the files they open (`.a2a/cards/`)."""
    return repo.a2a_dir / "cards"


def write_draft(repo, title: str = "", path: Path | None = None,
                project: dict | None = None) -> tuple[Path, str]:
    """The commented template of a new card in a file (`.a2a/cards/new-<n>.toml` unless
    `path`; `project`: the confirmed profile it names); a file that exists already is kept as
    it is (an earlier draft, edited on). Returns the file and the template's text (to tell an
    untouched draft)."""
    from a2a_tui.gate.cards.cardfile import template

    text = template(title, project)
    if path is None:
        folder = cards_dir(repo)
        folder.mkdir(parents=True, exist_ok=True)
        n = 1
        while (folder / f"new-{n}.toml").exists():
            n += 1
        path = folder / f"new-{n}.toml"
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    return path, text


def kept_draft(repo) -> Path | None:
    """The newest `new-<n>.toml` draft left in `.a2a/cards/` (one the gate refused and the
    user kept): what the workbench's `N` opens again before a new template."""
    folder = cards_dir(repo)
    drafts = [(int(p.stem[4:]), p) for p in folder.glob("new-*.toml")
              if p.stem[4:].isdigit() and p.is_file()] if folder.is_dir() else []
    return max(drafts)[1] if drafts else None


def write_edit(g: GateContext, card_id: str) -> tuple[Path, str]:
    """The card's current version as a file to edit (`.a2a/cards/<id>.toml`, written afresh
    from the store: the store is what counts). Returns the file and its text."""
    from a2a_tui.gate.cards.cardfile import render

    body = g.card(card_id).body
    folder = cards_dir(g.repo)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{card_id}.toml"
    text = render(body)
    path.write_text(text, encoding="utf-8")
    return path, text


def settle_draft(repo, path: Path, card_id: str) -> Path:
    """A `new-<n>.toml` draft that became card `card_id` is kept as `<card_id>.toml`."""
    target = cards_dir(repo) / f"{card_id}.toml"
    if path.parent == cards_dir(repo) and path.name.startswith("new-"):
        path.replace(target)
        return target
    return path


# --- a worker's assignment: the first prompt of a session started on an attempt ---------------
SHA_PLACEHOLDER = "<SHA>"


def assignment(g: GateContext, attempt_id: str) -> str:
    """What a worker started on an attempt is told first: where it works, the card, the checks
    the gate runs, and, as the last line, the command that delivers its commit (with the
    attempt's fence and card version filled in, the SHA left to it)."""
    att = g.attempt(attempt_id)
    row = g.store.one("SELECT body FROM card_versions WHERE card_id = ? AND version = ?",
                      (att.card_id, att.card_version))
    b = json.loads(row["body"])
    checks = "; ".join(f"{c['name']}: {c['command']}" for c in b["checks"])
    return "\n".join([
        f"Your task: attempt {attempt_id} of card {att.card_id} (version"
        f" {att.card_version}), in the folder {att.worktree} (branch {att.branch},"
        f" from {att.start_commit[:12]}). You are its sole writer.",
        "",
        f"Card {att.card_id}: {b['title']} (change nothing outside its allowed paths)",
        *contract_lines(b),
        *(["Hints (from the card):", *b["hints"]] if b.get("hints") else []),
        f"The gate's checks on your commit: {checks}",
        "",
        "When it is done, commit in that folder, then deliver the commit, its full 40-hex SHA"
        f" put for {SHA_PLACEHOLDER} (saying you are done is not a delivery):",
        f"a2a submit {attempt_id} --sha {SHA_PLACEHOLDER} --card-version {att.card_version}"
        f" --fence {att.fence}",
    ])
