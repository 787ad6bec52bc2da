"""An attempt's diff against its start commit, line by line, each line knowing where it is.

`parse_diff` turns git's unified diff into `DiffLine`s: every line carries the file it belongs
to and its line numbers on either side, so a cursor on any line maps to (file, line in the new
file) without reading the text again (what a line comment needs). No textual or rich here: the
workbench colours the lines, the core only says what they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.gate import views
from a2a_tui.gate.attempts.clones import import_head
from a2a_tui.git import clone_head
from a2a_tui.repo import Repo

MAX_LINES = 20_000          # a diff longer than this is cut, and says so
HUNK = re.compile(r"^@@ -(?P<old>\d+)(?:,\d+)? \+(?P<new>\d+)(?:,\d+)? @@")
_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
            "\\": "\\", '"': '"'}


@dataclass(frozen=True)
class DiffLine:
    """One line of the diff as git printed it, and where it sits.

    kind: `file` (the `diff --git` header), `meta` (index, mode, rename, ---/+++ lines), `hunk`
    (@@), `add`, `del`, `ctx` (unchanged context), `note` (`\\ No newline at end of file`).
    `path` is the file in the candidate's tree (the old path for a deleted file); `old` and
    `new` are the line's numbers in the start commit's and the candidate's file.
    """

    kind: str
    text: str
    path: str | None = None
    old: int | None = None
    new: int | None = None

    @property
    def target(self) -> tuple[str, int] | None:
        """(file, line in the new file) this line stands for: added and context lines only (a
        removed line is in no new file; headers are on no line)."""
        if self.kind in ("add", "ctx") and self.path is not None and self.new is not None:
            return self.path, self.new
        return None


@dataclass(frozen=True)
class AttemptDiff:
    """The diff of an attempt from its start commit to `head` (its candidate, else its branch)."""

    attempt: str
    base: str
    head: str
    head_is: str                    # what head is: "candidate 2", "branch a2a/T-1-a1", ...
    lines: list[DiffLine] = field(default_factory=list)
    truncated: bool = False

    @property
    def files(self) -> list[str]:
        return [ln.path for ln in self.lines if ln.kind == "file" and ln.path]

    @property
    def added(self) -> int:
        return sum(ln.kind == "add" for ln in self.lines)

    @property
    def deleted(self) -> int:
        return sum(ln.kind == "del" for ln in self.lines)


def unquote(path: str) -> str:
    """A path as git prints it: C-quoted ("a\\tb", octal escapes for UTF-8 bytes) when it holds
    unusual characters, else verbatim."""
    if not (len(path) >= 2 and path[0] == path[-1] == '"'):
        return path
    out = bytearray()
    body, i = path[1:-1], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in "01234567" and re.match(r"[0-7]{3}", body[i + 1:i + 4]):
                out.append(int(body[i + 1:i + 4], 8))
                i += 4
                continue
            out += _ESCAPES.get(nxt, nxt).encode()
            i += 2
            continue
        out += c.encode()
        i += 1
    return out.decode("utf-8", errors="replace")


def _strip_prefix(path: str, prefix: str) -> str | None:
    p = unquote(path.split("\t", 1)[0])
    if p == "/dev/null":
        return None
    return p[len(prefix):] if p.startswith(prefix) else p


def _header_path(header: str) -> str | None:
    """The new path named by `diff --git a/X b/Y` (used when no ---/+++ lines follow: a pure
    rename, a mode change, a binary file)."""
    rest = header[len("diff --git "):]
    if rest.startswith('"'):
        end = rest.find('" ', 1)
        rest = rest[end + 2:] if end > 0 else rest
    elif " b/" in rest:
        rest = rest[rest.rindex(" b/") + 1:]
    return _strip_prefix(rest, "b/")


def _block_path(block: list[str]) -> str | None:
    new = old = renamed = None
    for line in block:
        if line.startswith("+++ "):
            new = _strip_prefix(line[4:], "b/")
        elif line.startswith("--- "):
            old = _strip_prefix(line[4:], "a/")
        elif line.startswith("rename to "):
            renamed = unquote(line[len("rename to "):])
    return new or renamed or old or _header_path(block[0])


def parse_diff(text: str) -> list[DiffLine]:
    """git's unified diff as lines that know their file and their line numbers."""
    out: list[DiffLine] = []
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("diff --git "):
            out.append(DiffLine("meta", lines[i]))
            i += 1
            continue
        # The header block runs to the first hunk or the next file.
        j = i + 1
        while j < len(lines) and not lines[j].startswith(("@@", "diff --git ")):
            j += 1
        path = _block_path(lines[i:j])
        out.append(DiffLine("file", lines[i], path))
        out.extend(DiffLine("meta", ln, path) for ln in lines[i + 1:j])
        i = _file_body(lines, j, path, out)
    return out


def _file_body(lines: list[str], i: int, path: str, out: list[DiffLine]) -> int:
    """One file's hunks, from line `i` to the next file's header: each line numbered on its
    side(s). Returns where the next file starts."""
    old = new = 0
    while i < len(lines) and not lines[i].startswith("diff --git "):
        ln = lines[i]
        if m := HUNK.match(ln):
            old, new = int(m["old"]), int(m["new"])
            out.append(DiffLine("hunk", ln, path))
        else:
            line = _body_line(ln, path, old, new)
            out.append(line)
            old += line.kind in ("del", "ctx")
            new += line.kind in ("add", "ctx")
        i += 1
    return i


def _body_line(ln: str, path: str, old: int, new: int) -> DiffLine:
    if ln.startswith("+"):
        return DiffLine("add", ln, path, None, new)
    if ln.startswith("-"):
        return DiffLine("del", ln, path, old, None)
    if ln.startswith("\\"):
        return DiffLine("note", ln, path)
    # context: a space, or an empty line where an editor dropped the space
    return DiffLine("ctx", ln, path, old, new)


def _clone_head(repo: Repo, place) -> str | None:
    """The head of the attempt's clone, brought into the repository (gate/attempts/clones.py), or of
    its branch in the repository for a claim made before clones."""
    head = clone_head(Path(place.worktree))
    if head is not None and import_head(repo, place.id, Path(place.worktree), head,
                                        place.start_commit):
        return head
    return repo.git.ref_value(f"refs/heads/{place.branch}")


def attempt_diff(repo: Repo, db, attempt_id: str, max_lines: int = MAX_LINES) -> AttemptDiff:
    """The attempt's diff from its start commit to its submitted candidate, or, before a
    submission, to the head of its branch."""
    base, head, head_is = _ends(repo, db, attempt_id)
    lines = parse_diff(repo.git.diff_text(base, head))
    truncated = len(lines) > max_lines
    return AttemptDiff(attempt_id, base, head, head_is, lines[:max_lines], truncated)


def _ends(repo: Repo, db, attempt_id: str) -> tuple[str, str, str]:
    """(start commit, head, what head is): the candidate, else the branch's head."""
    place = views.attempt_place(db, attempt_id)
    if place is None:
        raise A2AError("unknown_attempt", f"no attempt {attempt_id!r} (see `a2a status`)")
    if place.submitted_sha:
        return place.start_commit, place.submitted_sha, f"candidate {place.submission_n}"
    head = _clone_head(repo, place) or place.start_commit
    return place.start_commit, head, f"branch {place.branch} (not submitted)"


@dataclass(frozen=True)
class Shown:
    """What `a2a show ATTEMPT[:PATH]` prints: the attempt's head commit (its message and the
    files it changed from the start), or one file of it."""

    attempt: str
    head: str
    head_is: str
    path: str | None
    text: str


def attempt_show(repo: Repo, db, attempt_id: str, path: str | None = None) -> Shown:
    """The attempt's head (its candidate, else its branch) or the file `path` in it, read
    through a2a's hardened git: a reviewer reads a candidate without a git of its own."""
    base, head, head_is = _ends(repo, db, attempt_id)
    git = repo.git
    if path is None:
        files = git.changed_paths(base, head)
        text = (git.commit_text(head) + f"\nchanged from the start commit {base[:12]}:\n"
                + "".join(f"  {f}\n" for f in files))
        return Shown(attempt_id, head, head_is, None, text)
    from a2a_tui.gate.cards import gate_rules  # pydantic: only here (start-up)

    size, most = git.size_at(head, path), gate_rules.in_force(repo).limits.blob_bytes
    if size is not None and size > most:
        raise A2AError("tree_too_large", f"{path!r} of {attempt_id}'s {head_is} holds {size}"
                       f" bytes, more than gate.toml's limits.blob_bytes ({most}): not read")
    data = git.file_at(head, path)
    if data is None:
        raise A2AError("not_in_commit", f"{path!r} is not a file of {attempt_id}'s {head_is}"
                       f" ({head[:12]})")
    return Shown(attempt_id, head, head_is, path, data.decode("utf-8", errors="replace"))
