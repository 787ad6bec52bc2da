"""`.ci/run` finds the README's test command by its marker, not by a line number."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = "<!-- test-command -->"


def ci_show(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", str(root / ".ci" / "run"), "--show"], cwd=root,
                          capture_output=True, text=True, timeout=30)


def checkout(tmp_path: Path, readme: str) -> Path:
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    (tmp_path / "README.md").write_text(readme, encoding="utf-8")
    return tmp_path


def test_the_command_is_the_line_after_the_marker():
    r = ci_show(ROOT)
    assert r.returncode == 0, r.stderr
    assert "pytest" in r.stdout and "pip install" in r.stdout
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    after = lines[lines.index(MARKER) + 1:]
    assert r.stdout.strip() == next(x for x in after if x.strip() and not x.startswith("```"))


def test_the_marker_moves_with_the_text(tmp_path):
    root = checkout(tmp_path, f"# x\n\nmore lines\n\n{MARKER}\n```sh\necho the tests\n```\n"
                              "echo not this\n")
    assert ci_show(root).stdout.strip() == "echo the tests"


def test_no_marker_is_one_clear_error(tmp_path):
    root = checkout(tmp_path, "# x\n\n```sh\necho the tests\n```\n")
    r = ci_show(root)
    assert r.returncode == 2
    assert r.stdout == ""
    assert MARKER in r.stderr and "README.md" in r.stderr
