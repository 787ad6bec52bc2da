"""`a2a serve` says it serves only once it holds the repository's orchestrator lock: a second one
is refused in one line, without first claiming to serve."""

from __future__ import annotations


def test_a_refused_serve_never_says_it_is_serving(world, repo, serve):
    first = serve()
    r = world.a2a("serve", "--tmux-socket", world.sock)
    assert r.code != 0
    assert "serving" not in r.err and "serving" not in r.out
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith("[orchestrator_running]"), r.err
    assert f"pid {first.proc.pid}" in lines[0]
    assert "serving" in first.output()   # the one that holds the lock said it
