"""Collaboration commands: say, input, inbox, board, rules, whoami."""

# Imports inside functions: each command imports what it runs (`a2a whoami`, which agents run
# most, needs none of the collaboration records; tests/test_startup.py, bench/bench_cli.py).

from __future__ import annotations

from typing import TYPE_CHECKING

from a2a_tui.cli.output import Result
from a2a_tui.errors import A2AError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from a2a_tui.collab.context import Collab
    from a2a_tui.collab.entries import InboxEntry
    from a2a_tui.collab.items import BoardItem, Sent


def kind_help() -> str:
    """`a2a say --kind`'s help (cli/table.py), read when its parser is built."""
    from a2a_tui.collab.user_input import SAY_KINDS

    return f"one of {', '.join(SAY_KINDS)}"


def _collab(ctx) -> Collab:
    from a2a_tui.collab.context import Collab

    return Collab(ctx.repo, ctx.store, ctx.caller)


# --- user input -------------------------------------------------------------------------

def cmd_say(ctx, args) -> Result:
    from a2a_tui.collab.user_input import say

    r = say(_collab(ctx), args.text, args.kind)
    where = (f"queued to {r.to_session} as dispatch #{r.dispatch}" if r.dispatch
             else "not delivered: no live ideation session")
    return Result(r.to_json(), f"recorded {r.id} ({r.kind}); {where}", rules="say")


def cmd_input_list(ctx, args) -> Result:
    from a2a_tui.collab.user_input import list_user_inputs

    rows = list_user_inputs(ctx.store)
    def where(r) -> str:
        return f"-> {r.delivered_to} #{r.dispatch}" if r.dispatch else ""

    lines = [f"{r.id:<6} {r.kind:<9} {r.source:<4} {where(r):<14} {_one_line(r.text)}"
             for r in rows]
    return Result([r.to_json() for r in rows], "\n".join(lines) or "(no user input)")


def cmd_input_show(ctx, args) -> Result:
    from a2a_tui.collab.user_input import get_user_input

    row = get_user_input(ctx.store, args.id)
    if row is None:
        raise A2AError("unknown_user_input", f"no user input {args.id!r} (see `a2a input list`)")
    d = dict(row)
    return Result(d, f"{d['id']} {d['kind']} ({d['source']})"
                     f"{' re ' + d['ref'] if d['ref'] else ''}\n{d['text']}")


def cmd_input_confirm(ctx, args) -> Result:
    # lazy: each command imports only what it runs (a2a's start-up cost is paid per call)
    from a2a_tui.collab.user_input import confirm_pane_input

    r = confirm_pane_input(_collab(ctx), args.id)
    return Result(r.to_json(), f"{r.confirms} confirmed as yours ({r.id})" if r.changed
                  else f"{r.confirms} was already confirmed ({r.id})")


# --- inbox ------------------------------------------------------------------------------

def cmd_inbox_post(ctx, args) -> Result:
    from a2a_tui.collab import inbox

    e = inbox.post(_collab(ctx), args.kind, args.text, card=args.card, status=args.status,
                   ref=args.ref, quote=args.quote, user_input=args.user_input)
    lines = [f"posted {e.id}: {e.kind} -> {e.recipient}"]
    if e.authorized is False:
        lines.append(f"UNAUTHORIZED: {e.authorization_note}; the entry is stored, and card"
                     f" {e.card_id} cannot be claimed on it")
    elif e.authorized:
        lines.append(f"authorized: {e.authorization_note}")
    lines.append(f"delivered to {e.delivered.session} as dispatch #{e.delivered.dispatch}"
                 if e.delivered else "not delivered to a pane (no live recipient session)")
    return Result(e.to_json(), "\n".join(lines), rules="inbox post")


def cmd_inbox_list(ctx, args) -> Result:
    from a2a_tui.collab import inbox

    rows = inbox.list_entries(ctx.store, card=args.card)
    return Result([e.to_json() for e in rows],
                  "\n".join(_entry_line(e) for e in rows) or "(inbox is empty)",
                  rules="inbox list")


def cmd_inbox_show(ctx, args) -> Result:
    from a2a_tui.collab import inbox

    shown = inbox.show(ctx.store, args.id)
    e = shown.entry
    lines = [_entry_line(e), e.text]
    if e.quote and e.author_role != "user":
        lines.append(f"quote ({e.user_input}): {e.quote}")
    lines += ["responses:", *["  " + _entry_line(r) for r in shown.responses]] \
        if shown.responses else []
    return Result(shown.to_json(), "\n".join(lines), rules="inbox list")


def _entry_line(e: InboxEntry) -> str:
    author = e.author_role + (f"({e.author_session})" if e.author_session else "")
    bits = [e.id, e.kind, f"{author}->{e.recipient}", e.state]
    bits += [x for x in (e.card_id and f"card {e.card_id}", e.status,
                         e.ref and f"re {e.ref}") if x]
    if e.authorized is not None:
        bits.append("authorized" if e.authorized else "UNAUTHORIZED")
    return "  ".join(bits) + "  " + _one_line(e.text)


# --- board ------------------------------------------------------------------------------

def cmd_board_ask(ctx, args) -> Result:
    from a2a_tui.collab import board

    item = board.ask(_collab(ctx), args.title, args.option, args.recommend, args.why,
                     body=args.body, blocking=args.blocking, category=args.category)
    return Result(item.to_json(), f"asked {item.id}: {item.title}", rules="board ask")


def cmd_board_report(ctx, args) -> Result:
    from a2a_tui.collab import board

    item = board.report(_collab(ctx), args.title, args.body, blocking=args.blocking,
                        category=args.category)
    return Result(item.to_json(), f"reported {item.id}: {item.title}"
                  f"{' (protected: only the user closes it)' if item.protected else ''}",
                  rules="board report")


def cmd_board_list(ctx, args) -> Result:
    from a2a_tui.collab import board

    data = board.list_board(ctx.store)
    items = [i for i in data.items if not args.open or i.status != "closed"]
    return Result(data.to_json(), "\n".join(_item_line(i) for i in items) or "(board is empty)",
                  rules="board list")


def cmd_board_show(ctx, args) -> Result:
    from a2a_tui.collab import board

    shown = board.show(ctx.store, args.id)
    i = shown.item
    lines = [_item_line(i)]
    if i.body:
        lines.append(i.body)
    for o in i.options:
        mark = "  (recommended)" if o.key == i.recommend else ""
        lines.append(f"  [{o.key}] {o.text}{mark}")
    if i.why:
        lines.append(f"why: {i.why}")
    for r in shown.records:
        if r.kind == "answer":
            sent = f" (delivered #{r.dispatch})" if r.dispatch else " (pending)"
            lines.append(f"answer {r.user_input}: {_one_line(r.input_text or '')}{sent}")
        else:
            lines.append(f"closed by {r.actor}: {r.reason}")
    return Result(shown.to_json(), "\n".join(lines), rules="board list")


def cmd_board_close(ctx, args) -> Result:
    from a2a_tui.collab import board

    i = board.close(_collab(ctx), args.id, args.reason)
    return Result(i.to_json(), f"closed {i.id}", rules="board close")


def cmd_board_answer(ctx, args) -> Result:
    from a2a_tui.collab import board

    r = board.answer(_collab(ctx), args.id, option=args.option, adopt=args.adopt,
                     text=args.text, hold=args.hold)
    lines = [f"recorded {r.user_input} as the answer to {r.item.id}"]
    lines += _sent_lines(r.sent) or (["held: send with `a2a board send`"] if r.held else [])
    return Result(r.to_json(), "\n".join(lines), rules="board answer")


def cmd_board_send(ctx, args) -> Result:
    from a2a_tui.collab import board

    sent = board.send_pending(_collab(ctx), args.session)
    return Result({"sent": [s.to_json() for s in sent]},
                  "\n".join(_sent_lines(sent)) or "no held answers",
                  rules="board answer")


def _sent_lines(sent: Sequence[Sent]) -> list[str]:
    return [f"{', '.join(s.user_inputs)} -> {s.session} as one prompt, dispatch #{s.dispatch}"
            if s.dispatch else f"{', '.join(s.user_inputs)}: {s.why}" for s in sent]


def _item_line(i: BoardItem) -> str:
    who = i.asked_by or i.actor
    flags = [f for f in ("blocking" if i.blocking else "",
                         i.category if i.category != "other" else "",
                         "protected" if i.protected else "") if f]
    return (f"{i.id:<5} {i.status:<8} {i.kind:<8} {who:<14}"
            f" {i.title}{'  [' + ', '.join(flags) + ']' if flags else ''}")


def _one_line(text: str, width: int = 100) -> str:
    line = " / ".join(text.splitlines())
    return line if len(line) <= width else line[:width - 1] + "…"


# --- rules, whoami ------------------------------------------------------------------------

def cmd_rules(ctx, args) -> Result:
    from a2a_tui.cli.rules import COMMAND_RULES, rules_for
    from a2a_tui.collab.roles import ROLES, role_rules

    topic = " ".join(args.topic) or None
    if topic is None:
        caller = ctx.identity
        if caller.is_user or caller.unidentified is not None:
            return all_rules()
        if caller.role is None:
            raise A2AError("usage", f"name a role ({', '.join(ROLES)}) or a command", exit_code=2)
        topic = caller.role
    if topic in ROLES:
        rules = role_rules(topic)
    elif topic in COMMAND_RULES:
        rules = rules_for(topic)
    else:
        raise A2AError("unknown_topic", f"no rules for {topic!r}: name a role ({', '.join(ROLES)})"
                       " or a command (" + ", ".join(sorted(COMMAND_RULES)) + ")", exit_code=2)
    return Result({"topic": topic, "rules": rules},
                  f"rules for {topic}:\n" + "\n".join(f"  - {r}" for r in rules))


def all_rules() -> Result:
    """Everything, for the user: who may run each gate command, each role's rules, each
    command's rules."""
    from a2a_tui.cli.rules import COMMAND_RULES, rules_for
    from a2a_tui.collab.roles import ROLES, role_rules
    from a2a_tui.gate import roles as gate_roles

    table = gate_roles.table()
    roles = {r: role_rules(r) for r in ROLES}
    commands = {c: rules_for(c) for c in sorted(COMMAND_RULES)}
    width = max(len(row["command"]) for row in table)
    lines = ["who may run each command (others get role_forbidden):",
             *[f"  {row['command']:<{width}}  {row['text']}" for row in table]]
    for title, group in (("role", roles), ("command", commands)):
        for name, rules in group.items():
            lines.append(f"rules for {title} {name}:")
            lines += [f"  - {r}" for r in rules]
    return Result({"topic": "all", "gate_roles": table, "roles": roles, "commands": commands},
                  "\n".join(lines))


def cmd_whoami(ctx, args) -> Result:
    c = ctx.identity
    if c.unidentified is not None:
        return Result({"session": None, "role": None, "actor": None, "is_user": False,
                       "via": None, "unidentified": c.unidentified},
                      f"unidentified: {c.unidentified} (it may read; a2a refuses its writes)")
    return Result({"session": c.session, "role": c.role, "actor": c.actor, "is_user": c.is_user,
                   "via": c.via, "unidentified": None},
                  c.describe() + (f" (recognised by its {c.via})" if c.via else ""))
