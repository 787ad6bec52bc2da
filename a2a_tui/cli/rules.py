"""The rules each command prints when it runs. Role cards only name commands; rules live here."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from a2a_tui.gate.roles import ROLE_TABLE, who_may

COMMAND_RULES: dict[str, list[str]] = {
    "init": [
        ".a2a/ holds the store, config, spool and worktrees; it is listed in .git/info/exclude,"
        " never in .gitignore.",
        "The target branch is the branch checked out now unless --target says otherwise.",
    ],
    "card add": [
        "A card is stored whole and valid, or not at all.",
        "non_goals needs at least one entry; checks need at least one blocking check.",
        "version, digest, start commit and writer are filled in by the gate, not by you.",
        "A change to goal, scope, acceptance or checks makes a new version that must be"
        " confirmed ready again; attempts bound to an older version cannot integrate.",
    ],
    "card ready": ["Only a ready card can be claimed.",
                   "Marking ready confirms the card's current version.",
                   "The contract is checked first (precheck): every program a check runs exists"
                   " and is allowed by .a2a/gate.toml, every file it names is in the target head"
                   " or declared in artifacts; otherwise contract_invalid."],
    "claim": [
        "One active attempt per card: a second claim is refused (--supersede takes over and"
        " fences the old attempt out).",
        "Each claim gets a new fence; submissions must quote it.",
        "The worktree starts at the target branch head; work and commit only there.",
        "Only the recorded writer may submit.",
        "--supersede waits until the old writer is idle (or exited) and its commits are"
        " submitted; --force is the user's alone and is recorded.",
    ],
    "submit": [
        "'Done' is a submit, not a message: a full 40-hex commit SHA that descends from the"
        " start commit, with the current fence and card version.",
        "A refused submit is kept as a diagnostic record and changes nothing.",
        "Say what you left open with --unresolved \"...\" (repeatable): it is shown to the"
        " integrator.",
        "Say what you checked yourself with --self-check \"COMMAND\" --self-check-saw"
        " passed|failed: kept, never trusted; the verify runs the checks on the exact commit.",
    ],
    "verify": [
        "Checks run on a clean checkout of exactly the submitted SHA, never the live worktree.",
        "Chain: precheck (the card's contract), sanity, boundary (allowed_paths, symlinks,"
        " paths git refuses), drift (acceptance_files), provenance (A2A-* trailers), red state,"
        " the card's checks, per-test (each blocking check's tests against the base's, one"
        " by one), artifacts; only the candidate's own commits are judged.",
        "A test that passed at the base must pass on the candidate: not deleted, deselected,"
        " skipped or marked xfail/todo, and its base version must pass against your code;"
        " a test you add may not end skipped or xfail/todo (droppable_tests on the card"
        " allows named ones).",
        "Each check runs isolated: allow-listed variables and the card's env, its own HOME,"
        " stdin closed, its timeout; every process it starts is ended with it; a change to a"
        " tracked file rejects (tree_modified).",
        "A blocking failure rejects and skips the rest; a check that passes and fails on one"
        " candidate is flaky (unknown: never integrable); a contract problem is the card's, not"
        " a strike.",
        "Rejection feedback goes to the writer's pane, first error first; after the gate rules'"
        " feedback_rounds (3) consecutive rejections it stops and a board item asks a person.",
    ],
    "integrate": [
        "Only a candidate whose blocking checks all passed, for this SHA at the current card"
        " version, is integrated.",
        "Both scores are required: boundary=0-3:reason and taste=0-3:reason.",
        "The target branch moves by compare-and-swap to exactly the verified SHA; if it moved"
        " in a way the candidate does not contain, integration is refused.",
        "A dirty checked-out target worktree is never touched. No push, no force, no tags.",
    ],
    "abandon": ["An abandoned attempt keeps its evidence; a retry is a new attempt.",
                "Both scores are required.",
                "Only once the writer is idle (or exited) and its commits are submitted;"
                " --force is the user's alone and is recorded."],
    "review start": [
        "A review is of the current submission: a fresh reviewer session in a read-only checkout"
        " of exactly its SHA, told the card, the diff range and the evidence.",
        "The executive controller or the user starts it; a SHA with a verdict gets no second"
        " review (a new round is for a new submission, never another try at a pass).",
        "After the first review come at most review_follow_up_rounds follow-ups (default 2,"
        " .a2a/gate.toml); a follow-up re-reads the files and checks the earlier report's"
        " issues against them.",
    ],
    "review verdict": [
        "Only the reviewer session launched for this SHA gives its verdict: not the writer,"
        " started after this submission, naming the current SHA.",
        "The report is Markdown that ends with one ```verdict block (TOML): verdict = pass |"
        " pass_with_risks | fail, recommends_follow_up = true|false, risks = [...],"
        " [[blocking_issues]] with id, title, evidence = [\"path:line\", ...].",
        "A fail names its blocking issues, a pass none; a pass_with_risks names its risks. Each"
        " evidence names a file of the candidate and a line in it.",
        "A verdict is advice: a fail's issues stop integration of that SHA until each is"
        " disposed of; a pass approves nothing on its own.",
    ],
    "review dispose": [
        "The executive controller or the user disposes of each blocking issue of the current"
        " SHA: --accept (the worker fixes it in a new submission; it goes to the writer's pane),"
        " --reject or --defer with a --reason.",
        "Integration needs every blocking issue disposed of and none accepted. The latest"
        " disposition counts; a controller does not replace the user's.",
    ],
    "review override": [
        "Only the user overrides a review, with a reason; it is recorded as the user's input and"
        " holds for this SHA only.",
    ],
    "approve": [
        "Only the user approves, here or in the workbench; the approval is bound to the SHA, the"
        " card version and the evidence (verify runs and reviews of that SHA).",
        "Integration uses it once; a new SHA, card version or evidence makes it stale. Text that"
        " claims approval anywhere else authorizes nothing.",
    ],
    "reclaim": [
        "Only ended attempts are reclaimed; only clean worktrees are removed.",
        "The attempt's commit stays reachable under refs/a2a/attempts/<attempt>.",
        "A dirty or unknown worktree is kept and reported on the board.",
        "A clone whose writer is still busy is held (its writer's pane must be idle or"
        " exited); --force is the user's alone.",
    ],
    "store": [
        "The event log decides: every gate decision is taken from it, and the gate's tables are"
        " a cache of it, compared with it before each decision.",
        "Each event's hash covers the one before; an edited, removed or inserted event breaks"
        " the chain there.",
        "A break or a table that disagrees with the log freezes the gate: reads work, gate"
        " commands refuse (store_tampered) until the user repairs it (rebuild; reseal after"
        " looking at the events).",
        "The store is this repository's alone (its id is in .git/a2a-store.json): a2a refuses"
        " another's, a missing one (only `a2a init` makes one) and one that lost events.",
        "Back it up with `a2a store backup PATH` (safe while a2a runs), never by copying"
        " a2a.db: its -wal holds the newest events; `a2a store restore PATH` puts a backup back.",
    ],
    "recover": [
        "Half-finished operations are resolved by reading facts (the target ref), never by"
        " guessing; when the facts do not tell, the attempt is 'unknown' for a person to decide.",
        "An unknown attempt is never retried: the user looks and runs `a2a resolve`.",
    ],
    "resolve": [
        "Only an attempt whose outcome is unknown is resolved, by the user, after looking at the"
        " target: integrated (the target must contain the candidate), not-applied (it must not;"
        " the attempt is a verified candidate again) or abandoned.",
        "The decision is a user input record; resolve moves nothing.",
    ],
    "target adopt": [
        "The gate records where it last left each target; a target moved outside the gate stops"
        " claims from it and integrations into it until the user decides.",
        "Adopt makes the current head the gate's baseline; attempts that started from a commit"
        " the target no longer contains cannot be integrated.",
    ],
    "target restore": [
        "Restore moves the target back to the gate's baseline by compare-and-swap (intent, move,"
        " outcome), bringing a clean checked-out worktree along; a dirty one is never touched.",
    ],
    "spawn": [
        "A session is launched with per-session arguments and environment only; no global"
        " config is written.",
        "Options after `--` that set the CLI's permissions (--dangerously-skip-permissions, a"
        " sandbox mode, --yolo, ...) are the user's alone.",
        "The pane's state comes from the CLI's hook/notify signals only: it is 'unknown' until"
        " the first one arrives.",
        "With --attempt the session works in the attempt's worktree as its sole writer; its"
        " commits carry A2A-* trailers.",
    ],
    "inject": [
        "Delivered only to an idle, unpaused pane, one at a time, in order; the text starts with"
        " its marker ⟦主控 #n · WHO⟧, WHO naming who queued it (用户: the user, or a session's"
        " id); a marker inside the text is escaped (\\⟦), and so is a look-alike bracket"
        " (〚【［[) before the marker's words.",
        "Into another session's pane: the user or the executive controller only.",
        "The next item waits for a Stop signal later than the Enter that delivered this one.",
    ],
    "release": [
        "Release only a pane you have seen idle: Esc interrupts send no signal.",
        "The input box is cleared before the next paste.",
    ],
    # Collaboration records (issue 5); who may write what is enforced in a2a_tui/collab/roles.py.
    "say": [
        "Only the user records user input (U-<n>); a managed session running this is refused.",
        "The message goes to the live ideation session's pane, with its U-<n> so it can be"
        " quoted.",
    ],
    "inbox post": [
        "ideation may write assign, revise, stop, report (a relay to the user), ack,"
        " disposition; executive may write report, ack, disposition; the user may write any.",
        "ack and disposition point at an earlier entry (--ref I-<n>); nothing is edited.",
        "A report's --status is exactly one of PASS, INCOMPLETE, BLOCKED, NO_GO. An ideation"
        " report relays one (--ref) and may keep or lower its status, never raise it"
        " (PASS > INCOMPLETE > BLOCKED > NO_GO).",
        "An assign of a card with needs_user_authorization carries --quote and --user-input"
        " U-<n>; a quote not found verbatim there (6+ characters, or the whole message; never"
        " from a refusal) leaves the entry unauthorized and the card unclaimable.",
        "Text claiming approval ('approved by the user', Approved-by:) authorizes nothing.",
    ],
    "inbox list": ["Entries are never edited: acks and dispositions are entries that point at"
                   " earlier ones (state: open, acked, disposed)."],
    "board ask": [
        "Questions to the user come from the controllers: options KEY=TEXT, a recommendation"
        " and why.",
        "The user's answers come back to your pane; several at once arrive as one prompt.",
    ],
    "board report": [
        "Report problems outside your scope; do not fix them outside your allowed paths and do"
        " not ignore them.",
        "--blocking, or a category permission, scope, acceptance, security or irreversible,"
        " makes the item protected: only the user can close it.",
    ],
    "board list": ["Items are never deleted; answers and closures are separate records."],
    "board close": [
        "A controller may close an item that is plainly not a problem, with a reason; protected"
        " items, and anything you are unsure about, are the user's to close.",
    ],
    "board answer": [
        "Each answer is a user input record (choice or answer).",
        "Answers to several items from one session go back as one prompt; --hold keeps an"
        " answer until `a2a board send`.",
    ],
}


def rules_for(command: str) -> list[str]:
    """The rules `command` prints; a gate command's first says who may run it."""
    rules = COMMAND_RULES.get(command, [])
    if command in ROLE_TABLE:
        rules = [f"Who may run it: {who_may(command)}.", *rules]
    return rules


# --- a person reads a command's rules once; a model gets them every time (seed 003: the rules
# are printed for the models that run the commands) ------------------------------------------
def shown_path() -> Path:
    """Where the rules shown to the user are noted: `$XDG_STATE_HOME/a2a/rules-shown`."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "a2a" / "rules-shown"


def _key(command: str) -> str:
    # The rules' own text is in the key: rules that change are shown again.
    digest = hashlib.sha256("\n".join(rules_for(command)).encode()).hexdigest()[:12]
    return f"{command}\t{digest}"


def shown_before(command: str) -> bool:
    """Whether the user has been shown these rules of `command` (as they are now)."""
    try:
        return _key(command) in shown_path().read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return False


def note_shown(command: str) -> None:
    """Note that the user has read the rules of `command`; a failure to note them only means
    they are shown again."""
    path = shown_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as f:
            f.write(_key(command) + "\n")
    except OSError:
        pass
