"""a2a's pytest plugin (loaded with `-p a2a_pytest_witness`, this folder on PYTHONPATH, by the
gate's check runs only: reports/channel.py). It writes to the run's channel a start record when
pytest loads it (before any conftest or test module is imported) and an end-of-run record, with
its own counts of the tests, when the session finishes. A test that ends the process early
leaves a start without an end. Records carry the run's token; the channel's path and token are
taken out of the environment here, so processes the tests start do not inherit them.

It also counts each test's passing assertions (`pytest_assertion_pass`, which pytest calls only
with `enable_assertion_pass_hook`, set by the gate) and its `pytest.raises`/`pytest.warns`
checks, so a test that asserts nothing can be told apart (effective tests).
"""

from __future__ import annotations

import pytest
from a2a_witness_channel import opened

_write = opened("pytest")
_OUTCOMES: dict[str, str] = {}
_ASSERTS: dict[str, int] = {}
_CURRENT: list[str] = []


_write({"event": "start"})


def _count() -> None:
    if _CURRENT:
        _ASSERTS[_CURRENT[-1]] = _ASSERTS.get(_CURRENT[-1], 0) + 1


def _wrap(name: str) -> None:
    """pytest.raises and pytest.warns used as context managers or calls are checks too."""
    real = getattr(pytest, name)

    def counted(*args, **kwargs):
        _count()
        return real(*args, **kwargs)

    counted.__wrapped__ = real  # type: ignore[attr-defined]
    setattr(pytest, name, counted)


if _write.active:  # type: ignore[attr-defined]
    for _name in ("raises", "warns"):
        _wrap(_name)


def pytest_assertion_pass(item, lineno, orig, expl):
    _ASSERTS[item.nodeid] = _ASSERTS.get(item.nodeid, 0) + 1


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    _CURRENT.append(item.nodeid)
    try:
        yield
    finally:
        _CURRENT.pop()


def pytest_runtest_logreport(report):
    if report.when == "call" or report.outcome != "passed":
        if hasattr(report, "wasxfail"):
            outcome = "xpass" if report.passed else "xfail"
        elif report.outcome == "failed" and report.when != "call":
            outcome = "error"
        else:
            outcome = report.outcome
        if _OUTCOMES.get(report.nodeid) in (None, "passed"):
            _OUTCOMES[report.nodeid] = outcome


def pytest_sessionfinish(session, exitstatus):
    counts: dict[str, int] = {}
    for outcome in _OUTCOMES.values():
        counts[outcome] = counts.get(outcome, 0) + 1
    empty = sorted(t for t, o in _OUTCOMES.items() if o == "passed" and not _ASSERTS.get(t))
    _write({"event": "end", "exit": int(exitstatus), "counts": counts, "no_assertions": empty})
