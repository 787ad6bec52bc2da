"""The fold is the only writer of gate state (issue 23): a gate command decides and records its
event; the ledger's handler for that kind writes the rows, in the same transaction. So no module
outside gate/ledger/ writes a table the fold writes, no gate module appends a kind the fold
handles past it, and the tables after a whole history are exactly the fold of the log, the
tables the gate does not compare (targets, line comments) included.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import a2a_tui
from a2a_tui.gate import ledger
from a2a_tui.store import Store
from tests.gate.test_gate_ledger import _history
from tests.support import a2a, commit_in, git

PACKAGE = Path(a2a_tui.__file__).parent
FOLD = PACKAGE / "gate" / "ledger"
# Migrations make the schema (and backfill it once); they are not a writer of gate state.
MIGRATIONS = PACKAGE / "store" / "migrations"
WRITE = re.compile(r"\b(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|UPDATE|DELETE\s+FROM|REPLACE\s+INTO)"
                   r"\s+(\w+)", re.I)


def _sql(node: ast.AST) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_sql(v) for v in node.values)
    if isinstance(node, ast.BinOp):
        return _sql(node.left) + _sql(node.right)
    return ""


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        if FOLD in path.parents or MIGRATIONS in path.parents:
            continue
        yield path.relative_to(PACKAGE.parent), ast.parse(path.read_text(), str(path))


def _calls(tree: ast.AST, name: str):
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == name and node.args):
            yield node


def test_no_module_but_the_fold_writes_a_gate_table():
    tables = {t.name for t in ledger.TABLES}
    found = [f"{path}:{call.lineno} writes {', '.join(sorted(hit))}"
             for path, tree in _modules()
             for call in [*_calls(tree, "execute"), *_calls(tree, "executemany")]
             if (hit := {t.lower() for t in WRITE.findall(_sql(call.args[0]))} & tables)]
    assert found == []


def test_no_module_appends_an_event_the_fold_handles_past_it():
    # Tx.append(kind, *, actor=...): a kind the fold handles goes through ledger.record; in the
    # gate every kind is spelled where it is appended, so the test can read it.
    found = []
    for path, tree in _modules():
        in_gate = path.parts[1] == "gate"
        for call in _calls(tree, "append"):
            if not any(k.arg == "actor" for k in call.keywords):
                continue   # a list's append
            kind = call.args[0]
            if isinstance(kind, ast.Constant) and kind.value in ledger.HANDLERS:
                found.append(f"{path}:{call.lineno} appends {kind.value}")
            elif not isinstance(kind, ast.Constant) and in_gate:
                found.append(f"{path}:{call.lineno} appends {ast.unparse(kind)}")
    assert found == []


def _every_table(repo: Path) -> None:
    """Targets and comments beside the gate's history: a move outside the gate adopted by the
    user, and comments held, edited, removed."""
    _history(repo)
    git(repo, "commit", "-q", "--allow-empty", "-m", "moved by hand")
    assert a2a("claim", "T-2", "--json", cwd=repo).json["error"]["code"] == "target_diverged"
    assert a2a("target", "adopt", "main", "--reason", "mine", cwd=repo).code == 0
    c = a2a("claim", "T-2", "--json", cwd=repo).json
    commit_in(repo / ".a2a/worktrees" / c["attempt"], {"src/app.py": "v = 4\n"})
    ids = []
    for line, text in ((1, "one"), (1, "two")):
        r = a2a("comment", c["attempt"], "--file", "src/app.py", "--line", str(line), "--text",
                text, "--json", cwd=repo)
        assert r.code == 0, r.out
        ids.append(r.json["id"])
    assert a2a("comment", "edit", ids[0], "--text", "one, edited", cwd=repo).code == 0
    assert a2a("comment", "remove", ids[1], cwd=repo).code == 0


# The tables this history writes (reviews and approvals: tests/gate/test_gate_review_ledger.py).
WRITTEN = {"cards", "card_versions", "attempts", "submissions", "verifications", "check_results",
           "integrations", "scores", "gate_targets", "review_comments"}


def test_after_a_whole_history_every_table_is_the_fold_of_the_log(repo):
    _every_table(repo)
    with Store(repo / ".a2a/a2a.db") as s:
        folded = ledger.load(s)
        for table in ledger.TABLES:
            want = sorted((tuple(r[c] for c in table.compared)
                           for r in folded.rows[table.name].values()), key=repr)
            have = sorted((tuple(dict(r)[c] for c in table.compared)
                           for r in ledger.TxRows(s).where(table.name)), key=repr)
            assert have == want, table.name
            if table.name in WRITTEN:
                assert have, f"the history wrote no {table.name}"
    assert a2a("store", "verify", "--json", cwd=repo).json["intact"] is True


def test_the_fold_applies_exactly_the_registered_kinds_and_record_takes_no_other(tmp_path):
    assert set(ledger.HANDLERS) == set(ledger.GateEvent)
    with Store(tmp_path / "a2a.db") as s:
        before = s.last_seq()
        with pytest.raises(ValueError, match="card_addded"), s.write() as tx:
            ledger.record(tx, "card_addded", actor="user", task="T-1")   # a typo
        assert s.last_seq() == before   # nothing appended, nothing half-written
