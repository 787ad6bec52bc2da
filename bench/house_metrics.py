"""The house's figures (issue 23), read from the source with `ast`: one command for before/after.

Prints: SQL writes to gate tables outside the ledger's fold, functions returning
`dict[str, Any]`, functions returning `JsonObject` (a JSON edge) and whether each is named for
it, the longest functions, the deepest nesting, the largest files, the modules at
gate/'s top level, bare attempt-state strings in comparisons and import circles.
`python bench/house_metrics.py [ROOT]` (ROOT: a checkout, default this one; e.g. the tree of an
older commit from `git archive <sha> | tar -x -C /tmp/x`).

How each figure is counted:
- SQL writes: `execute(...)` calls whose SQL (a string or f-string) inserts into, updates or
  deletes from a table other than the log's own (events, counters, chain_checkpoint), in a
  module under gate/ other than the fold (gate/ledger.py or gate/ledger/).
- nesting: compound statements inside one function, as the AST nests them (an `elif` is an
  `if` inside the `else`, so a long elif chain counts as deep: that is how the issue measured).
- bare attempt states: a string constant naming an attempt state in a comparison, outside
  the modules of other machines that share its words (OTHER_MACHINES).
- circles: strongly connected groups of a2a_tui modules through module-level imports
  (`if TYPE_CHECKING:` and imports inside functions left out); counted a second time with the
  type-only imports (`if TYPE_CHECKING:`) in, since an annotation that names the other side is
  a place where a change on one side must be read on the other.
- record key reads: `att["state"]`-style reads of an attempt record by key: a subscript or a
  `.get()` with a string key on a name or attribute called `att`, `attempt` or ending in `_att`
  / `_attempt` (e.g. `prev_att`, `ctx.attempt`). A misspelt key there is a runtime `KeyError`.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter
from pathlib import Path

WRITE = re.compile(r"\b(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)", re.I)
LOG_TABLES = {"events", "counters", "chain_checkpoint"}
ATTEMPT_STATES = {"claimed", "submitted", "verifying", "verified", "rejected", "integrating",
                  "integrated", "abandoned", "superseded", "failed", "unknown"}
# Words the attempt shares with other machines: the panes' and dispatches' states ("unknown",
# "sent"), and pytest's own outcomes in the witness plugin that runs inside an agent's pytest.
OTHER_MACHINES = ("a2a_tui/panes/", "a2a_tui/gate/verification/reports/witness/")
COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try,
            ast.Match)
TOP = 8
RECORD = re.compile(r"(?:^|_)att(?:empt)?$")


def _sql_text(node: ast.AST) -> str:
    """The literal text of a string or f-string argument (placeholders left out)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_sql_text(v) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _sql_text(node.left) + _sql_text(node.right)
    return ""


def _in_fold(rel: str) -> bool:
    return rel == "a2a_tui/gate/ledger.py" or rel.startswith("a2a_tui/gate/ledger/")


def sql_writes(files: dict[str, ast.Module]) -> list[tuple[str, int, str]]:
    out = []
    for rel, tree in files.items():
        if not rel.startswith("a2a_tui/gate/") or _in_fold(rel):
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("execute", "executemany") and node.args):
                tables = {t.lower() for t in WRITE.findall(_sql_text(node.args[0]))}
                tables -= LOG_TABLES
                if tables:
                    out.append((rel, node.lineno, ",".join(sorted(tables))))
    return out


def _functions(tree: ast.Module):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def dict_returns(files: dict[str, ast.Module], kinds: tuple[str, ...]) -> Counter:
    found: Counter = Counter()
    for rel, tree in files.items():
        for fn in _functions(tree):
            if fn.returns is not None and ast.unparse(fn.returns).replace(" ", "") in kinds:
                found[rel] += 1
    return found


def json_edges(files: dict[str, ast.Module], alias: str = "JsonObject",
               suffix: str = "json") -> list[tuple[str, bool]]:
    """Functions returning `JsonObject` (a2a_tui/jsontypes.py), each with whether its name says
    it builds JSON for the outside (`to_json`, `..._json`); with `alias="TomlTable"` and
    `suffix="toml"`, the same of the TOML files a2a reads and writes."""
    out = []
    for rel, tree in files.items():
        for fn in _functions(tree):
            if fn.returns is not None and ast.unparse(fn.returns).strip("'\"") == alias:
                out.append((f"{rel}:{fn.lineno} {fn.name}", fn.name.endswith(suffix)))
    return out


def _depth(node: ast.AST) -> int:
    best = 0
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        d = _depth(child)
        best = max(best, d + 1 if isinstance(child, COMPOUND) else d)
    return best


def functions(files: dict[str, ast.Module]) -> list[tuple[int, int, str]]:
    out = []
    for rel, tree in files.items():
        for fn in _functions(tree):
            out.append((fn.end_lineno - fn.lineno + 1, _depth(fn), f"{rel}:{fn.lineno} {fn.name}"))
    return out


def bare_states(files: dict[str, ast.Module]) -> int:
    n = 0
    for rel, tree in files.items():
        if rel.startswith(OTHER_MACHINES):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                for part in (node.left, *node.comparators):
                    consts = part.elts if isinstance(part, (ast.Tuple, ast.Set, ast.List)) \
                        else [part]
                    n += sum(isinstance(c, ast.Constant) and c.value in ATTEMPT_STATES
                             for c in consts)
    return n


def _record_name(node: ast.AST) -> bool:
    name = node.id if isinstance(node, ast.Name) else \
        node.attr if isinstance(node, ast.Attribute) else ""
    return bool(RECORD.search(name))


def _str_const(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def record_key_reads(files: dict[str, ast.Module]) -> Counter:
    """`att["key"]` and `att.get("key")` reads of an attempt record, per module."""
    found: Counter = Counter()
    for rel, tree in files.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) \
                    and _record_name(node.value) and _str_const(node.slice):
                found[rel] += 1
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr == "get" and _record_name(node.func.value)
                  and node.args and _str_const(node.args[0])):
                found[rel] += 1
    return found


def _module_name(rel: str) -> str:
    name = rel[:-3].replace("/", ".")
    return name[: -len(".__init__")] if name.endswith(".__init__") else name


def _top_imports(tree: ast.Module, name: str, is_pkg: bool, typing: bool,
                 known: set[str]) -> set[str]:
    """What a module imports at its top (`from pkg import sub` names `pkg.sub`, not `pkg`)."""
    out: set[str] = set()
    for node in tree.body:
        if not typing and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for sub in ast.walk(node):
            if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                break
            if isinstance(sub, ast.Import):
                out |= {a.name for a in sub.names}
            elif isinstance(sub, ast.ImportFrom):
                base = sub.module or ""
                if sub.level:
                    parts = name.split(".")
                    keep = len(parts) - sub.level + (1 if is_pkg else 0)
                    base = ".".join(parts[:keep] + ([base] if base else []))
                out |= {(f"{base}.{a.name}" if f"{base}.{a.name}" in known else base)
                        for a in sub.names}
    return {m for m in out if m.startswith("a2a_tui")}


def circles(files: dict[str, ast.Module], typing: bool = False) -> list[list[str]]:
    """Import circles; `typing` counts the imports under `if TYPE_CHECKING:` too."""
    mods = {_module_name(rel): (rel, tree) for rel, tree in files.items()}
    graph = {m: {i for i in _top_imports(t, m, r.endswith("__init__.py"), typing, set(mods))
                 if i in mods and i != m}
             for m, (r, t) in mods.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    sys.setrecursionlimit(10_000)

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            # a package importing its own submodules is how packages are made, not a circle
            if len(comp) > 1 and not all(c.startswith(min(comp, key=len)) for c in comp):
                out.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def main(argv: list[str]) -> None:
    root = Path(argv[0] if argv else Path(__file__).resolve().parent.parent)
    paths = sorted((root / "a2a_tui").rglob("*.py"))
    files = {p.relative_to(root).as_posix(): ast.parse(p.read_text(), str(p)) for p in paths}
    lines = {rel: len((root / rel).read_text().splitlines()) for rel in files}

    writes = sql_writes(files)
    print(f"SQL writes to gate tables outside the fold: {len(writes)}"
          f" in {len({w[0] for w in writes})} modules")
    for rel, n in Counter(w[0] for w in writes).most_common():
        print(f"  {n:3d}  {rel}")
    for label, kinds in (("dict[str, Any]", ("dict[str,Any]",)),
                         ("... | None or list[...] of it", ("dict[str,Any]|None",
                                                            "list[dict[str,Any]]"))):
        dicts = dict_returns(files, kinds)
        print(f"functions returning {label}: {sum(dicts.values())}"
              f" ({sum(n for r, n in dicts.items() if r.startswith('a2a_tui/gate/'))} in gate/)")
    for alias, edge, suffix in (("JsonObject", "JSON", "json"), ("TomlTable", "TOML", "toml")):
        edges = json_edges(files, alias, suffix)
        print(f"functions returning {alias} (a {edge} edge): {len(edges)};"
              f" not named for it (to_{suffix}, ..._{suffix}):"
              f" {sum(not named for _, named in edges)}")
        for where, named in edges:
            if not named:
                print(f"  {where}")
    fns = functions(files)
    print(f"functions over 60 lines: {sum(n > 60 for n, _, _ in fns)}; longest:")
    for n, _, where in sorted(fns, reverse=True)[:TOP]:
        print(f"  {n:4d}  {where}")
    print(f"functions nesting past 5: {sum(d > 5 for _, d, _ in fns)}; deepest:")
    for d, where in sorted(((d, w) for _, d, w in fns), reverse=True)[:4]:
        print(f"  {d:4d}  {where}")
    print(f"files over 450 lines: {sum(n > 450 for n in lines.values())}; largest:")
    for rel, n in sorted(lines.items(), key=lambda kv: -kv[1])[:4]:
        print(f"  {n:4d}  {rel}")
    gate = root / "a2a_tui" / "gate"
    top = [p.name for p in gate.iterdir()
           if p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists())]
    print(f"modules at gate/'s top level (files and packages, __init__ too): {len(top)}")
    print(f"attempt states as bare strings in comparisons: {bare_states(files)}")
    reads = record_key_reads(files)
    print(f"attempt record key reads (att[\"...\"], att.get(\"...\")): {sum(reads.values())}"
          f" in {len(reads)} modules")
    for rel, n in reads.most_common(TOP):
        print(f"  {n:3d}  {rel}")
    for label, typing in (("module level", False), ("type-only imports included", True)):
        found = circles(files, typing)
        print(f"import circles ({label}): {len(found)}")
        for comp in found:
            print(f"  {' -> '.join(comp)}")


if __name__ == "__main__":
    main(sys.argv[1:])
