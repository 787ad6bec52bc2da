"""Each scenario runs as `proof` with everything on and, with `A2A_COUNTEREXAMPLES=1`, also as
`counterexample` with its mechanism switched off (here and in every a2a process it starts), where
it must FAIL with an assertion: a counterexample that passes, or breaks another way, is reported
as a failure. The counterexamples are a separate run (docs/how-to/develop.md): each waits out
what its mechanism would have done, about ten minutes of a worker's time in all, a third of the
suite's spare."""

from __future__ import annotations

import os

import pytest

from tests.scenarios.switches import HERE, OFF_ENV, ROOT
from tests.scenarios.switches.faults import KILL_AFTER
from tests.scenarios.switches.registry import switch_off

MODES = ("proof", "counterexample")
COUNTEREXAMPLES_ENV = "A2A_COUNTEREXAMPLES"


def modes() -> tuple[str, ...]:
    """The proofs always; the counterexamples when asked for (`A2A_COUNTEREXAMPLES=1`)."""
    return MODES if os.environ.get(COUNTEREXAMPLES_ENV) == "1" else MODES[:1]


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "scenario(mechanism): a scenario and what it proves")


def pytest_generate_tests(metafunc) -> None:
    if metafunc.definition.get_closest_marker("scenario"):
        metafunc.parametrize("scenario_mode", modes(), indirect=True)


def mechanism_of(item) -> str | None:
    mark = item.get_closest_marker("scenario")
    return mark.args[0] if mark else None


@pytest.fixture(autouse=True)
def scenario_mode(request, monkeypatch, isolated_env) -> str | None:
    """Before the test's repository and tmux server exist: the a2a processes it starts read
    sitecustomize.py; in the counterexample, the mechanism is off here and there."""
    mode = getattr(request, "param", None)
    if mode is None:
        return None
    for var in (OFF_ENV, KILL_AFTER):  # nothing switched off or killed unless asked here
        monkeypatch.delenv(var, raising=False)
    path = os.pathsep.join([str(HERE), str(ROOT), os.environ.get("PYTHONPATH", "")])
    monkeypatch.setenv("PYTHONPATH", path.rstrip(os.pathsep))
    if mode == "counterexample":
        mechanism = mechanism_of(request.node)
        monkeypatch.setenv(OFF_ENV, mechanism)
        switch_off(mechanism, monkeypatch.setattr)
    return mode


def where_it_failed(item, call) -> str:
    """The scenario's own line that failed (the last frame in its file) and the message."""
    frames = [e for e in call.excinfo.traceback if str(e.path) == str(item.path)]
    message = (str(call.excinfo.value).strip().splitlines() or [""])[0][:200]
    if not frames:
        return message
    return f"line {frames[-1].lineno + 1}: {str(frames[-1].statement).strip()[:200]} ({message})"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    callspec = getattr(item, "callspec", None)
    if call.when != "call" or callspec is None or \
            callspec.params.get("scenario_mode") != "counterexample":
        return
    mechanism = mechanism_of(item)
    if rep.passed:
        rep.outcome = "failed"
        rep.longrepr = (f"counterexample passed: with {mechanism!r} switched off the scenario"
                        " still passes, so it does not prove that mechanism")
    elif call.excinfo is not None and call.excinfo.errisinstance(AssertionError):
        rep.outcome = "passed"  # the scenario failed without its mechanism, as it must
        rep.longrepr = None
        rep.sections.append(("counterexample", f"{mechanism} off: {where_it_failed(item, call)}"))
    else:
        rep.longrepr = (f"counterexample broke instead of failing its assertions with"
                        f" {mechanism!r} off:\n{rep.longrepr}")
