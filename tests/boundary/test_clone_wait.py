"""Nothing an agent writes in its clone makes a user's command wait forever.

The worker owns its clone's `.git`: it can point `objects/info/alternates` at a folder whose own
alternates file is a named pipe, make a loose object or a pack index a pipe, or turn
`objects/pack` or `objects/xx` into a symlink to such a folder; in its files, a `.gitignore` or
`.gitattributes` that is a pipe stops any git that reads the work tree. Each of these once made
`a2a diff`, `a2a show` or `a2a reclaim` (which holds the attempt's lock) wait for ever: the
import read the clone's objects through git, which opens what it finds. Now the import copies
only regular files of the clone's own object folder (alternates not followed at all) and
refuses the rest by name (`clone_unsafe`); every git process reading a clone has a time limit
(`[limits] clone_s`, `git_timeout`).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from a2a_tui.gate.reviews.diff import attempt_diff
from a2a_tui.repo import Repo
from a2a_tui.store import Store
from tests.gate.verify_support import gate_toml
from tests.support import a2a, add_ready_card, commit_in

# Long enough for a2a on a busy machine, far shorter than for ever.
PATIENCE = 60


@pytest.fixture
def pipes():
    """Named pipes made by a test, each opened for writing and closed at the end: a reader
    still blocked on one (today's code) gets its end of file and exits."""
    made: list[Path] = []

    def make(path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(path)
        made.append(path)
        return path

    yield make
    for p in made:
        try:
            os.close(os.open(p, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass      # nobody reads it: nothing waits


def _claimed(repo: Path) -> tuple[str, Path, str]:
    attempt = a2a("claim", add_ready_card(repo), "--json", cwd=repo).json["attempt"]
    clone = repo / ".a2a" / "worktrees" / attempt
    sha = commit_in(clone, {"src/app.py": "fixed = True\n"})
    return attempt, clone, sha


def _reclaimed(run) -> dict:
    return run.json["reclaimed"][0]


def _loose(clone: Path, sha: str) -> Path:
    return clone / ".git" / "objects" / sha[:2] / sha[2:]


def test_nested_alternates_with_a_pipe_are_not_followed(repo, tmp_path, pipes):
    attempt, clone, sha = _claimed(repo)
    nest = tmp_path / "nest"
    (nest / "info").mkdir(parents=True)
    pipes(nest / "info" / "alternates")
    alternates = clone / ".git" / "objects" / "info" / "alternates"
    alternates.write_text(alternates.read_text() + f"{nest}\n")
    for args in (("diff", attempt), ("show", attempt)):
        r = a2a(*args, "--json", cwd=repo, timeout=PATIENCE)
        assert r.code == 0, (args, r.out, r.err)
        assert sha in r.out
    # The workbench's diff view takes the same road.
    with Store(repo / ".a2a" / "a2a.db") as store:
        assert attempt_diff(Repo(repo), store, attempt).head == sha


def _pipe_object(clone: Path, sha: str, pipes, outside: Path) -> str:
    obj = _loose(clone, sha)
    obj.unlink()
    pipes(obj)
    return str(obj)


def _symlinked_fanout(clone: Path, sha: str, pipes, outside: Path) -> str:
    fanout = _loose(clone, sha).parent
    away = outside / "fanout"
    fanout.rename(away)
    (away / sha[2:]).unlink()
    pipes(away / sha[2:])
    fanout.symlink_to(away)
    return str(fanout)


def _symlinked_pack(clone: Path, sha: str, pipes, outside: Path) -> str:
    # The commit moved into a pack, the pack folder a symlink to one whose index is a pipe.
    objects = clone / ".git" / "objects"
    _loose(clone, sha).unlink()
    away = outside / "pack"
    away.mkdir()
    pipes(away / ("pack-" + "0" * 40 + ".idx"))
    (away / ("pack-" + "0" * 40 + ".pack")).write_bytes(b"PACK")
    (objects / "pack").rmdir()
    (objects / "pack").symlink_to(away)
    return str(objects / "pack")


def _pipe_index(clone: Path, sha: str, pipes, outside: Path) -> str:
    pack = clone / ".git" / "objects" / "pack"
    (pack / ("pack-" + "1" * 40 + ".pack")).write_bytes(b"PACK")
    return str(pipes(pack / ("pack-" + "1" * 40 + ".idx")))


@pytest.mark.parametrize("plant", [_pipe_object, _symlinked_fanout, _symlinked_pack, _pipe_index],
                         ids=["pipe-object", "symlinked-fanout", "symlinked-pack", "pipe-index"])
def test_a_pipe_or_a_symlink_in_the_clones_objects_is_refused_by_name(repo, tmp_path, pipes,
                                                                      plant):
    attempt, clone, sha = _claimed(repo)
    named = plant(clone, sha, pipes, tmp_path)
    for args in (("diff", attempt), ("show", attempt)):
        r = a2a(*args, "--json", cwd=repo, timeout=PATIENCE)
        assert r.code != 0, (args, r.out)
        assert r.json["error"]["code"] == "clone_unsafe", r.out
        assert named in r.json["error"]["message"], r.out
    a2a("abandon", attempt, "--score", "boundary=0:x", "--score", "taste=0:x", "--reason", "x",
        cwd=repo)
    rec = a2a("reclaim", attempt, "--json", cwd=repo, timeout=PATIENCE)
    assert rec.code == 0, rec.out
    assert _reclaimed(rec)["worktree_state"] == "unknown", rec.out
    assert clone.is_dir()                                   # nothing removed


@pytest.mark.parametrize("name", [".gitignore", "src/.gitattributes"])
def test_a_pipe_in_the_clones_files_does_not_hold_reclaim(repo, pipes, name):
    gate_toml(repo, "[limits]\nclone_s = 2\n")
    attempt, clone, sha = _claimed(repo)
    pipes(clone / name)
    a2a("abandon", attempt, "--score", "boundary=0:x", "--score", "taste=0:x", "--reason", "x",
        cwd=repo)
    rec = a2a("reclaim", attempt, "--json", cwd=repo, timeout=PATIENCE)
    assert rec.code == 0, rec.out
    got = _reclaimed(rec)
    assert got["worktree_state"] == "unknown", got
    assert "git_timeout" in got["reason"] or "time limit" in got["reason"], got
    assert clone.is_dir()
    # The attempt's lock was let go: the next reclaim is not refused as busy.
    again = a2a("reclaim", attempt, "--json", cwd=repo, timeout=PATIENCE)
    assert again.code == 0, again.out
