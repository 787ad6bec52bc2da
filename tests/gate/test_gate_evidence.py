"""What an attempt leaves for the people who judge it: the worker's open items, kept with the
submission and shown to the integrator; and objective facts in the integrated/abandoned events
(rounds, wall time, rejections by step, changed lines)."""

from __future__ import annotations

from tests.gate.verify_support import claim, events, submit, submit_verify, verify
from tests.support import a2a, commit_in

SCORES = ["--score", "boundary=3:ok", "--score", "taste=2:ok"]


def test_open_items_are_kept_with_the_submission_and_shown_to_the_integrator(repo):
    c, wt = claim(repo, "true")
    sha = commit_in(wt, {"src/app.py": "x\n"})
    submit(repo, c, sha, "--unresolved", "unicode names untested",
           "--unresolved", "error text not final")
    items = ["unicode names untested", "error text not final"]
    assert events(repo, "submitted")[-1]["payload"]["unresolved"] == items
    v = verify(repo, c["attempt"])
    assert v.json["unresolved"] == items
    text = a2a("verify", c["attempt"], cwd=repo).out
    assert "unicode names untested" in text
    r = a2a("integrate", c["attempt"], *SCORES, cwd=repo)
    assert r.code == 0 and "error text not final" in r.out, r.out


def test_an_empty_open_item_is_refused(repo):
    c, wt = claim(repo, "true")
    sha = commit_in(wt, {"src/app.py": "x\n"})
    r = a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence", "1",
            "--unresolved", "  ", "--json", cwd=repo)
    assert r.code != 0 and r.json["error"]["code"] == "bad_unresolved", r.out
    assert not events(repo, "submitted")


def test_integrated_and_abandoned_events_carry_objective_facts(repo):
    c, _ = claim(repo, "grep -q fixed src/app.py")
    assert submit_verify(repo, c, {"src/app.py": "broken = 1\n"}).json["verdict"] == "rejected"
    v = submit_verify(repo, c, {"src/app.py": "fixed = 1\nmore = 2\nand = 3\n"})
    assert v.json["verdict"] == "passed", v.out
    assert a2a("integrate", c["attempt"], *SCORES, cwd=repo).code == 0
    facts = events(repo, "integrated")[0]["payload"]["facts"]
    assert facts["rounds"] == 2 and facts["wall_time_s"] > 0
    assert facts["rejections_by_step"] == {"checks": 1}
    assert facts["changed_lines"] == {"added": 3, "removed": 2}  # against the start commit

    c2, _ = claim(repo, "exit 1", card_id="T-2")
    submit_verify(repo, c2, {"src/other.py": "a\nb\n"})
    r = a2a("abandon", c2["attempt"], *SCORES, "--reason", "wrong approach", cwd=repo)
    assert r.code == 0, r.err
    facts = events(repo, "abandoned")[0]["payload"]["facts"]
    assert facts["rounds"] == 1 and facts["rejections_by_step"] == {"checks": 1}
    assert facts["changed_lines"] == {"added": 2, "removed": 0}


def test_facts_of_an_attempt_never_verified_say_unknown_lines(repo):
    c, _ = claim(repo, "true")
    r = a2a("abandon", c["attempt"], *SCORES, cwd=repo)
    assert r.code == 0, r.err
    facts = events(repo, "abandoned")[0]["payload"]["facts"]
    assert facts["rounds"] == 0 and facts["changed_lines"] is None
    assert facts["rejections_by_step"] == {}
