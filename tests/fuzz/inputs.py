"""What the fuzz tests feed the parsers: bad input as the outside hands it over.

Three kinds, mixed by every strategy here: bytes with no structure at all; a valid document
mutated where its structure is (a value of the wrong type, a key dropped or added, a huge or
deep value, unicode); and a valid document damaged as files are damaged (cut short as by a
partial write, bytes flipped, not UTF-8, padded past a size limit).
"""

from __future__ import annotations

import json
import tomllib
from datetime import UTC
from typing import Any

import hypothesis.strategies as st
import tomli_w

# Characters that parsers trip on: quotes, brackets, separators, escapes, control characters,
# line and paragraph separators, a BOM, wide and combining characters.
TRICKY = ('"', "'", "\\", "[", "]", "{", "}", "=", ":", ",", "#", "\n", "\r", "\t", "\x00",
          "\x1b", "\x7f", "\u2028", "\u2029", "\ufeff", "⟦", "⟧", "门禁", "e\u0301", "🙂", " ")
TRICKY_BYTES = (b"\xff", b"\xfe", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\r\n", b"\x1b[2J")

text = st.lists(st.one_of(st.characters(codec="utf-8"), st.sampled_from(TRICKY)),
                max_size=30).map("".join)
keys = st.one_of(st.sampled_from(["id", "v", "type", "name", "command", "0", "", "a.b", "é"]),
                 text)
huge_ints = st.sampled_from([2**63, -(2**63) - 1, 2**64, 10**30, -1, 0])
ints = st.one_of(st.integers(), huge_ints)
floats = st.floats(allow_nan=True, allow_infinity=True)


def _toml_leaf() -> st.SearchStrategy[Any]:
    return st.one_of(text, ints, floats, st.booleans(),
                     st.datetimes(timezones=st.just(UTC)), st.dates(),
                     st.times())


toml_values = st.recursive(
    _toml_leaf(),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(keys, inner, max_size=4)),
    max_leaves=12)


def damaged(good: bytes) -> st.SearchStrategy[bytes]:
    """`good` as a damaged file holds it: cut short, bytes replaced or inserted, not UTF-8."""
    def cut(n: int) -> bytes:
        return good[: n % (len(good) + 1)]

    @st.composite
    def edits(draw: st.DrawFn) -> bytes:
        data = bytearray(good)
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(data)))
            chunk = draw(st.one_of(st.sampled_from(TRICKY_BYTES),
                                   st.sampled_from(TRICKY).map(str.encode),
                                   st.binary(min_size=1, max_size=4)))
            drop = draw(st.integers(0, 3))
            data[at:at + drop] = chunk
        return bytes(data)

    return st.one_of(st.integers(0, len(good)).map(cut), edits())


def _paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    """Every value's path in `doc`, down to 8 levels (a value made deep is one target)."""
    out = [prefix] if prefix else []
    if len(prefix) >= 8:
        return out
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, (*prefix, i))
    return out


def _set(doc: Any, path: tuple, value: Any, *, delete: bool = False) -> None:
    for p in path[:-1]:
        doc = doc[p]
    if delete:
        del doc[path[-1]]
    else:
        doc[path[-1]] = value


@st.composite
def mutated_doc(draw: st.DrawFn, good: dict[str, Any], values: st.SearchStrategy[Any]
                ) -> dict[str, Any]:
    """`good` with a few of its values replaced by `values`, deleted, or new keys added."""
    doc = json.loads(json.dumps(good, default=str))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        how = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        if how == "add" or not paths:
            target = doc
            tables = [p for p in paths if isinstance(_get(doc, p), dict)]
            if tables and draw(st.booleans()):
                target = _get(doc, draw(st.sampled_from(tables)))
            target[draw(keys)] = draw(values)
            continue
        path = draw(st.sampled_from(paths))
        if how == "delete":
            _set(doc, path, None, delete=True)
        else:
            _set(doc, path, draw(values))
    return doc


def _get(doc: Any, path: tuple) -> Any:
    for p in path:
        doc = doc[p]
    return doc


def _toml_dumps(doc: dict[str, Any]) -> bytes | None:
    try:
        return tomli_w.dumps(doc).encode()
    except (TypeError, ValueError):  # a list mixing tables and values, a None: not TOML
        return None


def toml_docs(seed: str) -> st.SearchStrategy[bytes]:
    """TOML files near the valid document `seed`: mutated in structure, damaged, or junk."""
    good = tomllib.loads(seed)
    structured = mutated_doc(good, toml_values).map(_toml_dumps).filter(lambda b: b is not None)
    oversized = st.integers(1, 3 * 2**20).map(
        lambda n: seed.encode() + b'\nhuge = "' + b"x" * n + b'"\n')
    return st.one_of(structured, damaged(seed.encode()), text.map(str.encode),
                     st.binary(max_size=200), oversized)


def toml_value_text(value: Any) -> str:
    """A TOML value as it would be written on the right of `key = `."""
    return tomli_w.dumps({"k": value})[4:].strip()


# --- JSON (spool envelopes and the hook payloads) ----------------------------------------------
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), ints, floats, text),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(keys, inner, max_size=4)),
    max_leaves=12)


def deep(depth: int) -> Any:
    """A list nested `depth` levels deep."""
    out: list = []
    for _ in range(depth - 1):
        out = [out]
    return out


deep_values = st.integers(1, 5000).map(deep)
lone_surrogates = st.sampled_from(["\ud800", "a\udfff", "\udc80x"])


def json_bytes(doc: Any, ensure_ascii: bool = True) -> bytes:
    """JSON as a CLI might write it: NaN and Infinity as Python writes them, lone surrogates
    as \\u escapes (or, without ensure_ascii, as bytes no UTF-8 decoder takes)."""
    try:
        return json.dumps(doc, ensure_ascii=ensure_ascii).encode("utf-8", "surrogatepass")
    except RecursionError:
        return b"[" * 3000 + b"]" * 3000

