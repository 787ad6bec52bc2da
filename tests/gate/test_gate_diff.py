"""An attempt's diff, parsed from real git output: every line knows its file and its numbers on
both sides, so a cursor on it maps to (file, line in the new file)."""

from __future__ import annotations

from pathlib import Path

from a2a_tui.gate.reviews.diff import attempt_diff, parse_diff, unquote
from a2a_tui.git import Git
from a2a_tui.repo import Repo
from a2a_tui.store import Store
from tests.support import a2a, commit_in, git, make_repo

OLD = {
    "src/app.py": "".join(f"line {i}\n" for i in range(1, 40)),
    "gone.txt": "bye\n",
    "moved/old name.py": "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n",
    "notes/naïve.md": "one\ntwo\n",
}


def _change(root: Path) -> None:
    app = [f"line {i}" for i in range(1, 40)]
    app[2] = "line 3 changed"
    app.insert(20, "inserted after 20")
    del app[30]
    (root / "src/app.py").write_text("\n".join(app) + "\n")
    (root / "gone.txt").unlink()
    (root / "moved/old name.py").rename(root / "moved/new name.py")
    (root / "moved/new name.py").write_text("a = 1\nb = 2\nc = 33\nd = 4\ne = 5\n")
    (root / "notes/naïve.md").write_text("one\ntwo\nthree")      # no newline at the end
    (root / "new\tfile.txt").write_text("fresh\n")


def test_every_line_maps_to_its_file_and_its_numbers_on_both_sides(tmp_path):
    root = make_repo(tmp_path / "r", OLD)
    base = git(root, "rev-parse", "HEAD")
    _change(root)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "change")
    head = git(root, "rev-parse", "HEAD")

    lines = parse_diff(Git(root).diff_text(base, head))
    files = [ln.path for ln in lines if ln.kind == "file"]
    assert sorted(files) == sorted(["src/app.py", "gone.txt", "moved/new name.py",
                                    "notes/naïve.md", "new\tfile.txt"])

    def file_at(rev: str, path: str) -> list[str]:
        return git(root, "show", f"{rev}:{path}").split("\n")

    checked = 0
    for ln in lines:
        if ln.kind in ("add", "ctx"):
            assert ln.target == (ln.path, ln.new)
            assert file_at(head, ln.path)[ln.new - 1] == ln.text[1:], ln
            checked += 1
        elif ln.kind == "del":
            assert ln.target is None
            old_path = "moved/old name.py" if ln.path == "moved/new name.py" else ln.path
            assert file_at(base, old_path)[ln.old - 1] == ln.text[1:], ln
        else:
            assert ln.target is None, ln
    assert checked > 20
    kinds = {ln.kind for ln in lines}
    assert {"file", "meta", "hunk", "add", "del", "ctx", "note"} <= kinds
    # The deleted file's lines belong to it (its old path); the added line after line 20.
    assert [ln.old for ln in lines if ln.path == "gone.txt" and ln.kind == "del"] == [1]
    assert ("src/app.py", 21) in {ln.target for ln in lines if ln.kind == "add"}


def test_quoted_paths_are_read_back():
    assert unquote('"new\\tfile.txt"') == "new\tfile.txt"
    assert unquote('"na\\303\\257ve.md"') == "naïve.md"
    assert unquote("plain.py") == "plain.py"


def test_an_attempts_diff_runs_from_its_start_commit_to_its_candidate_else_its_branch(repo):
    from tests.support import write_card

    assert a2a("card", "add", str(write_card(repo, "T-1")), cwd=repo).code == 0
    assert a2a("card", "ready", "T-1", cwd=repo).code == 0
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    wt = Path(c["worktree"])
    commit_in(wt, {"src/app.py": "def name(n):\n    return n or 'anon'\n"})
    with Store(repo / ".a2a/a2a.db") as s:
        d = attempt_diff(Repo(repo), s, c["attempt"])
    assert d.head_is == f"branch a2a/{c['attempt']} (not submitted)"
    assert d.base == c["start_commit"] and d.files == ["src/app.py"]
    assert (d.added, d.deleted) == (1, 1)
    sha = commit_in(wt, {"src/extra.py": "x = 1\n"})
    assert a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
               str(c["fence"]), cwd=repo).code == 0
    commit_in(wt, {"src/later.py": "after the submission\n"})   # not part of the candidate
    with Store(repo / ".a2a/a2a.db") as s:
        d = attempt_diff(Repo(repo), s, c["attempt"])
        cut = attempt_diff(Repo(repo), s, c["attempt"], max_lines=3)
    assert (d.head, d.head_is) == (sha, "candidate 1")
    assert d.files == ["src/app.py", "src/extra.py"] and not d.truncated
    assert len(cut.lines) == 3 and cut.truncated
