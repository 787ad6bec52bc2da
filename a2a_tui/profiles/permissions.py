"""What each role may do, per CLI: the launch arguments that enforce it, and a line saying it.

Measured against the pinned CLIs (tests/real_cli/FINDINGS.md, "Permission layers"):

- A worker edits and commits in its worktree and runs `a2a` without being asked.
- A reviewer and the controllers (ideation, executive) change no file: they read, run `a2a` and
  read-only git commands, and write only in their own session folder (a review report, a task
  card draft).

The CLIs' own sandboxes are on. A Codex worker runs `workspace-write` in its attempt's clone,
with the clone's `.git` among its writable roots (Codex keeps a `.git` inside a writable root
read-only; the clone's is the agent's own, so its commits need it); the read-only roles run
`read-only`. Identity no longer follows the process tree (the broker names the session by its
socket), so Codex's PID namespace takes nothing away. Inside a2a's confinement
(`a2a_tui/confine`, `LaunchContext.open_shell`) a Claude Code or Gemini CLI worker runs any
command without asking: what it could reach outside its clone is the confinement's to stop.
Unconfined, or with `[confinement] any_command = false`, the allow-lists below apply.
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


def claude(role: str, run_dir: Path, open_shell: bool = False) -> Permissions:
    """Claude Code: a permission mode and allow rules (deny rules would win over any allow)."""
    if role in WRITERS and open_shell:
        return Permissions(
            ("--permission-mode", "acceptEdits", "--allowedTools", "Bash"),
            "edits files and runs any command inside its confinement without asking")
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


def codex(role: str, cwd: Path | None = None) -> Permissions:
    """Codex: sandbox mode and approval policy, for this invocation only (`-c`)."""
    if role in WRITERS:
        roots = [str(cwd / ".git")] if cwd is not None and (cwd / ".git").is_dir() else []
        return Permissions(
            ("-c", 'sandbox_mode="workspace-write"', "-c", 'approval_policy="never"',
             "-c", f"sandbox_workspace_write.writable_roots={json.dumps(roots)}"),
            "Codex's workspace-write sandbox: writes in its working folder and its git"
            " directory, never asks")
    return Permissions(
        ("-c", 'sandbox_mode="read-only"', "-c", 'approval_policy="on-request"'),
        "read-only sandbox: no command can write; a2a (whatever writes) runs outside it only"
        " when the user approves it in the pane")


CODEX_OVERRIDES = ("sandbox_mode", "approval_policy", "--sandbox", "-s", "--ask-for-approval",
                   "-a", "--full-auto", "--dangerously-bypass-approvals-and-sandbox", "--yolo")

GEMINI_POLICY = "gemini-policy.toml"


def gemini(role: str, run_dir: Path, open_shell: bool = False) -> Permissions:
    """Gemini CLI: an approval mode and a policy file (its policy engine) for this session."""
    policy = run_dir / GEMINI_POLICY
    if role in WRITERS and open_shell:
        rules = [_rule("run_shell_command", "allow", 100)]
        return Permissions(
            ("--approval-mode", "auto_edit", "--policy", str(policy)),
            "edits files and runs any command inside its confinement without asking",
            {GEMINI_POLICY: "\n".join(rules)})
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
