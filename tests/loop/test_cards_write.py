"""Cards that are easy to write (issue 28): every problem at once with its line, `a2a card new`
from a commented template through $EDITOR, and the fields the gate fills in (id, title, source
ticket) so that the author writes only goal, non-goals, allowed paths, acceptance and checks."""

from __future__ import annotations

import sqlite3
import stat
import sys
from pathlib import Path

from a2a_tui.collab.user_input import record_user_input_in_tx
from tests.support import a2a, a2a_as, store

FIVE_PROBLEMS = '''\
title = "Say hello"
goal = ""
non_goals = []
allowed_paths = ["/etc/**"]
acceptance = ["it says hello"]
complexity = "XL"

[[checks]]
name = "tests"
command = ""
'''

# What the author writes into the template; the rest stays as the template has it.
FILLED = {
    'goal = ""': 'goal = "src/hello.txt says hello"',
    'non_goals = [\n    "",': 'non_goals = [\n    "nothing outside src/",',
    'allowed_paths = [\n    "",': 'allowed_paths = [\n    "src/**",',
    'acceptance = [\n    "",': 'acceptance = [\n    "cat src/hello.txt prints hello",',
    'command = "python -m pytest -q"': 'command = "true"',
}


def editor_script(tmp: Path, replace: dict[str, str], name: str = "editor") -> str:
    """An $EDITOR that edits the file it is given as a person would: text replaced in place."""
    script = tmp / name
    script.write_text(f"#!{sys.executable}\nimport sys\np = sys.argv[1]\nt = open(p).read()\n"
                      f"for a, b in {replace!r}.items():\n    t = t.replace(a, b)\n"
                      "open(p, 'w').write(t)\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def counts(repo: Path) -> tuple[int, int]:
    with sqlite3.connect(repo / ".a2a/a2a.db") as db:
        return (db.execute("SELECT COUNT(*) FROM events").fetchone()[0],
                db.execute("SELECT COUNT(*) FROM cards").fetchone()[0])


def test_a_card_with_five_problems_reports_five_lines_in_one_run(repo):
    card = repo.parent / "bad.toml"
    card.write_text(FIVE_PROBLEMS)
    before = counts(repo)
    r = a2a("card", "add", str(card), cwd=repo)
    assert r.code != 0 and r.out == ""
    head, *problems = r.err.strip().splitlines()
    assert head.startswith("a2a: error: ") and "5 problems" in head and head.endswith("[bad_card]")
    assert problems == [
        f"  {card}:2: field 'goal' must not be empty",
        f"  {card}:3: field 'non_goals' needs at least one entry",
        f"  {card}:4: field 'allowed_paths' '/etc/**': paths are relative to the repository"
        " and stay inside it",
        f"  {card}:6: field 'complexity' Input should be 'S', 'M' or 'L'",
        f"  {card}:10: field 'checks.0.command' must not be empty",
    ], r.err
    j = a2a("card", "add", str(card), "--json", cwd=repo).json["error"]
    assert j["code"] == "bad_card" and len(j["details"]["problems"]) == 5
    assert "\n" not in j["message"] and ":10:" in j["message"]
    assert counts(repo) == before


def test_card_new_in_an_editor_then_ready_without_writing_id_or_source_ticket(repo, tmp_path):
    editor = editor_script(tmp_path, FILLED)
    r = a2a("card", "new", "--title", "Say hello", "--json", cwd=repo, env={"EDITOR": editor})
    assert r.code == 0, r.out + r.err
    added = r.json
    assert added["card"] == "T-1" and added["state"] == "draft"
    assert set(added["filled"]) == {"id", "source_ticket"}
    # The draft is kept under the card's id, for `a2a card edit`.
    assert Path(added["file"]) == repo / ".a2a/cards/T-1.toml"
    ready = a2a("card", "ready", "T-1", "--json", cwd=repo)
    assert ready.code == 0 and ready.json["state"] == "ready", ready.out + ready.err
    body = a2a("card", "show", "T-1", "--json", cwd=repo).json["body"]
    assert body["title"] == "Say hello" and body["source_ticket"] == "user"
    assert body["task_type"] == "feature" and body["complexity"] == "M"
    assert body["executor"] is None
    with store(repo) as s:
        event = s.events(kinds=["card_added"])[0]
    assert set(event.payload["filled"]) == {"id", "source_ticket"}


def test_an_untouched_template_adds_nothing_and_leaves_no_draft(repo):
    before = counts(repo)
    r = a2a("card", "new", "--json", cwd=repo, env={"EDITOR": "true"})
    assert r.json["error"]["code"] == "card_unchanged", r.out
    assert counts(repo) == before
    assert list((repo / ".a2a/cards").iterdir()) == []


def test_a_draft_with_problems_is_kept_and_says_where_and_what(repo, tmp_path):
    only_goal = {'goal = ""': 'goal = "src/hello.txt says hello"'}
    r = a2a("card", "new", cwd=repo, env={"EDITOR": editor_script(tmp_path, only_goal)})
    assert r.code != 0
    draft = repo / ".a2a/cards/new-1.toml"
    head, *problems = r.err.strip().splitlines()
    assert "3 problems" in head and str(draft) in head, r.err
    assert [p.split(": field ")[1].split(" ")[0] for p in problems] == [
        "'non_goals'", "'allowed_paths'", "'acceptance'"]
    assert counts(repo)[1] == 0
    # Fixed by hand, the same file is added: the title comes from the goal.
    fixed = draft.read_text()
    for a, b in FILLED.items():
        fixed = fixed.replace(a, b)
    draft.write_text(fixed)
    ok = a2a("card", "add", str(draft), "--json", cwd=repo).json
    assert ok["card"] == "T-1" and set(ok["filled"]) == {"id", "title", "source_ticket"}
    assert ok["title"] == "src/hello.txt says hello"


def test_card_edit_opens_the_current_version_and_a_new_goal_is_a_new_version(repo, tmp_path):
    a2a("card", "new", cwd=repo, env={"EDITOR": editor_script(tmp_path, FILLED)})
    assert a2a("card", "ready", "T-1", cwd=repo).code == 0
    change = {'goal = "src/hello.txt says hello"': 'goal = "src/hello.txt says hello twice"'}
    r = a2a("card", "edit", "T-1", "--json", cwd=repo,
            env={"EDITOR": editor_script(tmp_path, change, "change")})
    assert r.code == 0, r.out + r.err
    assert r.json["version"] == 2 and r.json["state"] == "draft"
    body = a2a("card", "show", "T-1", "--json", cwd=repo).json["body"]
    # The source ticket filled at first is kept, not filled again by the editor's round trip.
    assert body["goal"].endswith("twice") and body["source_ticket"] == "user"
    same = a2a("card", "edit", "T-1", "--json", cwd=repo, env={"EDITOR": "true"})
    assert same.code == 0 and same.json["changed"] is False


def test_a_card_the_ideation_controller_drafts_takes_its_source_from_the_users_words(repo):
    with store(repo) as s, s.write() as tx:
        uid = record_user_input_in_tx(tx, "message", "greet people by name", source="cli",
                                      to_session="idea1")
    card = repo / ".a2a" / "draft.toml"
    card.write_text(
        'goal = "greet people by name"\nnon_goals = ["no i18n"]\nallowed_paths = ["src/**"]\n'
        'acceptance = ["greet(\'ann\') says hello ann"]\n\n[[checks]]\nname = "t"\n'
        'command = "true"\n')
    r = a2a_as(repo, "idea1", "ideation", "card", "add", str(card), "--json")
    assert r.code == 0, r.out + r.err
    assert r.json["state"] == "draft"
    body = a2a("card", "show", r.json["card"], "--json", cwd=repo).json["body"]
    assert body["source_ticket"] == uid and body["title"] == "greet people by name"
