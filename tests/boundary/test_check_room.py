"""The code the gate runs is the candidate's: a test helper a worker commits, run by the card's
check during the user's `a2a verify`, tries everything its process allows. Confined (the
default), each attempt is refused: `.a2a/` is not there (no store, no planted file), the user's
files outside the checkout cannot be read, the repository cannot be written, a pseudo-terminal
of its own does not make `a2a whoami` the user, tmux's socket is out of sight, a process of the
user's cannot be signalled, and the network is off unless the card asks for it. Unconfined (the
user's `[confinement] enabled = false`), the same commit does all of it: the attack is real,
and the check's room is what stops it. Limits: a fork bomb and a memory hog in a check stop at
the user's `[confinement.limits]`, the machine untouched.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import threading
import time

import psutil
import pytest

from a2a_tui.confine import probe
from tests.gate.verify_support import PY, claim, result, submit_verify
from tests.support import a2a, commit_in
from tests.support.userconfig import write_user_config

ATTACK = r'''
import json, os, pty, signal, socket, subprocess, sys
repo, secret, victim, port, tmux_sock = sys.argv[1:6]
out = {}
try:
    with open(os.path.join(repo, ".a2a", "planted"), "w") as f:
        f.write("x")
    out["a2a_write"] = "written"
except OSError as e:
    out["a2a_write"] = e.strerror
out["store_seen"] = os.path.exists(os.path.join(repo, ".a2a", "a2a.db"))
try:
    out["secret"] = open(secret).read()
except OSError as e:
    out["secret"] = "refused: " + str(e.strerror)
try:
    with open(os.path.join(repo, "src", "app.py"), "a") as f:
        f.write("# planted\n")
    out["repo_write"] = "written"
except OSError as e:
    out["repo_write"] = e.strerror
pid, fd = pty.fork()
if pid == 0:
    os.chdir(repo)
    os.execv(sys.executable, [sys.executable, "-m", "a2a_tui", "whoami", "--json"])
said = b""
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    said += chunk
os.waitpid(pid, 0)
out["whoami"] = said.decode(errors="replace")
r = subprocess.run(["tmux", "-S", tmux_sock, "new-window", "-d", "sleep 300"],
                   capture_output=True, text=True)
out["tmux"] = r.returncode
try:
    os.kill(int(victim), signal.SIGSTOP)
    out["signal"] = "sent"
except OSError as e:
    out["signal"] = e.strerror
s = socket.socket()
s.settimeout(3)
try:
    s.connect(("127.0.0.1", int(port)))
    out["network"] = "connected"
except OSError as e:
    out["network"] = str(e)
print("ATTACK " + json.dumps(out))
'''

needs_confinement = pytest.mark.skipif(not probe().available,
                                       reason=f"this machine cannot confine: {probe().reason}")


class Listener:
    """A TCP server on loopback that counts who connected."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.seen = 0
        self.stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.seen += 1
            conn.close()

    def close(self) -> None:
        self.stop = True
        self.thread.join()
        self.sock.close()


@pytest.fixture
def target(world, repo, tmp_path):
    """What the attack aims at: a secret file of the user's, a process of the user's, a
    loopback server and a2a's tmux server."""
    secret = tmp_path / "secret.txt"
    secret.write_text("the user's token")
    victim = subprocess.Popen(["sleep", "300"])
    server = Listener()
    subprocess.run(["tmux", "-L", world.sock, "new-session", "-d", "-s", "a", "sleep 300"],
                   check=True, env=os.environ)
    sock = subprocess.run(["tmux", "-L", world.sock, "display-message", "-p",
                           "#{socket_path}"], capture_output=True, text=True,
                          check=True).stdout.strip()
    yield {"secret": secret, "victim": victim, "server": server, "sock": sock, "world": world}
    os.kill(victim.pid, signal.SIGCONT)
    victim.kill()
    victim.wait()
    server.close()


def windows(world) -> int:
    out = subprocess.run(["tmux", "-L", world.sock, "list-windows", "-a"],
                         capture_output=True, text=True).stdout
    return len(out.splitlines())


def attack(repo, t, extra: str = "") -> tuple[dict, dict]:
    command = (f"{PY} src/attack.py {repo} {t['secret']} {t['victim'].pid}"
               f" {t['server'].port} {t['sock']}")
    start(repo, {"src/attack.py": "print('ATTACK {}')\n"})   # the helper, harmless at start
    c, _ = claim(repo, command, extra=extra)
    v = submit_verify(repo, c, {"src/attack.py": ATTACK, "src/app.py": "x = 2\n"})
    tail = result(v, "tests")["stdout_tail"]
    line = next((ln for ln in tail.splitlines() if ln.startswith("ATTACK ")), None)
    assert line, v.out
    return json.loads(line[len("ATTACK "):]), v.json


def start(repo, files: dict[str, str]) -> None:
    """The start commit holds the helper the check runs (the user's own, harmless)."""
    commit_in(repo, files)
    assert a2a("target", "adopt", "main", "--reason", "the helper", cwd=repo).code == 0


def stopped(pid: int) -> bool:
    return psutil.Process(pid).status() == psutil.STATUS_STOPPED


@needs_confinement
def test_a_committed_check_cannot_act_as_the_user(repo, target):
    before = windows(target["world"])
    seen, v = attack(repo, target)
    assert v["confinement"]["confined"] is True and v["confinement"]["network"] is False
    assert seen["a2a_write"] != "written" and not (repo / ".a2a/planted").exists()
    assert seen["store_seen"] is False
    assert seen["secret"].startswith("refused"), seen
    assert seen["repo_write"] != "written" and "planted" not in (repo / "src/app.py").read_text()
    assert '"is_user": true' not in seen["whoami"], seen["whoami"]
    assert seen["tmux"] != 0 and windows(target["world"]) == before
    assert not stopped(target["victim"].pid)
    assert seen["network"] != "connected" and target["server"].seen == 0


@needs_confinement
def test_a_card_that_asks_for_the_network_gets_it_and_the_verdict_says_so(repo, target):
    seen, v = attack(repo, target, extra="network = true\n")
    assert v["confinement"]["network"] is True
    assert seen["network"] == "connected" and target["server"].seen == 1
    assert seen["secret"].startswith("refused") and not stopped(target["victim"].pid)


def test_unconfined_the_same_commit_is_the_user(repo, target, isolated_env):
    # The counterexample: the user's own setting runs checks unconfined; the attack is real.
    write_user_config(isolated_env, "[confinement]\nenabled = false\n")
    before = windows(target["world"])
    seen, v = attack(repo, target)
    assert v["confinement"]["confined"] is False
    assert seen["a2a_write"] == "written" and seen["secret"] == "the user's token"
    assert '"is_user": true' in seen["whoami"], seen["whoami"]
    assert seen["tmux"] == 0 and windows(target["world"]) == before + 1
    assert seen["network"] == "connected"
    wait = time.monotonic() + 5
    while not stopped(target["victim"].pid) and time.monotonic() < wait:
        time.sleep(0.05)
    assert stopped(target["victim"].pid)


BOMB = r'''
import os, sys, time
made = 0
for _ in range(400):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    made += 1
print("FORKED", made, flush=True)
'''
HOG = r'''
import sys
held = []
for i in range(1, 49):
    held.append(bytearray(16 * 1024 * 1024))   # zero-filled: every page touched
    print("HELD", i * 16, flush=True)
'''


@pytest.mark.parametrize("confined", [True, False])
def test_a_fork_bomb_and_a_memory_hog_in_a_check_stop_at_the_limits(repo, isolated_env,
                                                                   confined):
    # Bounded on purpose (400 processes, 768 MiB): without limits they finish, harmlessly.
    if confined and not probe().available:
        pytest.skip(f"this machine cannot confine: {probe().reason}")
    write_user_config(isolated_env, "[confinement]\n" + ("" if confined else "enabled = false\n")
                      + "[confinement.limits]\ncheck_pids = 64\ncheck_memory_mb = 200\n")
    start(repo, {"src/bomb.py": "print('FORKED 0')\n", "src/hog.py": "\n"})
    c, _ = claim(repo, {"name": "tests", "command": f"{PY} src/bomb.py; true"},
                 {"name": "hog", "command": f"{PY} src/hog.py", "blocking": False})
    v = submit_verify(repo, c, {"src/bomb.py": BOMB, "src/hog.py": HOG, "src/app.py": "y\n"})
    forked = int(result(v, "tests")["stdout_tail"].split("FORKED")[1].split()[0])
    held = [int(ln.split()[1]) for ln in result(v, "hog")["stdout_tail"].splitlines()
            if ln.startswith("HELD")]
    assert forked < 64 and max(held, default=0) < 256, (forked, held)
    assert v.json["confinement"]["limits"]["pids"] == 64


def test_doctor_says_whether_the_checks_are_confined_and_limited(repo, isolated_env):
    rows = {r["name"]: r for r in a2a("doctor", "--json", cwd=repo).json["protections"]}
    assert rows["checks confined"]["in_force"] is probe().available
    assert "a check 2048 tasks" in rows["limits"]["detail"]
    write_user_config(isolated_env, "[confinement]\nenabled = false\n")
    rows = {r["name"]: r for r in a2a("doctor", "--json", cwd=repo).json["protections"]}
    assert rows["checks confined"]["in_force"] is False
    assert "unconfined" in rows["checks confined"]["detail"]
