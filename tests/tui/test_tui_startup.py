"""What keeps the workbench's first frame quick (bench/bench_tui.py measures it): the first frame
already shows the store, and neither pydantic nor libtmux is imported before it."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid

from a2a_tui.repo import Repo
from a2a_tui.tui.app import make_app
from tests.support import register_session, tmux
from tests.tui.tui_support import run


def test_the_first_frame_already_shows_the_store(repo):
    register_session(repo, "w1", "worker", state="busy")

    async def first():  # what the panels hold the moment the app is ready, before any pause
        app, _s, _o = make_app(Repo(repo), host_orchestrator=False, tick_s=3600)
        async with app.run_test(size=(100, 30)):
            loaded = [p.loaded for p in app.query("Panel")]
            sessions = list(app.query_one("#sessions").rows)
        return loaded, sessions

    loaded, sessions = run(first())
    assert all(loaded) and sessions == ["w1"]


def test_starting_the_workbench_imports_neither_pydantic_nor_libtmux():
    code = ("import json, sys\n"
            "from a2a_tui.cli import build_parser; build_parser()\n"
            "import a2a_tui.tui.app, a2a_tui.tmux\n"
            "print(json.dumps(sorted(m for m in ('pydantic', 'libtmux') if m in sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_tmux_works_when_first_used_under_textuals_print_capture(tmp_path):
    # Inside the app sys.stdout is a capture without `encoding`; libtmux reads it at import.
    sock = f"a2a-test-{uuid.uuid4().hex[:10]}"
    code = ("import sys\n"
            "class Capture:\n"
            "    def write(self, s): return len(s)\n"
            "    def flush(self): pass\n"
            "cap = sys.stdout = Capture()\n"
            "from a2a_tui.tmux import Tmux\n"
            f"t = Tmux({sock!r})\n"
            "print('has', t.has_session('nothing'), file=sys.stderr)\n"
            "print('restored', sys.stdout is cap, file=sys.stderr)\n")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "TMUX_TMPDIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    tmux(sock, "kill-server", env=env, check=False)
    assert out.returncode == 0, out.stderr
    assert "has False" in out.stderr and "restored True" in out.stderr
