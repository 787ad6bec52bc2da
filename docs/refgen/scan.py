"""What the package's source says, read without running it: the error codes it raises and the
event kinds it appends. Shared by the error-code and event references.

Error codes: the first argument of `A2AError(...)` and of every function whose first parameter
is named `code` (`refuse`, `fail`, ...), the constant an A2AError subclass passes up, a `code=`
given to an A2AError subclass, `problem = ("code", ...)`, `{"code": "..."}`, and the members of
an enum named `*Code`.

Event kinds: the first argument of `.append(KIND, ..., actor=...)` (the store's append always
names its actor): a string, a name bound to strings in the module or the function, a
conditional of them, or `TABLE["key"]` / `TABLE[x]` of a module-level dict of strings.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .paths import PACKAGE, ROOT

CODE = re.compile(r"[a-z][a-z0-9_]*[a-z0-9]")


@dataclass
class Found:
    """Each code or kind with the modules (`a2a_tui/gate/claim.py`) it occurs in."""

    where: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))

    def add(self, value: object, path: Path) -> None:
        if isinstance(value, str) and CODE.fullmatch(value):
            self.where[value].add(str(path.relative_to(ROOT)))


def modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _error_classes(trees: list[tuple[Path, ast.Module]]) -> set[str]:
    """A2AError and its subclasses (by name, to any depth)."""
    found = {"A2AError"}
    grew = True
    while grew:
        grew = False
        for _path, tree in trees:
            for node in ast.walk(tree):
                if (isinstance(node, ast.ClassDef) and node.name not in found
                        and any(_name(b) in found for b in node.bases)):
                    found.add(node.name)
                    grew = True
    return found


def _code_first(trees: list[tuple[Path, ast.Module]]) -> set[str]:
    """Functions whose first parameter (after self) is named `code`: they pass a code on."""
    out = set()
    for _path, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                params = [a.arg for a in node.args.args if a.arg not in ("self", "cls")]
                if params[:1] == ["code"] and node.name != "__init__":
                    out.add(node.name)
    return out


def error_codes() -> Found:
    trees = list(modules())
    errors, passers, found = _error_classes(trees), _code_first(trees), Found()
    code_init = {"A2AError", "Refused"}     # subclasses whose __init__ takes the code first
    for path, tree in trees:
        for node in ast.walk(tree):
            _error_code_in(node, path, found, errors, passers | code_init)
    return found


def _error_code_in(node: ast.AST, path: Path, found: Found, errors: set[str],
                   takes_code: set[str]) -> None:
    if isinstance(node, ast.Call):
        name = _name(node.func)
        if name in takes_code and node.args and isinstance(node.args[0], ast.Constant):
            found.add(node.args[0].value, path)
        if name in errors | {"__init__"}:
            for kw in node.keywords:
                if kw.arg == "code" and isinstance(kw.value, ast.Constant):
                    found.add(kw.value.value, path)
        if (name == "__init__" and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Call)
                and _name(node.func.value.func) == "super" and node.args
                and isinstance(node.args[0], ast.Constant)):
            found.add(node.args[0].value, path)
    elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple):
        if any(getattr(t, "id", "") == "problem" for t in node.targets) and node.value.elts:
            first = node.value.elts[0]
            if isinstance(first, ast.Constant):
                found.add(first.value, path)
    elif isinstance(node, ast.Dict):
        for k, v in zip(node.keys, node.values, strict=True):
            if (isinstance(k, ast.Constant) and k.value == "code"
                    and isinstance(v, ast.Constant)):
                found.add(v.value, path)
    elif isinstance(node, ast.ClassDef) and node.name.endswith("Code"):
        for stmt in node.body:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant):
                found.add(stmt.value.value, path)


# --- event kinds ----------------------------------------------------------------------------
Bindings = dict[str, list[ast.AST]]


def _strings(node: ast.AST | None) -> list[str]:
    """The string constants an expression holds (a tuple, a conditional, a dict's values)."""
    if node is None:
        return []
    if isinstance(node, ast.Dict):
        return [s for v in node.values for s in _strings(v)]
    return [n.value for n in ast.walk(node)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _bind(out: Bindings, target: ast.AST, value: ast.AST) -> None:
    """Every name a target binds, to what it gets; a tuple is unpacked element by element (a
    conditional of tuples too: each branch's element)."""
    if isinstance(target, ast.Name):
        out.setdefault(target.id, []).append(value)
    elif isinstance(target, ast.Tuple):
        branches = [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
        for branch in branches:
            if isinstance(branch, ast.Tuple) and len(branch.elts) == len(target.elts):
                for t, v in zip(target.elts, branch.elts, strict=True):
                    _bind(out, t, v)


def _bindings(body: list[ast.stmt]) -> Bindings:
    """Every value assigned to each name in a block, nested blocks included."""
    out: Bindings = {}
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    _bind(out, t, node.value)
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                _bind(out, node.target, node.value)
    return out


def _kinds_of(expr: ast.AST, local: Bindings, tables: Bindings, depth: int = 0) -> list[str]:
    """The strings an append's kind can be: a constant, a conditional, a name bound to either,
    or a dict of strings looked up (by a constant key: that value; else any value)."""
    if depth > 4:
        return []
    if isinstance(expr, ast.Constant):
        return _strings(expr)
    if isinstance(expr, ast.IfExp):
        return (_kinds_of(expr.body, local, tables, depth + 1)
                + _kinds_of(expr.orelse, local, tables, depth + 1))
    if isinstance(expr, ast.Name):
        return [k for v in local.get(expr.id, tables.get(expr.id, []))
                for k in _kinds_of(v, {}, tables, depth + 1)]
    if isinstance(expr, ast.Subscript):
        found = ([expr.value] if isinstance(expr.value, ast.Dict)
                 else tables.get(getattr(expr.value, "id", ""), []))
        key = expr.slice.value if isinstance(expr.slice, ast.Constant) else None
        out = []
        for table in (t for t in found if isinstance(t, ast.Dict)):
            for k, v in zip(table.keys, table.values, strict=True):
                if key is None or (isinstance(k, ast.Constant) and k.value == key):
                    out += _strings(v)
        return out
    return []


def _appends(tree: ast.AST) -> list[ast.Call]:
    """The store appends under `tree`: `.append(KIND, ..., actor=...)`."""
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _name(n.func) == "append"
            and n.args and any(kw.arg == "actor" for kw in n.keywords)]


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def event_kinds() -> Found:
    trees = list(modules())
    # Module-level names of every module (KINDS, VERDICT_EVENT, ...), whoever imports them.
    tables: Bindings = {}
    for _path, tree in trees:
        for name, values in _bindings([s for s in tree.body
                                       if isinstance(s, ast.Assign | ast.AnnAssign)]).items():
            tables.setdefault(name, []).extend(values)
    # Functions that append the kind they are given (`_record(kind, payload)`).
    passers = {f.name for _p, tree in trees for f in _functions(tree)
               if any(isinstance(c.args[0], ast.Name) and c.args[0].id == "kind"
                      and "kind" in [a.arg for a in f.args.args] for c in _appends(f))}
    found = Found()
    for path, tree in trees:
        for func in [tree, *_functions(tree)]:
            local = _bindings(func.body) if func is not tree else {}
            for call in _appends(func):
                for kind in _kinds_of(call.args[0], local, tables):
                    found.add(kind, path)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and _name(node.func) in passers and node.args
                    and isinstance(node.args[0], ast.Constant)):
                found.add(node.args[0].value, path)
    return found
