"""JUnit XML, in the dialects of the runners that write it.

One element tree for all (`<testsuites>`/`<testsuite>` holding `<testcase>`s whose children say
how each ended); the dialects differ in where a test's file is and what `classname` holds:

- pytest (xunit1, xunit2; a suite named `pytest`): the file is `file=` (xunit1), else the
  module part of `classname`; the key is classes :: name (pytest's node id);
- node, a2a's reporter (`<testsuites name="a2a node --test">`): `file=`, suite chain > name;
- Node's own `junit` reporter (no file, `classname="test"` everywhere): no file (two files'
  tests of one name are one test), suite chain > name;
- jest-junit (`name="jest tests"`): `file=`, else the suite's name; the name (with the classname
  when that adds to it);
- vitest (`name="vitest tests"`): `classname` (the file), the name (`suite > test`);
- gotestsum (a `go.version` property): `classname` (the package), the name (`TestX/sub`);
- cargo-nextest (`name="nextest-run"`): `classname` (the test binary), the name (`mod::test`);
- Surefire (its schema, or `java.*` properties): `classname` (the class), the name;
- ctest (`status=` on every case): no file, the name;
- any other: `file=`, classname :: name.

Outcomes: `<failure>` failed, `<error>` error, `<skipped>` skipped — pytest's `type="pytest.xfail"`
is xfail, node's `type="todo"` is xfail with a failure and xpass without; ctest's
`status="notrun"|"disabled"` is skipped; a case whose only failures are `flakyFailure` (nextest,
Surefire: it passed on a retry) passed. A document with a DOCTYPE or an ENTITY is not read.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from a2a_tui.gate.verification.reports.model import Outcome, TestCase, TestReport, build

MAX_BYTES = 50 * 1024 * 1024
NODE_A2A = "a2a node --test"
_DECLARATIONS = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.I)
_BY_ROOT_NAME = {NODE_A2A: "node", "jest tests": "jest", "vitest tests": "vitest",
                 "nextest-run": "nextest", "pytest tests": "pytest"}


def read(path: Path) -> TestReport | None:
    """The report in `path`, or None when it is missing, too large or not JUnit XML."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    return parse(data)


def parse(data: bytes) -> TestReport | None:
    """A JUnit XML document's tests, or None when it is not one."""
    if _DECLARATIONS.search(data):
        return None
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        return None
    if root.tag not in ("testsuites", "testsuite"):
        return None
    dialect = dialect_of(root)
    cases = [TestCase(*_identity(dialect, chain, case), outcome(case))
             for chain, case in _walk(root, ())]
    return dataclasses.replace(build(dialect, cases), unlisted_skipped=_unlisted_skips(root))


def _unlisted_skips(root: ET.Element) -> int:
    """Skipped tests the innermost suites count (`skipped=`) beyond the skipped cases they
    list: libtest's JUnit leaves an `#[ignore]`d test out and counts it."""
    out = 0
    for suite in [root, *root.iter("testsuite")]:
        if suite.find("testsuite") is not None:
            continue
        try:
            counted = int(suite.get("skipped") or 0)
        except ValueError:
            continue
        listed = sum(1 for c in suite.findall("testcase") if c.find("skipped") is not None)
        out += max(0, counted - listed)
    return out


def dialect_of(root: ET.Element) -> str:
    """Which runner wrote the document (see the module's table)."""
    by_name = _BY_ROOT_NAME.get(root.get("name", ""))
    if by_name:
        return by_name
    suites = [root, *root.iter("testsuite")]
    if any(s.get("name") == "pytest" for s in suites):
        return "pytest"
    for s in suites:
        schema = " ".join(v for k, v in s.attrib.items() if k.endswith("SchemaLocation"))
        props = {p.get("name", "") for p in s.iter("property")}
        if "surefire" in schema or any(p.startswith(("java.", "surefire.")) for p in props):
            return "surefire"
        if "go.version" in props:
            return "go"
    cases = list(root.iter("testcase"))
    if cases and all(c.get("status") for c in cases) and not any(c.get("result") for c in cases):
        return "ctest"
    if (cases and root.tag == "testsuites" and not root.get("name")
            and all(c.get("classname") == "test" and not c.get("file") for c in cases)):
        return "node-junit"
    return "junit"


def _walk(el: ET.Element, chain: tuple[ET.Element, ...]):
    """Each test case with the suites around it, outermost first."""
    for child in el:
        if child.tag == "testcase":
            yield chain, child
        elif child.tag == "testsuite":
            yield from _walk(child, (*chain, child))


def _identity(dialect: str, chain: tuple[ET.Element, ...], case: ET.Element) -> tuple[str, str]:
    name, classname = case.get("name", ""), case.get("classname", "")
    suite_file = next((s.get("file", "") for s in reversed(chain) if s.get("file")), "")
    if dialect == "pytest":
        return _pytest(case.get("file", ""), classname, name)
    if dialect == "node":
        return case.get("file", ""), " > ".join([p for p in (classname,) if p] + [name])
    if dialect == "node-junit":
        return "", " > ".join([s.get("name", "") for s in chain] + [name])
    if dialect == "jest":
        where = case.get("file") or suite_file or (chain[-1].get("name", "") if chain else "")
        redundant = not classname or classname == name or name.startswith(classname)
        return where, name if redundant else f"{classname} {name}"
    if dialect in ("vitest", "go", "nextest", "surefire"):
        where = case.get("file") or classname or (chain[-1].get("name", "") if chain else "")
        return where, name
    if dialect == "ctest":
        return "", name
    return case.get("file", ""), f"{classname}::{name}" if classname else name


def _pytest(file: str, classname: str, name: str) -> tuple[str, str]:
    """pytest's node id parts. xunit1 names the file; xunit2 only the dotted `classname`, whose
    classes are the parts from the first capitalised one (pytest collects `Test*` classes)."""
    parts = [p for p in classname.split(".") if p]
    if file:
        module = file[:-3].replace("/", ".") if file.endswith(".py") else ""
        classes = classname[len(module) + 1:].split(".") if module and classname.startswith(
            module + ".") else []
    else:
        first = next((i for i, p in enumerate(parts) if p[:1].isupper()), len(parts))
        file = "/".join(parts[:first]) + ".py" if first else ""
        classes = parts[first:]
    return file, "::".join([*(c for c in classes if c), name])


def outcome(case: ET.Element) -> Outcome:
    """How one `<testcase>` ended."""
    tags = {child.tag for child in case}
    failed = "failure" in tags or case.get("status") == "fail"
    errored = "error" in tags
    skipped = case.find("skipped")
    if skipped is not None:
        kind = skipped.get("type", "")
        if kind == "pytest.xfail":
            return Outcome.XFAIL
        if kind == "todo":
            return Outcome.XFAIL if failed or errored else Outcome.XPASS
        if not (failed or errored):
            return Outcome.SKIPPED
    if failed:
        return Outcome.FAILED
    if errored:
        return Outcome.ERROR
    if case.get("status") in ("notrun", "disabled") or case.get("result") == "skipped":
        return Outcome.SKIPPED
    return Outcome.PASSED
