"""The shape of a command as data (`Command`, `Arg`), and what is built from the table of them
(cli/table.py): the argparse parsers and the grouped `a2a --help`.

A command's function and anything its parser needs from another module are named by
"module:name" paths (`Ref`), resolved only when that command's parser is built: `a2a CMD`
imports the module of CMD alone (tests/test_startup.py). Every `a2a` call imports the table, so
its records are NamedTuples: immutable like frozen dataclasses, but a fifth of the cost to define
and to make (a dataclass compiles its methods when it is defined; ~2 ms of start-up here).
"""

from __future__ import annotations

import argparse
import copy
import importlib
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple


class Ref(NamedTuple):
    """A value from another module, "module:name" (a module under `a2a_tui.cli` when it has no
    dot); a function named with `call=True` is called for the value (a text computed from a
    module the table must not import)."""

    path: str
    call: bool = False

    def resolve(self) -> Any:
        module, name = self.path.split(":")
        module = module if "." in module else f"a2a_tui.cli.{module}"
        value = getattr(importlib.import_module(module), name)
        return value() if self.call else value


class Arg(NamedTuple):
    """One `add_argument`: its flags (or positional name) and keywords; a `Ref` keyword value is
    resolved when the parser is built."""

    flags: tuple[str, ...]
    options: Mapping[str, Any]

    def add_to(self, parser: Any) -> None:
        parser.add_argument(*self.flags, **{k: v.resolve() if isinstance(v, Ref) else v
                                            for k, v in self.options.items()})


def arg(*flags: str, **options: Any) -> Arg:
    return Arg(flags, options)


class OneOf(NamedTuple):
    """Arguments of which at most one (`required`: exactly one) may be given."""

    args: tuple[Arg, ...]
    required: bool = False


class Subs(NamedTuple):
    """A command that has subcommands: the namespace attribute that holds the one given."""

    dest: str
    metavar: str = "CMD"
    required: bool = True


class Command(NamedTuple):
    """One command of the table: `name` is its words after `a2a` ("board ask"); a subcommand
    comes after its parent. `func`: "module:function" that runs it (none for a command that
    only holds subcommands). `group`: the heading of `a2a --help` (top-level commands only).
    The rest is argparse's, for the few commands that need it (each says why in the table)."""

    name: str
    help: str
    func: str | None = None
    args: tuple[Arg | OneOf, ...] = ()
    group: str = ""
    example: str = ""
    subs: Subs | None = None
    description: str | None = None
    epilog: str | Ref | None = None
    usage: str | Ref | None = None
    raw_help: bool = False                 # keep the epilog's line breaks
    defaults: Mapping[str, Any] = {}       # never changed: the builder copies each value
    parser_class: str | None = None        # "module:function" making the parser's class
    more_args: str | None = None           # "module:function(parser)" adding arguments

    @property
    def top(self) -> str:
        return self.name.split()[0]

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(self.name.split())


def _value(v: Any) -> Any:
    return v.resolve() if isinstance(v, Ref) else v


def add_commands(top: argparse._SubParsersAction, commands: Iterable[Command],
                 common: argparse.ArgumentParser, parser_class: type) -> None:
    """Add `commands` (parents before their subcommands) under `top`, the subparsers of `a2a`."""
    subparsers: dict[tuple[str, ...], argparse._SubParsersAction] = {(): top}
    for c in commands:
        extra: dict[str, Any] = {}
        if c.raw_help:
            extra["formatter_class"] = argparse.RawDescriptionHelpFormatter
        p = subparsers[c.words[:-1]].add_parser(
            c.words[-1], parents=[common], help=c.help, description=c.description,
            epilog=_value(c.epilog), usage=_value(c.usage), **extra)
        for a in c.args:
            if isinstance(a, OneOf):
                group = p.add_mutually_exclusive_group(required=a.required)
                for one in a.args:
                    one.add_to(group)
            else:
                a.add_to(p)
        if c.more_args:
            Ref(c.more_args).resolve()(p)
        defaults = {k: copy.copy(v) for k, v in c.defaults.items()}
        if c.func:
            defaults["func"] = Ref(c.func).resolve()
        if defaults:
            p.set_defaults(**defaults)
        if c.subs:
            subparsers[c.words] = p.add_subparsers(
                dest=c.subs.dest, metavar=c.subs.metavar, required=c.subs.required,
                parser_class=parser_class)
        if c.parser_class:
            p.__class__ = Ref(c.parser_class).resolve()(type(p))
