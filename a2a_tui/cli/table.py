"""Every `a2a` command as data: one table drives the parsers (built for the one command run, so
`a2a CMD` imports CMD's module alone), the grouped `a2a --help`, the did-you-mean of a mistyped
command, and the generated reference (docs/reference/cli.md).

Adding a command: one `Command` entry in the group it belongs to (the groups of `a2a --help`,
in the order a person meets them; git's `git help` is the model), its function in a
`cli/*_cmds.py` module, and a row in the role table (gate/roles.py) and the broker's lists
(broker/commands.py); tests/test_cli_table.py, tests/gate/test_gate_roles_every_command.py and
tests/broker/test_broker_commands.py fail until each is there. A subcommand comes right after
its parent, whose `subs` names the attribute that holds it. Values another module owns (the
CLIs, a help text computed from a view list) are `Ref`s into the command's own module: read
when its parser is built, never when the table is imported. The seeds' rules' options and
commands: cli/seed_args.py."""

from __future__ import annotations

from pathlib import Path

from a2a_tui.cli.seed_args import APPROVE_ARGS, FORCE, LEASE, PROFILE, SELF_CHECK, SPOT_CHECK
from a2a_tui.cli.spec import Command, OneOf, Ref, Subs, arg

START = "start and look around"
GATE = "tasks through the gate"
TALK = "talk to the controllers and answer the board"
SESSIONS = "sessions and panes"
RECORD = "the record and metrics"
GROUPS = (START, GATE, TALK, SESSIONS, RECORD)

TMUX_SOCKET_HELP = ("tmux server (-L NAME); default: $A2A_TMUX_SOCKET, else a2a's own server"
                    " (-L a2a), never your default one")
TMUX = arg("--tmux-socket", metavar="NAME", help=TMUX_SOCKET_HELP)
TMUX_SHORT = arg("--tmux-socket", metavar="NAME", help="tmux server (-L NAME)")
MODEL = arg("--model", default="", help="the model, passed to the CLI")
EFFORT = arg("--effort", default="", help="the reasoning effort, passed to the CLI")
CARD = arg("card", help="the card's id, e.g. T-1")
ATTEMPT = arg("attempt", help="the attempt's id, e.g. T-1-a1")
IN_WORKTREE = arg("--attempt", metavar="A", help="work in the attempt's worktree, as its writer")
SESSION_ID = arg("--session", metavar="ID", help="the session id (default: from the role)")
SCORE_HELP = ("boundary=N:\"reason\" and taste=N:\"reason\", each 0-3 with a reason; both"
              " required")
ROLE_HELP = "ideation | executive | worker | reviewer"
ITEM_FLAGS = (arg("--blocking", action="store_true",
                  help="the work cannot go on without it (only the user closes it)"),
              arg("--category", default="other",
                  help="permission | scope | acceptance | security | irreversible | other"))
BRANCH_REASON = (arg("branch", help="the target branch (e.g. main)"),
                 arg("--reason", required=True, help="why: recorded with your decision"))
U_ID = arg("id", help="its id, U-<n>")
ITEM_ID = arg("id", help="its id, Q-<n> or F-<n>")
# `a2a spawn` and `a2a session new` take a positional ROLE and hand everything after `--` to
# the CLI: argparse alone cannot, so their parser class splits the arguments first.
SPLIT_AT_DASHES = "pane_cmds:split_at_dashes"

TABLE: tuple[Command, ...] = (
    # --- start and look around ----------------------------------------------------------
    Command("init", "create .a2a/ in a git repository", "base_cmds:cmd_init", group=START,
            example="a2a init", args=(
                arg("--target", metavar="BRANCH", help="target branch (default: the current one)"),
                arg("--adopt-pid-namespace", action="store_true",
                    help="make this terminal's PID namespace a2a's (after it changed, e.g. a"
                         " restarted container)"),
                arg("--new-store", action="store_true",
                    help="start a new, empty record where this repository's store is missing"
                         " (the old one's id is kept in the new one's first event)"))),
    Command("up", "open (or re-attach to) the repository's tmux session: the workbench beside"
            " the agents", "tui_cmds:cmd_up", group=START, example="a2a up", args=(
                TMUX, arg("--no-attach", action="store_true",
                          help="start what is missing, print how to attach, and return"))),
    Command("demo", "a guided demo in a temporary repository: no agent CLI or API key needed",
            "tui_cmds:cmd_demo", group=START, example="a2a demo", args=(
                TMUX, arg("--no-attach", action="store_true",
                          help="set everything up and return (for scripts); attach later"),
                arg("--dir", metavar="PATH", help="where to build the sample repository"
                    " (default: a new temporary folder)"))),
    Command("status", "cards, attempts and sessions at a glance", "base_cmds:cmd_status",
            group=START, example="a2a status"),
    Command("whoami", "who a2a takes you for (from the process tree, not the environment)",
            "collab_cmds:cmd_whoami", group=START),
    Command("rules", "the rules for a role (or a command); default: the caller's role",
            "collab_cmds:cmd_rules", group=START, args=(
                arg("topic", nargs="*", metavar="ROLE|COMMAND",
                    help="a role (ideation, executive, worker, reviewer) or a command, in one or"
                         " more words (review verdict)"),)),
    Command("doctor", "which of a2a's protections are in force here, and what sets each",
            "doctor_cmds:cmd_doctor", group=START),
    # `a2a config` alone shows, as `a2a config show` does.
    Command("config", "the settings in force: defaults, your file, the repository's",
            "config_cmds:cmd_config_show", group=START,
            subs=Subs("config_command", "SUBCOMMAND", required=False)),
    Command("config show", "print every setting with the file it came from (default, your"
            " ~/.config/a2a/config.toml, or the repository's .a2a/config.toml)",
            "config_cmds:cmd_config_show"),
    Command("down", "end the repository's a2a tmux session: the orchestrator, the agents, the"
            " workbench (worktrees and the store stay)", "tui_cmds:cmd_down", group=START, args=(
                TMUX, arg("--yes", action="store_true",
                          help="do not ask, even when agents are at work (for scripts)"))),
    Command("workbench", "the workbench app in this terminal (`a2a up` runs it in tmux)",
            "tui_cmds:cmd_workbench", group=START, args=(
                TMUX, arg("--no-orchestrator", action="store_true",
                          help="a view only: do not host the orchestrator (`a2a up` runs it in a"
                               " window of its own)"))),

    # --- tasks through the gate ---------------------------------------------------------
    Command("card", "task cards", group=GATE, example="a2a card new", subs=Subs("card_cmd")),
    Command("card new", "write a card in $EDITOR from a commented template, and add it",
            "card_cmds:cmd_card_new", args=(
                arg("--title", default="", help="the card's title (default: the goal's first"
                    " line)"),
                arg("--file", type=Path, metavar="PATH",
                    help="the file to write and edit (default: .a2a/cards/new-<n>.toml); an"
                         " existing one is edited as it is"),
                arg("--ready", action="store_true", help="also confirm it ready once added"),
                arg("--no-edit", action="store_true",
                    help="write the template and say where; add it later with `a2a card add`"),
                arg("--print", action="store_true", dest="print_only",
                    help="print the template and write nothing"))),
    Command("card edit", "edit a card's current version in $EDITOR, and add the result",
            "card_cmds:cmd_card_edit", args=(CARD,)),
    Command("card add", "add or update a card from a TOML file", "card_cmds:cmd_card_add",
            args=(arg("file", type=Path, help="the card's TOML file"),)),
    Command("card show", "show a card", "card_cmds:cmd_card_show", args=(CARD,)),
    Command("card ready", "confirm a card's current version as ready", "card_cmds:cmd_card_ready",
            args=(CARD,)),
    Command("card list", "list cards", "card_cmds:cmd_card_list"),
    Command("claim", "claim a ready card: attempt, fence, worktree", "gate_cmds:cmd_claim",
            group=GATE, example="a2a claim T-1", args=(arg("card", help="the ready card's id"),
                arg("--writer", metavar="SESSION", help="who will write (default: the caller)"),
                arg("--supersede", action="store_true", help="take over from the card's active"
                    " attempt (fences it out)"), FORCE, arg("--again", action="store_true",
                    help="claim a card whose work was integrated already"))),
    Command("submit", "submit a commit as the attempt's candidate", "gate_cmds:cmd_submit",
            group=GATE, example="a2a submit T-1-a1 --sha <sha> --card-version 1 --fence 1",
            args=(
                ATTEMPT, arg("--sha", required=True, help="the candidate commit (full SHA)"),
                arg("--card-version", type=int, required=True,
                    help="the card version you worked to (stale: refused)"),
                arg("--fence", type=int, required=True,
                    help="the attempt's fence from `a2a claim` (superseded: refused)"),
                arg("--unresolved", action="append", metavar="TEXT",
                    help="something left open, kept with the candidate (repeatable)"),
                *SELF_CHECK)),
    Command("verify", "run the check chain on the submitted SHA", "gate_cmds:cmd_verify",
            group=GATE, example="a2a verify T-1-a1", args=(ATTEMPT,)),
    Command("log", "print the full log of a check of an attempt's verify", "gate_cmds:cmd_log",
            group=GATE, args=(
                arg("attempt", help="the attempt (T-1-a1)"),
                arg("check", nargs="?", help="the check's name (default: the first that failed"
                    " and wrote a log, else the last that wrote one)"),
                arg("--run", type=int, metavar="N",
                    help="the verify run (default: the last)"))),
    Command("diff", "an attempt's diff from its start commit to its candidate (else its branch)",
            "read_cmds:cmd_diff", group=GATE,
            args=(arg("attempt", metavar="ATTEMPT", help="the attempt (T-1-a1)"),)),
    Command("show", "an attempt's head commit (its message and changed files), or one file of"
            " it: ATTEMPT:PATH", "read_cmds:cmd_show", group=GATE, args=(
                arg("target", metavar="ATTEMPT[:PATH]",
                    help="the attempt, and a file of its head commit after a colon"),)),
    # Its parser answers the form before reports (`a2a review ATTEMPT --verdict ...`) by
    # naming what replaced it, rather than argparse's "invalid choice".
    Command("review", "independent review of a candidate SHA", group=GATE,
            example="a2a review start T-1-a1 --cli codex", subs=Subs("review_cmd"),
            description="Launch a reviewer on the submitted SHA, record its report, dispose of"
                        " its blocking issues, or (the user) override it.",
            parser_class="review_cmds:naming_the_new_form"),
    Command("review start", "launch a fresh reviewer session on a read-only checkout of the SHA",
            "review_cmds:cmd_start", args=(
                arg("attempt", help="the attempt whose submitted SHA is reviewed (T-1-a1)"),
                arg("--cli", default="claude", help="the reviewer's CLI (default: claude)"),
                MODEL, EFFORT, TMUX_SHORT)),
    Command("review verdict", "(the reviewer) submit the report, ending in its verdict block",
            "review_cmds:cmd_verdict", args=(
                arg("attempt", help="the attempt under review"),
                arg("--sha", required=True, help="the candidate SHA the verdict is bound to"),
                arg("--file", required=True, metavar="REPORT.md",
                    help="the Markdown report, ending with its ```verdict block"))),
    Command("review dispose", "(executive controller or user) decide about a blocking issue",
            "review_cmds:cmd_dispose", args=(
                arg("attempt", help="the attempt whose review names the issue"),
                arg("issue", metavar="ISSUE", help="the blocking issue's id in the report (B1)"),
                OneOf((arg("--accept", dest="decision", action="store_const", const="accept",
                           help="it blocks: the worker fixes it in a new submission"),
                       arg("--reject", dest="decision", action="store_const", const="reject",
                           help="it does not block (say why)"),
                       arg("--defer", dest="decision", action="store_const", const="defer",
                           help="not now (say why and where it is tracked)")), required=True),
                arg("--reason", default="", help="why (required for --reject and --defer)"))),
    Command("review override", "(the user) set the current SHA's review aside, with a reason",
            "review_cmds:cmd_override", args=(
                arg("attempt", help="the attempt whose current SHA's review is set aside"),
                arg("--reason", required=True, help="why, recorded as your input"))),
    Command("review show", "an attempt's reviews, issues, approvals", "review_cmds:cmd_show",
            args=(arg("attempt", help="the attempt (T-1-a1)"),)),
    # One positional list: `comment ATTEMPT ...` and `comment list|edit|remove|send ...` share
    # the first word, which argparse's subcommands cannot (comment_cmds.py reads the words).
    Command("comment", "comment on a line of an attempt's diff; list, edit or remove the held"
            " comments; send them to its writer as one prompt", "comment_cmds:cmd_comment",
            group=GATE, usage=Ref("comment_cmds:USAGE"), args=(
                arg("words", nargs="+", metavar="ATTEMPT | list|edit|remove|send ...",
                    help="the attempt to comment on, or what to do with held comments"),
                arg("--file", metavar="F", help="the file (as the diff names it)"),
                arg("--line", metavar="N",
                    help="the line in the file as the diff's head has it"),
                arg("--text", metavar="TEXT", help="the comment (- reads it from stdin)"),
                arg("--all", action="store_true", help="list: sent and removed ones too"))),
    Command("approve", "(the user) approve integrating the verified candidate as it is now",
            "review_cmds:cmd_approve", group=GATE, args=APPROVE_ARGS),
    Command("integrate", "advance the target branch to the verified SHA (compare-and-swap)",
            "gate_cmds:cmd_integrate", group=GATE,
            example='a2a integrate T-1-a1 --score boundary=3:"in scope" --score taste=2:"clear"',
            args=(arg("attempt", help="the verified attempt's id"),
                  arg("--score", action="append", metavar='DIM=N:"REASON"', help=SCORE_HELP))),
    Command("abandon", "end an attempt without integrating it", "gate_cmds:cmd_abandon",
            group=GATE, args=(
                arg("attempt", help="the attempt's id"),
                arg("--score", action="append", metavar='DIM=N:"REASON"',
                    help=SCORE_HELP + " (not for an attempt that never submitted)"),
                arg("--reason", default="", help="why it is abandoned (recorded)"), FORCE)),
    Command("reclaim", "remove clean worktrees of ended attempts, keeping their commits",
            "gate_cmds:cmd_reclaim", group=GATE, args=(
                arg("attempt", nargs="?", help="only this attempt (default: all ended)"), FORCE)),
    LEASE, SPOT_CHECK, *PROFILE,
    Command("feedback", "automatic rejection feedback", group=GATE, subs=Subs("feedback_cmd")),
    Command("feedback more", "(user) grant an attempt more rounds of automatic feedback",
            "contract_cmds:cmd_feedback_more", args=(
                arg("attempt", help="the attempt whose automatic feedback stopped (T-1-a1)"),
                arg("--rounds", type=int, required=True, metavar="N",
                    help="how many more rejections get automatic feedback (1 to 100)"))),
    Command("gate-rules", "the gate rules in force (.a2a/gate.toml, as you accepted it) and their"
            " digest, and what changed in the rule files since", "contract_cmds:cmd_gate_rules",
            group=GATE, defaults={"gate_rules_cmd": None},
            subs=Subs("gate_rules_cmd", "SUBCOMMAND", required=False)),
    Command("gate-rules accept", "put .a2a/gate.toml and .a2a/config.toml as they are now in"
            " force (yours alone; recorded with the diff)", "contract_cmds:cmd_gate_rules_accept"),
    Command("target", "the gate's view of a target branch; adopt or restore a moved one",
            group=GATE, subs=Subs("target_cmd")),
    Command("target show", "where the gate last left the branch, and where it is",
            "target_cmds:cmd_target_show",
            args=(arg("branch", nargs="?", help="default: the configured target branch"),)),
    Command("target adopt", "(user) make a moved branch's current head the gate's baseline",
            "target_cmds:cmd_target_adopt", args=BRANCH_REASON),
    Command("target restore", "(user) move a moved branch back to the gate's baseline",
            "target_cmds:cmd_target_restore", args=BRANCH_REASON),
    Command("recover", "resolve operations a crash left half-done, from facts",
            "base_cmds:cmd_recover", group=GATE),
    Command("resolve", "(user) decide what an attempt whose outcome is unknown was",
            "target_cmds:cmd_resolve", group=GATE, args=(
                arg("attempt", help="the `unknown` attempt (e.g. T-1-a2)"),
                arg("--as", dest="as_", required=True, choices=Ref("target_cmds:RESOLUTIONS"),
                    help="what you found: the target holds the SHA (integrated), does not"
                         " (not-applied), or end the attempt without counting it (abandoned)"),
                arg("--reason", required=True, help="what you looked at and saw"))),

    # --- talk to the controllers and answer the board -------------------------------------
    Command("say", "(user) a message to the ideation controller, recorded as U-<n>",
            "collab_cmds:cmd_say", group=TALK, example='a2a say "T-2 can wait until Monday"',
            args=(arg("text", help="what you say"),
                  arg("--kind", default="message", help=Ref("collab_cmds:kind_help", call=True)))),
    Command("board", "questions to the user, and findings", group=TALK,
            example="a2a board answer Q-1 --adopt", subs=Subs("board_cmd")),
    Command("board ask", "(controllers) ask the user a question", "collab_cmds:cmd_board_ask",
            args=(arg("--title", required=True, help="the question, in one line"),
                  arg("--option", action="append", default=[], metavar="KEY=TEXT", required=True,
                      help="an answer to choose (two or more)"),
                  arg("--recommend", required=True, metavar="KEY",
                      help="the option you recommend"),
                  arg("--why", required=True, help="why you recommend it"),
                  arg("--body", default="", help="more context, if needed"), *ITEM_FLAGS)),
    Command("board report", "report a problem outside your scope", "collab_cmds:cmd_board_report",
            args=(arg("--title", required=True, help="the problem, in one line"),
                  arg("--body", required=True,
                      help="what you saw, where, and why it matters"), *ITEM_FLAGS)),
    Command("board list", "items, answers and closures", "collab_cmds:cmd_board_list",
            args=(arg("--open", action="store_true", help="text view: only items not closed"),)),
    Command("board show", "one item with its answers and closures", "collab_cmds:cmd_board_show",
            args=(ITEM_ID,)),
    Command("board close", "close an item, with a reason", "collab_cmds:cmd_board_close",
            args=(ITEM_ID, arg("--reason", required=True, help="why it is closed"))),
    Command("board answer", "(user) answer an item", "collab_cmds:cmd_board_answer", args=(
        ITEM_ID, arg("--option", metavar="KEY", help="answer with this option"),
        arg("--adopt", action="store_true", help="take the recommended option"),
        arg("--text", help="answer in your own words (with --option: added to it)"),
        arg("--hold", action="store_true",
            help="record now, deliver later with `a2a board send` (batched)"))),
    Command("board send", "(user) deliver held answers: one prompt per asking session",
            "collab_cmds:cmd_board_send",
            args=(arg("--session", help="only the answers to this session"),)),
    Command("inbox", "the inbox between the ideation and executive controllers", group=TALK,
            subs=Subs("inbox_cmd")),
    Command("inbox post", "append an entry", "collab_cmds:cmd_inbox_post", args=(
        arg("kind", help="assign | revise | stop | report | ack | disposition"),
        arg("--text", required=True, help="the entry's text"),
        arg("--card", help="the card it is about"),
        arg("--status", help="reports: PASS | INCOMPLETE | BLOCKED | NO_GO"),
        arg("--ref", metavar="ENTRY", help="the earlier entry this one points at"),
        arg("--quote", help="the user's words, verbatim, from --user-input"),
        arg("--user-input", metavar="U-n", help="the user input the quote comes from"))),
    Command("inbox list", "every entry, oldest first", "collab_cmds:cmd_inbox_list",
            args=(arg("--card", help="only entries about this card"),)),
    Command("inbox show", "one entry and what points at it", "collab_cmds:cmd_inbox_show",
            args=(arg("id", help="its id, I-<n>"),)),
    Command("attention", "what waits for you: open questions, waiting and stalled panes,"
            " rejections and feedback stops you have not seen", "session_cmds:cmd_attention",
            group=TALK, args=(arg("--seen", action="store_true",
                                  help="mark the rejections and stops so far as seen"),)),
    Command("input", "user input records (U-<n>)", group=TALK, subs=Subs("input_cmd")),
    Command("input list", "every user input, oldest first", "collab_cmds:cmd_input_list"),
    Command("input show", "one user input", "collab_cmds:cmd_input_show", args=(U_ID,)),
    Command("input confirm", "confirm that text typed into a pane (U-<n>, source pane) was yours:"
            " only then can it authorize", "collab_cmds:cmd_input_confirm", args=(U_ID,)),

    # --- sessions and panes ---------------------------------------------------------------
    Command("session", "start, restart or end a managed session (each is your input)",
            group=SESSIONS, example="a2a session new worker --cli claude --attempt T-1-a1"
            " --assign", subs=Subs("session_command", "SUBCOMMAND")),
    Command("session new", "start a session of ROLE in a new tmux pane; what you do not give"
            " comes from [roles.ROLE] of your config", "session_cmds:cmd_new", args=(
                arg("role", help=ROLE_HELP),
                arg("--cli", help="claude | codex | gemini | demo (default: roles.ROLE.cli)"),
                arg("--model", help="the model (default: roles.ROLE.model, else the CLI's)"),
                arg("--effort", help="reasoning effort (default: roles.ROLE.effort)"),
                IN_WORKTREE, SESSION_ID,
                arg("--assign", action="store_true",
                    help="with --attempt: its first prompt is its task (the card, the checks,"
                         " the command that delivers)"), TMUX),
            epilog="Options after `--` are passed to the CLI as they are (default:"
                   " roles.ROLE.options).",
            defaults={"extra": None}, parser_class=SPLIT_AT_DASHES),
    Command("session restart", "start an exited session again: same id, role, attempt, CLI and"
            " options; a new launch; its queued prompts follow", "session_cmds:cmd_restart",
            args=(arg("session", help="the exited session's id"),)),
    Command("session revive", "start an exited session again on its CLI's own conversation (same"
            " id and folder, a new launch; its queue follows); a CLI that cannot resume starts"
            " afresh, and says so", "session_cmds:cmd_revive",
            args=(arg("session", help="the exited session's id"),)),
    Command("session fork", "a new session on a copy of a session's conversation: same role, CLI"
            " and options, its own id and launch, bound to no attempt", "session_cmds:cmd_fork",
            args=(arg("session", help="the session to fork (running or exited)"),
                  arg("--as", dest="new_id", metavar="ID", help="the new session's id"), TMUX)),
    Command("session end", "end a session: its pane is closed, it is recorded as ended by you;"
            " its queue is kept", "session_cmds:cmd_end", args=(
                arg("session", help="the session's id"),
                arg("--yes", action="store_true",
                    help="do not ask, even when it is at work"))),
    Command("sessions", "managed sessions and their panes", "pane_cmds:cmd_sessions",
            group=SESSIONS),
    Command("inject", "queue a prompt for a session's pane", "pane_cmds:cmd_inject",
            group=SESSIONS, example='a2a inject w1 "run the tests again"', args=(
                arg("session", help="the session's id"),
                arg("text", help="the prompt, or - to read it from stdin"))),
    Command("pause", "hold deliveries to a pane", "pane_cmds:cmd_pause", group=SESSIONS,
            args=(arg("session", nargs="?", help="the session's id (or --all)"),
                  arg("--all", action="store_true",
                      help="every session that has not exited"))),
    Command("resume", "deliver again", "pane_cmds:cmd_resume", group=SESSIONS,
            args=(arg("session", nargs="?", help="the session's id (or --all)"),
                  arg("--all", action="store_true",
                      help="every session that has not exited"))),
    Command("release", "declare a busy pane idle (after Esc, which sends no signal)",
            "pane_cmds:cmd_release", group=SESSIONS, example="a2a release w1",
            args=(arg("session", help="the session's id"),)),
    Command("spawn", "start a managed agent session in a new tmux pane", "pane_cmds:cmd_spawn",
            group=SESSIONS, args=(
                arg("role", help=ROLE_HELP),
                arg("--cli", required=True, choices=Ref("pane_cmds:CLIS"),
                    help="the agent CLI to start"),
                arg("--model", default="", help="the model (default: the CLI's)"),
                arg("--effort", default="", help="reasoning effort (default: the CLI's)"),
                IN_WORKTREE, SESSION_ID, TMUX,
                OneOf((arg("--resume", metavar="CONVERSATION",
                           help="go on with the CLI's own conversation (its session or thread"
                                " id)"),
                       arg("--fork", metavar="CONVERSATION",
                           help="go on with a copy of the CLI's conversation, under a new"
                                " id")))),
            epilog="Options after `--` are passed to the CLI as they are.",
            defaults={"extra": []}, parser_class=SPLIT_AT_DASHES),
    Command("serve", "run the orchestrator headless: ingest signals, deliver the queue",
            "pane_cmds:cmd_serve", group=SESSIONS, args=(TMUX,)),
    # Its arguments are the demo agent's own (`python -m a2a_tui.demo_agent` takes the same),
    # and its epilog is laid out by hand.
    Command("demo-agent", "an interactive stand-in for Claude Code / Codex (tests, demo)",
            "demo_agent_cmds:cmd_demo_agent", group=SESSIONS,
            description="The demo agent: a stand-in for Claude Code and Codex that speaks their"
                        " hook and notify protocols, for the demo and the tests, and in your own"
                        " repository without a model.",
            epilog=Ref("demo_agent_cmds:EPILOG"), raw_help=True,
            more_args="demo_agent_cmds:add_arguments"),
    Command("demo-director", "(internal) plays the demo's scenario in its tmux window",
            "tui_cmds:cmd_demo_director", group=SESSIONS, args=(TMUX,)),

    # --- the record and metrics -----------------------------------------------------------
    Command("events", "the event log", "base_cmds:cmd_events", group=RECORD,
            example="a2a events --tail 20", args=(
                arg("--after", type=int, default=0, metavar="SEQ",
                    help="only events after this sequence number"),
                arg("--limit", type=int, default=None, help="at most this many events"),
                arg("--kind", action="append", metavar="KIND",
                    help="only events of this kind (repeatable)"),
                arg("--task", help="only events of this card"),
                arg("--attempt", help="only events of this attempt"),
                arg("--session", help="only events of this session"),
                arg("--tail", type=int, metavar="N", help="only the last N events"))),
    Command("metrics", "model usage, first pass, attention, scores, per-task figures (from the"
            " event log)", "metrics_cmds:cmd_metrics", group=RECORD,
            example="a2a metrics first-pass --since 7d",
            description="Each view is computed from the raw events: usage (project > task >"
                        " attempt > session), first-pass (and rejections by step and code),"
                        " attention (every time you were needed, and how long it waited),"
                        " scores, tasks (the fair-comparison figures). No VIEW: all of them.",
            args=(arg("view", nargs="?", metavar="VIEW",
                      help=Ref("metrics_cmds:view_help", call=True)),
                  arg("--since", metavar="DATE|DURATION",
                      help="only what started since then: 7d, 12h, 2w or 2026-01-31[T09:00]"),
                  arg("--task", metavar="ID", help="only this task"))),
    # `a2a retro` alone launches one; `retro save` keeps what it wrote.
    Command("retro", "a retrospective: a session reads a period's figures and writes what they"
            " teach", "metrics_cmds:cmd_retro", group=RECORD,
            description="Builds a prompt from the period's views and notable events (rejections"
                        " with first errors, interventions, stalls), launches a retro session"
                        " with it and queues the prompt; `a2a retro save --file F` keeps what it"
                        " wrote.",
            subs=Subs("retro_command", "save", required=False), args=(
                arg("--since", metavar="DATE|DURATION", help="the period: 7d, 2w, 2026-01-31"),
                arg("--cli", default="claude", help="the CLI to run it (default: claude)"),
                MODEL, EFFORT, TMUX_SHORT)),
    Command("retro save", "keep a retrospective's text as an event", "metrics_cmds:cmd_retro_save",
            args=(arg("--file", required=True, metavar="FILE",
                      help="the retrospective (Markdown)"),
                  arg("--retro", metavar="R-N", help="which one (default: the caller's last)"))),
    Command("store", "check the record (hash chain, gate tables) and repair it", group=RECORD,
            example="a2a store verify", subs=Subs("store_cmd")),
    Command("store verify", "check every event's hash and every gate table against the log",
            "store_cmds:cmd_store_verify"),
    Command("store rebuild", "(user) write the gate's tables again from the log; lifts a freeze"
            " when the event chain is whole", "store_cmds:cmd_store_rebuild"),
    Command("store reseal", "(user) after looking at the events from the first bad one: accept"
            " them as they are, hash them again, rebuild, lift the freeze",
            "store_cmds:cmd_store_reseal",
            args=(arg("--reason", required=True, help="what you looked at and why it is right"),)),
    Command("store backup", "copy the record to a new file, whole, while a2a runs (SQLite's"
            " online backup)", "store_cmds:cmd_store_backup",
            args=(arg("path", metavar="PATH", help="the new file"),)),
    Command("store restore", "(user) put a backup of this repository's record in place of its"
            " store (kept aside in .a2a/replaced/): the newest good one of a2a's own backups, or"
            " FILE; no orchestrator may run", "store_cmds:cmd_store_restore",
            args=(
                arg("path", metavar="FILE", nargs="?", help="the backup (as --from FILE)"),
                arg("--from", dest="source", metavar="FILE",
                    help="the backup (default: the newest good one in .a2a/backups/)"))),
)
