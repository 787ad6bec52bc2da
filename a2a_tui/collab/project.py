"""The project's profile (rule 8, seed 004 4.1: "工程画像：用什么语言、什么测试框架、测试文件
放哪、构建命令是什么"): its language, test framework, where its tests live, its build and test
commands.

a2a detects it from the files that say so (pyproject.toml, package.json, go.mod, Cargo.toml,
pom.xml, CMakeLists.txt, in that order; the first found is the profile, the others are listed),
and the user confirms it, edited or not (`a2a profile confirm [--set FIELD=VALUE]`: recorded as
`project_profile_confirmed` with the user's input). Only a confirmed profile is given out: to
the controllers' role cards (spawn.py) and to a new card's template, so cards name the real
commands. Detection reads the main checkout's files (the user's), each at most READ_BYTES.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from a2a_tui.errors import A2AError
from a2a_tui.jsontypes import JsonObject
from a2a_tui.payloads import payload_of
from a2a_tui.payloads.collab import ProjectProfileConfirmed

FIELDS = ("language", "test_framework", "tests", "build", "test")
READ_BYTES = 1 << 20
EVENT = "project_profile_confirmed"


def _read(root: Path, name: str) -> str | None:
    p = root / name
    if not p.is_file() or p.is_symlink():
        return None
    with open(p, "rb") as f:
        return f.read(READ_BYTES).decode("utf-8", errors="replace")


def _folder(root: Path, *names: str) -> str:
    return next((f"{n}/" for n in names if (root / n).is_dir()), "")


def _python(root: Path, text: str) -> dict[str, str]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        data = {}
    pytest = "pytest" in text or (root / "pytest.ini").is_file()
    runner = "uv run " if (root / "uv.lock").is_file() else ""
    return {"language": "python", "test_framework": "pytest" if pytest else "unittest",
            "tests": _folder(root, "tests", "test"),
            "build": f"{runner}python -m build" if "build-system" in data else "",
            "test": f"{runner}python -m pytest -q" if pytest
            else f"{runner}python -m unittest discover"}


def _node(root: Path, text: str) -> dict[str, str]:
    try:
        data = json.loads(text)
    except ValueError:
        data = {}
    data = data if isinstance(data, dict) else {}
    deps = {**(data.get("dependencies") or {}), **(data.get("devDependencies") or {})}
    scripts = data.get("scripts") or {}
    framework = next((f for f in ("vitest", "jest", "mocha") if f in deps), "node:test")
    return {"language": "typescript" if (root / "tsconfig.json").is_file() else "javascript",
            "test_framework": framework, "tests": _folder(root, "test", "tests", "__tests__"),
            "build": "npm run build" if "build" in scripts else "",
            "test": "npm test" if "test" in scripts else "node --test"}


def _go(root: Path, text: str) -> dict[str, str]:
    return {"language": "go", "test_framework": "go test", "tests": "beside the code (*_test.go)",
            "build": "go build ./...", "test": "go test ./..."}


def _rust(root: Path, text: str) -> dict[str, str]:
    return {"language": "rust", "test_framework": "cargo test",
            "tests": _folder(root, "tests") or "in the modules (#[cfg(test)])",
            "build": "cargo build", "test": "cargo test"}


def _java(root: Path, text: str) -> dict[str, str]:
    return {"language": "java", "test_framework": "junit" if "junit" in text else "maven",
            "tests": _folder(root, "src/test/java", "src/test"), "build": "mvn -q package",
            "test": "mvn -q test"}


def _cmake(root: Path, text: str) -> dict[str, str]:
    cpp = re.search(r"\bCXX\b|\.cpp\b|\.cc\b", text) is not None
    return {"language": "c++" if cpp else "c",
            "test_framework": "ctest" if "enable_testing" in text else "",
            "tests": _folder(root, "tests", "test"),
            "build": "cmake -S . -B build && cmake --build build",
            "test": "ctest --test-dir build" if "enable_testing" in text else ""}


MARKERS: tuple[tuple[str, Callable[[Path, str], dict[str, str]]], ...] = (
    ("pyproject.toml", _python), ("package.json", _node), ("go.mod", _go),
    ("Cargo.toml", _rust), ("pom.xml", _java), ("CMakeLists.txt", _cmake))


@dataclass(frozen=True)
class Profile:
    """The project's FIELDS (each empty when nothing says)."""

    language: str = ""
    test_framework: str = ""
    tests: str = ""
    build: str = ""
    test: str = ""

    def to_json(self) -> dict[str, str]:
        """As stored in `project_profile_confirmed` and printed: FIELDS by name."""
        return {f: getattr(self, f) for f in FIELDS}


@dataclass(frozen=True)
class Detected:
    """The profile the files suggest, the file it was read from (`source`; None when no file
    says anything) and the other marker files found (`also`)."""

    profile: Profile
    source: str | None
    also: tuple[str, ...]

    def to_json(self) -> JsonObject:
        return {**self.profile.to_json(), "from": self.source, "also": list(self.also)}


@dataclass(frozen=True)
class ProfileConfirmed:
    """The profile the user last confirmed, and the event that records it."""

    profile: Profile
    seq: int

    def to_json(self) -> JsonObject:
        return {**self.profile.to_json(), "seq": self.seq}


def detect(root: Path) -> Detected:
    """The profile the files of `root` suggest (the first marker file found)."""
    found = [(name, read) for name, read in MARKERS if _read(root, name) is not None]
    if not found:
        return Detected(Profile(), None, ())
    name, read = found[0]
    return Detected(Profile(**read(root, _read(root, name) or "")), name,
                    tuple(n for n, _ in found[1:]))


def edited(profile: Profile, sets: list[str]) -> Profile:
    """`profile` with the user's `FIELD=VALUE` edits (`bad_profile` for a field that is not
    one, or a value that is not one line of at most 300 characters)."""
    out = profile.to_json()
    for s in sets:
        field, eq, value = s.partition("=")
        if not eq or field not in FIELDS:
            raise A2AError("bad_profile", f"--set {s!r}: give FIELD=VALUE, FIELD one of"
                           f" {', '.join(FIELDS)}", exit_code=2)
        if "\n" in value or "\r" in value or len(value) > 300:
            raise A2AError("bad_profile", f"--set {field}: one line of at most 300 characters",
                           exit_code=2)
        out[field] = value.strip()
    if not out["language"] or not out["test"]:
        raise A2AError("profile_incomplete", "the profile needs at least its language and its"
                       " test command: nothing detected them; give them with --set"
                       " language=... --set test=...")
    return Profile(**out)


def profile_confirmed(db) -> ProfileConfirmed | None:
    """The profile the user last confirmed, or None."""
    row = db.one("SELECT seq, payload FROM events WHERE kind = ? ORDER BY seq DESC LIMIT 1",
                 (EVENT,))
    if row is None:
        return None
    p: ProjectProfileConfirmed = payload_of(EVENT, json.loads(row["payload"]))
    stored = p.profile or {}
    return ProfileConfirmed(Profile(**{f: str(stored.get(f) or "") for f in FIELDS}), row["seq"])


def confirm_in_tx(tx, profile: Profile, detected: Detected, sets: list[str], actor: str,
                  user_input: str) -> int:
    """Record the user's confirmation of `profile` (what was detected and edited beside it)."""
    return tx.append(EVENT, actor=actor, payload=ProjectProfileConfirmed(
        profile=profile.to_json(), detected=detected.to_json(), edits=sets,
        user_input=user_input))


def section(profile: Profile) -> str:
    """The profile as a role card's section: what the controllers name in cards and plans."""
    lines = [f"- {label}: {getattr(profile, f)}" for f, label in (
        ("language", "language"), ("test_framework", "test framework"),
        ("tests", "tests live in"), ("build", "build command"), ("test", "test command"))
        if getattr(profile, f)]
    return ("This project (its profile, as the user confirmed it):\n" + "\n".join(lines)
            + "\nName these commands in the cards' checks and red_command, and in plans.")
