"""The structural steps: boundary, drift and provenance, judged on the candidate's own history.

The candidate's own history is what integrating it would add: the commits reachable from it and
from neither the start commit nor the target's current head, and the diff from its base — the
merge-base with the target's head when that descends from the start commit (the worker merged
the moved target in), else the start commit. A merge of main into the branch is not the
candidate's work; a change made in that merge is.
"""

from __future__ import annotations

import fnmatch
import unicodedata
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

from a2a_tui import quoting
from a2a_tui.gate.cards.gate_rules import Limits
from a2a_tui.gate.cards.schema import Card, path_matches
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.verification.results import CheckResult
from a2a_tui.gate.verification.tree_limits import too_large
from a2a_tui.git import Change, Git
from a2a_tui.payloads.sessions import HumanIntervention
from a2a_tui.repo import A2A_DIR

if TYPE_CHECKING:  # annotations only: the ledger's package is not needed to run this
    from a2a_tui.gate.ledger.records import AttemptRecord

TRAILER_PREFIX = "a2a-"
SYMLINK_HOPS = 40
# Symlinks git refuses to check out under these names (they steer git itself).
GIT_FILES = (".gitmodules", ".gitattributes", ".gitignore", ".mailmap")
# Code points HFS+ ignores in names, which could make `.git` look like something else.
HFS_IGNORED = {*range(0x200C, 0x2010), *range(0x202A, 0x202F), *range(0x206A, 0x2070), 0xFEFF}


@dataclass(frozen=True)
class OwnHistory:
    base: str                      # what the candidate's own diff starts from
    commits: list[str]             # its own commits, oldest first
    changes: list[Change]          # its own diff

    @property
    def paths(self) -> list[str]:
        return [c.path for c in self.changes]


def own_history(git: Git, start: str, sha: str, target_head: str | None) -> OwnHistory:
    base = start
    if target_head:
        mb = git.merge_base(sha, target_head)
        if mb and mb != start and git.is_ancestor(start, mb):
            base = mb
    excluded = [start] + ([target_head] if target_head else [])
    return OwnHistory(base, git.commits_not_in(sha, *excluded), git.changes(base, sha))


# --- boundary -------------------------------------------------------------------------------

def boundary(git: Git, card: Card, sha: str, own: OwnHistory, blocking: bool,
             limits: Limits) -> CheckResult:
    """Own changes inside allowed_paths; no path git would refuse; no symlink leaving the tree;
    nothing under a2a's own folder (`path_reserved`: blocking whatever the rules say of the
    step, since integrate would write it into the user's `.a2a/`); a tree within `limits`
    (`tree_too_large`: blocking too, since no checkout of it is written)."""
    heavy = too_large(git, sha, limits)
    new = [c.path for c in own.changes if c.status != "D" and c.is_symlink]
    links = _links(git, sha) if new else {}
    landing = {p: lands_in(p, links) for p in new}
    reserved = [c.path for c in own.changes if is_reserved(c.path)]
    reserved += [p for p in new if p not in reserved and landing[p] == "reserved"]
    refused = [c.path for c in own.changes if c.status != "D" and refusal(c)]
    escapes = [p for p in new if landing[p] in ("outside", "git")]
    outside = [p for p in own.paths if not path_matches(p, card.allowed_paths)]
    problems, code = [], None
    if heavy:
        problems.append(f"the tree is too large: {heavy}")
        code = "tree_too_large"
    if reserved:
        problems.append(f"changes under a2a's own folder ({A2A_DIR}/): "
                        + _names(reserved))
        code = code or "path_reserved"
    if refused:
        problems.append("paths git would refuse to check out: " + _names(refused))
        code = code or "path_refused"
    if escapes:
        problems.append("symlinks leaving the repository: " + _names(escapes))
        code = code or "symlink_escape"
    if outside:
        problems.append("changed paths outside allowed_paths: " + _names(outside))
        code = code or "out_of_bounds"
    detail = "; ".join(problems) or (f"{len(own.changes)} changed path(s), all within"
                                     " allowed_paths")
    return CheckResult("boundary", "boundary", blocking or bool(reserved or heavy), not problems,
                       detail=detail, code=code)


def _names(paths: list[str]) -> str:
    """The first paths, each quoted as the one-line name it is (a name is the agent's)."""
    return ", ".join(quoting.name(p) for p in paths[:20])


def is_reserved(path: str) -> bool:
    """Whether `path` is in a2a's own folder (`.a2a/`, or a name a file system folds to it:
    case, NTFS's trailing dots and spaces, the code points HFS+ ignores)."""
    return _folded(path.split("/", 1)[0]).rstrip(". ") == A2A_DIR


def refusal(change: Change) -> str | None:
    """Why git would refuse to check out this path (its `verify_path`, with core.protectNTFS
    and core.protectHFS on, as git does by default on the platforms that need them), or None."""
    path = change.path
    if not path or path.startswith("/") or "\\" in path:
        return "not a plain relative path"
    for part in path.split("/"):
        if part in ("", ".", ".."):
            return "an empty, '.' or '..' component"
        if _is_dotgit(part):
            return "a component git reserves (.git)"
    if change.is_symlink and path.rsplit("/", 1)[-1].lower() in GIT_FILES:
        return "a symlinked git control file"
    return None


def _folded(part: str) -> str:
    return unicodedata.normalize("NFC", "".join(ch for ch in part
                                                if ord(ch) not in HFS_IGNORED)).lower()


def _is_dotgit(part: str) -> bool:
    folded = _folded(part)
    # NTFS ignores trailing dots and spaces and knows the 8.3 name git~1.
    return folded.rstrip(". ") == ".git" or folded.startswith(".git:") or folded == "git~1"


def _links(git: Git, sha: str) -> dict[str, str]:
    """The symlinks of the tree of `sha`: {path: target}."""
    return {p: t.decode("utf-8", errors="surrogateescape") for p, t in git.symlinks(sha).items()}


def lands_in(path: str, links: dict[str, str]) -> str | None:
    """Where the symlink at `path`, followed through every symlink of the tree the way the
    kernel would, ends when that is not plainly inside the repository: "outside" it (or too
    many hops), inside its "git" folder, or inside a2a's folder ("reserved"); else None."""
    stack = path.split("/")[:-1]
    todo = deque(links[path].split("/"))
    if links[path].startswith("/"):
        return "outside"
    hops = 0
    while todo:
        part = todo.popleft()
        if part in ("", "."):
            continue
        if part == "..":
            if not stack:
                return "outside"
            stack.pop()
            continue
        stack.append(part)
        if _is_dotgit(stack[0]):
            return "git"
        if is_reserved(stack[0]):
            return "reserved"
        here = "/".join(stack)
        if here in links:
            hops += 1
            target = links[here]
            if hops > SYMLINK_HOPS or target.startswith("/"):
                return "outside"
            stack.pop()
            todo.extendleft(reversed(target.split("/")))
    return None


# --- drift ----------------------------------------------------------------------------------

def drift(card: Card, own: OwnHistory, blocking: bool) -> CheckResult:
    """Pinned acceptance files untouched. Tests are not judged here, by path, but test by test
    from the checks' reports (per_test.py): a renamed or split test file keeps its tests."""
    touched = [p for p in own.paths if card.acceptance_files and
               path_matches(p, card.acceptance_files)]
    if touched:
        return CheckResult("drift", "drift", blocking, False, code="acceptance_drift",
                           detail="the candidate edits files pinned by the card: "
                           + ", ".join(touched))
    return CheckResult("drift", "drift", blocking, True, detail="acceptance files kept")


def droppable(card: Card, test: str) -> bool:
    """Whether the card allows this test (a node id) or test file to go."""
    path = test.split("::", 1)[0]
    return any(fnmatch.fnmatchcase(test, p) or path_matches(path, [p])
               for p in card.droppable_tests)


# --- provenance -----------------------------------------------------------------------------

def provenance(g: GateContext, att: AttemptRecord, card: Card, own: OwnHistory,
               blocking: bool) -> CheckResult:
    """Commit trailers as git parses them (`git interpret-trailers --parse`): a commit with no
    `A2A-*` trailer is the user's own (a human intervention); one that has any must be this
    attempt's writer's, for this card, with no key given two different values."""
    writers = _writers(g, att)
    problems: list[tuple[str, str]] = []
    human: list[str] = []
    for c in own.commits:
        values: dict[str, list[str]] = {}
        for key, value in g.git.trailers(c):
            if key.lower().startswith(TRAILER_PREFIX):
                values.setdefault(key.lower(), [])
                if value not in values[key.lower()]:
                    values[key.lower()].append(value)
        if not values:
            human.append(c)
            continue
        problem = _trailer_problem(values, att, card, writers)
        if problem:
            problems.append((problem[0], f"{c[:12]}: {problem[1]}"))
    _record_human(g, att, human)
    if problems:
        return CheckResult("provenance", "provenance", blocking, False, code=problems[0][0],
                           detail="; ".join(p[1] for p in problems[:10]))
    detail = (f"{len(human)} commit(s) without a2a trailers recorded as human intervention"
              if human else "all commits carry this attempt's trailers")
    return CheckResult("provenance", "provenance", blocking, True, detail=detail)


def _trailer_problem(values: dict[str, list[str]], att: AttemptRecord, card: Card,
                     writers: set[str]) -> tuple[str, str] | None:
    twice = sorted(k for k, v in values.items() if len(v) > 1)
    if twice:
        key = twice[0]
        return "duplicate_trailer", f"{key} given different values ({', '.join(values[key])})"
    attempt = (values.get("a2a-attempt") or [None])[0]
    task = (values.get("a2a-task") or [None])[0]
    session = (values.get("a2a-session") or [None])[0]
    if attempt is not None and attempt != att.id:
        return "foreign_attempt", f"made for attempt {attempt}"
    if task is not None and task != card.id:
        return "wrong_task", f"made for card {task}, not {card.id}"
    if session is not None and session not in writers:
        return "foreign_session", f"made by session {session}, not this attempt's writer"
    if attempt is None and session is None:
        return "foreign_session", "made by a managed session that names neither this attempt" \
                                  " nor its writer"
    return None


def _writers(g: GateContext, att) -> set[str]:
    """Every session that has been this attempt's writer (a writer may be handed over)."""
    rows = g.store.all("SELECT json_extract(payload, '$.writer'), json_extract(payload, '$.to')"
                       " FROM events WHERE attempt = ? AND kind IN ('claimed', 'writer_bound')",
                       (att.id,))
    found = {att.writer} | {v for r in rows for v in r if v}
    return {w.split(":", 1)[1] for w in found if w.startswith("session:")}


def _record_human(g: GateContext, att: AttemptRecord, human: list[str]) -> None:
    if not human:
        return
    with g.store.write() as tx:
        seen = {r[0] for r in tx.all(
            "SELECT json_extract(payload, '$.sha') FROM events WHERE attempt=? AND"
            " kind='human_intervention' AND json_extract(payload, '$.via')='commit'",
            (att.id,))}
        for c in human:
            if c not in seen:  # an earlier verify run already recorded this commit
                tx.append("human_intervention", actor="gate", task=att.card_id,
                          attempt=att.id, payload=HumanIntervention(via="commit", sha=c))
