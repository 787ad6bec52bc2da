"""The one action registry: every key of the workbench, what it does, and where it applies.

It feeds the bindings of the app and of each panel, the footer (through those bindings), the
help screen and the command palette. Whether an action can run now, and why not, is asked of
the widget that owns it (`why_disabled`), so the footer dims it, the help screen and the palette
say why, and pressing the key anyway explains instead of doing nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding

SCOPES = {"app": "Everywhere", "panel": "Any panel", "sessions": "Sessions",
          "board": "Board", "inbox": "Inbox", "events": "Events", "gate": "Gate",
          "checks": "Gate checks", "diff": "Diff",
          "review": "Review (R)"}


@dataclass(frozen=True)
class Action:
    """One user action: `method` is the Textual action on the scope's widget (`action_<name>`)."""

    id: str
    scope: str
    keys: str                 # Textual key names, comma-separated
    method: str               # may carry parameters: "pick(3)"
    label: str                # short, for the footer
    help: str                 # a sentence, for the help screen and the palette
    show: bool = True         # shown in the footer
    priority: bool = False
    key_display: str | None = None

    @property
    def name(self) -> str:
        """The action name without parameters."""
        return self.method.split("(", 1)[0]

    @property
    def keys_shown(self) -> str:
        return self.key_display or " ".join(_KEY_NAMES.get(k, k) for k in self.keys.split(","))

    def binding(self) -> Binding:
        return Binding(self.keys, self.method, self.label, show=self.show,
                       priority=self.priority, key_display=self.key_display, id=self.id)


_KEY_NAMES = {"question_mark": "?", "tab": "Tab", "shift+tab": "Shift-Tab", "enter": "Enter",
              "down": "↓", "up": "↑", "escape": "Esc", "ctrl+s": "Ctrl-S", "ctrl+p": "Ctrl-P",
              "slash": "/", "home": "Home", "end": "End", "exclamation_mark": "!"}

ACTIONS: tuple[Action, ...] = (
    # --- everywhere ---
    Action("app.help", "app", "question_mark", "help", "Help",
           "Show every key, what it does, and why it is unavailable right now."),
    Action("app.next", "app", "tab", "focus_next", "Next panel",
           "Move to the next panel.", show=False),
    Action("app.previous", "app", "shift+tab", "focus_previous", "Previous panel",
           "Move to the previous panel.", show=False),
    Action("app.message", "app", "m", "message", "Message",
           "Write to the ideation controller: a message, an approval or a refusal (a user"
           " input, delivered to its pane)."),
    Action("app.new_card", "app", "N", "new_card", "New card",
           "Write a task card in your $EDITOR from a commented template: goal, non-goals,"
           " allowed paths, acceptance, checks (the id and the rest are filled in); every"
           " problem is listed at once, and e edits it again."),
    Action("app.metrics", "app", "M", "metrics", "Metrics",
           "The metrics, live: first-pass rate, rejections, attention, scores, per task, and the"
           " retrospectives (M again or Esc goes back)."),
    Action("app.detach", "app", "q", "detach", "Detach",
           "Leave the workbench: tmux detaches this terminal; the workbench, the orchestrator"
           " and the agents keep running (deliveries go on); `a2a up` comes back."),
    Action("app.quit", "app", "Q", "quit", "Quit",
           "Quit for good (asks first, and says what stops): the workbench and the"
           " orchestrator stop, nothing is delivered until `a2a up`; the agents keep running.",
           show=False),
    Action("app.waiting", "app", "exclamation_mark", "waiting", "Waiting",
           "What waits for you: open questions, waiting and stalled panes, rejections and"
           " feedback stops (the rejections and stops count as seen once shown here).",
           show=False),
    # --- every panel ---
    Action("panel.down", "panel", "j", "cursor_down", "Down", "Move down (also ↓).",
           show=False, key_display="j ↓"),
    Action("panel.up", "panel", "k", "cursor_up", "Up", "Move up (also ↑).", show=False,
           key_display="k ↑"),
    # priority: the table's own Home/End scroll sideways
    Action("panel.top", "panel", "home", "cursor_top", "Top", "Move to the first row.",
           show=False, priority=True),
    Action("panel.bottom", "panel", "end", "cursor_bottom", "Bottom", "Move to the last row.",
           show=False, priority=True),
    Action("panel.filter", "panel", "slash", "filter", "Filter",
           "Search the panel's whole record (not only the rows shown) for every word you type"
           " (Enter keeps it, Esc clears it).", show=False),
    Action("panel.clear_filter", "panel", "escape", "clear_filter", "Clear filter",
           "Clear the panel's kept filter: every row again.", show=False),
    # --- sessions ---
    Action("sessions.jump", "sessions", "enter", "jump", "Jump",
           "Show this session's pane in tmux.", priority=True),
    Action("sessions.pause", "sessions", "p", "toggle_pause", "Pause/resume",
           "Hold injections into this pane, or let them flow again."),
    Action("sessions.release", "sessions", "r", "release", "Release",
           "Declare this pane idle (after an Esc, or when it is 'probably idle')."),
    Action("sessions.inject", "sessions", "i", "inject", "Inject",
           "Write a prompt (several lines) for this pane; it is queued behind the others."),
    Action("sessions.pause_all", "sessions", "P", "toggle_pause_all", "Pause all",
           "Pause every pane, or resume them all when all are paused."),
    Action("sessions.new", "sessions", "n", "new_session", "New",
           "Start a new session: role, CLI, model and effort, options, optionally in an"
           " attempt's worktree (defaults from your config)."),
    Action("sessions.restart", "sessions", "R", "restart", "Restart",
           "Start this exited session again: same role, attempt, CLI and options, a new"
           " launch; the prompts queued for it are delivered to the new pane.", show=False),
    Action("sessions.revive", "sessions", "v", "revive", "Revive",
           "Start this exited session again on its CLI's own conversation (Claude Code, Codex,"
           " Gemini CLI), in the same worktree; its queue follows. A CLI that cannot resume is"
           " started fresh, and says so.", show=False),
    Action("sessions.fork", "sessions", "f", "fork", "Fork",
           "A new session on a copy of this one's conversation (Claude Code, Codex), under its"
           " own name, bound to no attempt.", show=False),
    Action("sessions.end", "sessions", "x", "end_session", "End",
           "End this session (asks first): its pane is closed, it is recorded as ended by"
           " you; its queue is kept for a restart.", show=False),
    # --- board ---
    Action("board.open", "board", "enter", "open", "Open",
           "Read the item: options, the recommendation and why.", priority=True),
    *(Action(f"board.pick{d}", "board", str(d), f"pick({d})", f"Option {d}",
             "Answer the question with the option of that number.", show=d == 1,
             key_display="1-9" if d == 1 else None) for d in range(1, 10)),
    Action("board.adopt", "board", "a", "adopt", "Adopt",
           "Answer with the recommended option."),
    Action("board.text", "board", "t", "write_answer", "Write",
           "Answer in your own words."),
    Action("board.send", "board", "s", "send", "Send batch",
           "Send the held answers now, one prompt per asking session."),
    Action("board.flag", "board", "f", "flag_spot_check", "Flag",
           "A spot check: flag the integrated attempt it asks about, saying why (the gate let"
           " something through); `a2a spot-check ATTEMPT --ok` says it holds up.", show=False),
    # --- inbox, events ---
    Action("inbox.open", "inbox", "enter", "open", "Open", "Read the whole entry.",
           priority=True),
    Action("events.open", "events", "enter", "open", "Open", "Read the whole event.",
           priority=True),
    Action("events.unfold", "events", "a", "unfold", "All steps",
           "Show (or fold again) how each prompt travelled: typed, Enter, taken, the tools it"
           " ran. Folded, a prompt is its queueing and its finish."),
    Action("events.confirm", "events", "c", "confirm_input", "Confirm input",
           "On text typed into a pane (a user_input from the pane): confirm it was you. Until"
           " then it authorizes nothing: anything that reaches a pane's terminal can type."),
    # --- gate ---
    Action("gate.open", "gate", "enter", "open", "Checks",
           "The per-check results of the attempt's last verify, each check's output and log.",
           priority=True),
    Action("gate.card", "gate", "c", "card", "Card",
           "The task card in full: goal, non-goals, allowed paths, acceptance, checks."),
    Action("gate.edit", "gate", "e", "edit_card", "Edit",
           "Edit the card's current version in your $EDITOR (a change of its contract is a new"
           " version, to be made ready again)."),
    Action("gate.ready", "gate", "r", "ready", "Ready",
           "Confirm the card ready to be claimed, with the card shown (its contract is checked"
           " first)."),
    Action("gate.claim", "gate", "C", "claim", "Claim",
           "Claim the ready card and start a session on the attempt (role, CLI): it is given"
           " its task as its first prompt."),
    Action("gate.diff", "gate", "d", "diff", "Diff",
           "The attempt's diff against its start commit (its candidate, else its branch)."),
    Action("gate.log", "gate", "l", "log", "Log",
           "The full log of the last verify's first failed check (else its last one)."),
    Action("gate.verify", "gate", "v", "verify", "Verify",
           "Run the check chain on the attempt's submitted commit."),
    Action("gate.integrate", "gate", "I", "integrate", "Integrate",
           "Move the target branch to the verified candidate, with both scores and reasons."),
    Action("gate.abandon", "gate", "A", "abandon", "Abandon",
           "End the attempt without integrating it, with a score and a reason (confirmed)."),
    Action("gate.worktree", "gate", "w", "worktree", "Shell",
           "Open a shell in the attempt's worktree, in a new tmux window."),
    Action("gate.review", "gate", "R", "review", "Review",
           "The attempt's reviews, their blocking issues and dispositions, and your approval"
           " (a screen of its own, with its keys)."),
    # --- the screens the Gate panel opens ---
    Action("checks.log", "checks", "enter,l", "log", "Log",
           "The highlighted check's full log.", priority=True),
    Action("diff.next_file", "diff", "n", "next_file", "Next file",
           "Move to the next file of the diff."),
    Action("diff.previous_file", "diff", "p", "previous_file", "Previous file",
           "Move to the previous file of the diff."),
    Action("diff.comment", "diff", "c", "comment", "Comment",
           "Comment on the line under the cursor (several lines; Ctrl-S keeps it); on a line"
           " that has a held comment, edit it. Held until sent."),
    Action("diff.uncomment", "diff", "x", "uncomment", "Remove",
           "Remove the held comment on the line under the cursor."),
    Action("diff.send_comments", "diff", "s", "send_comments", "Send",
           "Send every held comment to the attempt's writer as one prompt (each with its file,"
           " line and the lines around it, in the order of the diff)."),
    # --- the review screen (tui/screens/review.py) ---
    Action("review.start", "review", "s", "start", "Start review",
           "Launch a fresh reviewer session on a read-only checkout of the submitted commit."),
    Action("review.dispose", "review", "d", "dispose", "Dispose",
           "Decide about the highlighted blocking issue: accept (the worker fixes it), reject or"
           " defer, with a reason."),
    Action("review.override", "review", "o", "override", "Override",
           "Set the current commit's review aside, with a reason (yours alone)."),
    Action("review.approve", "review", "a", "approve", "Approve",
           "Approve integrating the verified commit as it is now: bound to its SHA, the card"
           " version and the evidence, used once."),
    Action("review.close", "review", "escape", "close", "Close", "Back to the workbench.",
           priority=True),
)

BY_ID = {a.id: a for a in ACTIONS}


def for_scope(scope: str) -> list[Action]:
    return [a for a in ACTIONS if a.scope == scope]


def bindings(*scopes: str) -> list[Binding]:
    """The Textual bindings of these scopes, for a widget's BINDINGS."""
    return [a.binding() for s in scopes for a in for_scope(s)]


def find(scope: str, method: str) -> Action | None:
    """The registry entry for a method (with or without parameters) in a scope."""
    for a in ACTIONS:
        if a.scope == scope and (a.method == method or a.name == method):
            return a
    return None


def check(node, action: str, params: tuple[object, ...]) -> bool | None:
    """`check_action` for a screen whose keys are the registry scope `node.SCOPE`: True when it
    can run, None (dimmed; pressing it says why) when `node.why_disabled` gives a reason."""
    if find(node.SCOPE, action) is None:
        return True
    return None if node.why_disabled(action, params) else True
