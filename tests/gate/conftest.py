from __future__ import annotations

import pytest

from tests.support import a2a, commit_in


@pytest.fixture
def verified(repo, ready_card):
    """An attempt whose candidate passed verification: (attempt id, claim json, sha)."""
    c = a2a("claim", ready_card, "--json", cwd=repo).json
    sha = commit_in(repo / ".a2a/worktrees" / c["attempt"], {"src/app.py": "v = 2\n"})
    r = a2a("submit", c["attempt"], "--sha", sha, "--card-version", "1", "--fence",
            str(c["fence"]), cwd=repo)
    assert r.code == 0, r.err
    r = a2a("verify", c["attempt"], "--json", cwd=repo)
    assert r.code == 0 and r.json["passed"], r.out
    return c["attempt"], c, sha
