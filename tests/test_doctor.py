"""`a2a doctor`: which of a2a's protections are in force here, and what sets each (issue 35:
"`a2a doctor` (or status) says which limits are in force and which are not")."""

from __future__ import annotations

from a2a_tui.confine import probe
from tests.support import a2a, write_user_config


def rows(r) -> dict[str, dict]:
    assert r.code == 0, r.out + r.err
    return {p["name"]: p for p in r.json["protections"]}


def test_doctor_names_each_protection_and_whether_it_is_in_force(world, repo):
    got = rows(a2a("doctor", "--json", cwd=repo))
    assert set(got) >= {"confinement", "environment allow-list", "broker fairness",
                        "spool rate"}
    assert got["confinement"]["in_force"] is probe().available
    assert got["environment allow-list"]["in_force"] is True
    assert "nothing more" in got["environment allow-list"]["detail"]
    assert got["broker fairness"]["in_force"] is True
    assert "8 requests of one session at once" in got["broker fairness"]["detail"]
    assert got["spool rate"]["in_force"] is True
    text = a2a("doctor", cwd=repo).out
    assert "confinement" in text and "spool rate" in text


def test_doctor_says_what_the_user_changed(world, repo):
    write_user_config(world, '[confinement]\nenabled = false\n'
                             '[env]\npass = ["GH_HOST"]\n[env.roles.worker]\npass = ["GH_*"]\n')
    got = rows(a2a("doctor", "--json", cwd=repo, env={"A2A_BROKER_PER_SESSION": "3",
                                                      "A2A_BROKER_STDIN_S": "5"}))
    assert got["confinement"]["in_force"] is False
    assert "enabled = false" in got["confinement"]["detail"]
    env = got["environment allow-list"]["detail"]
    assert "GH_HOST" in env and "worker: GH_*" in env
    assert "3 requests of one session at once" in got["broker fairness"]["detail"]
    assert "5 s" in got["broker fairness"]["detail"]
