"""The tables the gate's fold writes: each one's key, the columns compared with the log, and the
columns only the table holds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Row = dict[str, Any]


@dataclass(frozen=True)
class Table:
    """A table the fold writes. `compared`: the columns checked against the log; `kept`: the
    columns the log does not hold (a rebuild keeps them from the rows it replaces); `checked`:
    False for a table the fold writes but the gate neither compares nor rebuilds (its rows
    decide nothing the gate does, or older stores hold rows no event explains)."""

    name: str
    key: tuple[str, ...]
    compared: tuple[str, ...]
    kept: tuple[str, ...] = ()
    json_columns: tuple[str, ...] = ()
    checked: bool = True


TABLES = (
    Table("cards", ("id",), ("id", "version", "digest", "contract_digest", "state", "fence",
                             "title", "body", "source_path", "updated_seq"),
          json_columns=("body",)),
    Table("card_versions", ("card_id", "version"), ("card_id", "version", "digest", "body", "seq"),
          json_columns=("body",)),
    Table("attempts", ("id",), ("id", "card_id", "n", "fence", "state", "branch", "worktree",
                                "worktree_state", "start_commit", "target_branch",
                                "card_version", "writer", "submission_n", "submitted_sha",
                                "rejections", "follows", "isolated_seq", "updated_seq"),
          kept=("claimed_ns", "ended_ns")),
    Table("submissions", ("attempt_id", "n"), ("attempt_id", "n", "sha", "card_version", "fence",
                                               "actor", "seq")),
    Table("verifications", ("attempt_id", "run"), ("attempt_id", "run", "submission_n", "sha",
                                                   "card_version", "state", "started_seq",
                                                   "ended_seq")),
    Table("check_results", ("seq",), ("attempt_id", "submission_n", "run", "sha", "card_version",
                                      "name", "kind", "blocking", "passed", "exit_code", "detail",
                                      "log_path", "seq"),
          kept=("id", "duration_s", "stdout_tail", "stderr_tail")),
    Table("integrations", ("attempt_id",), ("attempt_id", "state", "ref", "old_sha", "new_sha",
                                            "sync_worktree", "intent_seq", "outcome_seq")),
    Table("scores", ("attempt_id",), ("attempt_id", "outcome", "boundary", "boundary_reason",
                                      "taste", "taste_reason", "rounds", "rejections",
                                      "duration_s", "actor", "seq")),
    # A review's id is the seq of its `reviewed` event (migration 6 made older ones so too).
    Table("reviews", ("seq",), ("id", "attempt_id", "submission_n", "sha", "session", "verdict",
                                "notes", "seq", "run_id", "risks", "follow_up",
                                "report_digest")),
    Table("review_runs", ("id",), ("id", "attempt_id", "submission_n", "sha", "round", "follows",
                                   "checkout", "state", "session", "report", "requested_seq",
                                   "updated_seq")),
    Table("review_issues", ("review_id", "issue"), ("review_id", "attempt_id", "sha", "issue",
                                                    "title", "evidence", "seq")),
    Table("review_dispositions", ("seq",), ("seq", "attempt_id", "sha", "review_id", "issue",
                                            "decision", "reason", "actor", "user_input")),
    Table("review_overrides", ("seq",), ("seq", "attempt_id", "submission_n", "sha", "reason",
                                         "user_input")),
    Table("approvals", ("id",), ("id", "attempt_id", "submission_n", "sha", "card_version",
                                 "evidence", "user_input", "seq", "expires_ns",
                                 "target_branch")),
    Table("approval_uses", ("approval_id",), ("approval_id", "attempt_id", "seq")),
    Table("approval_revocations", ("approval_id",), ("approval_id", "attempt_id", "reason",
                                                     "user_input", "seq")),
    # The reports a verify judged (gate/verification/baseline.py); their tests stay in the event.
    Table("test_reports", ("seq",), ("seq", "attempt_id", "run", "sha", "check_name",
                                     "fingerprint", "source", "runner", "counts")),
    # Written by the fold, not compared: a store migrated to 5 holds `integrated` events from
    # before the table, and the first look seeds it (gate/attempts/target_record.py).
    Table("gate_targets", ("branch",), ("branch", "baseline", "source", "seq", "diverged_head",
                                        "diverged_seq", "finding"), checked=False),
    # Line comments on a diff (gate/reviews/comments.py): nothing the gate decides reads them.
    Table("review_comments", ("id",), ("id", "n", "attempt", "path", "line", "sha", "text",
                                       "state", "user_input", "created_seq", "updated_seq"),
          checked=False),
)
BY_NAME = {t.name: t for t in TABLES}
CHECKED = tuple(t for t in TABLES if t.checked)
