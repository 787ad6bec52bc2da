"""An attempt driven through reviews from the CLI, for the review tests."""

from __future__ import annotations

from pathlib import Path

from tests.support import a2a, a2a_as, commit_in, give_verdict, review_report, start_review

SCORES = ("--score", "boundary=3:in bounds", "--score", "taste=2:fine")
REQUIRED = 'review = "required"'
TWO = review_report("fail", issues=[("B1", "Empty names are accepted", ["src/app.py:1"]),
                                    ("B2", "No test for it", ["src/app.py:2"])])
PASS = review_report("pass")


class Attempt:
    """One attempt driven through the CLI: submissions, verify, reviews, integrate."""

    def __init__(self, world, repo: Path, card: str = "T-1", *, writer: str | None = None):
        self.world, self.repo = world, repo
        c = a2a("claim", card, "--json", *(("--writer", writer) if writer else ()), cwd=repo).json
        self.id, self.fence, self.wt = c["attempt"], c["fence"], Path(c["worktree"])
        self.n = 0

    def submit(self, verify: bool = True) -> str:
        self.n += 1
        self.sha = commit_in(self.wt, {"src/app.py": f"def name(n):\n    return n or {self.n}\n"})
        r = a2a("submit", self.id, "--sha", self.sha, "--card-version", "1", "--fence",
                str(self.fence), cwd=self.repo)
        assert r.code == 0, r.err
        if verify:
            assert a2a("verify", self.id, "--json", cwd=self.repo).json["passed"]
        return self.sha

    def review(self, report: str) -> dict:
        started = start_review(self.repo, self.world.sock, self.id).json
        r = give_verdict(self.repo, started["session"], self.id, self.sha, report)
        assert r.code == 0, r.out + r.err
        return started

    def integrate(self):
        return a2a("integrate", self.id, *SCORES, "--json", cwd=self.repo)

    def dispose(self, issue: str, how: str, reason: str = "", *, as_: tuple[str, str] | None
                = None):
        args = ("review", "dispose", self.id, issue, f"--{how}", "--reason", reason, "--json")
        if as_ is None:
            return a2a(*args, cwd=self.repo)
        return a2a_as(self.repo, *as_, *args)
