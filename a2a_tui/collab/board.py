"""The board: questions to the user and findings anyone reports; nothing is deleted.

Items (Q-<n>, F-<n>) are never edited; answers and closures are records that point at them, and
an item's status is derived from those. Answers are user inputs; they are recorded at once and
delivered to the asking session's pane, all pending answers for one session as ONE prompt.
"""

from __future__ import annotations

import json
import re
import time

from a2a_tui.collab.context import Collab, records_refusals, require_text
from a2a_tui.collab.delivery import deliver_in_tx, session_is_live
from a2a_tui.collab.items import Answered, Board, BoardItem, BoardRecord, ItemShown, Sent
from a2a_tui.collab.roles import BOARD_ASKERS, BOARD_CLOSERS, CATEGORIES, PROTECTED_CATEGORIES
from a2a_tui.collab.user_input import record_user_input_in_tx, require_user
from a2a_tui.errors import A2AError
from a2a_tui.payloads.collab import BoardItemAnswered, BoardItemClosed, BoardItemPosted
from a2a_tui.queue import wake

OPTION_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,15}$")


def is_protected(blocking: bool, category: str) -> bool:
    """Only the user may close a blocking item or one in a protected category."""
    return bool(blocking) or category in PROTECTED_CATEGORIES


def post_finding_in_tx(tx, *, title: str, body: str, category: str = "other",
                       blocking: bool = False, actor: str, session: str | None,
                       task: str | None = None, attempt: str | None = None,
                       role: str | None = None) -> str:
    """Record a finding (F-<n>) inside an open write transaction; returns its id."""
    return _insert_item(tx, "finding", title=title, body=body, category=category,
                        blocking=blocking, actor=actor, session=session, role=role, task=task,
                        attempt=attempt)


def post_question_in_tx(tx, *, title: str, body: str, options: list[dict[str, str]],
                        recommend: str, why: str, actor: str) -> str:
    """A question a2a itself puts to the user (no asking session: the answer is recorded, not
    delivered); returns its id."""
    return _insert_item(tx, "question", title=title, body=body, category="other", blocking=False,
                        actor=actor, session=None, role=None, options=options,
                        recommend=recommend, why=why)


def _insert_item(tx, kind: str, *, title: str, body: str, category: str, blocking: bool,
                 actor: str, session: str | None, role: str | None, task: str | None = None,
                 attempt: str | None = None, options: list[dict[str, str]] | None = None,
                 recommend: str | None = None, why: str | None = None) -> str:
    if category not in CATEGORIES:
        raise A2AError("bad_category", f"category must be one of {', '.join(CATEGORIES)},"
                       f" not {category!r}", exit_code=2)
    prefix = "Q" if kind == "question" else "F"
    item_id = f"{prefix}-{tx.next_counter(prefix)}"
    protected = is_protected(blocking, category)
    seq = tx.append("board_item_posted", actor=actor, task=task, attempt=attempt, session=session,
                    payload=BoardItemPosted(id=item_id, kind=kind, title=title, body=body,
                                            category=category, blocking=bool(blocking),
                                            protected=protected, options=options or [],
                                            recommend=recommend, why=why))
    tx.execute(
        "INSERT INTO board_items(id, kind, title, body, options, recommend, why, blocking,"
        " category, protected, asked_by, actor, role, task, attempt, seq, ts_ns)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (item_id, kind, title, body, json.dumps(options or [], ensure_ascii=False), recommend,
         why, int(bool(blocking)), category, int(protected), session, actor, role, task, attempt,
         seq, time.time_ns()))
    return item_id


def parse_option(spec: str) -> dict[str, str]:
    """`KEY=TEXT` -> {"key", "text"}."""
    key, sep, text = spec.partition("=")
    key, text = key.strip(), text.strip()
    if not sep or not OPTION_KEY.match(key) or not text:
        raise A2AError("bad_option", f"--option {spec!r}: write KEY=TEXT (key: letters, digits,"
                       " '-' or '_', up to 16)", exit_code=2)
    return {"key": key, "text": text}


@records_refusals
def ask(c: Collab, title: str, options: list[str], recommend: str, why: str, *, body: str = "",
        blocking: bool = False, category: str = "other") -> BoardItem:
    """A controller's question to the user: options with keys, a recommendation and why."""
    title = require_text(title, "--title")
    why = require_text(why, "--why")
    opts = [parse_option(o) for o in options]
    keys = [o["key"] for o in opts]
    if len(opts) < 2:
        raise A2AError("bad_option", "a question offers at least two --option KEY=TEXT",
                       exit_code=2)
    if len(set(keys)) != len(keys):
        raise A2AError("bad_option", "option keys must be unique", exit_code=2)
    if recommend not in keys:
        raise A2AError("bad_option", "--recommend must be one of the option keys"
                       f" ({', '.join(keys)})", exit_code=2)
    if c.role is not None and c.role not in BOARD_ASKERS:
        raise c.refuse("ask_not_allowed",
                       f"{c.caller.describe()} may not ask the user on the board: questions come"
                       " from the ideation and executive controllers; report what you found with"
                       " `a2a board report`")
    with c.store.write() as tx:
        item_id = _insert_item(tx, "question", title=title, body=body, category=category,
                               blocking=blocking, actor=c.caller.actor,
                               session=c.caller.session, role=c.role, options=opts,
                               recommend=recommend, why=why)
        return item_of(tx, _item(tx, item_id))


def report(c: Collab, title: str, body: str, *, blocking: bool = False,
           category: str = "other") -> BoardItem:
    """Anyone's finding: a problem noticed outside one's own scope."""
    title = require_text(title, "--title")
    body = require_text(body, "--body")
    with c.store.write() as tx:
        item_id = post_finding_in_tx(tx, title=title, body=body, category=category,
                                     blocking=blocking, actor=c.caller.actor,
                                     session=c.caller.session, role=c.role)
        return item_of(tx, _item(tx, item_id))


@records_refusals
def close(c: Collab, item_id: str, reason: str) -> BoardItem:
    """Close an item with a reason. Controllers may close unprotected items; the user any."""
    reason = require_text(reason, "--reason")
    with c.store.write() as tx:
        item = _item(tx, item_id)
        if c.role is not None:
            if c.role not in BOARD_CLOSERS:
                raise c.refuse("close_not_allowed",
                               f"{c.caller.describe()} may not close board items: the"
                               " controllers close what is plainly not a problem, the user"
                               " the rest", item=item_id)
            if item["protected"]:
                why = "blocking" if item["blocking"] else f"about {item['category']}"
                raise c.refuse("protected_item",
                               f"{item_id} is {why}: only the user can close it (rule: blocking"
                               " items and those about permission, scope, acceptance, security"
                               " or irreversible operations are the user's)", item=item_id)
        if not close_in_tx(tx, item_id, reason, actor=c.caller.actor, session=c.caller.session,
                           role=c.role):
            raise A2AError("already_closed", f"{item_id} is already closed")
        return item_of(tx, item)


def close_in_tx(tx, item_id: str, reason: str, *, actor: str, session: str | None,
                role: str | None) -> bool:
    """Record the closure of an item inside an open write transaction (the caller has checked
    the right to close it); False when it was already closed."""
    if _status(tx, item_id) == "closed":
        return False
    seq = tx.append("board_item_closed", actor=actor, session=session,
                    payload=BoardItemClosed(id=item_id, reason=reason, role=role or "user"))
    tx.execute("INSERT INTO board_records(seq, item_id, kind, reason, actor, session, role,"
               " ts_ns) VALUES (?,?,'close',?,?,?,?,?)",
               (seq, item_id, reason, actor, session, role or "user", time.time_ns()))
    return True


@records_refusals
def answer(c: Collab, item_id: str, *, option: str | None = None, adopt: bool = False,
           text: str | None = None, hold: bool = False, source: str = "cli") -> Answered:
    """The user's answer: a user input (choice or answer) and a board record pointing at it.

    Unless `hold`, every pending answer for the asking session goes out at once, as one prompt;
    with `hold` it waits for `send_pending` (the workbench collects answers this way).
    """
    if option is not None and adopt:
        raise A2AError("bad_answer", "--option and --adopt exclude each other", exit_code=2)
    if option is None and not adopt and (text is None or not text.strip()):
        raise A2AError("bad_answer", "answer with --option KEY, --adopt or --text TEXT",
                       exit_code=2)
    require_user(c, "answering the board")
    with c.store.write() as tx:
        item = _item(tx, item_id)
        if _status(tx, item_id) == "closed":
            raise A2AError("item_closed", f"{item_id} is closed; it takes no answers")
        if (option is not None or adopt) and item["kind"] != "question":
            raise A2AError("bad_answer", f"{item_id} is a finding: it has no options (use --text)",
                           exit_code=2)
        options = {o["key"]: o["text"] for o in json.loads(item["options"])}
        key = item["recommend"] if adopt else option
        if key is not None and key not in options:
            raise A2AError("bad_answer", f"{item_id} has no option {key!r} (options:"
                           f" {', '.join(options)})", exit_code=2)
        # The recommended option picked by its key is the recommendation adopted all the same.
        adopt = key is not None and key == item["recommend"]
        words = (text or "").strip()
        if key is not None:
            picked = f"{key}: {options[key]}" + (" (the recommendation)" if adopt else "")
            body, kind = picked + (f"\n{words}" if words else ""), "choice"
        else:
            body, kind = words, "answer"
        uid = record_user_input_in_tx(tx, kind, body, source=source, to_session=item["asked_by"],
                                      ref=item_id, option_key=key)
        seq = tx.append("board_item_answered", actor="user", session=item["asked_by"],
                        payload=BoardItemAnswered(id=item_id, user_input=uid, option=key,
                                                  adopted=adopt))
        tx.execute("INSERT INTO board_records(seq, item_id, kind, user_input, actor, role, ts_ns)"
                   " VALUES (?,?,'answer',?,'user','user',?)", (seq, item_id, uid, time.time_ns()))
        sent: list[Sent] = []
        if not hold and item["asked_by"]:
            sent = _send_in_tx(tx, item["asked_by"])
        result = Answered(item_of(tx, item), uid, hold, tuple(sent))
    if any(s.dispatch for s in sent):
        wake(c.repo)
    return result


@records_refusals
def send_pending(c: Collab, session: str | None = None) -> list[Sent]:
    """Deliver every held answer, one prompt per asking session (or only `session`'s)."""
    require_user(c, "sending board answers")
    with c.store.write() as tx:
        sessions = [r["to_session"] for r in tx.all(
            "SELECT DISTINCT u.to_session FROM user_inputs u JOIN board_records r"
            " ON r.user_input = u.id LEFT JOIN deliveries d ON d.record = u.id"
            " WHERE d.record IS NULL AND u.to_session IS NOT NULL ORDER BY u.to_session")]
        if session is not None:
            sessions = [s for s in sessions if s == session]
        sent = [x for s in sessions for x in _send_in_tx(tx, s)]
    if any(s.dispatch for s in sent):
        wake(c.repo)
    return sent


def _send_in_tx(tx, session: str) -> list[Sent]:
    """Queue all undelivered answers for `session` as one dispatch (if the session is live)."""
    rows = tx.all(
        "SELECT u.id, u.kind, u.text, u.option_key, u.ref, i.title FROM user_inputs u"
        " JOIN board_records r ON r.user_input = u.id JOIN board_items i ON i.id = r.item_id"
        " LEFT JOIN deliveries d ON d.record = u.id"
        " WHERE d.record IS NULL AND u.to_session = ? ORDER BY u.n", (session,))
    if not rows:
        return []
    ids = [r["id"] for r in rows]
    if not session_is_live(tx, session):
        return [Sent(session, tuple(ids), None,
                     f"session {session} is not live; the answers stay pending")]
    n = deliver_in_tx(tx, ids, session, batch_text(rows), source="board", actor="user")
    return [Sent(session, tuple(ids), n)]


def batch_text(rows) -> str:
    """One prompt carrying the user's answers to several board items."""
    lines = [f"The user answered {len(rows)} of your board item{'s' if len(rows) > 1 else ''}"
             " (user input records; quote them by id):"]
    for r in rows:
        text = r["text"].replace("\n", " / ")
        lines.append(f"- {r['ref']} \"{r['title']}\" -> {text} [{r['id']}]")
    return "\n".join(lines)


def _item(tx, item_id: str):
    row = tx.one("SELECT * FROM board_items WHERE id = ?", (item_id,))
    if row is None:
        raise A2AError("unknown_item", f"no board item {item_id!r} (see `a2a board list`)")
    return row


def _status(tx, item_id: str) -> str:
    kinds = {r["kind"] for r in tx.all("SELECT kind FROM board_records WHERE item_id = ?",
                                       (item_id,))}
    return "closed" if "close" in kinds else "answered" if "answer" in kinds else "open"


def item_of(tx, row) -> BoardItem:
    """An item as shown: its stored fields and its status derived from later records."""
    return BoardItem.of(row, _status(tx, row["id"]))


def records_of(tx, item_id: str | None = None) -> tuple[BoardRecord, ...]:
    """Answers and closures, oldest first, with the answering user input's text and delivery."""
    sql = ("SELECT r.*, u.kind AS input_kind, u.text AS input_text, u.option_key,"
           " d.session AS delivered_to, d.dispatch FROM board_records r"
           " LEFT JOIN user_inputs u ON u.id = r.user_input"
           " LEFT JOIN deliveries d ON d.record = r.user_input")
    rows = tx.all(sql + (" WHERE r.item_id = ?" if item_id else "") + " ORDER BY r.seq",
                  (item_id,) if item_id else ())
    return tuple(BoardRecord.of(r) for r in rows)


def list_board(store) -> Board:
    """Every item and every answer and closure, as separate records."""
    with store.snapshot() as tx:
        items = [item_of(tx, r) for r in tx.all("SELECT * FROM board_items ORDER BY seq")]
        return Board(tuple(items), records_of(tx))


def show(store, item_id: str) -> ItemShown:
    """One item with its answers and closures."""
    with store.snapshot() as tx:
        return ItemShown(item_of(tx, _item(tx, item_id)), records_of(tx, item_id))
