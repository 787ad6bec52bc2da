"""What each role may do, per CLI: the launch arguments that enforce it, and a line saying it.

Measured against the pinned CLIs (tests/real_cli/FINDINGS.md, "Permission layers"):

- A worker edits and commits in its worktree and runs `a2a` without being asked.
- A reviewer and the controllers (ideation, executive) change no file: they read, run `a2a` and
  read-only git commands, and write only in their own session folder (a review report, a task
  card draft).

Codex's sandbox cannot serve a session that runs `a2a`: its commands run in a PID namespace of
their own, with no terminal, so a2a cannot follow the process tree back to the pane and takes
the caller for the user (`a2a whoami` answers "the user"); and its workspace-write mode makes a
linked worktree's git directory (in the main repository's `.git/worktrees/`) read-only. A
Codex worker therefore runs without a sandbox (`danger-full-access`, never asking), which is
recorded as such; Codex's read-only roles keep the read-only sandbox, and their `a2a` calls run
outside it only when the user approves them in the pane (Codex asks, its PermissionRequest hook
makes the pane `waiting`, and the approved command runs as the session's own child).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

WRITERS = ("worker",)
# Read-only git commands a reviewer or controller may run without being asked.
GIT_READS = ("git diff", "git log", "git show", "git status")


@dataclass(frozen=True)
class Permissions:
    """The arguments a launch passes for the role, what they mean, and files they name."""

    args: tuple[str, ...]
    description: str
    files: dict[str, str] = field(default_factory=dict)   # name in run_dir -> content

    def applied(self, extra: tuple[str, ...], overriding: tuple[str, ...]
                ) -> tuple[tuple[str, ...], dict]:
        """(the arguments to pass, the launch record's entry). When the user's own options after
        `--` set permissions, theirs apply alone: some CLIs refuse an option given twice
        (Gemini CLI exits on two `--approval-mode`), and half of each would mean neither."""
        mine = [a for a in extra if a.split("=", 1)[0] in overriding
                or any(a.startswith(f"{k}=") for k in overriding)]
        if mine:
            return (), {"args": [], "description": "the user's own permission options",
                        "overridden_by": mine, "instead_of": list(self.args)}
        return self.args, {"args": list(self.args), "description": self.description}


def claude(role: str, run_dir: Path) -> Permissions:
    """Claude Code: a permission mode and allow rules (deny rules would win over any allow)."""
    if role in WRITERS:
        return Permissions(
            ("--permission-mode", "acceptEdits", "--allowedTools", "Bash(git *),Bash(a2a *)"),
            "edits files in its worktree and runs git and a2a without asking; other commands"
            " ask the user")
    # dontAsk refuses, without a dialog, every tool call no rule allows; `Edit(//path/**)`
    # covers the Write tool too.
    allowed = ["Read", "Grep", "Glob", "Bash(a2a *)", *(f"Bash({g} *)" for g in GIT_READS),
               f"Edit(/{run_dir}/**)"]
    return Permissions(
        ("--permission-mode", "dontAsk", "--allowedTools", ",".join(allowed)),
        f"reads files, runs a2a and read-only git commands, writes only in {run_dir};"
        " everything else is refused without asking")


CLAUDE_OVERRIDES = ("--permission-mode", "--allowedTools", "--allowed-tools",
                    "--disallowedTools", "--disallowed-tools", "--dangerously-skip-permissions")


def codex(role: str) -> Permissions:
    """Codex: sandbox mode and approval policy, for this invocation only (`-c`)."""
    if role in WRITERS:
        return Permissions(
            ("-c", 'sandbox_mode="danger-full-access"', "-c", 'approval_policy="never"'),
            "no sandbox and never asks: Codex's sandbox hides the process tree from a2a (the"
            " session would be taken for the user) and makes the worktree's git directory"
            " read-only")
    return Permissions(
        ("-c", 'sandbox_mode="read-only"', "-c", 'approval_policy="on-request"'),
        "read-only sandbox: no command can write; a2a (whatever writes) runs outside it only"
        " when the user approves it in the pane")


CODEX_OVERRIDES = ("sandbox_mode", "approval_policy", "--sandbox", "-s", "--ask-for-approval",
                   "-a", "--full-auto", "--dangerously-bypass-approvals-and-sandbox", "--yolo")

GEMINI_POLICY = "gemini-policy.toml"


def gemini(role: str, run_dir: Path) -> Permissions:
    """Gemini CLI: an approval mode and a policy file (its policy engine) for this session."""
    policy = run_dir / GEMINI_POLICY
    if role in WRITERS:
        rules = [_rule("run_shell_command", "allow", 100, prefix=["git", "a2a"])]
        return Permissions(
            ("--approval-mode", "auto_edit", "--policy", str(policy)),
            "edits files in its worktree and runs git and a2a without asking; other commands"
            " ask the user", {GEMINI_POLICY: "\n".join(rules)})
    rules = [_rule(["write_file", "replace"], "deny", 100),
             # A path in the session folder, with no `..` that could climb out of it.
             _rule("write_file", "allow", 200,
                   args=f'"file_path":"{_regex_literal(str(run_dir))}/(?![^"]*\\.\\.)[^"]*"'),
             _rule("run_shell_command", "allow", 100, prefix=["a2a", *GIT_READS]),
             _rule("run_shell_command", "deny", 50)]
    return Permissions(
        ("--approval-mode", "default", "--policy", str(policy)),
        f"reads files, runs a2a and read-only git commands, writes only in {run_dir};"
        " everything else is refused by policy", {GEMINI_POLICY: "\n".join(rules)})


GEMINI_OVERRIDES = ("--approval-mode", "--yolo", "-y", "--policy", "--admin-policy",
                    "--allowed-tools")


def _rule(tool: str | list[str], decision: str, priority: int, *, prefix: list[str] | None = None,
          args: str | None = None) -> str:
    # JSON strings and arrays are valid TOML values.
    lines = ["[[rule]]", f"toolName = {json.dumps(tool)}"]
    if prefix is not None:
        lines.append(f"commandPrefix = {json.dumps(prefix)}")
    if args is not None:
        lines.append(f"argsPattern = {json.dumps(args)}")
    lines += [f"decision = {json.dumps(decision)}", f"priority = {priority}", ""]
    return "\n".join(lines)


def _regex_literal(text: str) -> str:
    special = set(r"\.^$*+?()[]{}|")
    return "".join("\\" + c if c in special else c for c in text)
