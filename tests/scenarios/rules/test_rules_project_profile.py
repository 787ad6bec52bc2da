"""Rule 8 (seed 004 4.1, "工程画像"): the project's profile, detected and confirmed by the user,
is what a new card's template names: its checks run the project's real test command."""

from __future__ import annotations

from tests.scenarios.switches import scenario
from tests.support import a2a, commit_in


@scenario("project_profile")
def test_a_confirmed_profile_names_the_real_test_command_in_a_new_card(repo):
    commit_in(repo, {"Cargo.toml": "[package]\nname = \"x\"\n"})
    assert a2a("profile", "confirm", cwd=repo).code == 0
    assert 'command = "cargo test"' in a2a("card", "new", "--print", cwd=repo).out
