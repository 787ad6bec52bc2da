"""verify: a fixed chain of deterministic checks on a clean checkout of exactly the submitted SHA.

Chain: sanity, boundary, drift, provenance (structural, cheap) then red state and the card's
check commands. Every result is evidence bound to the SHA and the card version. Nothing here
holds a store transaction while git or a check runs.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from a2a_tui.errors import A2AError
from a2a_tui.faults import CRASH_ENV, crashpoint
from a2a_tui.gate.cards import Card, path_matches
from a2a_tui.gate.cards_ops import card_at_version
from a2a_tui.gate.context import GateContext
from a2a_tui.gate.feedback import queue_rejection_feedback
from a2a_tui.gate.locks import op_lock
from a2a_tui.git import GitError
from a2a_tui.queue import wake

TAIL_BYTES = 4000
TRAILER_ATTEMPT = "A2A-Attempt"


@dataclass
class CheckResult:
    name: str
    kind: str
    blocking: bool
    passed: bool
    exit_code: int | None = None
    duration_s: float = 0.0
    detail: str = ""
    stdout_tail: str = ""
    stderr_tail: str = ""
    log_path: str | None = None
    skipped: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "blocking": self.blocking,
                "passed": self.passed, "exit_code": self.exit_code,
                "duration_s": round(self.duration_s, 3), "detail": self.detail,
                "skipped": self.skipped, "stdout_tail": self.stdout_tail,
                "stderr_tail": self.stderr_tail, "log": self.log_path}


@dataclass
class Verification:
    attempt: str
    run: int
    sha: str
    card_version: int
    submission: int
    results: list[CheckResult] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.results if r.blocking)

    def first_failure(self) -> CheckResult | None:
        return next((r for r in self.results if r.blocking and not r.passed and not r.skipped),
                    None)


Progress = Callable[[str, CheckResult | None], None]


def verify(g: GateContext, attempt_id: str, progress: Progress | None = None) -> Verification:
    """Run the chain for the attempt's latest submission and record the verdict."""
    g.attempt(attempt_id)
    progress = progress or (lambda _name, _res: None)
    with op_lock(g.repo.locks_dir, attempt_id, what=f"an operation on {attempt_id}"):
        with g.store.write() as tx:
            att = tx.one("SELECT * FROM attempts WHERE id = ?", (attempt_id,))
            if att["state"] not in ("submitted", "rejected", "verified"):
                raise A2AError("nothing_to_verify", f"attempt {attempt_id} is {att['state']}:"
                               " only a submitted candidate can be verified")
            sub = tx.one("SELECT * FROM submissions WHERE attempt_id=? AND n=?",
                         (attempt_id, att["submission_n"]))
            run = 1 + tx.one("SELECT COALESCE(MAX(run),0) FROM verifications WHERE attempt_id=?",
                             (attempt_id,))[0]
            seq = tx.append("verify_started", actor=g.caller.actor, task=att["card_id"],
                            attempt=attempt_id, session=g.caller.session,
                            payload={"run": run, "sha": sub["sha"], "submission": sub["n"],
                                     "card_version": sub["card_version"]})
            tx.execute("INSERT INTO verifications(attempt_id, run, submission_n, sha, card_version,"
                       " state, started_seq) VALUES (?,?,?,?,?,'running',?)",
                       (attempt_id, run, sub["n"], sub["sha"], sub["card_version"], seq))
            tx.execute("UPDATE attempts SET state='verifying', updated_seq=? WHERE id=?",
                       (seq, attempt_id))
        v = Verification(attempt_id, run, sub["sha"], sub["card_version"], sub["n"])
        card = card_at_version(g, att["card_id"], sub["card_version"])
        logs = g.repo.a2a_dir / "logs" / attempt_id / f"run{run}"
        logs.mkdir(parents=True, exist_ok=True)
        crashpoint("verify:started")
        try:
            for res in _chain(g, att, v, card, logs, progress):
                _record(g, att, v, res)
                progress(res.name, res)
        except BaseException:
            with g.store.write() as tx:
                s = tx.append("verify_interrupted", actor="gate", task=att["card_id"],
                              attempt=attempt_id, payload={"run": run, "sha": v.sha})
                tx.execute("UPDATE verifications SET state='interrupted', ended_seq=?"
                           " WHERE attempt_id=? AND run=?", (s, attempt_id, run))
                tx.execute("UPDATE attempts SET state='submitted', updated_seq=? WHERE id=?",
                           (s, attempt_id))
            raise
        if _conclude(g, att, v):
            wake(g.repo)
    return v


def _record(g: GateContext, att, v: Verification, r: CheckResult) -> None:
    with g.store.write() as tx:
        seq = tx.append("check_result", actor="gate", task=att["card_id"], attempt=v.attempt,
                        payload={"run": v.run, "sha": v.sha, "card_version": v.card_version,
                                 **{k: val for k, val in r.to_json().items()
                                    if k not in ("stdout_tail", "stderr_tail")}})
        tx.execute(
            "INSERT INTO check_results(attempt_id, submission_n, run, sha, card_version, name,"
            " kind, blocking, passed, exit_code, duration_s, detail, stdout_tail, stderr_tail,"
            " log_path, seq) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (v.attempt, v.submission, v.run, v.sha, v.card_version, r.name, r.kind,
             int(r.blocking), int(r.passed), r.exit_code, r.duration_s, r.detail,
             r.stdout_tail, r.stderr_tail, r.log_path, seq))


def _conclude(g: GateContext, att, v: Verification) -> bool:
    """Record the verdict; True when feedback was queued for a pane."""
    passed = v.passed
    queued = False
    with g.store.write() as tx:
        cur = tx.one("SELECT rejections FROM attempts WHERE id=?", (v.attempt,))
        rejections = 0 if passed else cur["rejections"] + 1
        first = v.first_failure()
        seq = tx.append(
            "verified" if passed else "rejected", actor="gate", task=att["card_id"],
            attempt=v.attempt,
            payload={"run": v.run, "sha": v.sha, "card_version": v.card_version,
                     "passed": passed, "consecutive_rejections": rejections,
                     "first_failure": first.name if first else None,
                     "checks": [{"name": r.name, "passed": r.passed, "blocking": r.blocking}
                                for r in v.results]})
        tx.execute("UPDATE verifications SET state=?, ended_seq=? WHERE attempt_id=? AND run=?",
                   ("passed" if passed else "rejected", seq, v.attempt, v.run))
        tx.execute("UPDATE attempts SET state=?, rejections=?, updated_seq=? WHERE id=?",
                   ("verified" if passed else "rejected", rejections, seq, v.attempt))
        if not passed:
            # Rejection feedback for the writer's pane: first error and its context first.
            queued = queue_rejection_feedback(g, tx, att, v, rejections).get("sent", False)
    return queued


# --- the chain ---------------------------------------------------------------

def _chain(g: GateContext, att, v: Verification, card: Card, logs: Path, progress: Progress):
    git = g.git
    sha, start = v.sha, att["start_commit"]
    progress("sanity", None)
    sanity = _sanity(g, att, v)
    v.results.append(sanity)
    yield sanity
    if not sanity.passed:
        return
    changed = git.changed_paths(start, sha)

    progress("boundary", None)
    outside = [p for p in changed if not path_matches(p, card.allowed_paths)]
    res = CheckResult("boundary", "boundary", True, not outside,
                      detail=("changed paths outside allowed_paths: " + ", ".join(outside[:20]))
                      if outside else f"{len(changed)} changed path(s), all within allowed_paths")
    v.results.append(res)
    yield res

    progress("drift", None)
    touched = [p for p in changed
               if card.acceptance_files and path_matches(p, card.acceptance_files)]
    res = CheckResult("drift", "drift", True, not touched,
                      detail=("the candidate edits files pinned by the card: " + ", ".join(touched))
                      if touched else "acceptance files untouched")
    v.results.append(res)
    yield res

    progress("provenance", None)
    res = _provenance(g, att, v)
    v.results.append(res)
    yield res

    structural_ok = all(r.passed for r in v.results if r.blocking)
    later: list[tuple[str, str, bool]] = []
    if card.red_command:
        later.append(("red", "red", True))
    later += [(c.name, "command", c.blocking) for c in card.checks]
    if not structural_ok:
        for name, kind, blocking in later:
            res = CheckResult(name, kind, blocking, False, skipped=True,
                              detail="skipped: an earlier blocking check failed")
            v.results.append(res)
            yield res
        return

    with _checkout(g, sha, f"{att['id']}-r{v.run}") as tree:
        if card.red_command:
            progress("red", None)
            res = _red(g, att, v, card, tree, changed, logs)
            v.results.append(res)
            yield res
        for check in card.checks:
            progress(check.name, None)
            code, dur, out, err, log, timed_out = run_command(
                check.command, tree, check.timeout_s, logs / f"{check.name}.log")
            detail = f"timed out after {check.timeout_s}s" if timed_out else f"exit {code}"
            res = CheckResult(check.name, "command", check.blocking, code == 0 and not timed_out,
                              exit_code=code, duration_s=dur, detail=detail,
                              stdout_tail=out, stderr_tail=err, log_path=str(log))
            v.results.append(res)
            yield res


def _sanity(g: GateContext, att, v: Verification) -> CheckResult:
    problems = []
    if not g.git.object_is_commit(v.sha):
        problems.append(f"{v.sha} is not a commit")
    elif not g.git.is_ancestor(att["start_commit"], v.sha):
        problems.append("does not descend from the start commit")
    card = g.store.one("SELECT version, fence FROM cards WHERE id=?", (att["card_id"],))
    if card["version"] != v.card_version:
        problems.append(f"card is now version {card['version']},"
                        f" submission was for {v.card_version}")
    if card["fence"] != att["fence"]:
        problems.append(f"fence {att['fence']} is no longer current ({card['fence']})")
    return CheckResult("sanity", "sanity", True, not problems,
                       detail="; ".join(problems) or "SHA exists, descends from start, fence and"
                       " card version current")


def _provenance(g: GateContext, att, v: Verification) -> CheckResult:
    """Commit trailers: this attempt's pass; none is the user's own commit; another task's fails."""
    foreign, human = [], []
    for c in g.git.commits_between(att["start_commit"], v.sha):
        attempts = [val for key, val in g.git.trailers(c) if key.lower() == TRAILER_ATTEMPT.lower()]
        if not attempts:
            human.append(c)
        elif any(a != att["id"] for a in attempts):
            foreign.append(f"{c[:12]} ({', '.join(attempts)})")
    if human:
        with g.store.write() as tx:
            seen = {r[0] for r in tx.all(
                "SELECT json_extract(payload, '$.sha') FROM events WHERE attempt=? AND"
                " kind='human_intervention' AND json_extract(payload, '$.via')='commit'",
                (att["id"],))}
            for c in human:
                if c in seen:  # an earlier verify run already recorded this commit
                    continue
                tx.append("human_intervention", actor="gate", task=att["card_id"],
                          attempt=att["id"], payload={"via": "commit", "sha": c})
    detail = (f"commits from another attempt: {', '.join(foreign)}" if foreign else
              f"{len(human)} commit(s) without a2a trailers recorded as human intervention"
              if human else "all commits carry this attempt's trailers")
    return CheckResult("provenance", "provenance", True, not foreign, detail=detail)


def _red(g: GateContext, att, v: Verification, card: Card, tree: Path, changed: list[str],
         logs: Path) -> CheckResult:
    """The candidate's new tests must fail on the start commit and pass on the candidate."""
    assert card.red_command
    tests = [p for p in changed if path_matches(p, card.red_paths)]
    t0 = time.monotonic()
    with _checkout(g, att["start_commit"], f"{att['id']}-r{v.run}-red") as base:
        for p in tests:
            src, dst = tree / p, base / p
            if src.exists():
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dst)
            elif dst.exists():
                dst.unlink()
        code_red, _, out_r, err_r, _, to_r = run_command(card.red_command, base, 600,
                                                         logs / "red-start.log")
    code_green, _, out_g, err_g, log, to_g = run_command(card.red_command, tree, 600,
                                                         logs / "red-candidate.log")
    dur = time.monotonic() - t0
    if code_red == 0:
        return CheckResult("red", "red", True, False, exit_code=code_red, duration_s=dur,
                           detail="the new tests pass on the start commit: they do not test the"
                           f" problem ({len(tests)} test file(s) overlaid)",
                           stdout_tail=out_r, stderr_tail=err_r,
                           log_path=str(logs / "red-start.log"))
    if code_green != 0 or to_g:
        return CheckResult("red", "red", True, False, exit_code=code_green, duration_s=dur,
                           detail="red command fails on the candidate", stdout_tail=out_g,
                           stderr_tail=err_g, log_path=str(log))
    return CheckResult("red", "red", True, True, exit_code=0, duration_s=dur,
                       detail=f"red on start (exit {code_red}{', timeout' if to_r else ''}),"
                       " green on candidate", log_path=str(log))


class _checkout:
    """A detached, throwaway worktree at one commit; removed afterwards whatever happens."""

    def __init__(self, g: GateContext, sha: str, name: str):
        self.g, self.sha = g, sha
        base = g.repo.a2a_dir / "verify"
        base.mkdir(parents=True, exist_ok=True)
        self.path = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=base))

    def __enter__(self) -> Path:
        self.path.rmdir()
        self.g.git.worktree_add_detached(self.path, self.sha)
        return self.path

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(GitError):  # the folder goes below; prune then forgets it
            self.g.git.worktree_remove(self.path, force=True)
        shutil.rmtree(self.path, ignore_errors=True)
        self.g.git.worktree_prune()


def run_command(command: str, cwd: Path, timeout_s: float, log: Path
                ) -> tuple[int | None, float, str, str, Path, bool]:
    """Run a shell command in its own process group; on timeout kill the whole group.

    Returns (exit code, duration, stdout tail, stderr tail, log path, timed out).
    """
    log.parent.mkdir(parents=True, exist_ok=True)
    out_path, err_path = log.with_suffix(".stdout"), log.with_suffix(".stderr")
    env = dict(os.environ)
    env.pop(CRASH_ENV, None)  # a check's own a2a calls must not die at our crash point
    t0 = time.monotonic()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen(["/bin/sh", "-c", command], cwd=str(cwd), stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL, start_new_session=True, env=env)
        timed_out = False
        try:
            code: int | None = proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(proc.pid)
            proc.wait()
            code = None
        else:
            _kill_group(proc.pid)  # stragglers left in the group by the check
    dur = time.monotonic() - t0
    stdout, stderr = _tail(out_path), _tail(err_path)
    log.write_text(f"$ {command}\n# cwd {cwd}\n# exit {code} in {dur:.3f}s"
                   f"{' (timed out)' if timed_out else ''}\n--- stdout\n"
                   + out_path.read_text(errors="replace") + "\n--- stderr\n"
                   + err_path.read_text(errors="replace"))
    out_path.unlink()
    err_path.unlink()
    return code, dur, stdout, stderr, log, timed_out


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _tail(path: Path) -> str:
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        f.seek(max(0, size - TAIL_BYTES))
        data = f.read()
    text = data.decode("utf-8", errors="replace")
    return ("…" + text) if size > TAIL_BYTES else text
