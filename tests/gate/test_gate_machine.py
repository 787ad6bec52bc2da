"""A property-based machine over the gate: real git in a temporary repository, the real store.

Rules call the gate in-process with the caller set explicitly — the executive controller e1
claims, verifies, integrates and abandons; the worker w1 commits and submits; the user recovers,
resolves, adopts and restores — and run recovery first, as every CLI command does. The crash rule
is the exception: it runs the real `a2a integrate` in a child process with `A2A_CRASH_AT`, which
SIGKILLs it at that crash point, so the kernel drops its locks and nothing of it survives but
what it wrote (an in-process "crash" would leave our own locks and connection to pretend).
Outsiders move main behind the gate's back (rewind, fast-forward, sideways, onto a commit of a
candidate) with git itself, and hold main's ref lock. Main is not checked out, so outsiders move
only the ref, as a script would.

After every step:
- the event sequence is dense (1..n);
- main moved only through a compare-and-swap recorded before it (an intent naming old and new);
- every integration intent starts from where the gate's record — replayed from the log by
  `replay_target`, independently of targets.py — puts main, with no divergence open: after a
  divergence nothing integrates until the user decides; and the gate's table agrees with it;
- `unknown` is never success: no `integrated` without the ref read back at the new commit, no
  unknown attempt with an `integrated` event, no integrated attempt without a record saying so;
- a held ref lock is still there (a2a never removes it).
From reachable states the user reaches a terminal one: `the_user_can_end_everything_from_here`,
drawn like any rule, takes a copy of the state and there ends every attempt with the user's
commands alone, then claims every card again; the run goes on from the original.

In the suite: a bounded run (12 sequences of up to 30 steps, new ones each run; a failure is
replayed from `.hypothesis/`). At depth (100 sequences of up to 50 steps):
`A2A_HYPOTHESIS_PROFILE=long .venv/bin/python -m pytest -q -n 0 tests/gate/test_gate_machine.py`.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import sys
from pathlib import Path

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from a2a_tui.errors import A2AError
from a2a_tui.faults import CRASH_ENV
from a2a_tui.gate.attempts.handback import clone_head
from a2a_tui.gate.attempts.ownership import abandon, claim, submit
from a2a_tui.gate.cards.commands import add_card, ready_card
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.integration import targets
from a2a_tui.gate.integration.advance import integrate
from a2a_tui.gate.integration.recovery import recover
from a2a_tui.gate.integration.resolution import RESOLUTIONS, resolve
from a2a_tui.gate.ledger.records import AttemptRecord
from a2a_tui.gate.model import ACTIVE, Score
from a2a_tui.gate.roles import require_role
from a2a_tui.gate.verification.command import verify
from a2a_tui.identity import Caller
from a2a_tui.repo import Repo, init
from tests.gate.gate_support import end_everything, replay_target
from tests.support import at_terminal, commit_in, git, make_repo, write_card

PROFILES = {
    "default": settings(max_examples=8, stateful_step_count=30, deadline=None,
                        suppress_health_check=[HealthCheck.too_slow]),
    "long": settings(max_examples=100, stateful_step_count=50, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow]),
}
PROFILE = os.environ.get("A2A_HYPOTHESIS_PROFILE", "default")

CARDS = ("T-1", "T-2")
CHECK = "test ! -e src/fail.flag"   # a candidate with the flag is rejected by verify
USER, EXEC = Caller(), Caller(session="e1", role="executive")
WORKER, OUTSIDER = Caller(session="w1", role="worker"), Caller(session="w9", role="worker")
SCORE = Score(3, "in bounds", 2, "fine")
CRASH_POINTS = ("integrate:after_intent", "integrate:after_update_ref")
OPEN = ("claimed", "submitted", "rejected", "verified")
# A worker delivers again to a verified attempt too, in life; left out here so that verified
# candidates live long enough for integrate to meet them (a new submission is covered above).
DELIVERING = ("claimed", "submitted", "rejected")


def verify_cmd(g: GateContext, attempt_id: str):
    """`a2a verify` as the CLI runs it: the role check at the entry, then the chain."""
    require_role(g, "verify", attempt=g.attempt(attempt_id))
    return verify(g, attempt_id)


class GateMachine(RuleBasedStateMachine):
    # Set by the test: where each run's repository lives, and the starting state copied there.
    place: Path
    stash: Path

    @classmethod
    def build_start(cls, place: Path, stash: Path) -> None:
        """The starting state, built once: a repository whose main is not checked out, a2a
        initialised, T-1 and T-2 ready, both claimed from the same head, delivered and verified
        (integrate is one step away, and once one lands the other is behind). Every run gets a
        copy at the same path, since git's worktrees record absolute paths."""
        cls.place, cls.stash = place, stash
        path = make_repo(place / "repo")
        commit_in(path, {"src/app.py": "v = 1\n"}, "second")
        git(path, "checkout", "-q", "-b", "side")  # main is moved only as a ref
        repo = Repo(path)
        init(repo, "main")
        store = repo.store()
        try:
            for card in CARDS:
                add_card(GateContext(repo, store, USER), write_card(path, card, check=CHECK))
                ready_card(GateContext(repo, store, USER), card)
            for card in CARDS:
                c = claim(GateContext(repo, store, EXEC), card, writer="session:w1")
                sha = commit_in(Path(c.worktree), {"src/work.py": f"# {card}\n"}, card)
                submit(GateContext(repo, store, WORKER), c.attempt, sha, 1, c.fence)
                assert verify_cmd(GateContext(repo, store, EXEC), c.attempt).passed
        finally:
            store.close()
        shutil.copytree(place, stash, symlinks=True)

    def __init__(self) -> None:
        super().__init__()
        shutil.rmtree(self.place, ignore_errors=True)
        shutil.copytree(self.stash, self.place, symlinks=True)
        self.repo = Repo(self.place / "repo")
        self.store = self.repo.store()
        self.lock = self.repo.root / ".git/refs/heads/main.lock"
        self.lock_held = False
        self.n = 0
        self.h0, self.step_seq, self.outsider = self.head(), self.store.last_seq(), False

    def teardown(self) -> None:
        self.store.close()

    # --- helpers -----------------------------------------------------------------------------
    def g(self, caller: Caller) -> GateContext:
        return GateContext(self.repo, self.store, caller)

    def head(self) -> str:
        return git(self.repo.root, "rev-parse", "refs/heads/main")

    def contains(self, ancestor: str, rev: str) -> bool:
        return self.repo.git.is_ancestor(ancestor, rev)

    def attempts(self, states=ACTIVE) -> list:
        marks = ",".join("?" * len(states))
        return self.store.all(f"SELECT * FROM attempts WHERE state IN ({marks}) ORDER BY id",
                              tuple(states))

    def begin(self, outsider: bool = False) -> None:
        self.outsider = outsider

    def call(self, caller: Caller, fn, *args, allowed: tuple[str, ...] = (), **kw):
        """A gate command as the CLI runs it: recovery, then the command. A refusal must be one
        of `allowed`; returns (result, error)."""
        self.begin()
        g = self.g(caller)
        recover(g)
        self.op_seq = self.store.last_seq()
        name = getattr(fn, "__name__", "?")
        try:
            result = fn(g, *args, **kw)
        except A2AError as e:
            assert e.code in allowed, f"{name}{args}: unexpected {e.code}: {e.message}"
            event(f"{name}: {e.code}")
            return None, e
        event(f"{name}: ok")
        return result, None

    def off_record(self) -> bool:
        """Whether main is off the gate's record (from the replayed log): head elsewhere, or a
        divergence the user has not decided about."""
        baseline, diverged, _ = replay_target(self.events())
        return diverged or (baseline is not None and baseline != self.head())

    def events(self) -> list[tuple[int, str, dict]]:
        return [(r["seq"], r["kind"], json.loads(r["payload"]))
                for r in self.store.all("SELECT seq, kind, payload FROM events ORDER BY seq")]

    def draw_attempt(self, data, states):
        aid = data.draw(st.sampled_from([a["id"] for a in self.attempts(states)]), label="attempt")
        return self.store.one("SELECT * FROM attempts WHERE id = ?", (aid,))

    # --- the executive controller and the worker ------------------------------------------------
    def cards(self, taken: bool) -> list[str]:
        busy = {a["card_id"] for a in self.attempts()}
        return [c for c in CARDS if (c in busy) == taken]

    @precondition(lambda self: self.cards(taken=False))
    @rule(data=st.data())
    def claim(self, data):
        self.claim_card(data.draw(st.sampled_from(self.cards(taken=False)), label="card"), False)

    @precondition(lambda self: self.cards(taken=True))
    @rule(data=st.data())
    def claim_over_an_active_attempt(self, data):
        card = data.draw(st.sampled_from(self.cards(taken=True)), label="card")
        self.claim_card(card, data.draw(st.booleans(), label="supersede"))

    def claim_card(self, card: str, supersede: bool) -> None:
        r, e = self.call(EXEC, claim, card, writer="session:w1", supersede=supersede,
                         allowed=("already_claimed", "attempt_unresolved", "target_diverged",
                                  "delivery_unsubmitted", "retry_budget_spent",
                                  "card_integrated"))
        if r is not None:
            assert r.start_commit == self.head() and not self.off_record()
            assert Path(r.worktree).is_dir()
        else:
            assert e.code != "already_claimed" or not supersede
            # a card whose work is in main is claimed again only when the claimer says so
            assert e.code != "card_integrated" or self.attempts(("integrated",))
            # rule 2: a superseded writer's commits are submitted first (handback.py)
            assert e.code != "delivery_unsubmitted" or any(
                self.unsubmitted(a) for a in self.attempts() if a["card_id"] == card)
            assert e.code != "retry_budget_spent" or self.store.one(
                "SELECT COUNT(*) FROM attempts WHERE card_id = ?", (card,))[0] >= 5

    def deliver(self, att, good: bool = True, stale: str | None = None):
        """The worker commits in its worktree (a flagged tree fails verify) and submits."""
        wt = Path(att["worktree"])
        self.n += 1
        flag = wt / "src/fail.flag"
        if good and flag.exists():
            flag.unlink()
        sha = commit_in(wt, {"src/work.py": f"n = {self.n}\n",
                             **({} if good else {"src/fail.flag": "x\n"})}, f"work {self.n}")
        fence = att["fence"] - (stale == "fence")
        version = att["card_version"] + (stale == "version")
        return self.call(WORKER, submit, att["id"], sha, version, fence,
                         allowed=("stale_fence", "stale_card_version"))

    @precondition(lambda self: self.attempts(DELIVERING))
    @rule(data=st.data(), good=st.booleans(), stale=st.sampled_from([None, None, "fence",
                                                                     "version"]))
    def worker_delivers(self, data, good, stale):
        r, e = self.deliver(self.draw_attempt(data, DELIVERING), good, stale)
        assert (e is not None) == (stale is not None), "a stale submission was accepted"

    @precondition(lambda self: self.attempts(("submitted", "rejected", "verified")))
    @rule(data=st.data())
    def verify(self, data):
        att = self.draw_attempt(data, ("submitted", "rejected", "verified"))
        v, _ = self.call(EXEC, verify_cmd, att["id"])
        flagged = "src/fail.flag" in git(self.repo.root, "ls-tree", "-r", "--name-only",
                                         att["submitted_sha"]).split("\n")
        assert v.passed == (not flagged), [r.to_json() for r in v.results]

    @precondition(lambda self: self.attempts(("verified",)))
    @rule(data=st.data())
    def integrate(self, data):
        att = self.draw_attempt(data, ("verified",))
        r, e = self.call(EXEC, integrate, att["id"], SCORE,
                         allowed=("target_diverged", "target_moved", "ref_locked"))
        if r is not None:
            assert r.state == "integrated" and self.head() == att["submitted_sha"]
            assert not self.lock_held
        else:
            assert self.head() == self.h0
            assert e.code != "ref_locked" or self.lock_held

    def landable(self) -> list:
        """Verified attempts an integration would move main for (the crash rule kills those)."""
        if self.lock_held or self.off_record():
            return []
        h = self.head()
        return [a for a in self.attempts(("verified",))
                if self.contains(h, a["submitted_sha"]) and self.contains(a["start_commit"], h)]

    @precondition(lambda self: self.landable())
    @rule(data=st.data(), point=st.sampled_from(CRASH_POINTS),
          then=st.sampled_from([None, "rewind", "forward", "sideways", "candidate"]))
    def integrate_dies(self, data, point, then):
        """The real CLI, killed at `point`; `then` an outsider moves main before anyone looks
        (the way to `unknown`). Refusals are the in-process rule's."""
        self.begin(outsider=then is not None)
        aid = data.draw(st.sampled_from([a["id"] for a in self.landable()]), label="attempt")
        att = self.store.one("SELECT * FROM attempts WHERE id = ?", (aid,))
        proc = at_terminal(
            [sys.executable, "-m", "a2a_tui", "integrate", att["id"], "--score", "boundary=3:x",
             "--score", "taste=2:y", "--json", "--repo", str(self.repo.root)],
            cwd=self.repo.root, env={**os.environ, CRASH_ENV: point}, capture_output=True,
            text=True, timeout=120)
        assert proc.returncode == -9, proc.stdout + proc.stderr  # nothing stood in its way
        event(f"integrate killed at {point}")
        if then is not None:  # main's move in this step is the outsider's (begin above)
            self.move_main(then, data)

    @precondition(lambda self: self.attempts(OPEN))
    @rule(data=st.data())
    def abandon(self, data):
        att = self.draw_attempt(data, OPEN)
        r, e = self.call(EXEC, abandon, att["id"], SCORE, "machine",
                         allowed=("delivery_unsubmitted",))
        # rule 2: the writer's commits past its last submission hold the attempt (handback.py)
        assert (r is None) == self.unsubmitted(att)
        assert r is None or r.state == "abandoned"

    def unsubmitted(self, att) -> bool:
        head = clone_head(AttemptRecord.of(att))
        return head is not None and head not in (att["start_commit"], att["submitted_sha"])

    # --- the user ----------------------------------------------------------------------------
    @precondition(lambda self: self.attempts(("integrating",)))
    @rule()
    def recover(self):
        self.call(USER, lambda g: None)  # recovery is what every command runs first
        assert not self.attempts(("integrating",)), "an intent survived recovery with no owner"

    @precondition(lambda self: self.attempts(("unknown",)))
    @rule(data=st.data(), as_=st.sampled_from(RESOLUTIONS))
    def resolve(self, data, as_):
        att = self.draw_attempt(data, ("unknown",))
        sha = att["submitted_sha"]
        on_main = self.contains(sha, self.head())
        r, e = self.call(USER, resolve, att["id"], as_, "the user looked",
                         allowed=("target_lacks_sha", "target_has_sha"))
        if as_ == "integrated":
            assert (r is not None) == on_main
        elif as_ == "not-applied":
            assert (r is not None) == (not on_main)
        else:
            assert r is not None and r.state == "abandoned"

    @precondition(lambda self: self.off_record() or self.lock_held)
    @rule(restore=st.booleans())
    def user_decides_about_main(self, restore):
        recover(self.g(USER))  # what a crash left is resolved first, as in every command
        off = self.off_record()
        fn = targets.restore if restore else targets.adopt
        r, e = self.call(USER, fn, "main", "the user looked",
                         allowed=("target_not_diverged", "ref_locked"))
        if e is not None and e.code == "target_not_diverged":
            assert not off
        elif e is not None:
            assert restore and self.lock_held and self.head() == self.h0
        else:
            assert off and not self.off_record()

    @rule(command=st.sampled_from(["claim", "integrate", "abandon", "resolve", "adopt"]))
    def someone_without_the_right_tries(self, command):
        caller, fn, args = {
            "claim": (OUTSIDER, claim, ("T-1",)),
            "integrate": (OUTSIDER, integrate, ("T-1-a1", SCORE)),
            "abandon": (OUTSIDER, abandon, ("T-1-a1", SCORE)),
            "resolve": (EXEC, resolve, ("T-1-a1", "abandoned", "x")),
            "adopt": (EXEC, targets.adopt, ("main", "x")),
        }[command]
        recover(self.g(USER))  # what a crash left is resolved first, as in every command
        before = [dict(a) for a in self.attempts()]
        _, e = self.call(caller, fn, *args, allowed=("role_forbidden",))
        assert e is not None
        assert [k for seq, k, _ in self.events() if seq > self.op_seq] == ["role_forbidden"]
        assert [dict(a) for a in self.attempts()] == before and self.head() == self.h0

    @rule(restore=st.booleans())
    def the_user_can_end_everything_from_here(self, restore):
        """Checked on a copy of this state, so the run goes on from the original."""
        self.begin()
        copy = self.place.with_name("copy")
        shutil.rmtree(copy, ignore_errors=True)
        # The files as they are, but the store through SQLite's backup (a copied WAL and its
        # shared-memory index are not a database).
        shutil.copytree(self.place, copy, symlinks=True,
                        ignore=shutil.ignore_patterns("a2a.db", "a2a.db-*"))
        repo = Repo(copy / "repo")
        target = sqlite3.connect(repo.db_path)
        self.store.conn.backup(target)
        target.close()
        store = repo.store()
        try:
            event("the user ends everything from: " + end_everything(repo, store, restore, CARDS))
        finally:
            store.close()
            shutil.rmtree(copy, ignore_errors=True)

    # --- outsiders -----------------------------------------------------------------------------
    @precondition(lambda self: not self.lock_held)
    @rule(kind=st.sampled_from(["rewind", "forward", "sideways", "candidate"]), data=st.data())
    def move_main_behind_the_gates_back(self, kind, data):
        self.begin(outsider=True)
        self.move_main(kind, data)

    def move_main(self, kind: str, data) -> None:
        """An outsider's git moves main: back a commit, on by a commit, to a sibling, or onto a
        commit of an attempt's branch."""
        if self.lock_held:  # the outsider's git respects the lock too
            return
        root, h = self.repo.root, self.head()
        self.n += 1
        msg = f"outsider {self.n}"
        parent = self.repo.git.resolve_commit(f"{h}^")
        if kind == "rewind" and parent:
            new = parent
        elif kind == "forward":
            new = git(root, "commit-tree", f"{h}^{{tree}}", "-p", h, "-m", msg)
        elif kind == "sideways" and parent:
            new = git(root, "commit-tree", f"{h}^{{tree}}", "-p", parent, "-m", msg)
        elif kind == "candidate" and self.attempts():
            att = self.draw_attempt(data, ACTIVE)
            # A candidate the gate brought into the repository (a clone's own commits are
            # not in it until then).
            shas = git(root, "for-each-ref", "--format=%(objectname)",
                       f"refs/a2a/imported/{att['id']}/")
            if not shas:
                return
            new = data.draw(st.sampled_from(shas.split()), label="onto")
        else:
            return
        if new != h:
            git(root, "update-ref", "refs/heads/main", new, h)
            event(f"main moved: {kind}")

    @rule()
    def an_outsider_holds_or_releases_mains_ref_lock(self):
        self.begin(outsider=True)
        if self.lock_held:
            self.lock.unlink()
        else:
            self.lock.write_text("")
        self.lock_held = not self.lock_held

    # --- invariants ----------------------------------------------------------------------------
    @invariant()
    def the_record_holds(self):
        evs = self.events()
        assert [s for s, _, _ in evs] == list(range(1, len(evs) + 1)), "the sequence has a gap"
        h1 = self.head()
        new = [(k, p) for s, k, p in evs if s > self.step_seq]
        if h1 != self.h0 and not self.outsider:
            assert any((k == "integration_intent" and (p["old"], p["new"]) == (self.h0, h1))
                       or (k == "target_restore_intent" and (p["from"], p["to"]) == (self.h0, h1))
                       for k, p in new), f"main moved {self.h0[:8]} -> {h1[:8]} unrecorded"
        baseline, diverged, intents = replay_target(evs)
        by_seq = dict((s, p) for s, k, p in evs if k == "integration_intent")
        for seq, base, div in intents:
            assert not div, f"intent #{seq} while a divergence was open"
            assert by_seq[seq]["old"] == base, f"intent #{seq} from off the gate's record"
            if seq > self.step_seq:
                assert base == self.h0, f"intent #{seq}: main was {self.h0[:8]}, not {base}"
        t = targets.view(self.store, "main")
        if t is not None:
            assert (t.baseline, t.diverged_head is not None) == (baseline, diverged)
        done: dict[str, list[str]] = {}
        for r in self.store.all("SELECT attempt, kind, payload FROM events"
                                " WHERE kind IN ('integrated', 'attempt_resolved')"):
            p = json.loads(r["payload"])
            if r["kind"] == "integrated":
                assert p["observed"] == p["new"], "integrated without reading the new commit"
            if p.get("as", "integrated") != "not-applied":   # not applied: verified again
                done.setdefault(r["attempt"], []).append(p.get("as", "integrated"))
        for a in self.store.all("SELECT id, state FROM attempts"):
            if a["state"] == "unknown":
                assert a["id"] not in done, f"{a['id']} is unknown yet was recorded {done}"
            if a["state"] == "integrated":
                assert "integrated" in done.get(a["id"], []), f"{a['id']} integrated unrecorded"
        if self.lock_held:
            assert self.lock.exists(), "a2a removed a ref lock it did not take"
        self.h0, self.step_seq, self.outsider = h1, evs[-1][0], False


def test_the_gate_holds_under_any_sequence(tmp_path):
    """See the module docstring (the autouse `isolated_env` gives git an identity)."""
    GateMachine.build_start(tmp_path / "run", tmp_path / "start")
    run_state_machine_as_test(GateMachine, settings=PROFILES[PROFILE])
