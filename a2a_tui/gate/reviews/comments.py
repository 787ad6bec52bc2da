"""Line comments on an attempt's diff, held until the user sends them to its writer as one prompt.

A comment names a file, a line in that file as the commented commit has it, and the commit (the
attempt's candidate, else its branch head, when written). Held comments can be edited or
removed; `send` turns every held one into ONE prompt for the attempt's writer session, through
the injection queue, recorded once as a user input of kind `review_comments` naming the SHA it
was sent against. Each comment carries its file, line and the lines around it, in the order of
the diff; one written against an older SHA says so (the line may have moved since).

Comments are the user's (a managed session is refused) and are not gate state: no gate
decision reads `review_comments`, and the ledger does not compare it with the log; it is still
the fold's to write (gate/ledger/reviews.py), each change one event and its row in one
transaction.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from a2a_tui.collab.delivery import deliver_in_tx
from a2a_tui.collab.user_input import record_user_input_in_tx
from a2a_tui.errors import A2AError
from a2a_tui.gate import ledger
from a2a_tui.gate.ledger import GateEvent
from a2a_tui.gate.model import CommandResult
from a2a_tui.gate.reviews.diff import AttemptDiff, attempt_diff
from a2a_tui.git import GitError
from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads import reviews as pl
from a2a_tui.queue import check_text, wake

_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
CONTEXT = 2                 # lines shown before and after the commented line
MAX_COMMENT = 10_000


@dataclass(frozen=True)
class Comment:
    id: str
    attempt: str
    path: str
    line: int
    sha: str
    text: str
    state: str
    user_input: str | None = None

    def to_json(self) -> JsonObject:
        return asdict(self)


def _row(r) -> Comment:
    return Comment(r["id"], r["attempt"], r["path"], r["line"], r["sha"], r["text"], r["state"],
                   r["user_input"])


def _require_user(g, what: str) -> None:
    if not g.caller.is_user:
        raise A2AError("user_only", f"{what} is the user's alone; {g.caller.describe()} is a"
                       " managed session")


def _text(text: str) -> str:
    text = text.strip("\n")
    if len(text) > MAX_COMMENT:
        raise A2AError("text_too_long", f"the comment has {len(text)} characters (limit"
                       f" {MAX_COMMENT})", exit_code=2)
    return check_text(text)


def file_lines(g, sha: str, path: str) -> list[str]:
    """The file's lines at `sha` (undecodable bytes replaced); A2AError when it is not there."""
    try:
        data = g.repo.git.blob(f"{sha}:{path}")
    except GitError as exc:
        raise A2AError("not_in_commit", f"{path} is not a file in {sha[:12]}") from exc
    text = data.decode("utf-8", errors="replace")
    lines = text.split("\n")   # git's lines: a line ends at \n only
    if lines[-1] == "":
        lines.pop()
    # A prompt is printable text: a control character in the file is shown, not pasted.
    return [_CONTROL.sub(lambda m: f"\\x{ord(m[0]):02x}", ln) for ln in lines]


def add(g, attempt: str, path: str, line: int, text: str) -> Comment:
    """Hold a comment on `path`:`line` of the attempt's diff as it is now (its head SHA)."""
    _require_user(g, "commenting on a diff")
    text = _text(text)
    d = attempt_diff(g.repo, g.store, attempt)
    if path not in d.files:
        shown = ", ".join(d.files[:5]) + (" ..." if len(d.files) > 5 else "")
        raise A2AError("not_in_diff", f"{path} is not in {attempt}'s diff"
                       + (f" (its files: {shown})" if shown else " (the diff is empty)"),
                       exit_code=2)
    count = len(file_lines(g, d.head, path))
    if not 1 <= line <= count:
        raise A2AError("bad_line", f"{path} has lines 1-{count} at {d.head[:12]}, not {line}",
                       exit_code=2)
    with g.store.write() as tx:
        n = tx.next_counter("C")
        cid = f"C-{n}"
        ledger.record(tx, GateEvent.REVIEW_COMMENT_ADDED, actor="user", attempt=attempt,
                      payload=pl.ReviewCommentAdded(id=cid, path=path, line=line, sha=d.head,
                                                    text=text))
    return Comment(cid, attempt, path, line, d.head, text, "held")


def get(store, cid: str) -> Comment:
    r = store.one("SELECT * FROM review_comments WHERE id = ?", (cid,))
    if r is None:
        raise A2AError("unknown_comment", f"no comment {cid!r} (see `a2a comment list ATTEMPT`)",
                       exit_code=2)
    return _row(r)


def _held(tx, cid: str) -> Comment:
    c = get(tx, cid)
    if c.state == "sent":
        raise A2AError("comment_sent", f"{cid} was sent ({c.user_input}): it cannot change")
    if c.state == "removed":
        raise A2AError("comment_removed", f"{cid} was removed: it cannot change")
    return c


def edit(g, cid: str, text: str) -> Comment:
    """Change a held comment's text."""
    _require_user(g, "editing a comment")
    text = _text(text)
    with g.store.write() as tx:
        c = _held(tx, cid)
        ledger.record(tx, GateEvent.REVIEW_COMMENT_EDITED, actor="user", attempt=c.attempt,
                      payload=pl.ReviewCommentEdited(id=cid, text=text, was=c.text))
    return Comment(**{**asdict(c), "text": text})


def remove(g, cid: str) -> Comment:
    """Drop a held comment (it stays in the log, and is never sent)."""
    _require_user(g, "removing a comment")
    with g.store.write() as tx:
        c = _held(tx, cid)
        ledger.record(tx, GateEvent.REVIEW_COMMENT_REMOVED, actor="user", attempt=c.attempt,
                      payload=pl.ReviewCommentRemoved(id=cid))
    return Comment(**{**asdict(c), "state": "removed"})


def listed(store, attempt: str, *, every: bool = False) -> list[Comment]:
    """The attempt's held comments (`every`: sent and removed ones too), in the order they were
    written (`in_diff_order` sorts them as the diff shows its lines)."""
    where = "" if every else " AND state = 'held'"
    return [_row(r) for r in store.all(f"SELECT * FROM review_comments WHERE attempt = ?{where}"
                                       " ORDER BY n", (attempt,))]


def in_diff_order(comments: list[Comment], d: AttemptDiff) -> list[Comment]:
    """Files in the order the diff shows them (a file no longer in it last), lines ascending."""
    files = {p: i for i, p in enumerate(d.files)}
    return sorted(comments, key=lambda c: (files.get(c.path, len(files)), c.path, c.line,
                                           int(c.id[2:])))


def prompt(g, comments: list[Comment], d: AttemptDiff) -> str:
    """The one prompt the comments become: each with its file, line and the lines around it."""
    n = len(comments)
    out = [f"Review comments on {d.attempt} at {d.head[:12]} ({n} comment{'s' * (n != 1)},"
           " in the order of the diff). Address each one; the line under `>` is the one"
           " commented."]
    for i, c in enumerate(comments, 1):
        out.append("")
        head = f"{i}. {c.path}:{c.line}"
        if c.sha != d.head:
            head += (f" (written against an older SHA {c.sha[:12]}, not {d.head[:12]}: the line"
                     " may have moved)")
        out.append(head)
        try:
            lines = file_lines(g, c.sha, c.path)
        except A2AError:
            lines = []
        lo, hi = max(1, c.line - CONTEXT), min(len(lines), c.line + CONTEXT)
        width = len(str(hi))
        for k in range(lo, hi + 1):
            out.append(f"{'>' if k == c.line else ' '} {k:>{width}} | {lines[k - 1]}")
        out.extend(f"   {t}" for t in c.text.splitlines() or [""])
    return "\n".join(out)


def writer_session(g, attempt: str) -> str:
    """The attempt's writer session, live; A2AError when there is none to send to."""
    row = g.store.one("SELECT writer FROM attempts WHERE id = ?", (attempt,))
    if row is None:
        raise A2AError("unknown_attempt", f"no attempt {attempt!r} (see `a2a status`)")
    if not row["writer"].startswith("session:"):
        raise A2AError("no_writer_session", f"{attempt}'s writer is {row['writer']}, not a"
                       " session: there is no pane to send the comments to")
    sid = row["writer"].split(":", 1)[1]
    s = g.store.one("SELECT state FROM sessions WHERE id = ?", (sid,))
    if s is None or s["state"] == "exited":
        raise A2AError("writer_exited", f"{attempt}'s writer {sid} has exited: revive it"
                       f" (`a2a session revive {sid}`) and send again; the comments are kept")
    return sid


@dataclass(frozen=True)
class CommentsSent(CommandResult):
    attempt: str
    session: str
    sha: str
    comments: tuple[str, ...]      # in the order of the diff
    older: tuple[str, ...]         # written against an older SHA than `sha`
    user_input: str
    dispatch: int
    text: str                      # the one prompt they became


def send(g, attempt: str, *, source: str = "cli") -> CommentsSent:
    """Every held comment of the attempt, as one prompt to its writer, recorded once."""
    _require_user(g, "sending review comments")
    if g.store.one("SELECT 1 FROM attempts WHERE id = ?", (attempt,)) is None:
        raise A2AError("unknown_attempt", f"no attempt {attempt!r} (see `a2a status`)")
    held = listed(g.store, attempt)
    if not held:
        raise A2AError("no_comments", f"{attempt} has no held comments to send", exit_code=2)
    sid = writer_session(g, attempt)
    d = attempt_diff(g.repo, g.store, attempt)
    ordered = in_diff_order(held, d)
    text = prompt(g, ordered, d)
    ids = [c.id for c in ordered]
    older = [c.id for c in ordered if c.sha != d.head]
    with g.store.write() as tx:
        # Re-read under the write lock: a comment edited or removed meanwhile is not sent stale.
        now = [(c.id, c.text) for c in in_diff_order(listed(tx, attempt), d)]
        if now != [(c.id, c.text) for c in ordered]:
            raise A2AError("comments_changed", f"{attempt}'s comments changed while sending:"
                           " nothing was sent; send again")
        uid = record_user_input_in_tx(tx, "review_comments", text, source=source,
                                      to_session=sid, attempt=attempt,
                                      details={"sha": d.head, "comments": ids, "older": older})
        n = deliver_in_tx(tx, [uid], sid, text, source="user", actor="user")
        ledger.record(tx, GateEvent.REVIEW_COMMENTS_SENT,
                      actor="user", attempt=attempt, session=sid,
                      payload=pl.ReviewCommentsSent(user_input=uid, sha=d.head, comments=ids,
                                                    older=older, dispatch=n))
    wake(g.repo)
    return CommentsSent(attempt, sid, d.head, tuple(ids), tuple(older), uid, n, text)
