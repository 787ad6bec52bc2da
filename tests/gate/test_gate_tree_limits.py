"""A candidate's tree is bounded: its depth, its number of entries, its largest file and its
total size, each capped by gate.toml's `[limits]` and refused at verify's boundary step
(`tree_too_large`, blocking whatever the rules say of the step) before any checkout is written.

A very deep tree once ended verify in a Python traceback, and a blob of zeros that packs to a
few hundred KiB was read whole into a2a's memory; a checkout now streams each file to disk.
"""

from __future__ import annotations

import subprocess
import tracemalloc

import pytest

from a2a_tui.gate.context import Caller, GateContext
from a2a_tui.gate.verification.checkout import Checkout
from a2a_tui.git import GitError
from a2a_tui.repo import Repo
from a2a_tui.store import Store
from tests.gate.verify_support import claim, gate_toml, result, submit, submit_verify
from tests.support import a2a, git


def _commit(wt, files: dict[str, bytes]) -> str:
    """A commit on the clone's HEAD adding `files`, made by `git fast-import` (no checkout
    holds a path thousands of folders deep)."""
    head = git(wt, "rev-parse", "HEAD")
    stream = (f"commit refs/heads/big\ncommitter w <w@w> 0 +0000\ndata 3\nbig\n"
              f"from {head}\n").encode()
    for path, data in files.items():
        stream += f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n"
    subprocess.run(["git", "fast-import", "--quiet"], cwd=wt, input=stream, check=True,
                   capture_output=True)
    return git(wt, "rev-parse", "refs/heads/big")


def _refused(repo, c, sha: str, mark) -> dict:
    v = submit_verify(repo, c, sha=sha)
    assert v.code == 1 and v.json["verdict"] == "rejected", v.out + v.err
    b = result(v, "boundary")
    assert b["code"] == "tree_too_large" and b["blocking"], b
    assert not mark.exists()          # no check ran: nothing was written for one
    return b


CHECK = "touch {mark}"


@pytest.fixture
def mark(tmp_path):
    return tmp_path / "ran"


def test_a_very_deep_tree_is_refused_not_a_traceback(repo, mark):
    gate_toml(repo, "[steps]\nboundary = false\n")
    c, wt = claim(repo, CHECK.format(mark=mark))
    sha = _commit(wt, {"src/" + "d/" * 3000 + "f.py": b"x = 1\n"})
    b = _refused(repo, c, sha, mark)
    assert "deep" in b["detail"], b


@pytest.mark.parametrize("rules,files,word", [
    ("blob_bytes = 4096", {"src/zeros.bin": bytes(1 << 20)}, "src/zeros.bin"),
    ("tree_bytes = 100000", {f"src/f{i}.txt": bytes([65 + i]) * 30000 for i in range(5)},
     "bytes"),
    ("entries = 50", {f"src/f{i}.txt": b"%d\n" % i for i in range(60)}, "entries"),
    ("depth = 4", {"src/a/b/c/d/e.txt": b"deep\n"}, "deep"),
], ids=["blob", "total", "entries", "depth"])
def test_each_limit_of_the_rules_refuses_before_anything_is_written(repo, mark, rules, files,
                                                                     word):
    gate_toml(repo, f"[limits]\n{rules}\n")
    c, wt = claim(repo, CHECK.format(mark=mark))
    b = _refused(repo, c, _commit(wt, files), mark)
    assert word in b["detail"], b


def test_a_checkout_streams_each_file_and_refuses_past_the_limits(repo):
    # The checkout keeps the rules itself (a reviewer's read-only checkout, a base run), and
    # never holds a whole file in memory: 32 MiB of zeros (a few KiB packed) are written with
    # far less than that allocated.
    size = 32 << 20
    gate_toml(repo, f"[limits]\nblob_bytes = {size}\n")
    c, wt = claim(repo)
    sha = _commit(wt, {"src/zeros.bin": bytes(size)})
    assert submit(repo, c, sha).code == 0
    with Store(repo / ".a2a" / "a2a.db") as store:
        tracemalloc.start()
        try:
            with Checkout(GateContext(Repo(repo), store, Caller()), sha, "t") as path:
                assert (path / "src/zeros.bin").stat().st_size == size
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak < size // 4, peak
    gate_toml(repo, "[limits]\nblob_bytes = 1000\n")
    with Store(repo / ".a2a" / "a2a.db") as store:
        co = Checkout(GateContext(Repo(repo), store, Caller()), sha, "t")
        with pytest.raises(GitError) as got:
            co.__enter__()
        assert got.value.code == "tree_too_large", got.value
        assert "src/zeros.bin" in got.value.message
        assert not co.path.exists()


def test_show_never_reads_a_file_past_the_largest_allowed(repo):
    # `a2a show ATTEMPT:PATH` prints one file of a candidate: a reviewer's command, and the
    # file is the writer's. One past limits.blob_bytes is refused, not read whole.
    gate_toml(repo, "[limits]\nblob_bytes = 4096\n")
    c, wt = claim(repo)
    sha = _commit(wt, {"src/zeros.bin": bytes(1 << 20)})
    assert submit(repo, c, sha).code == 0
    r = a2a("show", f"{c['attempt']}:src/zeros.bin", "--json", cwd=repo)
    assert r.code != 0, r.out[:200]
    assert r.json["error"]["code"] == "tree_too_large", r.out[:300]
    assert "src/zeros.bin" in r.json["error"]["message"]


def test_the_clones_light_defaults_are_the_rules_defaults():
    from a2a_tui.gate.attempts import clones
    from a2a_tui.gate.cards.gate_rules import Limits

    assert (clones.TREE_BYTES_DEFAULT, clones.CLONE_S_DEFAULT) == (Limits().tree_bytes,
                                                                   Limits().clone_s)
