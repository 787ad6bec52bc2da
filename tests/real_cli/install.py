"""Install the pinned agent CLIs with npm into a cache shared by test runs on one machine.

The cache is `$A2A_REAL_CLI_CACHE`, else `$XDG_CACHE_HOME/a2a-real-cli`, else `.cache/real-cli`
in this checkout (gitignored). Never the throwaway HOME of a test: the install (~15 s, ~800 MB)
must survive between runs. One folder per set of pins (a hash of them), filled in a temp folder
and renamed into place, under a file lock so that two pytest workers install once.

    python tests/real_cli/install.py     # install (if needed) and print the bin folder
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

PINS = {
    "@anthropic-ai/claude-code": "2.1.332",
    "@openai/codex": "0.171.0",
    "@google/gemini-cli": "0.61.0",
}
BINARIES = {"claude": "@anthropic-ai/claude-code", "codex": "@openai/codex",
            "gemini": "@google/gemini-cli"}
DONE = "installed.json"
_CHECKOUT = Path(__file__).resolve().parents[2]


class InstallError(RuntimeError):
    """npm is missing or the install failed; the message is one line."""


def cache_root() -> Path:
    """Where installs are kept between runs."""
    if os.environ.get("A2A_REAL_CLI_CACHE"):
        return Path(os.environ["A2A_REAL_CLI_CACHE"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "a2a-real-cli"
    return _CHECKOUT / ".cache" / "real-cli"


def pins_key() -> str:
    blob = json.dumps(PINS, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:12]


def ensure_installed(root: Path | None = None) -> Path:
    """The bin folder holding `claude`, `codex`, `gemini` at the pinned versions."""
    root = root or cache_root()
    prefix = root / pins_key()
    if (prefix / DONE).is_file():
        return prefix / "node_modules" / ".bin"
    npm = shutil.which("npm")
    if npm is None:
        raise InstallError("npm is not on PATH")
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker may be installing the same pins
        if not (prefix / DONE).is_file():
            _install(npm, root, prefix)
    return prefix / "node_modules" / ".bin"


def _install(npm: str, root: Path, prefix: Path) -> None:
    tmp = root / f".tmp-{pins_key()}-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    (tmp / "package.json").write_text('{"name": "a2a-real-cli", "private": true}\n')
    env = dict(os.environ, npm_config_cache=str(root / "npm-cache"),
               npm_config_update_notifier="false", npm_config_loglevel="error")
    specs = [f"{name}@{ver}" for name, ver in PINS.items()]
    proc = subprocess.run([npm, "install", "--no-fund", "--no-audit", "--no-save",
                           "--prefix", str(tmp), *specs], env=env, capture_output=True,
                          text=True, timeout=900)
    if proc.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        last = (proc.stderr or proc.stdout).strip().splitlines()
        raise InstallError(f"npm install {' '.join(specs)} failed: "
                           f"{last[-1] if last else proc.returncode}")
    versions = {}
    for binary in BINARIES:
        path = tmp / "node_modules" / ".bin" / binary
        out = subprocess.run([str(path), "--version"], capture_output=True, text=True,
                             timeout=60, env=env)
        versions[binary] = out.stdout.strip()
        if out.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            raise InstallError(f"{binary} --version failed after install: {out.stderr.strip()}")
    (tmp / DONE).write_text(json.dumps({"pins": PINS, "versions": versions}, indent=2) + "\n")
    shutil.rmtree(prefix, ignore_errors=True)
    os.replace(tmp, prefix)


if __name__ == "__main__":
    try:
        print(ensure_installed())
    except InstallError as exc:
        print(f"install failed: {exc}", file=sys.stderr)
        sys.exit(1)
