"""doctor: which of a2a's protections are in force here, and what sets each.

One row per protection (`Protection`): its name, whether it is in force, and one line of what
it does here and what changed it. The confinement of sessions is the machine's and your
settings'; the others are a2a's own and always in force, with the values they run at.
"""

# Imports inside functions: each command imports what it runs when it runs (a2a's start-up:
# tests/test_startup.py, bench/bench_cli.py).

from __future__ import annotations

import os
from dataclasses import asdict, dataclass

from a2a_tui.cli.output import Result


@dataclass(frozen=True)
class Protection:
    name: str
    in_force: bool
    detail: str


def cmd_doctor(ctx, args) -> Result:
    # lazy: the settings validate with pydantic, the probe may run bwrap once
    from a2a_tui import settings

    user = settings.load()
    rows = [_confinement(user.confinement), *_room(user.confinement), _environment(user.env),
            _broker(), _spool()]
    width = max(len(r.name) for r in rows)
    text = "\n".join(f"{r.name:<{width}}  {'in force' if r.in_force else 'NOT in force':<12}"
                     f"  {r.detail}" for r in rows)
    return Result({"protections": [asdict(r) for r in rows]}, text)


def _confinement(conf) -> Protection:
    from a2a_tui.confine import probe  # lazy: runs bwrap once (cached for the process)

    found = probe()
    if not conf.enabled:
        return Protection("confinement", False, "sessions start unconfined: your settings say"
                          " [confinement] enabled = false")
    if not found.available:
        return Protection("confinement", False, f"this machine cannot confine: {found.reason}"
                          + ("; sessions start unconfined ([confinement] allow_unconfined)"
                             if conf.allow_unconfined else "; sessions are refused"))
    return Protection("confinement", True, f"every session in {found.engine}"
                      f" ({found.version or 'version unknown'})")


def _room(conf) -> list[Protection]:
    """The gate's checks' room and the limits of every sandbox (confine/settings.py)."""
    from a2a_tui.confine.settings import in_force  # lazy: with the command, as every import

    p = in_force(conf)
    confined = p.available and p.enabled
    checks = Protection(
        "checks confined", confined,
        (f"every check, red step and base run in {p.engine}: the checkout and its logs"
         " writable, .a2a/ and tmux hidden, its own PID namespace, no terminal; network "
         + ("on" if p.check_network else "off unless the card asks")) if confined else
        ("checks run unconfined, as your settings allow" if conf.unconfined_checks or not
         p.enabled else "verify refuses to run checks (set [confinement]"
         " unconfined_checks = true to run them as you)"))
    c, s = p.check_limits, p.session_limits
    caps = Protection(
        "limits", p.limits_engine != "setrlimit" or not p.not_in_force,
        f"{p.limits_engine}: a check {c.pids} tasks and {c.memory_mb} MiB,"
        f" a session {s.pids} tasks and {s.memory_mb} MiB, each"
        f" private tmpfs {c.tmpfs_mb} MiB"
        + "".join(f"; {n}" for n in p.not_in_force if "RLIMIT" in n or "cgroup" in n))
    return [checks, caps]


def _environment(env) -> Protection:
    more = [f"every session: {', '.join(env.every)}"] if env.every else []
    more += [f"{k}: {', '.join(v)}" for k, v in (*env.roles.items(), *env.clis.items()) if v]
    return Protection("environment allow-list", True,
                      "a session gets the terminal's variables, its CLI's family and a2a's own; "
                      + ("[env] pass adds " + "; ".join(more) if more else
                         "nothing more ([env] pass names none)"))


def _broker() -> Protection:
    from a2a_tui.resources import BrokerLimits  # lazy: with the command, as every import here

    limits = BrokerLimits.of(os.environ)
    return Protection("broker fairness", True,
                      f"{limits.per_session} requests of one session at once, a command's stdin"
                      f" read for {limits.stdin_s:g} s (this shell's A2A_BROKER_*: the"
                      " orchestrator reads its own when it starts)")


def _spool() -> Protection:
    from a2a_tui.panes import spool  # lazy: with the command, as every import here

    return Protection("spool rate", True,
                      f"{spool.FLOOD_LIMIT} quarantined files of one session recorded per"
                      f" {spool.FLOOD_WINDOW_S} s; the rest deleted, said once (spool_flooded)")
