"""The payload type of an event kind: a frozen dataclass whose fields are the payload's keys.

Written, a payload is checked against its fields' types once (`Payload.__post_init__`: a
misspelt key or a wrong type fails at the append, where it is made, not in a later fold) and
stored as one JSON object (`to_json`: every field, under its key). Read back (`read`), it is
built without a check: the log was checked when written, and a fold reads it a million times.
The reader is tolerant of older logs: a key the event lacks reads as the field's default (None
when the field has none), and a key no field names is left out of the typed view (the event's
own `payload` keeps it, for `--json` and the Events panel). No pydantic: `a2a submit` and the
board's commands record events and import nothing heavy (tests/test_startup.py).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, ClassVar, Literal, TypeVar, Union, get_args, get_origin

from a2a_tui.jsontypes import JsonObject

P = TypeVar("P", bound="Payload")


class PayloadError(TypeError):
    """A payload that is not its kind's type, or a field whose value is not of its type."""


_HINTS: dict[type, dict[str, Any]] = {}


def key(name: str, **kw: Any) -> Any:
    """A field stored under another key than its name (a Python keyword: `as`, `from`)."""
    return dataclasses.field(metadata={"key": name}, **kw)


class Payload:
    """The base of every payload type; each is a `@payload` dataclass."""

    __slots__ = ()
    KIND: ClassVar[str] = ""
    _keys: ClassVar[tuple[tuple[str, str, Any], ...]] = ()   # (field, stored key, default)
    # (field, default, default factory, required): what `__init__` fills a field with
    _init: ClassVar[tuple[tuple[str, Any, Any, bool], ...]] = ()

    # One `__init__`, `__eq__`, `__hash__`, `__repr__` and freeze for every type, not six
    # functions written and compiled per type by dataclasses: with 123 types that was a quarter
    # of a second at every start of `a2a` (each command imports the payloads with the store).
    def __init__(self, **kw: Any) -> None:
        cls = type(self)
        for name, default, factory, required in cls._init:
            if name in kw:
                value = kw.pop(name)
            elif required:
                raise TypeError(f"{cls.__name__}() missing required keyword argument:"
                                f" {name!r}")
            else:
                value = default if factory is None else factory()
            object.__setattr__(self, name, value)
        if kw:
            raise TypeError(f"{cls.__name__}() got an unexpected keyword argument"
                            f" {next(iter(kw))!r}")
        self.__post_init__()

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name, _, _ in self._keys)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name, _, _ in self._keys)
        return f"{type(self).__name__}({shown})"

    def __post_init__(self) -> None:
        hints = _HINTS.get(type(self))   # per class: a subclass adds fields to its base's
        if hints is None:
            hints = _HINTS[type(self)] = typing.get_type_hints(type(self))
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if not _fits(value, hints[f.name]):
                raise PayloadError(f"{self.KIND} payload: {f.name} = {value!r} is not"
                                   f" {_named(hints[f.name])}")

    def to_json(self) -> JsonObject:
        """The payload as the log stores it: every field, under its key."""
        return {k: getattr(self, name) for name, k, _ in self._keys}

    @classmethod
    def of(cls: type[P], values: dict[str, Any]) -> P:
        """The payload of a dict keyed as stored, checked like any other (for a site that
        builds its payload in parts): a key no field names is refused."""
        names = {k: name for name, k, _ in cls._keys}
        unknown = sorted(set(values) - set(names))
        if unknown:
            raise PayloadError(f"{cls.KIND} payload: no field {', '.join(unknown)}")
        return cls(**{names[k]: v for k, v in values.items()})

    @classmethod
    def read(cls: type[P], raw: dict[str, Any]) -> P:
        """The payload of an event read back, unchecked (it was checked when written): a
        missing key reads as the field's default, a key no field names is left out."""
        reader = cls.__dict__.get("_reader")
        if reader is None:   # written on the first read of the type: most commands read none
            reader = _reader_of(cls)
            cls._reader = staticmethod(reader)  # type: ignore[attr-defined]
        else:
            reader = reader.__func__
        return reader(raw)


def payload(kind: str) -> Any:
    """Make the class below the payload type of `kind`: a frozen, keyword-only dataclass (its
    fields as dataclasses sees them; its `__init__`, equality and freeze are Payload's)."""
    def make(cls: type[P]) -> type[P]:
        dc = dataclasses.dataclass(init=False, repr=False, eq=False, kw_only=True,
                                   slots=True)(cls)
        dc.KIND = kind
        keys, init = [], []
        for f in dataclasses.fields(dc):
            default, factory = None, None
            if f.default is not dataclasses.MISSING:
                default = f.default
            elif f.default_factory is not dataclasses.MISSING:
                factory = f.default_factory
                default = factory()
            keys.append((f.name, f.metadata.get("key", f.name), default))
            init.append((f.name, default, factory, default is None and factory is None
                         and f.default is dataclasses.MISSING))
        dc._keys, dc._init = tuple(keys), tuple(init)
        return dc
    return make


def _reader_of(cls: type[Payload]) -> Any:
    """`cls.read`'s body, written out once per type: a fold reads a million payloads, and one
    slot set per field, unrolled, is about three times quicker than a loop of setattr."""
    ns: dict[str, Any] = {"new": object.__new__, "cls": cls}
    body = ["def read(raw):", "    obj = new(cls)"]
    for i, (name, k, default) in enumerate(cls._keys):
        ns[f"set{i}"], ns[f"default{i}"] = getattr(cls, name).__set__, default
        body.append(f"    set{i}(obj, raw.get({k!r}, default{i}))")
    exec("\n".join([*body, "    return obj"]), ns)
    return ns["read"]


def _fits(value: Any, hint: Any) -> bool:
    """Whether `value` is of the type `hint` (the JSON-shaped types payloads use)."""
    if hint is Any:
        return True
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        return any(_fits(value, h) for h in get_args(hint))
    if origin is Literal:
        return value in get_args(hint)
    if origin in (list, tuple):
        args = get_args(hint)
        return isinstance(value, list | tuple) and all(
            _fits(v, args[0] if args else Any) for v in value)
    if origin is dict:
        _, vt = get_args(hint) or (str, Any)
        return isinstance(value, dict) and all(
            isinstance(k, str) and _fits(v, vt) for k, v in value.items())
    if hint is type(None) or hint is None:
        return value is None
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(hint, str):   # a JSON alias left as text (jsontypes): any JSON value
        return True
    return isinstance(value, hint)


def _named(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")
