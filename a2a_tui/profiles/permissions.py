"""What each role may do, per CLI: the launch arguments that enforce it, and a line saying it.

Measured against the pinned CLIs (tests/real_cli/FINDINGS.md, "Permission layers"):

- A worker edits and commits in its worktree and runs named git and a2a commands without being
  asked (never `git *` or `a2a *`: `WORKER_GIT`, `A2A_COMMANDS`).
- A reviewer and the controllers (ideation, executive) change no file: they read, run the a2a
  commands their role has (a candidate is read with `a2a diff` and `a2a show`, no git), and
  write only in their own session folder (a review report, a task card draft).

The CLIs' own sandboxes are on. A Codex worker runs `workspace-write` in its attempt's clone,
with the clone's `.git` among its writable roots (Codex keeps a `.git` inside a writable root
read-only; the clone's is the agent's own, so its commits need it) and its network switch on:
without it Codex's seccomp filter refuses every `connect()` of a tool command, Unix sockets
included, so `a2a submit` could not reach the session's broker ("Operation not permitted",
tests/real_cli/test_real_gate.py). The network is what a2a's confinement leaves a Claude Code
worker's commands too; the filesystem limits stay Codex's. The read-only roles run
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
# The git commands a worker runs in its worktree without being asked: named subcommands, never
# `git *` (that would let `git -c alias.x='!sh …' x`, `git config` or an alias through). Any
# `--output` (which writes a file anywhere) is refused. A reviewer or a controller runs no git:
# it reads a candidate through `a2a diff` and `a2a show`.
WORKER_GIT = ("git status", "git add", "git commit", "git diff", "git log", "git show",
              "git rev-parse", "git ls-files", "git restore", "git rm", "git mv")
GIT_REFUSED = ("--output",)
# The a2a commands each role runs without being asked: those the role table (gate/roles.py)
# gives it, by name, never `a2a *` (tests/profiles/test_profiles_permissions.py keeps the two
# in step). Anything else is asked (a worker) or refused (the read-only roles).
_READS = ("a2a status", "a2a whoami", "a2a rules", "a2a sessions", "a2a events", "a2a card show",
          "a2a card list", "a2a log", "a2a diff", "a2a show", "a2a board list",
          "a2a board show", "a2a inbox list", "a2a inbox show", "a2a target show",
          "a2a review show", "a2a gate-rules", "a2a board report")
A2A_COMMANDS: dict[str, tuple[str, ...]] = {
    "worker": ("a2a submit", *_READS),
    "reviewer": ("a2a review verdict", *_READS),
    "retro": ("a2a retro save", "a2a metrics", *_READS),
    "ideation": ("a2a card add", "a2a card ready", "a2a inbox post", "a2a board ask",
                 "a2a board close", "a2a input list", "a2a input show", "a2a metrics",
                 *_READS),
    "executive": ("a2a claim", "a2a verify", "a2a integrate", "a2a abandon", "a2a reclaim",
                  "a2a review start", "a2a review dispose", "a2a spawn", "a2a session new",
                  "a2a session restart", "a2a session revive", "a2a session fork",
                  "a2a inject", "a2a retro", "a2a card add", "a2a card ready",
                  "a2a inbox post", "a2a board ask", "a2a board close", "a2a metrics",
                  "a2a recover", *_READS),
}


def commands(role: str) -> tuple[str, ...]:
    """Every command `role` runs without being asked (git for a worker, and named a2a ones)."""
    return (*(WORKER_GIT if role in WRITERS else ()), *A2A_COMMANDS.get(role, _READS))


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


def claude(role: str, writes_in: Path, open_shell: bool = False) -> Permissions:
    """Claude Code: a permission mode and allow rules (deny rules would win over any allow)."""
    if role in WRITERS and open_shell:
        return Permissions(
            ("--permission-mode", "acceptEdits", "--allowedTools", "Bash"),
            "edits files and runs any command inside its confinement without asking")
    # `Bash(git status *)` also matches a bare `git status`; `*` matches anywhere in a deny.
    named = [f"Bash({c} *)" for c in commands(role)]
    refused = ",".join(f"Bash(git *{o}*)" for o in GIT_REFUSED)
    if role in WRITERS:
        return Permissions(
            ("--permission-mode", "acceptEdits", "--allowedTools", ",".join(named),
             "--disallowedTools", refused),
            "edits files in its worktree and runs named git and a2a commands without asking;"
            " other commands ask the user")
    # dontAsk refuses, without a dialog, every tool call no rule allows; `Edit(//path/**)`
    # covers the Write tool too.
    allowed = ["Read", "Grep", "Glob", *named, f"Edit(/{writes_in}/**)"]
    return Permissions(
        ("--permission-mode", "dontAsk", "--allowedTools", ",".join(allowed)),
        f"reads files, runs named a2a commands (no git: `a2a diff`, `a2a show`), writes only in"
        f" {writes_in}; everything else is refused without asking")


CLAUDE_OVERRIDES = ("--permission-mode", "--allowedTools", "--allowed-tools",
                    "--disallowedTools", "--disallowed-tools", "--dangerously-skip-permissions")


def codex(role: str, cwd: Path | None = None, writes_cwd: bool = True,
          own_folder: Path | None = None) -> Permissions:
    """Codex: sandbox mode and approval policy, for this invocation only (`-c`).

    A worker in its attempt's clone runs `workspace-write` there. A session whose folder a2a's
    confinement keeps read-only (a reviewer's checkout, the repository for the controllers or a
    worker with no attempt) cannot: in `workspace-write` Codex makes mount points in its
    writable root for the folders it protects (`.agents`, `.codex`), and in a read-only folder
    its sandbox cannot start. Confined (`own_folder`, the session's output folder), it runs
    `workspace-write` with that folder as its working root (`-C`): it reads what the
    confinement shows, writes only its own folder, and reaches the session's broker socket
    (the network switch: Codex's seccomp filter refuses every `connect()` without it) — its
    `a2a` calls need no dialog. Unconfined, only `read-only` keeps it from the repository:
    a2a's commands then run outside Codex's sandbox when the user approves them in the pane."""
    if role in WRITERS and writes_cwd:
        roots = [str(cwd / ".git")] if cwd is not None and (cwd / ".git").is_dir() else []
        return Permissions(
            ("-c", 'sandbox_mode="workspace-write"', "-c", 'approval_policy="never"',
             "-c", f"sandbox_workspace_write.writable_roots={json.dumps(roots)}",
             "-c", "sandbox_workspace_write.network_access=true"),
            "Codex's workspace-write sandbox: writes in its working folder and its git"
            " directory, never asks")
    if own_folder is not None:
        return Permissions(
            ("-C", str(own_folder), "-c", 'sandbox_mode="workspace-write"',
             "-c", 'approval_policy="never"', "-c", "sandbox_workspace_write.writable_roots=[]",
             "-c", "sandbox_workspace_write.network_access=true"),
            f"Codex's workspace-write sandbox in its own folder {own_folder}: reads, writes"
            " only there, runs a2a's commands without asking")
    return Permissions(
        ("-c", 'sandbox_mode="read-only"', "-c", 'approval_policy="on-request"'),
        "read-only sandbox: no command can write; a2a (whatever writes) runs outside it only"
        " when the user approves it in the pane")


CODEX_OVERRIDES = ("sandbox_mode", "approval_policy", "--sandbox", "-s", "--ask-for-approval",
                   "-C", "--cd",
                   "-a", "--full-auto", "--dangerously-bypass-approvals-and-sandbox", "--yolo")

GEMINI_POLICY = "gemini-policy.toml"


def gemini(role: str, run_dir: Path, open_shell: bool = False,
           writes_in: Path | None = None) -> Permissions:
    """Gemini CLI: an approval mode and a policy file (its policy engine, in the run folder)
    for this session; the read-only roles write in `writes_in` (else the run folder)."""
    policy = run_dir / GEMINI_POLICY
    writes_in = writes_in or run_dir
    if role in WRITERS and open_shell:
        rules = [_rule("run_shell_command", "allow", 100)]
        return Permissions(
            ("--approval-mode", "auto_edit", "--policy", str(policy)),
            "edits files and runs any command inside its confinement without asking",
            {GEMINI_POLICY: "\n".join(rules)})
    # A git command with `--output` is denied above every allow (an argsPattern on the
    # command's JSON text).
    refused = _rule("run_shell_command", "deny", 300,
                    args=r'"command":\s*"[^"]*\bgit [^"]*(' + "|".join(GIT_REFUSED) + ")")
    if role in WRITERS:
        rules = [refused, _rule("run_shell_command", "allow", 100, prefix=list(commands(role)))]
        return Permissions(
            ("--approval-mode", "auto_edit", "--policy", str(policy)),
            "edits files in its worktree and runs named git and a2a commands without asking;"
            " other commands ask the user", {GEMINI_POLICY: "\n".join(rules)})
    rules = [refused, _rule(["write_file", "replace"], "deny", 100),
             # A path in the session folder, with no `..` that could climb out of it.
             _rule("write_file", "allow", 200,
                   args=f'"file_path":"{_regex_literal(str(writes_in))}/(?![^"]*\\.\\.)[^"]*"'),
             _rule("run_shell_command", "allow", 100, prefix=list(commands(role))),
             _rule("run_shell_command", "deny", 50)]
    return Permissions(
        ("--approval-mode", "default", "--policy", str(policy)),
        f"reads files, runs named a2a commands (no git: `a2a diff`, `a2a show`), writes only in"
        f" {writes_in}; everything else is refused by policy", {GEMINI_POLICY: "\n".join(rules)})


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


# Options that set what a session may do, for any CLI: a2a's own permission arguments stand
# unless the user gives these (and only the user: never the repository's config, nor an agent
# that spawns a session). `-c KEY=...` forms count by their key.
PERMISSION_OPTIONS = (*CLAUDE_OVERRIDES, *CODEX_OVERRIDES, *GEMINI_OVERRIDES, "--add-dir",
                      "--include-directories", "sandbox_workspace_write", "sandbox_permissions",
                      "shell_environment_policy", "--permission-prompt-tool")


def weakening(options: list[str] | tuple[str, ...]) -> list[str]:
    """The options among `options` that set permissions (`PERMISSION_OPTIONS`)."""
    found = []
    for a in options:
        if not isinstance(a, str):
            continue
        key = a.split("=", 1)[0]
        if key in PERMISSION_OPTIONS or any(key.startswith(f"{k}.") for k in PERMISSION_OPTIONS):
            found.append(a)
    return found
