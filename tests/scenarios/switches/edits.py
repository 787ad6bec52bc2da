"""Switching a mechanism off: by editing its source (the function's own text with one piece
replaced, compiled in its module) or by replacing it, then binding the result wherever the
package holds the original.

An edit names the exact text it removes; when the code changes and the text is gone (or no
longer unique), applying it fails loudly instead of silently leaving the mechanism on.
"""

from __future__ import annotations
import __future__

import importlib
import inspect
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Setter = Callable[[object, str, object], None]


def _target(module: str, qualname: str) -> tuple[Any, object, str, Any]:
    """(the module, the object holding the attribute, its name, its current value)."""
    mod = importlib.import_module(module)
    *path, name = qualname.split(".")
    owner: object = mod
    for part in path:
        owner = getattr(owner, part)
    value = owner.__dict__[name] if path else getattr(mod, name)
    return mod, owner, name, value


def _bind(owner: object, name: str, original: object, replacement: object, set_: Setter) -> None:
    set_(owner, name, replacement)
    if inspect.ismodule(owner):  # `from module import name` elsewhere holds the original
        for other in list(sys.modules.values()):
            if getattr(other, "__name__", "").startswith("a2a_tui") and \
                    getattr(other, name, None) is original:
                set_(other, name, replacement)


@dataclass(frozen=True)
class Edit:
    """In `module`, the function `qualname` (a method: `Class.name`), `old` replaced by `new`."""

    module: str
    qualname: str
    old: str
    new: str

    def apply(self, set_: Setter) -> None:
        mod, owner, name, fn = _target(self.module, self.qualname)
        source = inspect.unwrap(fn)
        # An earlier edit of the same function: edit its text further, not the file's.
        src = getattr(fn, "__scenario_source__", None) or \
            textwrap.dedent(inspect.getsource(source))
        count = src.count(self.old)
        if count != 1:
            raise AssertionError(f"switch: {self.module}.{self.qualname} holds {self.old!r}"
                                 f" {count} times, not once: the switch is out of date")
        src = src.replace(self.old, self.new)
        code = compile(src, inspect.getsourcefile(source) or "<edit>", "exec",
                       flags=__future__.annotations.compiler_flag, dont_inherit=True)
        scope: dict[str, object] = {}
        exec(code, mod.__dict__, scope)  # noqa: S102 - the package's own source, edited
        edited = scope[name]
        edited.__scenario_source__ = src  # type: ignore[attr-defined]
        _bind(owner, name, fn, edited, set_)


@dataclass(frozen=True)
class Replace:
    """In `module`, the attribute `qualname` replaced by what `make(original)` returns."""

    module: str
    qualname: str
    make: Callable[[Any], object]

    def apply(self, set_: Setter) -> None:
        _, owner, name, original = _target(self.module, self.qualname)
        replacement = self.make(original)
        if inspect.isfunction(original) and callable(replacement):
            _takes_the_same_calls(f"{self.module}.{self.qualname}", original, replacement)
        _bind(owner, name, original, replacement, set_)


def _takes_the_same_calls(where: str, original: Callable, replacement: Callable) -> None:
    """A replacement must take every call its original takes: one that no longer does (the
    original grew a parameter) fails inside the a2a processes, and a counterexample would then
    fail for that instead of for the mechanism it switches off."""
    params = inspect.signature(original).parameters.values()
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY,
                                                       p.POSITIONAL_OR_KEYWORD)]
    required = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                and p.default is p.empty]
    keywords = {p.name: None for p in params if p.kind == p.KEYWORD_ONLY}
    optional = {n: None for n in positional[len(required):]}
    target = inspect.signature(replacement)
    try:
        target.bind(*positional, **keywords)
        target.bind(*required, **optional, **keywords)
    except TypeError as exc:
        raise AssertionError(f"switch: the replacement of {where} does not take the calls its"
                             f" original {inspect.signature(original)} takes ({exc}): the"
                             " switch is out of date") from None


def text_edit(old: str, new: str) -> Callable[[str], str]:
    """For `Replace` of a module's text constant (a query the functions share): `old` replaced
    by `new`, failing as `Edit` does when the text is not there exactly once."""
    def edit(text: str) -> str:
        if text.count(old) != 1:
            raise AssertionError(f"switch: the text holds {old!r} {text.count(old)} times, not"
                                 " once: the switch is out of date")
        return text.replace(old, new)
    return edit
