"""Task cards: card new (a commented template in $EDITOR), edit, add, show, ready, list."""

# Imports inside functions: each command imports what it runs when it runs (a2a's start-up:
# tests/test_startup.py, bench/bench_cli.py).

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from a2a_tui import gate
from a2a_tui.cli.output import Result, ask, print_problems
from a2a_tui.errors import A2AError

if TYPE_CHECKING:
    from a2a_tui.gate.cards.commands import CardAdded


def _added(r: CardAdded) -> str:
    return f"card {r.card} v{r.version} {r.verb()} ({r.state}){r.filled_note()}"


def cmd_card_add(ctx, args) -> Result:
    r = gate.add_card(ctx.gate, args.file)
    return Result(r.to_json(), _added(r), rules="card add")


def cmd_card_new(ctx, args) -> Result:
    from a2a_tui.collab.project import profile_confirmed
    from a2a_tui.gate.cards.cardfile import template
    from a2a_tui.gate.cards.commands import write_draft

    given = profile_confirmed(ctx.store)   # the project's profile, as the user confirmed it
    project = given.to_json() if given else None
    if args.print_only:
        text = template(args.title, project)
        return Result({"template": text}, text.rstrip("\n"))
    path, untouched = write_draft(ctx.repo, args.title, args.file, project)
    if args.no_edit:
        return Result({"file": str(path), "added": False},
                      f"the card's template is {path}: edit it, then `a2a card add {path}`")
    return _edit_and_add(ctx, args, path, untouched, new=True)


def cmd_card_edit(ctx, args) -> Result:
    from a2a_tui.gate.cards.commands import write_edit

    path, before = write_edit(ctx.gate, args.card)
    args.ready = False
    return _edit_and_add(ctx, args, path, before, new=False)


def _edit_and_add(ctx, args, path: Path, untouched: str, *, new: bool) -> Result:
    """Open the editor on `path` and add what it holds; at a terminal, a card with problems is
    shown with every problem and opened again on request. Nothing is stored until it is valid."""
    from a2a_tui.gate.cards.commands import ready_card, settle_draft

    at_terminal = sys.stdin.isatty() and not getattr(args, "json", False)
    while True:
        run_editor(path)
        if path.read_text(encoding="utf-8") == untouched:
            if new:
                path.unlink()
                raise A2AError("card_unchanged", f"{path}: the template was not changed:"
                               " nothing stored")
            return Result({"card": args.card, "changed": False, "file": str(path)},
                          f"card {args.card} not changed")
        try:
            r = gate.add_card(ctx.gate, path)
            break
        except A2AError as err:
            if err.code != "bad_card":
                raise
            if not at_terminal:
                raise kept(err, path) from None
            print_problems(err)
            if not ask("Edit it again? [Y/n] ", default=True):
                raise kept(err, path) from None
    if new:
        path = settle_draft(ctx.repo, path, r.card)
    data = {**r.to_json(), "file": str(path)}
    text = _added(r) + f"\n  file {path}"
    rules = []
    if args.ready:
        done = ready_card(ctx.gate, r.card)
        data["ready"] = done.to_json()
        text += f"\ncard {r.card} v{done.version} is ready"
        rules = ["card ready"]
    else:
        text += f"\n`a2a card ready {r.card}` confirms it ready to be claimed"
    from a2a_tui.cli.rules import rules_for

    return Result(data, text, rules="card add",
                  extra_rules=[x for c in rules for x in rules_for(c)])


def kept(err: A2AError, path: Path) -> A2AError:
    """The refusal, saying where the card waits to be fixed."""
    where = f" (kept in {path}: fix it and run `a2a card add {path}`)"
    details = dict(err.details)
    if "headline" in details:
        details["headline"] += where
    return A2AError(err.code, err.message + where, exit_code=err.exit_code, details=details)


def run_editor(path: Path) -> None:
    """$VISUAL / $EDITOR on the file, in this terminal; a failed editor stores nothing."""
    from a2a_tui.gate.cards.cardfile import describe_editor, editor_argv

    try:
        code = subprocess.run(editor_argv(str(path))).returncode
    except OSError as exc:
        raise A2AError("editor_failed", f"the editor ({describe_editor()}) could not start:"
                       f" {exc.strerror}; the card is in {path}") from None
    if code != 0:
        raise A2AError("editor_failed", f"the editor ({describe_editor()}) exited {code}:"
                       f" nothing stored; the card is in {path}")


def cmd_card_show(ctx, args) -> Result:
    r = gate.show_card(ctx.gate, args.card).to_json()
    b = r["body"]
    lines = [f"{r['card']}  v{r['version']}  {r['state']}  fence {r['fence']}  {r['digest'][:19]}",
             f"title: {b['title']}", f"goal: {b['goal']}",
             "non-goals:", *[f"  - {x}" for x in b["non_goals"]],
             "allowed paths: " + ", ".join(b["allowed_paths"]),
             "acceptance:", *[f"  - {x}" for x in b["acceptance"]],
             "checks:", *[f"  - {c['name']}: {c['command']}"
                          f" ({'blocking' if c['blocking'] else 'advisory'},"
                          f" {c['timeout_s'] or 'the gate default '}s)"
                          for c in b["checks"]]]
    for key in ("artifacts", "droppable_tests"):
        if b.get(key):
            lines.append(f"{key.replace('_', ' ')}: " + ", ".join(b[key]))
    if b.get("env"):
        lines.append("env: " + ", ".join(f"{k}={v}" for k, v in b["env"].items()))
    for key in ("review", "integrate_approval"):
        if b.get(key, "none") != "none":
            lines.append(f"{key.replace('_', ' ')}: {b[key]}")
    if b.get("red_command"):
        lines.append(f"red: {b['red_command']}")
    if b.get("source_ticket"):
        lines.append(f"source ticket: {b['source_ticket']}")
    ex = b.get("executor") or {}
    if ex:
        lines.append(f"executor: {ex['cli']} {ex.get('model', '')} {ex.get('effort', '')}"
                     .rstrip())
    for a in r["attempts"]:
        lines.append(f"attempt {a['id']}: {a['state']} fence {a['fence']}")
    return Result(r, "\n".join(lines))


def cmd_card_ready(ctx, args) -> Result:
    r = gate.ready_card(ctx.gate, args.card)
    return Result(r.to_json(), f"card {r.card} v{r.version} is ready", rules="card ready")


def cmd_card_list(ctx, args) -> Result:
    rows = gate.list_cards(ctx.gate)
    lines = [f"{c['id']:<12} v{c['version']} {c['status']:<11} "
             f"{(c['attempt'] or '-'):<14} {(c['attempt_state'] or ''):<11} {c['title']}"
             for c in rows]
    return Result(rows, "\n".join(lines) or "(no cards)")
