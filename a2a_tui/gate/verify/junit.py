"""pytest's junit XML, read back: which tests ran and how each ended.

Every check runs with `PYTEST_ADDOPTS=--junitxml=<file> -o junit_family=xunit1` (run.py), so any
pytest it starts writes a report; xunit1 names each test's file, which gives pytest's own node ids
(`tests/test_names.py::TestX::test_y[1]`). The report is written by the run being judged: it
tells which tests ran, not that they are honest.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

MAX_BYTES = 50 * 1024 * 1024
RAN = ("passed", "failed", "error")


@dataclass(frozen=True)
class Report:
    outcomes: dict[str, str]       # test id -> passed | failed | error | skipped | xfail

    def ran(self) -> set[str]:
        return {t for t, o in self.outcomes.items() if o in RAN}

    def failed(self) -> list[str]:
        return [t for t, o in self.outcomes.items() if o in ("failed", "error")]


def read(path: Path) -> Report | None:
    """The report at `path`, or None when there is none (not pytest) or it cannot be read."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    outcomes: dict[str, str] = {}
    for case in root.iter("testcase"):
        test = test_id(case.get("file") or "", case.get("classname") or "", case.get("name", ""))
        outcomes[test] = _worst(outcomes.get(test), _outcome(case))
    return Report(outcomes)


def test_id(file: str, classname: str, name: str) -> str:
    """pytest's node id when the file is known, else `classname::name`."""
    if file:
        module = file[:-3].replace("/", ".") if file.endswith(".py") else ""
        classes = classname[len(module) + 1:] if module and classname.startswith(module + ".") \
            else ""
        return "::".join([file, *(c for c in classes.split(".") if c), name])
    return f"{classname}::{name}" if classname else name


def _outcome(case: ET.Element) -> str:
    if case.find("failure") is not None:
        return "failed"
    if case.find("error") is not None:
        return "error"
    skipped = case.find("skipped")
    if skipped is not None:
        return "xfail" if skipped.get("type") == "pytest.xfail" else "skipped"
    return "passed"


def _worst(a: str | None, b: str) -> str:
    order = ("passed", "xfail", "skipped", "error", "failed")
    return b if a is None or order.index(b) > order.index(a) else a
