"""The scenario suites' own checks: each scenario names a mechanism the registry can switch
off, each switch is some scenario's, the suites hold the seed's numbers, every switch applies
(its text is still in the code) and is undone, and a counterexample that passes, or breaks
instead of failing, is reported as a failure."""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import subprocess
import sys
import textwrap

import pytest

from tests.scenarios import delivery, orchestration, recovery, rules
from tests.scenarios.conftest import COUNTEREXAMPLES_ENV
from tests.scenarios.switches import ROOT
from tests.scenarios.switches.edits import Replace
from tests.scenarios.switches.registry import SWITCHES, switch_off

SUITES = {"delivery": (delivery, 8), "recovery": (recovery, 9),
          "orchestration": (orchestration, 21), "rules": (rules, 10)}


def scenarios(package) -> dict[str, str]:
    """The package's scenario tests: name -> the mechanism it names."""
    found = {}
    for mod in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{mod.name}")
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            marks = [m for m in getattr(fn, "pytestmark", []) if m.name == "scenario"]
            if name.startswith("test_"):
                assert len(marks) == 1, f"{module.__name__}.{name} names no mechanism"
                found[name] = marks[0].args[0]
    return found


def test_every_scenario_names_a_switch_and_every_switch_is_a_scenarios():
    named = {n: m for package, _ in SUITES.values() for n, m in scenarios(package).items()}
    assert set(named.values()) <= set(SWITCHES), set(named.values()) - set(SWITCHES)
    assert set(SWITCHES) <= set(named.values()), set(SWITCHES) - set(named.values())


@pytest.mark.parametrize("suite", sorted(SUITES))
def test_each_suite_holds_the_seeds_number_of_scenarios(suite):
    package, least = SUITES[suite]
    assert len(scenarios(package)) >= least


def test_a_replacement_that_no_longer_takes_its_originals_calls_is_refused():
    """The original grew a parameter (`then`) its replacement does not take: inside the a2a
    processes every call would fail, and the counterexample would fail for that instead of for
    its mechanism (three switches were out of date this way, one of them for weeks)."""
    stale = Replace("a2a_tui.panes.spool", "ingest",
                    lambda orig: lambda store, path: orig(store, path))
    with pytest.raises(AssertionError, match="out of date"):
        stale.apply(lambda *a: None)
    Replace("a2a_tui.panes.spool", "ingest",
            lambda orig: lambda store, path, *a, **kw: orig(store, path, *a, **kw)
            ).apply(lambda *a: None)


@pytest.mark.parametrize("name", sorted(SWITCHES))
def test_each_switch_applies_and_is_undone(name):
    mp = pytest.MonkeyPatch()
    switch_off(name, mp.setattr)  # an edit whose text left the code fails here
    assert mp._setattr, f"{name} changed nothing"
    before = [(obj, attr, getattr(obj, attr)) for obj, attr, _ in mp._setattr]
    mp.undo()
    assert all(getattr(obj, attr) is not now for obj, attr, now in before)


CONFTEST = """
from tests.conftest import isolated_env  # noqa: F401
from tests.scenarios.conftest import *  # noqa: F401,F403
from tests.scenarios.conftest import pytest_configure, pytest_generate_tests  # noqa: F401
from tests.scenarios.conftest import pytest_runtest_makereport, scenario_mode  # noqa: F401
from tests.scenarios.switches.registry import SWITCHES, Switch

SWITCHES["nothing"] = Switch("removes nothing", ())
"""

SCENARIOS = """
from tests.scenarios.switches import scenario


@scenario("nothing")
def test_holds_with_or_without_it():
    assert True


@scenario("nothing")
def test_fails_on_its_assertion():
    assert 1 == 2


@scenario("nothing")
def test_breaks():
    raise ValueError("not an assertion")
"""


def test_a_counterexample_that_passes_or_breaks_is_a_failure(tmp_path):
    (tmp_path / "conftest.py").write_text(textwrap.dedent(CONFTEST))
    (tmp_path / "test_meta.py").write_text(textwrap.dedent(SCENARIOS))
    env = {**os.environ, "PYTHONPATH": str(ROOT), COUNTEREXAMPLES_ENV: "1"}
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-n", "0", "-p",
                        "no:cacheprovider", str(tmp_path)],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    outcome = {line.split()[1].split("::")[1]: line.split()[0] for line in r.stdout.splitlines()
               if line.startswith(("PASSED", "FAILED", "ERROR"))}
    assert outcome == {
        "test_holds_with_or_without_it[proof]": "PASSED",
        "test_holds_with_or_without_it[counterexample]": "FAILED",
        "test_fails_on_its_assertion[proof]": "FAILED",
        "test_fails_on_its_assertion[counterexample]": "PASSED",
        "test_breaks[proof]": "FAILED",
        "test_breaks[counterexample]": "FAILED",
    }, r.stdout + r.stderr
    assert "counterexample passed: with 'nothing' switched off" in r.stdout
    assert "counterexample broke instead of failing its assertions" in r.stdout


def test_the_counterexamples_run_only_when_asked_for(tmp_path):
    """The suite runs the proofs; `A2A_COUNTEREXAMPLES=1` adds the counterexamples."""
    (tmp_path / "conftest.py").write_text(textwrap.dedent(CONFTEST))
    (tmp_path / "test_meta.py").write_text(textwrap.dedent(SCENARIOS))
    env = {k: v for k, v in os.environ.items() if k != COUNTEREXAMPLES_ENV}
    ids = {}
    for asked in ("", "1"):
        r = subprocess.run([sys.executable, "-m", "pytest", "-q", "--collect-only", "-n", "0",
                            "-p", "no:cacheprovider", str(tmp_path)], cwd=tmp_path,
                           env={**env, "PYTHONPATH": str(ROOT), COUNTEREXAMPLES_ENV: asked},
                           capture_output=True, text=True, timeout=120)
        ids[asked] = {line.split("[")[1] for line in r.stdout.splitlines() if "::" in line}
    assert ids == {"": {"proof]"}, "1": {"proof]", "counterexample]"}}, ids
