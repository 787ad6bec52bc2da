"""The hardened environment and config of every git process a2a starts.

Every git process a2a starts is hardened (`hardened_env`): it takes orders from no file an agent
could have written. Its environment is built from scratch (nothing of the caller's but PATH, HOME,
TMPDIR and TZ: no GIT_DIR, GIT_CONFIG_*, GIT_EXTERNAL_DIFF, GIT_SSH...), no system or global
config, no replace refs, no prompt, pager or editor; and command-line-scope config (which wins over
every config file) switches off what the repository's own `.git/config`, its includes, `.git/hooks`
and `.git/info/attributes` could make git run: hooks (`core.hooksPath=/dev/null`), fsmonitor,
pager, editor, askpass, credential helpers, ssh command, gpg (a signed commit's `log` would run
`gpg.program`), automatic gc. Diffs pass `--no-ext-diff --no-textconv`. A command that reads or
writes a worktree's files also gets every filter driver the repository's config defines
(includes followed, `filter_overrides`) set to nothing, so no clean, smudge or process filter runs.
Aliases never apply: a2a runs only git's own commands, which no alias can shadow. Transport is
limited to local paths (`GIT_ALLOW_PROTOCOL=file`). tests/gate/test_gate_hostile_git.py plants each
of these and shows nothing runs.
"""

from __future__ import annotations

import functools
import os
import subprocess

# What a git process may take from a2a's own environment: where programs are, the user's home (for
# `~` in a path), a temp folder, the time zone. The rest is dropped: a hook or an agent's pane
# that started a2a could have set any GIT_* variable.
PASSED_ENV = ("PATH", "HOME", "TMPDIR", "TZ")
FIXED_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_ATTR_NOSYSTEM": "1",
    "GIT_NO_REPLACE_OBJECTS": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat",
    "PAGER": "cat", "GIT_EDITOR": ":", "GIT_SEQUENCE_EDITOR": ":", "GIT_ASKPASS": "",
    "SSH_ASKPASS": "", "GIT_OPTIONAL_LOCKS": "0", "GIT_ALLOW_PROTOCOL": "file", "LC_ALL": "C",
}
# Command-line scope (GIT_CONFIG_COUNT pairs): wins over .git/config and whatever it includes.
# An empty credential.helper empties the list of helpers.
HARDENED_CONFIG = (
    ("core.hooksPath", os.devnull), ("core.fsmonitor", "false"), ("core.pager", "cat"),
    ("core.editor", ":"), ("sequence.editor", ":"), ("core.askPass", ""),
    ("credential.helper", ""), ("core.sshCommand", "ssh"), ("log.showSignature", "false"),
    ("commit.gpgSign", "false"), ("tag.gpgSign", "false"), ("gc.auto", "0"),
    ("maintenance.auto", "false"), ("submodule.recurse", "false"),
    ("status.submoduleSummary", "false"), ("diff.ignoreSubmodules", "all"),
)
# The settings of a filter driver, each set to nothing (an empty command runs no filter, and a
# driver that is not `required` may then be skipped).
FILTER_KEYS = (("clean", ""), ("smudge", ""), ("process", ""), ("required", "false"))
# git commands that read or write the files of a worktree, where filters apply.
FILES_COMMANDS = frozenset({"worktree", "status", "add", "commit", "checkout", "reset",
                             "stash", "checkout-index", "archive"})


def hardened_env(extra: dict[str, str] | None = None,
                 config: tuple[tuple[str, str], ...] = ()) -> dict[str, str]:
    """The environment of every git process a2a runs: see the module docstring. `config` adds
    command-line-scope settings after the hardened ones; `extra` adds variables (an index)."""
    env = {k: os.environ[k] for k in PASSED_ENV if k in os.environ}
    env.update(FIXED_ENV)
    pairs = (*HARDENED_CONFIG, *config)
    env["GIT_CONFIG_COUNT"] = str(len(pairs))
    for i, (key, value) in enumerate(pairs):
        env[f"GIT_CONFIG_KEY_{i}"] = key
        env[f"GIT_CONFIG_VALUE_{i}"] = value
    if extra:
        env.update(extra)
    return env


def reading_env() -> dict[str, str]:
    """For reading a config value as the user's git would (their global and system files too):
    reading config runs no program. Still nothing else of the caller's environment."""
    keep = (*PASSED_ENV, "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
            "GIT_CONFIG_NOSYSTEM")
    return {**{k: os.environ[k] for k in keep if k in os.environ}, "LC_ALL": "C",
            "GIT_NO_REPLACE_OBJECTS": "1"}


def filter_overrides(config_names: str) -> tuple[tuple[str, str], ...]:
    """Command-line settings that empty every filter driver named in `config_names` (the output
    of `git config --list --name-only -z`). A driver's name may hold dots, `=` or spaces: the
    pairs travel in the environment, where no `-c key=value` parsing splits them."""
    drivers = []
    for name in config_names.split("\0"):
        section, _, rest = name.partition(".")
        sub, _, key = rest.rpartition(".")
        if section.lower() == "filter" and sub and sub not in drivers:
            drivers.append(sub)
    return tuple((f"filter.{d}.{k}", v) for d in drivers for k, v in FILTER_KEYS)


# Every diff a2a asks for: no external diff program and no textconv driver, whatever the
# attributes and config say (and the same text on every machine).
NO_DRIVERS = ("--no-ext-diff", "--no-textconv")


def user_identity() -> dict[str, str]:
    """The user's own name and email (their global config) for what a2a records in a reflog;
    empty when they have none (git then makes one up, as it would)."""
    return dict(_identity(*(os.environ.get(k) for k in (
        "HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
        "GIT_CONFIG_NOSYSTEM"))))


@functools.lru_cache(maxsize=8)
def _identity(*_env_key: str | None) -> tuple[tuple[str, str], ...]:
    out = []
    for key, names in (("user.name", ("GIT_COMMITTER_NAME", "GIT_AUTHOR_NAME")),
                       ("user.email", ("GIT_COMMITTER_EMAIL", "GIT_AUTHOR_EMAIL"))):
        proc = subprocess.run(["git", "config", "--global", "--includes", "--get", key],
                              capture_output=True, text=True, errors="replace",
                              env=reading_env(), stdin=subprocess.DEVNULL, cwd=os.sep)
        if proc.returncode == 0 and proc.stdout.strip():
            out += [(n, proc.stdout.strip()) for n in names]
    return tuple(out)
