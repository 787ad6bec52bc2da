"""diff, show: an attempt's change, read through a2a (a reviewer needs no git of its own)."""

# Imports inside functions: each command imports what it runs when it runs (a2a's start-up:
# tests/test_startup.py, bench/bench_cli.py).

from __future__ import annotations

from a2a_tui.cli.output import Result


def cmd_diff(ctx, args) -> Result:
    # lazy: each command imports only what it runs (a2a's start-up cost is paid per call)
    from a2a_tui.gate.reviews.diff import attempt_diff

    d = attempt_diff(ctx.repo, ctx.store, args.attempt)
    text = "\n".join(ln.text for ln in d.lines)
    if d.truncated:
        text += "\n(the diff is longer: cut here)"
    return Result({"attempt": d.attempt, "base": d.base, "head": d.head, "head_is": d.head_is,
                   "files": d.files, "added": d.added, "deleted": d.deleted,
                   "truncated": d.truncated, "diff": text},
                  f"# {d.attempt}: {d.base[:12]}..{d.head[:12]} ({d.head_is})\n{text}")


def cmd_show(ctx, args) -> Result:
    # lazy: each command imports only what it runs (a2a's start-up cost is paid per call)
    from a2a_tui.gate.reviews.diff import attempt_show

    attempt, _, path = args.target.partition(":")
    s = attempt_show(ctx.repo, ctx.store, attempt, path or None)
    return Result({"attempt": s.attempt, "head": s.head, "head_is": s.head_is, "path": s.path,
                   "text": s.text}, s.text.rstrip("\n"))
