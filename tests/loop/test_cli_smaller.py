"""The command line's smaller items of issue 28: "did you mean" for a mistyped command or id,
the rules printed once for a person (every time for a model), integrate saying "not verified"
before asking for scores, and an untouched attempt abandoned without scores."""

from __future__ import annotations

from tests.support import a2a, a2a_as, add_ready_card, commit_in, register_session


def test_a_mistyped_command_says_which_one_was_meant(repo):
    r = a2a("clam", "T-1", "--json", cwd=repo)
    assert r.code == 2 and r.json["error"]["code"] == "usage"
    assert "did you mean 'claim'?" in r.json["error"]["message"]
    sub = a2a("card", "shwo", "T-1", cwd=repo)
    assert "did you mean 'show'?" in sub.err and len(sub.err.splitlines()) == 1


def test_a_mistyped_command_or_option_is_one_short_line_as_git_says_it(repo):
    """`a2a verfy`: one line naming the command meant, not the 45 commands; `a2a:` once;
    `--jsn` gets its suggestion too (issue 37)."""
    r = a2a("verfy", cwd=repo)
    assert r.code == 2 and len(r.err.splitlines()) == 1, r.err
    assert "did you mean 'verify'?" in r.err and r.err.count("a2a:") == 1, r.err
    assert "choose from" not in r.err and "'demo-director'" not in r.err, r.err
    opt = a2a("status", "--jsn", cwd=repo)
    assert opt.code == 2 and "did you mean '--json'?" in opt.err, opt.err
    assert opt.err.count("a2a:") == 1 and len(opt.err.splitlines()) == 1, opt.err


def test_a_mistyped_id_says_which_one_exists(repo):
    add_ready_card(repo, "T-12")
    r = a2a("card", "show", "t12", "--json", cwd=repo).json["error"]
    assert r["code"] == "unknown_card" and r["message"].endswith("did you mean 'T-12'?")
    assert r["details"]["did_you_mean"] == "T-12"
    claim = a2a("claim", "T-12", "--json", cwd=repo).json
    wrong = a2a("verify", "T-12-a2", "--json", cwd=repo).json["error"]
    assert wrong["code"] == "unknown_attempt" and f"did you mean '{claim['attempt']}'?" \
        in wrong["message"]
    far = a2a("card", "show", "X-999", "--json", cwd=repo).json["error"]
    assert "did you mean" not in far["message"]


def test_rules_are_printed_in_full_once_for_the_user_and_every_time_for_a_model(repo):
    add_ready_card(repo, "T-1")
    first = a2a("claim", "T-1", cwd=repo)
    assert "rules:" in first.out and "One active attempt per card" in first.out
    again = a2a("claim", "T-1", "--supersede", cwd=repo)
    assert "\nrules:" not in again.out and "(its rules: `a2a rules claim`)" in again.out
    # JSON always carries them: scripts and models read them there.
    assert a2a("card", "ready", "T-1", "--json", cwd=repo).json["rules"]
    # A model (a managed session) is shown them each time.
    for sid in ("exec1", "exec2"):
        r = a2a_as(repo, sid, "executive", "card", "ready", "T-1")
        assert r.code == 0, r.err
        assert "rules:" in r.out and "Only a ready card can be claimed." in r.out


def test_integrate_says_not_verified_before_asking_for_scores(repo):
    add_ready_card(repo, "T-1")
    att = a2a("claim", "T-1", "--json", cwd=repo).json["attempt"]
    r = a2a("integrate", att, "--json", cwd=repo).json["error"]
    assert r["code"] == "not_verified", r


def test_an_untouched_attempt_is_abandoned_without_scores_a_submitted_one_is_not(repo):
    add_ready_card(repo, "T-1")
    att = a2a("claim", "T-1", "--json", cwd=repo).json
    r = a2a("abandon", att["attempt"], "--reason", "wrong card", "--json", cwd=repo)
    assert r.code == 0, r.out + r.err
    assert r.json["score"] is None and r.json["state"] == "abandoned"
    assert a2a("store", "verify", "--json", cwd=repo).json["intact"] is True

    att = a2a("claim", "T-1", "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees" / att["attempt"], {"src/app.py": "v = 2\n"})
    assert a2a("submit", att["attempt"], "--sha", sha, "--card-version", "1", "--fence",
               str(att["fence"]), cwd=repo).code == 0
    refused = a2a("abandon", att["attempt"], "--json", cwd=repo).json["error"]
    assert refused["code"] == "scores_required"


def test_an_inject_into_a_paused_pane_says_the_pause_holds_it(repo):
    register_session(repo, "w1", paused=True)
    r = a2a("inject", "w1", "hello", cwd=repo)
    assert r.code == 0 and "w1 is paused: held until you resume it" in r.out, r.out
    assert "`a2a resume w1`" in r.out
    j = a2a("inject", "w1", "again", "--json", cwd=repo).json
    assert j["paused"] is True and j["ahead"] == 1
    register_session(repo, "w2")
    assert "paused" not in a2a("inject", "w2", "hi", cwd=repo).out


def test_init_outside_a_repository_names_the_next_step(tmp_path):
    r = a2a("init", cwd=tmp_path)
    assert r.code == 1 and len(r.err.splitlines()) == 1, r.err
    assert "is not inside a git repository" in r.err and "`git init`" in r.err, r.err
    assert "`a2a demo`" in r.err
