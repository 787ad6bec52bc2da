"""comment: line comments on an attempt's diff, held until `a2a comment send` gives them to its
writer as one prompt (a2a_tui/gate/reviews/comments.py)."""

# Imports inside functions: each command imports what it runs when it runs (a2a's start-up:
# tests/test_startup.py, bench/bench_cli.py).

from __future__ import annotations

import sys

from a2a_tui.cli.output import Result
from a2a_tui.errors import A2AError

USAGE = ("a2a comment ATTEMPT --file F --line N --text TEXT | a2a comment list ATTEMPT [--all]"
         " | a2a comment edit C-N --text TEXT | a2a comment remove C-N | a2a comment send"
         " ATTEMPT")
VERBS = ("list", "edit", "remove", "send")


def _usage(message: str) -> A2AError:
    return A2AError("usage", f"a2a comment: {message} (usage: {USAGE})", exit_code=2)


def _text(args) -> str:
    if args.text is None:
        raise _usage("--text is required")
    return sys.stdin.read() if args.text == "-" else args.text


def _one(words: list[str], what: str) -> str:
    if len(words) != 2:
        raise _usage(f"{words[0]} takes one {what}")
    return words[1]


def cmd_comment(ctx, args) -> Result:
    # lazy: each command imports only what it runs (a2a's start-up cost is paid per call)
    from a2a_tui.gate.reviews import comments

    words = list(args.words)
    verb = words[0] if words[0] in VERBS else None
    if verb is None:
        if len(words) != 1:
            raise _usage(f"one ATTEMPT, not {' '.join(words)!r}")
        if args.file is None or args.line is None:
            raise _usage("a comment needs --file and --line")
        try:
            line = int(args.line)
        except ValueError:
            raise _usage(f"--line must be a line number, not {args.line!r}") from None
        c = comments.add(ctx.gate, words[0], args.file, line, _text(args))
        return Result(c.to_json(), f"{c.id} held on {c.path}:{c.line} of {c.attempt} at"
                      f" {c.sha[:12]} (`a2a comment send {c.attempt}` sends the held ones)")
    if verb == "list":
        attempt = _one(words, "ATTEMPT")
        from a2a_tui.gate.reviews.diff import attempt_diff

        held = comments.in_diff_order(comments.listed(ctx.gate.store, attempt, every=args.all),
                                      attempt_diff(ctx.repo, ctx.gate.store, attempt))
        lines = [f"{c.id:<6} {c.state:<7} {c.path}:{c.line} @{c.sha[:12]}  "
                 + c.text.splitlines()[0][:80] for c in held]
        return Result({"attempt": attempt, "comments": [c.to_json() for c in held]},
                      "\n".join(lines) or f"{attempt} has no held comments")
    if verb == "edit":
        c = comments.edit(ctx.gate, _one(words, "comment id"), _text(args))
        return Result(c.to_json(), f"{c.id} edited")
    if verb == "remove":
        c = comments.remove(ctx.gate, _one(words, "comment id"))
        return Result(c.to_json(), f"{c.id} removed")
    r = comments.send(ctx.gate, _one(words, "ATTEMPT"))
    older = f"; {len(r.older)} written against an older SHA" if r.older else ""
    return Result(r.to_json(), f"sent {len(r.comments)} comment(s) on {r.attempt} at"
                  f" {r.sha[:12]} to {r.session} as #{r.dispatch}{older} · {r.user_input}")
