"""Seed 003's acceptance walk with the real CLIs in every role (issue 28): the idea goes in as the
user's message to the ideation controller (Claude Code) and comes out integrated.

The fake model's scripted turns are the commands the role cards tell each role to use:
- the ideation controller (Claude Code) writes a card (its Write tool, in its session folder),
  adds it (`a2a card add`: the gate fills the id and source ticket), makes it ready and assigns
  it to the executive controller (`a2a inbox post assign`);
- the executive controller (Codex) claims it and starts a Claude Code worker on the attempt
  with its task (`a2a session new worker --attempt … --assign`); told of the submission in its
  pane, it verifies and starts a fresh reviewer (`a2a review start … --cli codex`); told of
  the verdict, it integrates with scores and reports to the ideation controller;
- the worker writes the file, commits, and runs the delivery command its task ends with;
- the reviewer (Codex) writes its report and runs the verdict command its prompt ends with.

The user's part: the message, and releasing the Codex reviewer's pane when its row says so (Codex
signals nothing before its first turn). The two Codex sessions run `workspace-write` in
their own folders (issue 35, finding 11: in `read-only` every `a2a` call needed the user's
approval in the pane), so no dialog is ever shown.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tomli_w

from tests.real_cli.fakemodel import Reply, Request
from tests.real_cli.harness import World, mark, provider_args, shell_call, write_call
from tests.real_cli.isolation import require
from tests.support import git, wait_until

require()
pytestmark = pytest.mark.real_cli

# Codex strips variables named like keys from its tools' environment by default; the worker it
# starts must get the Claude Code provider settings the user has (a user's own Codex option).
CODEX_ENV = ["-c", "shell_environment_policy.inherit=all",
             "-c", "shell_environment_policy.ignore_default_excludes=true"]


def card_toml(goal: str) -> str:
    return (f'goal = "{goal}"\n'
            'non_goals = ["nothing outside src/"]\n'
            'allowed_paths = ["src/**"]\n'
            'acceptance = ["src/hello.txt holds the one line hello"]\n'
            'artifacts = ["src/hello.txt"]\n\n'
            '[[checks]]\nname = "hello"\ncommand = \'test "$(cat src/hello.txt)" = hello\'\n')


def codex_runs(cmd: str) -> tuple[str, dict]:
    """A Codex shell call, inside its own sandbox: no escalation asked."""
    return shell_call("codex", cmd)


def command_in(req: Request, starts: str) -> str:
    """The line of the turn's prompt that starts with `starts` (the command it ends with; a CLI
    may add text of its own after the prompt)."""
    found = [ln.strip() for ln in req.text.splitlines() if ln.strip().startswith(starts)]
    assert found, f"no line starting {starts!r} in {req.text[-300:]!r}"
    return found[-1]


def script_ideation(w: World, idea: str, assign: str) -> None:
    # In its session's output folder: the one place under .a2a/ its confinement lets it write.
    draft = w.repo / ".a2a" / "run" / "idea1" / "out" / "card.toml"

    def ready(req: Request) -> Reply:
        found = re.search(r"card (T-\d+) v1 added", req.tool_results[-1])
        assert found, f"card add said: {req.tool_results[-1]!r}"
        return Reply(text="Ready.", tool=shell_call("claude", f"a2a card ready {found[1]}"))

    w.fm.script(
        idea,
        Reply(text="Writing the card.", tool=write_call(
            "claude", draft.parent, draft.name, card_toml("src/hello.txt says hello"))),
        Reply(text="Adding it.", tool=shell_call("claude", f"a2a card add {draft}")),
        ready,
        Reply(text="Handing it over.", tool=shell_call(
            "claude", f"a2a inbox post assign --card T-1 --text 'Please run T-1. {assign}'")),
        Reply(text="T-1 is with the executive controller."))


def script_executive(w: World, assign: str) -> None:
    w.fm.script(
        assign,
        Reply(text="Claiming.", tool=codex_runs("a2a claim T-1")),
        Reply(text="Starting a worker.", tool=codex_runs(
            "a2a session new worker --cli claude --attempt T-1-a1 --assign")),
        Reply(text="The worker is on T-1-a1."))
    w.fm.script(
        "T-1-a1 submitted",
        Reply(text="Verifying.", tool=codex_runs("a2a verify T-1-a1")),
        Reply(text="A fresh review.", tool=codex_runs("a2a review start T-1-a1 --cli codex")),
        Reply(text="Waiting for the review."))
    w.fm.script(
        "The review of T-1-a1",
        Reply(text="Integrating.", tool=codex_runs(
            "a2a integrate T-1-a1 --score 'boundary=3:stayed in src'"
            " --score 'taste=3:one small file'")),
        Reply(text="Reporting.", tool=codex_runs(
            "a2a inbox post report --status PASS --card T-1 --text 'T-1 is integrated.'")),
        Reply(text="Done."))


def script_worker(w: World, work: str) -> None:
    wt = w.repo / ".a2a" / "worktrees" / "T-1-a1"

    def submit(req: Request) -> Reply:
        shas = re.findall(r"\b[0-9a-f]{40}\b", req.tool_results[-1])
        assert shas, f"no SHA in {req.tool_results[-1]!r}"
        return Reply(text="Delivering.",
                     tool=shell_call("claude", command_in(req, "a2a submit ")
                                     .replace("<SHA>", shas[-1])))

    w.fm.script(
        work,
        Reply(text="Writing.", tool=write_call("claude", wt, "src/hello.txt", "hello\n")),
        Reply(text="Committing.", tool=shell_call(
            "claude", "git add -A && git commit -q -m 'Say hello'")),
        Reply(text="Its SHA.", tool=shell_call("claude", "git rev-parse HEAD")),
        submit,
        Reply(text="Submitted."))


def script_reviewer(w: World) -> None:
    def report(req: Request) -> Reply:
        path = Path(command_in(req, "a2a review verdict ").split(" --file ", 1)[1])
        return Reply(text="My report.", tool=write_call(
            "codex", path.parent, path.name, "# Review\n\nsrc/hello.txt says hello.\n\n"
            "```verdict\nverdict = \"pass\"\nrecommends_follow_up = false\n```\n"))

    w.fm.script(
        "a2a review verdict T-1-a1",
        report,
        lambda req: Reply(text="Submitting the verdict.",
                          tool=shell_call("codex", command_in(req, "a2a review verdict "))),
        Reply(text="Reviewed."))


def explain(w: World) -> str:
    """For a failure: the events, each session's screen, the model's last turns."""
    events = "\n".join(f"{e.seq} {e.kind} {e.actor} {e.payload}"[:300] for e in w.events())
    screens = "\n".join(f"--- {sid} ({s['state']}) ---\n{w.screen(s['pane'] or '')}"
                        for sid, s in w.sessions().items())
    turns = "\n".join(f"{r.api} {r.text[-160:]!r} -> {(r.tool_results or [''])[-1][:200]!r}"
                      for r in w.fm.turns()[-15:])
    return f"events:\n{events}\n{screens}\nmodel turns:\n{turns}"


def test_an_idea_from_the_user_comes_out_integrated_with_real_clis_in_every_role(fresh_world):
    w, panes = fresh_world, []
    idea, assign = mark("IDEA"), mark("ASSIGN")
    script_ideation(w, idea, assign)
    script_executive(w, assign)
    script_worker(w, "Your task: attempt T-1-a1")   # how a worker's task begins
    script_reviewer(w)
    # The options a user with a custom provider gives their Codex reviewers (the executive's
    # `a2a review start … --cli codex` passes none of its own).
    own = w.home / ".config" / "a2a" / "config.toml"
    own.parent.mkdir(parents=True, exist_ok=True)
    own.write_text(tomli_w.dumps({"roles": {"reviewer": {
        "cli": "codex", "options": provider_args("codex", w.fm)}}}))
    w.start(panes, "claude", role="ideation", timeout=60)
    w.start(panes, "codex", *CODEX_ENV, f"say hello {mark('HELLO')}", role="executive",
            timeout=60)
    exec_pane = w.sessions()["exec1"]["pane"]

    said = w.a2a("say", f"Please make src/hello.txt say hello. {idea}", "--json")
    assert said.code == 0, said.out + said.err

    def state() -> str | None:
        rows = w.store().all("SELECT state FROM attempts WHERE id = 'T-1-a1'")
        return rows[0]["state"] if rows else None

    # The user looks at the Codex pane when it waits for them, and approves: `p` approves the
    # command and every later one that starts with `a2a` (its prefix rule).
    approvals: list[str] = []
    enters: list[str] = []
    releases: list[str] = []

    def integrated_or_approved() -> bool:
        if state() == "integrated":
            return True
        if (w.session("exec1")["state"] == "waiting"
                and "Would you like to run" in w.screen(exec_pane)):
            w.keys(exec_pane, "p")
            approvals.append(w.screen(exec_pane))
            wait_until(lambda: w.session("exec1")["state"] != "waiting", timeout=20,
                       what="the approval taken")
        # Under load a Claude Code pane may not take the Enter after a paste: a2a says so on
        # the pane's row ("not seen submitted … look at the pane") and never presses it again;
        # the user does, as docs/how-to/real-clis.md says (counted and reported).
        for sid, s in w.sessions().items():
            # A Codex session signals nothing before its first turn: the reviewer's prompt waits
            # until the user releases the pane, as its row's hint says (docs/how-to/real-clis.md).
            if s["hint"] and "Codex signals nothing" in s["hint"] and sid not in releases:
                released = w.a2a("release", sid)
                assert released.code == 0, released.out + released.err
                releases.append(sid)
            if s["hint"] and "not seen submitted" in s["hint"] and s["pane"]:
                w.keys(s["pane"], "Enter")
                enters.append(sid)
                wait_until(lambda sid=sid: "not seen submitted" not in
                           (w.sessions()[sid]["hint"] or ""), timeout=30,
                           what=f"{sid}'s prompt submitted")
        return False

    try:
        wait_until(integrated_or_approved, timeout=600, interval=1, what="T-1-a1 integrated")
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{explain(w)}") from None
    assert approvals == [], f"the user was asked {len(approvals)} times:\n{approvals[0]}"
    print(f"real-CLI walk: 1 message, {len(approvals)} approvals, {len(releases)} release"
          f" ({', '.join(releases) or 'none'}), and {len(enters)} Enter"
          f" in a pane that did not take a2a's ({', '.join(enters) or 'none'})")
    sha = w.store().all("SELECT submitted_sha FROM attempts")[0]["submitted_sha"]
    assert git(w.repo, "rev-parse", "main") == sha
    assert git(w.repo, "show", "main:src/hello.txt") == "hello"
    # Who did what: the card from the ideation controller, its source the user's words.
    card = w.a2a("card", "show", "T-1", "--json").json
    assert card["body"]["source_ticket"] == said.json["id"]
    actors = {e.kind: e.actor for e in w.events("card_added", "card_ready", "claimed",
                                                 "submitted", "reviewed", "integrated")}
    assert actors == {"card_added": "session:idea1", "card_ready": "session:idea1",
                      "claimed": "session:exec1", "submitted": "session:w1",
                      "reviewed": "session:r1", "integrated": "session:exec1"}, actors
