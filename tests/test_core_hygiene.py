"""The core (store, gate, panes, collaboration records, CLI) imports neither textual nor rich.

Checked twice: here by importing every core module in a fresh interpreter, and statically by the
forbidden contract in pyproject.toml (tests/test_layers.py), which also sees imports inside
functions that this run never reaches.
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import a2a_tui

UI_PACKAGES = ("a2a_tui.tui",)


def core_modules() -> list[str]:
    mods = []
    for m in pkgutil.walk_packages(a2a_tui.__path__, "a2a_tui."):
        if m.name.startswith(UI_PACKAGES) or m.name == "a2a_tui.__main__":
            continue
        mods.append(m.name)
    return mods


def test_core_imports_no_ui_library():
    mods = core_modules()
    for expected in ("a2a_tui.store", "a2a_tui.store.watch", "a2a_tui.gate", "a2a_tui.cli",
                     "a2a_tui.identity", "a2a_tui.queue", "a2a_tui.faults", "a2a_tui.spawn",
                     "a2a_tui.panes.orchestrator", "a2a_tui.collab.board", "a2a_tui.demo.start"):
        assert expected in mods
    code = (
        "import importlib, json, sys\n"
        f"for m in {mods!r}: importlib.import_module(m)\n"
        "from a2a_tui.cli import build_parser; build_parser()\n"
        "print(json.dumps(sorted(k for k in sys.modules"
        " if k.split('.')[0] in ('textual', 'rich'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [], "core pulled in a UI library"


def test_the_check_itself_catches_a_ui_import():
    code = ("import sys, textual.app\n"
            "print(any(k.split('.')[0] in ('textual', 'rich') for k in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_gate_names_are_the_functions_whichever_is_imported_first():
    # The gate package imports its parts on first use; a submodule imported first binds its own
    # name on the package, which must never be one of the functions (verify, integrate, ...).
    code = ("import types\n"
            "from a2a_tui.gate.verification.command import Verification\n"
            "from a2a_tui.gate.integration.advance import integrate as direct\n"
            "import a2a_tui.gate.reviews.verdict, a2a_tui.gate.attempts.cleanup\n"
            "import a2a_tui.gate as gate\n"
            "from a2a_tui.gate import verify, review\n"
            "assert not isinstance(verify, types.ModuleType), verify\n"
            "assert gate.integrate is direct and callable(gate.integrate)\n"
            "assert callable(review) and callable(gate.claim) and gate.verify is verify\n"
            "assert callable(gate.review) and callable(gate.reclaim) and callable(gate.recover)\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr
