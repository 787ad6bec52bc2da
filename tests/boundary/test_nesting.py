"""The most specific path decides, whatever the order the paths come in.

A session's paths nest: a CLI's state folder lies in HOME (made private), HOME may lie inside
a folder bound read-only (a test's HOME inside a2a's checkout, as CI's real-CLI cache is), a
folder the user made writable may lie inside one they made read-only, tmux's socket folder
inside a writable one. bwrap applies its options in order and a later mount covers an earlier
one, so a read-only bind of a parent placed after a writable bind of its child makes the child
read-only (CI: `EROFS: mkdir '<checkout>/.cache/real-cli/work/w-…/home/.claude'`). These run
the real engine on such a layout, and check the order for every permutation of the lists.
"""

from __future__ import annotations

import random
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from a2a_tui.confine import Policy, Request, bwrap, confine
from a2a_tui.confine.policy import build
from a2a_tui.confine.seatbelt import profile
from a2a_tui.repo import Repo
from a2a_tui.spawn import _make_state_folders
from tests.boundary.pane import need_namespaces

SH = "/bin/sh"


def layout(tmp_path: Path) -> tuple[Request, dict[str, Path]]:
    """A checkout bound read-only holding HOME (private), the repository and a folder the user
    made writable; the CLI's state folder in HOME, which does not exist yet."""
    top = tmp_path / "checkout"
    home, repo, shared = top / "cache" / "home", top / "repo", top / "data" / "shared"
    for folder in (home, repo, shared):
        folder.mkdir(parents=True)
    (home / "secret").write_text("the host's HOME\n")
    r = Repo(repo)
    for folder in (r.session_out_dir("w1"), r.session_spool_dir("w1"),
                   r.session_broker_dir("w1")):
        folder.mkdir(parents=True)
    (r.a2a_dir / "a2a.db").write_text("the store\n")
    req = Request(repo_root=repo, a2a_dir=r.a2a_dir, run_dir=r.session_run_dir("w1"),
                  out_dir=r.session_out_dir("w1"), spool_dir=r.session_spool_dir("w1"),
                  broker_dir=r.session_broker_dir("w1"), cwd=repo, write_cwd=False,
                  binary=SH, search_path="/usr/bin:/bin", state=(home / ".claude",),
                  home=home, extra_read=(str(top),), extra_write=(str(shared),))
    return req, {"top": top, "home": home, "repo": repo, "shared": shared,
                 "out": r.session_out_dir("w1"), "store": r.a2a_dir / "a2a.db"}


def inside(req: Request, script: str) -> subprocess.CompletedProcess:
    box = confine(req)
    assert box.confined, box.reason
    env = {"PATH": "/usr/bin:/bin", "HOME": str(req.home)}
    return subprocess.run([*box.prefix, SH, "-c", script], capture_output=True, text=True,
                          timeout=30, env=env)


def test_a_writable_path_inside_a_read_only_parent_stays_writable(tmp_path):
    need_namespaces()
    req, p = layout(tmp_path)
    r = inside(req, f"""
        mkdir "$HOME/.claude" && echo state > "$HOME/.claude/s" && echo ok-state
        echo here > "$HOME/new" && echo ok-home
        cat "$HOME/secret" 2>/dev/null || echo no-secret
        echo mine > {p['shared']}/f && echo ok-shared
        echo done > {p['out']}/r && echo ok-out
        touch {p['top']}/planted 2>/dev/null || echo ro-top
        touch {p['repo']}/planted 2>/dev/null || echo ro-repo
        cat {p['store']} 2>/dev/null || echo no-store
    """)
    said = r.stdout.split()
    # HOME is the session's own (empty, writable) even inside a read-only folder, and so its
    # state folder in it; the user's writable folder and the session's output folder are
    # writable inside their read-only parents.
    for word in ("ok-state", "ok-home", "no-secret", "ok-shared", "ok-out"):
        assert word in said, (word, r.stdout, r.stderr)
    # What is read-only stays so, and `.a2a/` stays hidden.
    for word in ("ro-top", "ro-repo", "no-store"):
        assert word in said, (word, r.stdout, r.stderr)
    assert (p["shared"] / "f").read_text() == "mine\n" and (p["out"] / "r").exists()
    assert not (p["home"] / "new").exists() and not (p["top"] / "planted").exists()


@pytest.mark.parametrize("where", ["writable", "read-inside-home"])
def test_tmux_socket_folder_inside_a_bound_folder_is_hidden(tmp_path, where):
    need_namespaces()
    req, p = layout(tmp_path)
    if where == "writable":
        bound = p["shared"]
    else:                                 # a folder the user made readable, inside HOME
        bound = p["home"] / "proj"
        req = replace(req, extra_read=(*req.extra_read, str(bound)))
    tmux = bound / "tmux-0"
    tmux.mkdir(parents=True)
    (tmux / "default").write_text("a socket\n")
    (bound / "seen").write_text("x\n")
    r = inside(replace(req, tmux_dir=tmux), f"ls {tmux}; cat {bound}/seen && echo ok")
    assert "default" not in r.stdout and "ok" in r.stdout.split(), (r.stdout, r.stderr)


def _mounts(words: list[str]) -> list[tuple[str, str]]:
    """(option, destination) of each mount in bwrap's argv, in order."""
    out, i = [], 0
    two = {"--ro-bind-try", "--bind-try", "--ro-bind", "--bind", "--symlink"}
    one = {"--tmpfs", "--remount-ro", "--dev", "--proc"}
    while i < len(words) and words[i] != "--":
        w = words[i]
        if w in two:
            out.append((w, words[i + 2]))
            i += 3
        elif w in one:
            out.append((w, words[i + 1]))
            i += 2
        elif w in ("--setenv",):
            i += 3
        elif w in ("--unsetenv",):
            i += 2
        else:
            i += 1
    return out


def _under(path: str, root: str) -> bool:
    return path != root and path.startswith(root.rstrip("/") + "/")


def _shuffles(policy: Policy, n: int = 40):
    """The policy as given, and with each of its lists in other orders."""
    rng = random.Random(27)
    yield policy
    for _ in range(n):
        lists = {f: tuple(rng.sample(getattr(policy, f), len(getattr(policy, f))))
                 for f in ("read", "write", "private", "hidden", "reopen")}
        yield replace(policy, **lists)


def test_every_order_of_the_lists_mounts_each_parent_before_what_lies_in_it(tmp_path):
    req, p = layout(tmp_path)
    policy = replace(build(req), hidden=(str(p["repo"] / ".a2a"), str(p["shared"] / "tmux")))
    for shown in _shuffles(policy):
        mounts = _mounts(bwrap.argv("bwrap", shown))
        made = [(i, path) for i, (opt, path) in enumerate(mounts) if opt != "--remount-ro"]
        for i, path in made:
            later_parents = [q for j, q in made if j > i and _under(path, q)]
            assert not later_parents, (path, later_parents, shown)
        # A hidden folder is made read-only after everything mounted inside it.
        for path in shown.hidden:
            ro = mounts.index(("--remount-ro", path))
            assert all(j < ro for j, q in made if _under(q, path)), path


def test_the_seatbelt_profile_lets_the_most_specific_path_decide(tmp_path):
    """macOS has no mounts, only rules where the last match wins: a private folder inside a
    read one is refused after the read is allowed, a hidden one inside a writable one after
    the write is allowed (the profile's text: it cannot run off macOS)."""
    req, p = layout(tmp_path)
    tmux = p["shared"] / "tmux-501"
    lines = profile(build(replace(req, tmux_dir=tmux)), "/x/tmp").splitlines()

    def last(head: str, path: Path) -> int:
        return max(i for i, ln in enumerate(lines)
                   if ln.startswith(head) and f'(subpath "{path}")' in ln)
    assert last("(deny file-read*", p["home"]) > last("(allow file-read*", p["top"])
    assert last("(allow file-read* file-write*", p["home"] / ".claude") \
        > last("(deny file-read*", p["home"])
    assert last("(deny file-read* file-write*", tmux) \
        > last("(allow file-read* file-write*", p["shared"])
    sockets = [i for i, ln in enumerate(lines) if ln.startswith("(deny network-outbound")
               and str(tmux) in ln.replace("\\", "")]
    allowed = [i for i, ln in enumerate(lines) if ln.startswith("(allow network-outbound")]
    assert sockets and max(sockets) > max(allowed)


def test_a_missing_state_folder_is_made_and_a_missing_state_file_is_noted(tmp_path):
    """A state path that does not exist cannot be bound: the CLI's login and conversations
    would land in the private HOME and end with the session (a Claude Code revive then finds
    no conversation). spawn makes a missing folder, empty and the user's alone, as the CLI
    would on its first start; a missing file is named in the launch record."""
    req, p = layout(tmp_path)
    home = p["home"]
    nowhere = tmp_path / "no-such-home" / ".codex"
    _make_state_folders((home / ".claude", home / ".claude.json", nowhere))
    assert (home / ".claude").is_dir() and (home / ".claude").stat().st_mode & 0o077 == 0
    assert list((home / ".claude").iterdir()) == []
    assert not (home / ".claude.json").exists() and not nowhere.parent.exists()
    notes = build(replace(req, state=(home / ".claude", home / ".claude.json"))).notes
    assert [n for n in notes if "does not exist" in n] == [
        f"{home / '.claude.json'} does not exist: what the CLI keeps there lasts only as long"
        " as the session"]
