"""The options and commands of the seeds' rules (docs/explanation/the-seeds-rules.md), for the
command table (cli/table.py)."""

from __future__ import annotations

from a2a_tui.cli.spec import Command, OneOf, Subs, arg

GATE = "tasks through the gate"   # the group of cli/table.py
ATTEMPT = arg("attempt", help="the attempt's id, e.g. T-1-a1")

# abandon, claim --supersede, reclaim: take an attempt from a writer not done with it
# (gate/attempts/handback.py).
FORCE = arg("--force", action="store_true", help="(the user) even though its writer is busy or"
            " its work unsubmitted (recorded)")

# submit: the worker's own check, kept and never trusted (gate/attempts/selfcheck.py).
SELF_CHECK = (
    arg("--self-check", metavar="COMMAND",
        help="the check you ran yourself (kept, never trusted: the gate verifies)"),
    arg("--self-check-saw", choices=("passed", "failed"),
        help="what your check showed (with --self-check)"),
    arg("--self-check-note", metavar="TEXT", default="",
        help="what you saw, in a line (with --self-check)"))

# approve: a period, or a revocation (gate/reviews/approvals.py).
APPROVE_ARGS = (
    arg("attempt", help="the verified attempt to approve (T-1-a1)"),
    arg("--valid-for", metavar="DURATION", help="how long it may be used (90s, 30m, 12h, 7d;"
        " default: gate.toml's approval_valid_s)"),
    arg("--revoke", action="store_true", help="take back the attempt's approval not used yet"),
    arg("--reason", default="", help="why it is revoked (kept in the record)"))

LEASE = Command(
    "lease", "an attempt's lease: its writer's last report, when it expires; --renew takes an"
    " isolated attempt back", "gate_cmds:cmd_lease", group=GATE, args=(
        ATTEMPT, arg("--renew", action="store_true",
                     help="after looking at its writer: let it go on (lease_renewed)"),
        arg("--reason", default="", help="why (kept in the record)")))

SPOT_CHECK = Command(
    "spot-check", "(the user) answer a spot check of an integrated attempt: --ok, or --flag with"
    " why", "gate_cmds:cmd_spot_check", group=GATE, args=(
        ATTEMPT,
        OneOf((arg("--ok", dest="verdict", action="store_const", const="ok",
                   help="it holds up"),
               arg("--flag", dest="verdict", action="store_const", const="flagged",
                   help="the gate let something through (say why)")), required=True),
        arg("--reason", default="", help="why (required with --flag)")))

# The project's profile (rule 8, collab/project.py): shown to anyone, confirmed by the user.
PROFILE = (
    Command("profile", "the project's profile: language, test framework, where tests live, build"
            " and test commands, as detected and as you confirmed them",
            "profile_cmds:cmd_profile", group=GATE, defaults={"profile_cmd": None},
            subs=Subs("profile_cmd", "SUBCOMMAND", required=False)),
    Command("profile confirm", "(the user) confirm the detected profile, edited with --set; the"
            " controllers' role cards and the card template then name it",
            "profile_cmds:cmd_profile_confirm", args=(
                arg("--set", action="append", metavar="FIELD=VALUE",
                    help="change one field (language, test_framework, tests, build, test)"),)))
