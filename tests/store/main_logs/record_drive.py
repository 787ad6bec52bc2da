"""Drive an older a2a (on PYTHONPATH) to write the kinds the harvested test runs did not:
`demo_step` (the director's narration), `settings_loaded` and `settings_refused` (the
orchestrator taking an edited settings file in, then refusing a bad one) and
`broker_peer_mismatch` (a process on a session's socket that is not of its pane). Each through
the function that appends it; see harvest_record.py."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path


def main(work: Path) -> None:
    from a2a_tui.broker import request
    from a2a_tui.demo.director import Director
    from a2a_tui.panes import orchestrator
    from a2a_tui.repo import Repo, init

    home = work / "home"
    home.mkdir(parents=True, exist_ok=True)
    os.environ.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
    root = work / "repo"
    root.mkdir(exist_ok=True)
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
           "GIT_CONFIG_GLOBAL": "/dev/null"}
    for cmd in (["git", "init", "-q", "-b", "main"],
                ["git", "commit", "-q", "--allow-empty", "-m", "x"]):
        subprocess.run(cmd, cwd=root, check=True, env=env)
    repo = Repo(root)
    init(repo)
    d = Director(repo, None, 0.0)
    d.say("the ideation controller writes a card")
    d.say("a worker claims it")
    d.store.close()
    o = object.__new__(orchestrator.Orchestrator)
    o.repo, o.store, o._settings_seen = repo, repo.store(), None
    cfg = home / ".config" / "a2a" / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text("[notify]\nbell = false\n")
    o._reload_settings()
    cfg.write_text("this is = = not toml\n")
    o._reload_settings()
    with o.store.write() as tx:
        tx.execute("INSERT INTO sessions(id, role, cli, cwd, pane_pid, state, state_since_ns,"
                   " launch_seq, created_ns) VALUES ('w1', 'worker', 'demo', ?, ?, 'idle', ?,"
                   " 1, 1)", (str(root), os.getpid(), time.time_ns()))
    try:
        request.identify(o.store, "w1", (os.getpid(), os.getuid() + 1))
    except Exception as e:  # noqa: BLE001 -- the refusal is what is recorded
        print("refused:", e)
    o.store.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
