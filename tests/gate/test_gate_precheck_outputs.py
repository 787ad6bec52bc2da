"""The precheck tells what a check writes from what it reads (issue 36, finding 4): a runner's
report path (the check's `report`, `--junitfile X`, `--output-junit X`,
`--test-reporter-destination X`, their `=` forms) is the runner's output, not an input missing
from the start commit; a URL and a Go package pattern (`./...`) are not files; each finding
names the word it took for a path. Every runner line of docs/how-to/non-python-repository.md
passes `card ready` as written."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from a2a_tui.gate.cards.precheck import parse
from tests.gate.test_gate_docs import ROOT, table_rows
from tests.gate.verify_support import gate_toml, write
from tests.support import a2a

HOWTO = ROOT / "docs" / "how-to" / "non-python-repository.md"
TOOLS = ["gotestsum", "ctest", "mvn", "npx", "cargo", "curl", "go"]


@pytest.mark.parametrize("command, output", [
    ("gotestsum --junitfile gotest.xml ./...", "gotest.xml"),
    ("gotestsum --junitfile=gotest.xml ./...", "gotest.xml"),
    ("ctest --output-junit ctest.xml", "ctest.xml"),
    ("node --test --test-reporter=junit --test-reporter-destination out/node.xml", "out/node.xml"),
    ("node --test --test-reporter=junit --test-reporter-destination=out/node.xml",
     "out/node.xml"),
    ("pytest --junitxml reports/py.xml tests", "reports/py.xml"),
])
def test_a_report_option_names_an_output_not_an_input(command: str, output: str):
    p = parse(command)
    assert p.files == [], p
    assert p.outputs == [output], p


def test_urls_and_go_package_patterns_are_not_files():
    assert parse("curl -s http://example.com/a/b.json").files == []
    assert parse("go test ./... ./pkg/...").files == []
    assert parse("go vet ./cmd/x.go").files == ["cmd/x.go"]  # still a file


def _tools(tmp_path: Path) -> dict[str, str]:
    tools = tmp_path / "tools"
    tools.mkdir()
    for name in TOOLS:
        tool = tools / name
        tool.write_text("#!/bin/sh\nexit 0\n")
        tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    return {"PATH": f"{tools}:{os.environ['PATH']}"}


def _ready(repo: Path, env: dict[str, str], *checks, card_id: str = "T-1"):
    r = a2a("card", "add", str(write(repo, *checks, card_id=card_id)), cwd=repo, env=env)
    assert r.code == 0, r.err
    return a2a("card", "ready", card_id, "--json", cwd=repo, env=env)


def _allow(repo: Path) -> None:
    gate_toml(repo, "[commands]\nallow = [" + ", ".join(f'"{t}"' for t in TOOLS) + "]\n")


def _doc_rows() -> list[tuple[str, str | None]]:
    """(command, report) of each runner row whose command is written out."""
    out = []
    for runner, command, report in table_rows(HOWTO, "## 2."):
        cmd = re.fullmatch(r"`([^`]+)`.*", command)
        rep = re.fullmatch(r"`([^`]+)`", report)
        if cmd and runner not in ("pytest", "`node --test` (18.15+)"):
            out.append((cmd[1], rep[1] if rep else None))
    return out


def test_the_docs_runner_rows_are_read():
    commands = [c for c, _ in _doc_rows()]
    assert "gotestsum --junitfile gotest.xml ./..." in commands
    assert "ctest --output-junit ctest.xml" in commands
    maven = [c for c in commands if c.startswith("mvn")]
    assert maven and all(" -q" not in c for c in maven), \
        "mvn -q hides the `Tests run:` summary the page asks to keep"


@pytest.mark.parametrize("command, report", _doc_rows())
def test_each_runner_line_of_the_docs_passes_card_ready(repo, tmp_path, command, report):
    env = _tools(tmp_path)
    _allow(repo)
    check = {"command": command, **({"report": report} if report else {})}
    r = _ready(repo, env, check)
    assert r.code == 0, r.out + r.err


def test_the_report_named_on_the_check_is_its_output(repo, tmp_path):
    env = _tools(tmp_path)
    _allow(repo)
    r = _ready(repo, env, {"command": "ctest --output-log reports/ctest.xml",
                           "report": "reports/ctest.xml"})
    assert r.code == 0, r.out + r.err


def test_a_finding_names_the_word_it_took_for_a_path(repo, tmp_path):
    env = _tools(tmp_path)
    _allow(repo)
    r = _ready(repo, env, "curl -s http://example.com && go vet tests/test_gone.py::test_y")
    assert r.code == 1 and r.json["error"]["code"] == "contract_invalid", r.out
    message = r.json["error"]["message"]
    assert "'tests/test_gone.py::test_y'" in message, message
    assert "example.com" not in message, message
