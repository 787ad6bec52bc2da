"""Bad cards, bad SHAs and unknown ids: one clear error line, a stable code, nothing stored."""

from __future__ import annotations

import sqlite3

import pytest

from tests.support import a2a, commit_in, git, make_repo, write_card


def _counts(repo):
    with sqlite3.connect(repo / ".a2a/a2a.db") as db:
        return (db.execute("SELECT COUNT(*) FROM events").fetchone()[0],
                db.execute("SELECT COUNT(*) FROM cards").fetchone()[0])


@pytest.mark.parametrize("mutate, field, line", [
    (lambda t: t.replace('non_goals = ["No change to the storage format"]\n', "non_goals = []\n"),
     "non_goals", 4),
    (lambda t: t.replace('goal = "An empty name is refused with a clear message"\n', ""),
     "goal", None),
    (lambda t: t.replace('complexity = "S"', 'complexity = "XL"'), "complexity", 8),
    (lambda t: t.replace("timeout_s = 60", 'timeout_s = "soon"'), "checks.0.timeout_s", 20),
    (lambda t: t.replace('cli = "codex"', 'cli = "notepad"'), "executor.cli", 12),
    (lambda t: 'colour = "blue"\n' + t, "colour", 1),
    (lambda t: 'version = 3\n' + t, "version", 1),
    *((lambda t, extra=extra: t.replace('source_ticket = "GH-12"',
                                        f'source_ticket = "GH-12"\n{extra}'), field, 10)
      for extra, field in [('review = "maybe"', "review"),
                           ('integrate_approval = "boss"', "integrate_approval"),
                           ('env = { HOME = "/tmp/x" }', "env"),
                           ('env = { "not a name" = "x" }', "env"),
                           ("red_timeout_s = 0", "red_timeout_s"),
                           ('artifacts = ["/etc/passwd"]', "artifacts")]),
])
def test_bad_card_names_field_and_line_and_stores_nothing(repo, mutate, field, line):
    card = write_card(repo)
    card.write_text(mutate(card.read_text()))
    before = _counts(repo)
    r = a2a("card", "add", str(card), "--json", cwd=repo)
    assert r.code != 0
    err = r.json["error"]
    assert err["code"] == "bad_card"
    assert f"'{field}'" in err["message"]
    if line is not None:
        assert f":{line}:" in err["message"], err["message"]
    assert _counts(repo) == before
    human = a2a("card", "add", str(card), cwd=repo)
    assert human.out == "" and len(human.err.strip().splitlines()) == 1
    assert human.err.startswith("a2a: error: ")


@pytest.mark.parametrize("extra, words", [
    ('artifacts = ["docs/report.md"]', ("artifacts", "outside allowed_paths")),
    ('\n[[checks]]\nname = "red"\ncommand = "true"', ("'red'", "step")),
])
def test_a_card_that_contradicts_itself_is_refused(repo, extra, words):
    card = write_card(repo, extra=extra)
    r = a2a("card", "add", str(card), "--json", cwd=repo)
    assert r.json["error"]["code"] == "bad_card", r.out
    assert all(w in r.json["error"]["message"] for w in words), r.json


def test_card_that_is_not_toml(repo):
    card = repo.parent / "broken.toml"
    card.write_text('id = "T-1"\ntitle = "unterminated\n')
    r = a2a("card", "add", str(card), "--json", cwd=repo)
    assert r.json["error"]["code"] == "bad_card" and "line 2" in r.json["error"]["message"]
    missing = a2a("card", "add", str(repo.parent / "nope.toml"), "--json", cwd=repo)
    assert missing.json["error"]["code"] == "card_not_found"


@pytest.mark.parametrize("args, code", [
    (("card", "show", "T-404"), "unknown_card"),
    (("card", "ready", "T-404"), "unknown_card"),
    (("claim", "T-404"), "unknown_card"),
    (("submit", "T-9-a1", "--sha", "0" * 40, "--card-version", "1", "--fence", "1"),
     "unknown_attempt"),
    (("verify", "T-9-a1"), "unknown_attempt"),
    (("integrate", "T-9-a1", "--score", "boundary=1:a", "--score", "taste=1:b"),
     "unknown_attempt"),
    (("reclaim", "T-9-a1"), "unknown_attempt"),
    (("submit", "T-9-a1"), "usage"),
    (("frobnicate",), "usage"),
])
def test_unknown_ids_and_usage_errors(repo, args, code):
    before = _counts(repo)
    r = a2a(*args, "--json", cwd=repo)
    assert r.code != 0
    assert r.json["error"]["code"] == code
    assert _counts(repo) == before


def test_bad_shas_are_refused_and_change_no_state(repo):
    card = write_card(repo)
    a2a("card", "add", str(card), cwd=repo)
    a2a("card", "ready", "T-1", cwd=repo)
    c = a2a("claim", "T-1", "--json", cwd=repo).json
    wt = repo / ".a2a/worktrees/T-1-a1"
    good = commit_in(wt, {"src/app.py": "z = 1\n"})
    # An unrelated commit that does not descend from the start commit.
    git(repo, "checkout", "-q", "--orphan", "stray")
    stray = commit_in(repo, {"other.txt": "x\n"}, "stray")
    git(repo, "checkout", "-q", "-f", "main")
    for sha, code in ((good[:12], "bad_sha"), ("g" * 40, "bad_sha"), ("1" * 40, "bad_sha"),
                      (c["start_commit"], "empty_submission"), (stray, "not_descendant"),
                      (git(wt, "rev-parse", f"{good}^{{tree}}"), "bad_sha")):
        r = a2a("submit", "T-1-a1", "--sha", sha, "--card-version", "1", "--fence", "1", "--json",
                cwd=repo)
        assert r.code != 0 and r.json["error"]["code"] == code, (sha, r.out)
    st = a2a("status", "--json", cwd=repo).json
    assert st["attempts"][0]["state"] == "claimed"
    assert st["attempts"][0]["submitted_sha"] is None
    refused = [e for e in a2a("events", "--json", cwd=repo).json if e["kind"] == "submit_refused"]
    assert len(refused) == 6


def test_commands_outside_a_repo_or_before_init(tmp_path):
    r = a2a("status", "--json", cwd=tmp_path)
    assert r.code != 0 and r.json["error"]["code"] == "not_a_repo"
    plain = make_repo(tmp_path / "plain")
    r = a2a("card", "list", "--json", cwd=plain)
    assert r.json["error"]["code"] == "not_initialized"
    assert not (plain / ".a2a").exists()
