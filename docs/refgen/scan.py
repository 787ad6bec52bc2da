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
from collections.abc import Callable, Iterator
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
            if isinstance(node, ast.FunctionDef) and node.name.endswith("_refusal"):
                # A refusal helper returns its (code, message): `return ("code", ...)`.
                for r in ast.walk(node):
                    if (isinstance(r, ast.Return) and isinstance(r.value, ast.Tuple)
                            and r.value.elts and isinstance(r.value.elts[0], ast.Constant)
                            and isinstance(r.value.elts[0].value, str)):
                        found.add(r.value.elts[0].value, path)
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
# A name's possible values where an append is reached: each name bound to the expressions it
# may hold there. Statements are followed in order, each branch of an `if` on its own (so a
# value set in one branch is not taken for the other), a `for` over a literal binding its
# target to each element.
Env = dict[str, list[ast.AST]]


def _strings(node: ast.AST | None) -> list[str]:
    """The string constants an expression holds (a tuple, a conditional, a dict's values)."""
    if node is None:
        return []
    if isinstance(node, ast.Dict):
        return [s for v in node.values for s in _strings(v)]
    return [n.value for n in ast.walk(node)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _bind(env: Env, target: ast.AST, values: list[ast.AST]) -> None:
    """Bind a target to what it may get; a tuple unpacks element by element (each branch of a
    conditional of tuples too)."""
    if isinstance(target, ast.Name):
        env[target.id] = values
    elif isinstance(target, ast.Tuple):
        parts: list[list[ast.AST]] = [[] for _ in target.elts]
        for value in values:
            for branch in ([value.body, value.orelse] if isinstance(value, ast.IfExp)
                           else [value]):
                if isinstance(branch, ast.Tuple) and len(branch.elts) == len(target.elts):
                    for i, v in enumerate(branch.elts):
                        parts[i].append(v)
        for t, vs in zip(target.elts, parts, strict=True):
            _bind(env, t, vs)


def _kinds_of(expr: ast.AST, env: Env, tables: Env, depth: int = 0) -> list[str]:
    """The strings an expression can be: a constant, a conditional, a name bound to either, an
    f-string of them, or a dict of strings looked up (a constant key: that value; else any)."""
    if depth > 5:
        return []
    again = lambda e: _kinds_of(e, env, tables, depth + 1)  # noqa: E731
    if isinstance(expr, ast.Constant):
        return _strings(expr)
    if isinstance(expr, ast.IfExp):
        return again(expr.body) + again(expr.orelse)
    if isinstance(expr, ast.Name):
        return [k for v in env.get(expr.id, tables.get(expr.id, [])) for k in again(v)]
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        # A member of a class of kinds (the registry's `GateEvent.CLAIMED`).
        return [k for v in tables.get(f"{expr.value.id}.{expr.attr}", []) for k in again(v)]
    if isinstance(expr, ast.JoinedStr):
        out = [""]
        for part in expr.values:
            inner = part.value if isinstance(part, ast.FormattedValue) else part
            out = [a + b for a in out for b in again(inner)]
        return out
    if isinstance(expr, ast.Subscript):
        found = ([expr.value] if isinstance(expr.value, ast.Dict)
                 else tables.get(getattr(expr.value, "id", ""), []))
        key = expr.slice.value if isinstance(expr.slice, ast.Constant) else None
        return [s for t in found if isinstance(t, ast.Dict)
                for k, v in zip(t.keys, t.values, strict=True)
                if key is None or (isinstance(k, ast.Constant) and k.value == key)
                for s in _strings(v)]
    return []


def _own_calls(stmt: ast.stmt) -> list[ast.Call]:
    """The calls in a statement's own expressions (not in the blocks it holds)."""
    out = []
    for _field, value in ast.iter_fields(stmt):
        items = value if isinstance(value, list) else [value]
        for item in items:
            if isinstance(item, ast.AST) and not isinstance(item, ast.stmt):
                out += [n for n in ast.walk(item) if isinstance(n, ast.Call)]
    return out


def _follow(stmts: list[ast.stmt], env: Env, seen: Callable[[ast.Call, Env], None]) -> Env:
    env = dict(env)
    for stmt in stmts:
        for call in _own_calls(stmt):
            seen(call, env)
        if isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                _bind(env, t, [stmt.value])
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            _bind(env, stmt.target, [stmt.value])
        elif isinstance(stmt, ast.If):
            a, b = _follow(stmt.body, env, seen), _follow(stmt.orelse, env, seen)
            env = {k: list({id(v): v for v in a.get(k, []) + b.get(k, [])}.values())
                   for k in {*a, *b}}
        elif isinstance(stmt, ast.For | ast.AsyncFor):
            inner = dict(env)
            if isinstance(stmt.iter, ast.Tuple | ast.List):
                _bind(inner, stmt.target, list(stmt.iter.elts))
            _follow(stmt.body, inner, seen)
        elif isinstance(stmt, ast.With | ast.AsyncWith | ast.While):
            env = _follow(stmt.body, env, seen)
        elif isinstance(stmt, ast.Try):
            for block in (stmt.body, *[h.body for h in stmt.handlers], stmt.orelse,
                          stmt.finalbody):
                env = _follow(block, env, seen)
    return env


def _is_append(call: ast.Call) -> bool:
    """A store append: `.append(KIND, ..., actor=...)` (the store's always names its actor)."""
    return (_name(call.func) == "append" and bool(call.args)
            and any(kw.arg == "actor" for kw in call.keywords))


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def _is_kind(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "kind"


def _passes_kind(call: ast.Call) -> bool:
    """`kind` appended now (`tx.append(kind, ..., actor=...)`) or kept to be appended by a later
    cycle (`self._unrecorded.append((kind, payload))`: the broker host's)."""
    if _is_append(call):
        return _is_kind(call.args[0])
    return (_name(call.func) == "append" and len(call.args) == 1
            and isinstance(call.args[0], ast.Tuple) and bool(call.args[0].elts)
            and _is_kind(call.args[0].elts[0]))


def _passers(trees: list[tuple[Path, ast.Module]]) -> dict[str, int]:
    """Functions that append the kind they are given (`_record(kind, payload)`, the ledger's
    `record(tx, kind, ...)`), now or later: each with the place of `kind` among its arguments."""
    out = {}
    for _path, tree in trees:
        for f in _functions(tree):
            params = [a.arg for a in f.args.args]
            if "kind" in params and any(_passes_kind(c) for c in ast.walk(f)
                                        if isinstance(c, ast.Call)):
                # a method's `self` is not among the call's arguments
                out[f.name] = params.index("kind") - (params[:1] in (["self"], ["cls"]))
    return out


def event_kinds() -> Found:
    trees = list(modules())
    # Module-level names of every module (KINDS, VERDICT_EVENT, ...), whoever imports them.
    # Members of module-level classes too, as `Class.NAME` (the registry's enums of kinds).
    tables: Env = {}
    for _path, tree in trees:
        scopes = [("", tree.body)] + [(f"{c.name}.", c.body) for c in tree.body
                                      if isinstance(c, ast.ClassDef)]
        for prefix, body in scopes:
            env = _follow([s for s in body if isinstance(s, ast.Assign | ast.AnnAssign)], {},
                          lambda call, env: None)
            for name, values in env.items():
                tables.setdefault(prefix + name, []).extend(values)
    passers, found = _passers(trees), Found()
    for path, tree in trees:
        def seen(call: ast.Call, env: Env, path: Path = path) -> None:
            if _is_append(call):
                for kind in _kinds_of(call.args[0], env, tables):
                    found.add(kind, path)
            elif _name(call.func) in passers:
                # The kind given: a constant first argument (`_record("broker_exited", ...)`),
                # or a member of a class of kinds in its place (`ledger.record(tx,
                # GateEvent.CLAIMED, ...)`). Anything else may be another function of the
                # same name (`baseline.record(c, "red", ...)`): not taken for a kind.
                at = passers[_name(call.func)]
                arg = call.args[at] if len(call.args) > at else None
                if at == 0 and isinstance(arg, ast.Constant):
                    found.add(arg.value, path)
                elif isinstance(arg, ast.Attribute):
                    for kind in _kinds_of(arg, env, tables):
                        found.add(kind, path)
        for func in _functions(tree):
            _follow(func.body, {}, seen)
    return found
