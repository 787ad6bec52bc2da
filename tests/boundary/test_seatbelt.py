"""macOS: the session's Seatbelt profile, as text (it cannot run off macOS), and the darwin
branch of a launch taken on Linux with `A2A_PLATFORM=darwin`."""

from __future__ import annotations

import re
from pathlib import Path

from a2a_tui.confine import Engine, Probe, Request, confine
from a2a_tui.confine.seatbelt import profile
from a2a_tui.repo import Repo
from tests.support import write_user_config

SANDBOX_EXEC = Probe(Engine.SEATBELT, True, "/usr/bin/sandbox-exec", "1")


def request(root: Path, cwd: Path | None = None, write_cwd: bool = False) -> Request:
    r = Repo(root)
    return Request(repo_root=root, a2a_dir=r.a2a_dir, run_dir=r.session_run_dir("w1"),
                   out_dir=r.session_out_dir("w1"), spool_dir=r.session_spool_dir("w1"),
                   broker_dir=r.session_broker_dir("w1"), cwd=cwd or root, write_cwd=write_cwd,
                   binary="/usr/bin/true", search_path="/usr/bin:/bin",
                   state=(Path("/Users/me/.codex"),), home=Path("/Users/me"),
                   tmux_dir=Path("/private/tmp/tmux-501"))


def balanced(text: str) -> bool:
    depth = 0
    for ch in re.sub(r'"(?:\\.|[^"\\])*"', '""', text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def rules(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.startswith("(")]


def test_the_profile_hides_a2a_and_home_and_keeps_the_sessions_own_folders(tmp_path):
    root = Path("/Users/me/src/proj")
    clone = root / ".a2a" / "worktrees" / "T-1-a1"
    box = confine(request(root, clone, write_cwd=True), machine=SANDBOX_EXEC)
    assert box.confined and box.engine == Engine.SEATBELT
    argv = list(box.prefix)
    assert argv[:2] == ["/usr/bin/sandbox-exec", "-p"]
    text = argv[2]
    assert balanced(text) and text.startswith("(version 1)")
    lines = rules(text)
    order = {name: next(i for i, ln in enumerate(lines) if ln.startswith(name))
             for name in ("(deny file-write*)", "(deny file-read* (subpath",
                          "(deny file-read* file-write*")}
    # Later rules win: writes refused, then the session's allowed; .a2a denied last but for
    # the session's own folders, allowed again after it.
    assert order["(deny file-write*)"] < order["(deny file-read* (subpath"] \
        < order["(deny file-read* file-write*"]
    last_deny = lines[order["(deny file-read* file-write*"]]
    assert f'(subpath "{root}/.a2a")' in last_deny
    last_allow = next(ln for ln in reversed(lines) if ln.startswith("(allow file-read* file-wr"))
    for own in (clone, root / ".a2a/run/w1/out", root / ".a2a/spool/w1",
                root / ".a2a/broker/w1", Path("/Users/me/.codex")):
        assert f'(subpath "{own}")' in last_allow, own
    assert lines.index(last_allow) > order["(deny file-read* file-write*"]
    home_deny = lines[order["(deny file-read* (subpath"]]
    assert '(subpath "/Users/me")' in home_deny and '(subpath "/private/tmp")' in home_deny
    # No looking at or signalling a process outside; no connection to tmux's socket.
    assert "(deny process-info*)" in lines and "(deny signal)" in lines
    assert lines.index("(allow signal (target same-sandbox))") > lines.index("(deny signal)")
    assert any(ln.startswith("(deny network-outbound") and "/private/tmp" in ln for ln in lines)
    # A private TMPDIR in place of the shared /tmp, under the session's folder.
    assert box.env["TMPDIR"].startswith(str(root / ".a2a/run/w1/tmp"))
    assert box.to_json()["digest"].startswith("sha256:")


def test_a_path_with_quotes_is_escaped(tmp_path):
    root = Path('/Users/me/we"ird\\name')
    text = profile(confine(request(root), machine=SANDBOX_EXEC).policy, "/x/tmp")
    assert balanced(text)
    assert '(subpath "/Users/me/we\\"ird\\\\name")' in text


def test_the_darwin_branch_on_linux_finds_no_sandbox_exec_and_refuses(world, repo, monkeypatch):
    monkeypatch.setenv("A2A_PLATFORM", "darwin")
    # The user's own word first (a world on a machine that cannot confine allows it).
    write_user_config(world, "[confinement]\nallow_unconfined = false\n")
    r = world.a2a("spawn", "worker", "--cli", "demo", "--tmux-socket", world.sock, "--json",
                  env={"A2A_PLATFORM": "darwin"})
    assert r.code != 0 and r.json["error"]["code"] == "confinement_unavailable", r.out
    assert "sandbox-exec" in r.json["error"]["message"]
    write_user_config(world, "[confinement]\nallow_unconfined = true\n")
    r = world.a2a("spawn", "worker", "--cli", "demo", "--tmux-socket", world.sock, "--json",
                  env={"A2A_PLATFORM": "darwin"})
    assert r.code == 0, r.out
    assert r.json["confinement"]["confined"] is False
