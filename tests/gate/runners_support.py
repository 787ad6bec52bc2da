"""Two small real projects for the per-test evidence tests: a Python one under pytest and a
JavaScript one under `node --test` (no npm package needed), each with a bug in `add` (the task)
and a working `mul` and `sub` (what a fake candidate breaks and hides)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.gate.verify_support import PY, claim, result, submit_verify
from tests.support import a2a, make_repo

SKIPPED_MUL = ("import pytest\nfrom calc import mul, sub\n\n\n@pytest.mark.skip(reason='later')\n"
               "def test_mul():\n    assert mul(2, 3) == 6\n\n\n"
               "def test_sub():\n    assert sub(5, 3) == 2\n")
SCORES = ("--score", "boundary=3:in bounds", "--score", "taste=2:fine")

# --- Python -----------------------------------------------------------------------------------

CALC = ("def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n\n\n"
        "def sub(a, b):\n    return a - b\n")
FIXED = CALC.replace("return a - b\n\n\ndef mul", "return a + b\n\n\ndef mul")
BROKEN_MUL = FIXED.replace("return a * b", "return a + b")
TEST_MUL = "def test_mul():\n    assert mul(2, 3) == 6\n"
TEST_SUB = "def test_sub():\n    assert sub(5, 3) == 2\n"
TEST_ADD = "def test_add():\n    assert add(2, 3) == 5\n"
PY_FILES = {
    "pytest.ini": "[pytest]\naddopts = -p no:cacheprovider --disable-plugin-autoload\n",
    "src/calc.py": CALC,
    "tests/conftest.py": "import sys, pathlib\n"
                         "sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / 'src'))\n",
    "tests/test_calc.py": f"from calc import mul, sub\n\n\n{TEST_MUL}\n\n{TEST_SUB}",
}
PYTEST = f"{PY} -m pytest -q tests"
PY_ALLOWED = ("src/**", "tests/**", "pytest.ini", "pyproject.toml", "conftest.py")


def py_repo(tmp_path: Path) -> Path:
    return _init(make_repo(tmp_path / "repo", dict(PY_FILES)))


def py_claim(repo: Path, *, extra: str = "", check: str = PYTEST, card_id: str = "T-1"
             ) -> tuple[dict[str, Any], Path]:
    return claim(repo, check, extra=extra, card_id=card_id, allowed=PY_ALLOWED)


# --- JavaScript (node --test) -----------------------------------------------------------------

needs_node = pytest.mark.skipif(
    shutil.which("node") is None,
    reason="node is not installed here: the JavaScript sample needs it (CI installs it from the"
           " distribution's packages, .ci/run)")

JS_CALC = ("exports.add = (a, b) => a - b;\nexports.mul = (a, b) => a * b;\n"
           "exports.sub = (a, b) => a - b;\n")
JS_FIXED = JS_CALC.replace("add = (a, b) => a - b", "add = (a, b) => a + b")
JS_BROKEN_MUL = JS_FIXED.replace("a * b", "a + b")
JS_HEAD = ("const test = require('node:test');\nconst assert = require('node:assert');\n"
           "const { add, mul, sub } = require('../calc');\n\n")
JS_MUL = "test('mul', () => assert.strictEqual(mul(2, 3), 6));\n"
JS_SUB = "test('sub', () => assert.strictEqual(sub(5, 3), 2));\n"
JS_ADD = "test('add', () => assert.strictEqual(add(2, 3), 5));\n"
JS_FILES = {
    "package.json": '{\n  "name": "calc",\n  "version": "1.0.0",\n  "private": true,\n'
                    '  "scripts": {"test": "node --test"}\n}\n',
    "calc.js": JS_CALC,
    "test/calc.test.js": JS_HEAD + JS_MUL + JS_SUB,
}
NODE_TEST = "node --test"
JS_ALLOWED = ("calc.js", "test/**", "package.json", "FORGE")


def js_repo(tmp_path: Path) -> Path:
    return _init(make_repo(tmp_path / "repo", dict(JS_FILES)))


def js_claim(repo: Path, *, extra: str = "", check: str = NODE_TEST, card_id: str = "T-1"
             ) -> tuple[dict[str, Any], Path]:
    return claim(repo, check, extra=extra, card_id=card_id, allowed=JS_ALLOWED)


# --- npm packages -----------------------------------------------------------------------------

def npm_home(shared: Path, packages: tuple[str, ...], bin_: str) -> Path:
    """`packages` installed once per machine under `shared` (a folder of /tmp the tests share);
    the test skips, saying why, where npm cannot install them."""
    if (shared / "node_modules/.bin" / bin_).exists():
        return shared
    if shutil.which("npm") is None:
        pytest.skip(f"npm is not installed here: the sample needs {', '.join(packages)}"
                    " (.ci/run installs nodejs and npm from the distribution's packages)")
    shared.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(shared),
                        *packages], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        pytest.skip(f"npm could not install {', '.join(packages)}: {r.stderr.strip()[-300:]}")
    return shared


# --- both -------------------------------------------------------------------------------------

def _init(repo: Path) -> Path:
    r = a2a("init", cwd=repo)
    assert r.code == 0, r.err
    return repo


def integrate(repo: Path, attempt: str):
    return a2a("integrate", attempt, *SCORES, "--json", cwd=repo)


def claim_declared(repo: Path, command: str, report: str, allowed: tuple[str, ...]
                   ) -> dict[str, Any]:
    """A card whose check and red command are `command`, each naming the report `report`."""
    red = f"red_command = '{command}'\nred_report = \"{report}\"\n"
    c, _ = claim(repo, {"command": command, "report": report}, allowed=allowed, extra=red)
    return c


def integrates(repo: Path, c: dict[str, Any], v, runner: str) -> None:
    """Assert the verify passed with `runner`'s tests judged, and the attempt integrates."""
    assert v.json["verdict"] == "passed", [result(v, s) for s in ("red", "per-test")]
    assert f"({runner}" in result(v, "per-test")["detail"]
    r = integrate(repo, c["attempt"])
    assert r.code == 0, r.out + r.err


def verify_files(repo: Path, c: dict[str, Any], files: dict[str, str],
                 removed: tuple[str, ...] = ()):
    """Commit `files` (and remove `removed`) in the attempt's worktree, submit and verify."""
    wt = repo / ".a2a/worktrees" / c["attempt"]
    for path in removed:
        (wt / path).unlink()
    return submit_verify(repo, c, files)


def refused(v, code: str, *named: str, step: str = "per-test") -> dict[str, Any]:
    """Assert the verify rejected at `step` with `code`, naming each of `named` in its detail;
    the step's result."""
    assert v.json["verdict"] == "rejected", v.out
    res = result(v, step)
    assert res["code"] == code, res
    for text in named:
        assert text in res["detail"], (text, res)
    return res
