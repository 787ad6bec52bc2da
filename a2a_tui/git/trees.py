"""Diffs between commits and the contents of trees, blobs and commit messages, read without
checking anything out."""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass

from a2a_tui.git.env import NO_DRIVERS, hardened_env
from a2a_tui.git.refs import ZERO_SHA
from a2a_tui.git.runner import GitError, Runner

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"   # git's tree with nothing in it
CHUNK = 1 << 20     # the most of a file read at once


@dataclass(frozen=True)
class Change:
    """One path changed between two commits (`git diff --raw`): its status letter (A, M, D, T),
    its mode and blob after and before (zeros where there is none)."""

    status: str
    path: str
    new_mode: str
    new_blob: str
    old_blob: str = ZERO_SHA
    old_mode: str = "000000"

    @property
    def is_symlink(self) -> bool:
        return self.new_mode == "120000"


@dataclass(frozen=True)
class TreeEntry:
    """One entry of a commit's tree, recursively (`git ls-tree -r`): a blob (a file, or a
    symlink with mode 120000) or a commit (a submodule's gitlink, mode 160000)."""

    mode: str
    kind: str
    oid: str
    path: str

    @property
    def is_symlink(self) -> bool:
        return self.mode == "120000"

    @property
    def executable(self) -> bool:
        return self.mode == "100755"


class TreeOps(Runner):
    """Diffs, trees, blobs and commit texts."""

    def tree_of(self, rev: str) -> str:
        return self._out("rev-parse", f"{rev}^{{tree}}")

    def changed_paths(self, base: str, head: str) -> list[str]:
        """Paths changed between two commits (renames count as delete + add)."""
        out = self._run("diff", *NO_DRIVERS, "--name-only", "--no-renames", "-z", base,
                        head).stdout
        return [p for p in out.split("\0") if p]

    def numstat(self, base: str, head: str) -> tuple[int, int]:
        added = deleted = 0
        for line in self._run("diff", *NO_DRIVERS, "--numstat", "--no-renames", base,
                              head).stdout.splitlines():
            a, d, _ = line.split("\t", 2)
            if a != "-":
                added += int(a)
                deleted += int(d)
        return added, deleted

    def diff_text(self, base: str, head: str) -> str:
        """The unified diff from `base` to `head` as git prints it for a person (renames found,
        no colour, no external diff or textconv driver: the same text on every machine)."""
        return self._run("diff", *NO_DRIVERS, "--no-color", "--find-renames", base,
                         head).stdout

    def line_count(self, rev: str, path: str) -> int | None:
        """How many lines file `path` has at commit `rev` (a binary file: 0); None when `rev`
        has no such file."""
        res = self._run("cat-file", "-t", f"{rev}:{path}", check=False)
        if not res.ok or res.stdout.strip() != "blob":
            return None
        # Added lines against the empty tree: counted by git, never decoded here.
        out = self._out("diff", *NO_DRIVERS, "--numstat", "--no-renames", EMPTY_TREE, rev, "--",
                        path)
        added = out.split("\t", 1)[0] if out else "0"
        return int(added) if added.isdigit() else 0

    def changes(self, base: str, head: str) -> list[Change]:
        """Every path changed between two commits, with its new mode and blob (renames count as
        delete + add)."""
        out = self._run("diff", *NO_DRIVERS, "--raw", "-z", "--no-renames", "--no-abbrev", base,
                        head).stdout
        fields = out.split("\0")
        found = []
        for meta, path in zip(fields[0::2], fields[1::2], strict=False):
            if not meta.startswith(":"):
                continue
            old_mode, new_mode, old_blob, new_blob, status = meta[1:].split(" ")
            found.append(Change(status[0], path, new_mode, new_blob, old_blob, old_mode))
        return found

    def renames(self, base: str, head: str) -> dict[str, str]:
        """Files git sees renamed between two commits (content at least half the same):
        old path -> new path."""
        out = self._run("diff", "--name-status", "-z", "-M", "--no-abbrev", base, head).stdout
        fields, found, i = out.split("\0"), {}, 0
        while i < len(fields) - 1:
            status = fields[i]
            if status.startswith("R"):
                found[fields[i + 1]] = fields[i + 2]
                i += 3
            elif status.startswith("C"):
                i += 3
            else:
                i += 2
        return found

    def blob(self, sha: str) -> bytes:
        """The contents of a blob (a file, or a symlink's target)."""
        return self._bytes("cat-file", "blob", sha)

    def symlinks(self, commit: str) -> dict[str, bytes]:
        """Every symlink in `commit`'s tree: path -> target."""
        out = self._run("ls-tree", "-r", "-z", "--full-tree", commit).stdout
        links = {}
        for entry in out.split("\0"):
            if entry.startswith("120000 "):
                meta, path = entry.split("\t", 1)
                links[path] = self.blob(meta.split(" ")[2])
        return links

    def tree_entries(self, commit: str) -> list[TreeEntry]:
        """Every entry of `commit`'s tree, recursively, in git's order (a folder's entries
        together, after the entries that sort before it)."""
        out = self._bytes("ls-tree", "-r", "-z", "--full-tree", commit)
        entries = []
        for raw in out.split(b"\0"):
            if raw:
                meta, _, path = raw.partition(b"\t")
                mode, kind, oid = meta.decode("ascii").split(" ")
                entries.append(TreeEntry(mode, kind, oid, os.fsdecode(path)))
        return entries

    def object_format(self) -> str:
        """The repository's hash: `sha1` or `sha256`."""
        res = self._run("rev-parse", "--show-object-format", check=False)
        return res.stdout.strip() if res.ok and res.stdout.strip() else "sha1"

    def blobs(self, oids: list[str]) -> Iterator[Iterator[bytes]]:
        """The contents of each blob in `oids`, in order, streamed from one `git cat-file
        --batch`: each blob is an iterator of chunks (at most CHUNK bytes each), so no file is
        ever held whole in memory. A blob's chunks are read before the next blob is given
        (what a caller leaves unread is skipped)."""
        proc = subprocess.Popen(["git", "cat-file", "--batch"], cwd=str(self.cwd),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=hardened_env())
        assert proc.stdin is not None and proc.stdout is not None
        out = proc.stdout

        def feed() -> None:
            try:
                for oid in oids:
                    proc.stdin.write(f"{oid}\n".encode())
                proc.stdin.close()
            except (BrokenPipeError, ValueError):
                pass  # cat-file stopped (the reader below says why)

        def chunks(oid: str, left: list[int]) -> Iterator[bytes]:
            while left[0]:
                data = out.read(min(CHUNK, left[0]))
                if not data:
                    raise GitError("cat-file", f"{oid}: cut short")
                left[0] -= len(data)
                yield data

        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
        try:
            for oid in oids:
                header = out.readline(200).split()
                if len(header) != 3 or header[1] != b"blob":
                    raise GitError("cat-file", f"{oid}: not a blob here"
                                   f" ({b' '.join(header).decode(errors='replace')})")
                left = [int(header[2])]
                yield chunks(oid, left)
                for _ in chunks(oid, left):      # what the caller did not read
                    pass
                out.read(1)                      # the newline after the contents
        finally:
            out.close()
            proc.kill()
            proc.wait()
            feeder.join()

    def sized_entries(self, commit: str) -> Iterator[tuple[str, int, str]]:
        """Every entry of `commit`'s tree, folders too, recursively, as (kind, size, path)
        (size 0 but for a blob), read from `git ls-tree -r -t -l` as it comes: a caller that
        stops early (a limit passed) never holds the whole listing."""
        proc = subprocess.Popen(["git", "ls-tree", "-r", "-t", "-l", "-z", "--full-tree",
                                 commit], cwd=str(self.cwd), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                env=hardened_env())
        assert proc.stdout is not None
        try:
            rest = b""
            while block := proc.stdout.read(CHUNK):
                *records, rest = (rest + block).split(b"\0")
                for raw in records:
                    meta, _, path = raw.partition(b"\t")
                    _mode, kind, _oid, size = meta.decode("ascii").split()
                    yield kind, int(size) if size.isdigit() else 0, os.fsdecode(path)
        finally:
            proc.stdout.close()
            proc.kill()
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            if proc.wait() not in (0, -9) and err:
                raise GitError("ls-tree", err, proc.returncode)

    def files(self, commit: str) -> list[str]:
        """Every file path in `commit`'s tree."""
        out = self._run("ls-tree", "-r", "-z", "--name-only", "--full-tree", commit).stdout
        return [p for p in out.split("\0") if p]

    def paths_exist(self, commit: str, paths: list[str]) -> dict[str, bool]:
        """Whether each path (a file or a folder) is in `commit`'s tree."""
        clean = [p for p in paths if "\n" not in p]
        if not clean:
            return {p: False for p in paths}
        out = self._run("cat-file", "--batch-check",
                        input="".join(f"{commit}:{p}\n" for p in clean)).stdout.splitlines()
        found = {p: not line.endswith(" missing") for p, line in zip(clean, out, strict=True)}
        return {p: found.get(p, False) for p in paths}

    def file_at(self, rev: str, path: str) -> bytes | None:
        """The contents of file `path` at commit `rev` (a symlink: its target); None when
        `rev` has no such file."""
        res = self._run("cat-file", "-t", f"{rev}:{path}", check=False)
        if not res.ok or res.stdout.strip() != "blob":
            return None
        return self._bytes("cat-file", "blob", f"{rev}:{path}")

    def size_at(self, rev: str, path: str) -> int | None:
        """The size in bytes of file `path` at commit `rev`, read from the object's header
        (nothing of it read); None when `rev` has no such file."""
        res = self._run("cat-file", "-s", f"{rev}:{path}", check=False)
        return int(res.stdout) if res.ok and res.stdout.strip().isdigit() else None

    def commit_text(self, sha: str) -> str:
        """A commit as a person reads it: its SHA, author, date and message."""
        return self._run("log", "-1", "--no-color", "--format=commit %H%nAuthor: %an <%ae>%n"
                         "Date:   %ad%n%n%w(0,4,4)%B", sha).stdout

    def trailers(self, sha: str) -> list[tuple[str, str]]:
        msg = self._run("log", "-1", "--format=%B", sha).stdout
        parsed = self._run("interpret-trailers", "--parse", input=msg).stdout
        out = []
        for line in parsed.splitlines():
            if ":" in line:
                k, v = line.split(":", 1)
                out.append((k.strip(), v.strip()))
        return out
