"""What a hostile agent plants in a repository for the user's git to run: every configuration key
and hook that makes git start a program, each pointing at a program that leaves a marker file
(and, where it runs in a checkout, drops a root `conftest.py` that makes pytest exit 0 at once:
the tests of a failing commit would then "pass").

`plant(repo, ran)` writes them the way an agent's shell could: into the shared `.git/config`,
`.git/hooks/`, `.git/info/attributes` and a file included from the config. `LIVE` names, per
planted thing, a plain `git` command (as the user types it) that does run it: the plants are
shown to work before a2a is shown to ignore them.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

# Dropped into the checkout the program runs in: pytest loads the rootdir's conftest first.
PASS_EVERYTHING = "import os\nos._exit(0)\n"
_DROP = "printf 'import os\\nos._exit(0)\\n' > ./conftest.py 2>/dev/null"

# Hooks git runs around what a2a does (checkout, ref and index updates, commits, gc).
HOOKS = ("post-checkout", "reference-transaction", "post-index-change", "pre-commit",
         "prepare-commit-msg", "commit-msg", "post-commit", "pre-auto-gc", "post-merge",
         "post-rewrite")


def _program(path: Path, marker: Path, *, filter_: bool = False, gpg: bool = False) -> Path:
    body = ["#!/bin/sh", f"touch {marker}", f"[ -w . ] && {_DROP}"]
    if filter_:
        body.append("cat")                      # a filter passes the content through
    elif gpg:
        body += ["echo '[GNUPG:] SIG_CREATED D 1 8 00 1 x' >&2", "echo '[GNUPG:] GOODSIG x' >&2",
                 "cat >/dev/null",
                 "printf -- '-----BEGIN PGP SIGNATURE-----\\n\\nx\\n'",
                 "printf -- '-----END PGP SIGNATURE-----\\n'"]
    else:
        body.append("exec </dev/null")
    path.write_text("\n".join(body) + "\n")
    path.chmod(0o755)
    return path


def git(cwd: Path, *args: str, env: dict[str, str] | None = None, check: bool = True
        ) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=str(cwd), capture_output=True, text=True,
                          check=check, stdin=subprocess.DEVNULL,
                          env={**os.environ, **(env or {})})


def plant(repo: Path, ran: Path, *, hooks_path: bool = False) -> dict[str, Path]:
    """Plant every key and hook in `repo` (its shared git directory); returns name -> marker.
    `hooks_path`: the hooks go to a folder named by `core.hooksPath` instead of `.git/hooks`."""
    ran.mkdir(parents=True, exist_ok=True)
    bin_ = ran.parent / "planted"
    bin_.mkdir(exist_ok=True)
    markers: dict[str, Path] = {}

    def prog(name: str, **kw) -> str:
        markers[name] = ran / f"{name}.ran"
        return str(_program(bin_ / name, markers[name], **kw))

    gitdir = common_dir(repo)
    _save(gitdir)
    hooks = ran.parent / "hooks-elsewhere" if hooks_path else gitdir / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    for hook in HOOKS:
        os.symlink(prog(f"hook-{hook}"), hooks / hook)
    if hooks_path:
        git(repo, "config", "core.hooksPath", str(hooks))
    included = ran.parent / "included.gitconfig"
    included.write_text(f'[filter "incl"]\n\tclean = {prog("include-filter-clean", filter_=True)}'
                        f'\n\tsmudge = {prog("include-filter-smudge", filter_=True)}\n')
    cond = ran.parent / "included-if.gitconfig"
    cond.write_text(f'[diff "condtext"]\n\ttextconv = {prog("includeif-textconv")}\n')
    keys = {
        "core.fsmonitor": prog("fsmonitor"),
        "core.pager": prog("pager"),
        "pager.diff": prog("pager-diff"),
        "core.sshCommand": prog("ssh-command"),
        "core.askPass": prog("askpass"),
        "core.editor": prog("editor"),
        "sequence.editor": prog("sequence-editor"),
        "core.alternateRefsCommand": prog("alternate-refs"),
        "credential.helper": "!" + prog("credential-helper"),
        "diff.external": prog("diff-external"),
        "diff.evil.command": prog("diff-driver-command"),
        "diff.evil.textconv": prog("diff-textconv"),
        "filter.evil.clean": prog("filter-clean", filter_=True),
        "filter.evil.smudge": prog("filter-smudge", filter_=True),
        "filter.evil.required": "true",
        "filter.a=b.clean": prog("filter-eq-clean", filter_=True),   # `-c k=v` cannot name it
        "filter.a=b.smudge": prog("filter-eq-smudge", filter_=True),
        "filter.proc.process": prog("filter-process", filter_=True),
        "merge.evil.driver": prog("merge-driver"),
        "gpg.program": prog("gpg", gpg=True),
        "log.showSignature": "true",
        "trailer.a2a-task.cmd": prog("trailer-cmd"),
        "alias.status": "!" + prog("alias-status"),
        "alias.st": "!" + prog("alias-st"),
        "include.path": str(included),
        f"includeIf.gitdir:{gitdir.parent}/.path": str(cond),
        "uploadpack.packObjectsHook": prog("pack-objects-hook"),
        "gc.auto": "1",
        "gc.autoDetach": "false",
    }
    for key, value in keys.items():
        git(repo, "config", "--add", key, value)
    info = gitdir / "info"
    info.mkdir(exist_ok=True)
    # Every path goes through the planted drivers; `a=b` and `incl` name filters only the
    # config (or an included file) defines.
    (info / "attributes").write_text(
        "* filter=evil diff=evil merge=evil\n*.py filter=a=b\n*.md filter=incl diff=condtext\n"
        "*.txt filter=proc\n")
    return markers


def common_dir(repo: Path) -> Path:
    return Path(git(repo, "rev-parse", "--path-format=absolute", "--git-common-dir").stdout
                .strip())


_SAVED = ("config", "info/attributes")


def _save(gitdir: Path) -> None:
    for name in _SAVED:
        src = gitdir / name
        if src.exists() and not (gitdir / f"{name}.before-plant").exists():
            (gitdir / f"{name}.before-plant").write_bytes(src.read_bytes())


def unplant(repo: Path) -> None:
    """Take the plants out again (what the test itself then does with git runs nothing)."""
    gitdir = common_dir(repo)
    for name in _SAVED:
        saved = gitdir / f"{name}.before-plant"
        if saved.exists():
            (gitdir / name).write_bytes(saved.read_bytes())
            saved.unlink()
        else:
            (gitdir / name).unlink(missing_ok=True)
    for hook in HOOKS:
        if (gitdir / "hooks" / hook).is_symlink():
            (gitdir / "hooks" / hook).unlink()


def ran_programs(ran: Path) -> list[str]:
    return sorted(p.name for p in ran.iterdir()) if ran.is_dir() else []
