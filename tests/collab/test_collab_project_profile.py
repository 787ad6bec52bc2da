"""Rule 8 (seed 004 4.1, "工程画像"): a2a detects the project's language, test framework, where
its tests live and its build and test commands; the user confirms them (edited or not), and the
confirmed profile is what the controllers' role cards and a new card's template name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from a2a_tui.collab.project import detect
from a2a_tui.profiles import LaunchContext, role_card_text
from tests.support import a2a, a2a_as, commit_in, events, spawn, wait_state


@pytest.mark.parametrize("files, want", [
    ({"pyproject.toml": "[project]\nname='x'\n[tool.pytest.ini_options]\n", "tests/t.py": ""},
     {"language": "python", "test_framework": "pytest", "tests": "tests/",
      "test": "python -m pytest -q"}),
    ({"package.json": json.dumps({"scripts": {"test": "jest", "build": "tsc"},
                                  "devDependencies": {"jest": "29"}}), "tsconfig.json": "{}"},
     {"language": "typescript", "test_framework": "jest", "test": "npm test",
      "build": "npm run build"}),
    ({"go.mod": "module x\n"}, {"language": "go", "test": "go test ./..."}),
    ({"Cargo.toml": "[package]\n"}, {"language": "rust", "test": "cargo test"}),
    ({"pom.xml": "<artifactId>junit</artifactId>", "src/test/java/A.java": ""},
     {"language": "java", "test_framework": "junit", "tests": "src/test/java/"}),
    ({"CMakeLists.txt": "project(x CXX)\nenable_testing()\n"},
     {"language": "c++", "test_framework": "ctest", "test": "ctest --test-dir build"}),
])
def test_each_marker_file_gives_its_profile(tmp_path: Path, files, want):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    got = detect(tmp_path).profile
    assert {k: getattr(got, k) for k in want} == want


def test_the_user_confirms_the_profile_and_controllers_and_the_template_get_it(
        repo, tmux_socket, serve):
    commit_in(repo, {"go.mod": "module example.com/x\n"})
    shown = a2a("profile", "--json", cwd=repo)
    assert shown.code == 0 and shown.json["detected"]["test"] == "go test ./..."
    assert shown.json["confirmed"] is None
    assert "go test ./..." not in a2a("card", "new", "--print", cwd=repo).out  # unconfirmed
    r = a2a_as(repo, "x1", "executive", "profile", "confirm", "--json")
    assert r.json["error"]["code"] == "role_forbidden"
    r = a2a("profile", "confirm", "--set", "test=go test -race ./...", "--json", cwd=repo)
    assert r.code == 0, r.out
    (ev,) = events(repo, "project_profile_confirmed")
    assert ev.payload["profile"]["test"] == "go test -race ./..."
    assert ev.payload["detected"]["test"] == "go test ./..." and ev.payload["user_input"]
    assert a2a("profile", "--json", cwd=repo).json["confirmed"]["language"] == "go"
    template = a2a("card", "new", "--print", cwd=repo).out
    assert 'command = "go test -race ./..."' in template
    serve()
    s = spawn(repo, tmux_socket, role="executive")
    wait_state(repo, s["session"], "idle")
    (launch,) = events(repo, "session_launching", session=s["session"])
    assert launch.payload["project_profile"] == ev.seq


def test_the_role_card_a_cli_gets_names_the_profile(tmp_path: Path):
    card = tmp_path / "executive.md"
    card.write_text("# Role: executive controller\n")
    ctx = LaunchContext(session="x1", role="executive", cwd=tmp_path,
                        run_dir=tmp_path / ".a2a/run/x1", spool_dir=tmp_path,
                        hook=tmp_path / "hook", role_card=card,
                        project="This project: test command: go test ./...")
    text = role_card_text(ctx, "all")
    assert "test command: go test ./..." in text and text.startswith("# Role: executive")


def test_a_bad_edit_and_an_empty_profile_are_refused(repo):
    r = a2a("profile", "confirm", "--set", "colour=red", "--json", cwd=repo)
    assert r.code == 2 and r.json["error"]["code"] == "bad_profile"
    r = a2a("profile", "confirm", "--json", cwd=repo)   # the sample repo has no marker file
    assert r.json["error"]["code"] == "profile_incomplete"
    assert not events(repo, "project_profile_confirmed")
