"""Confirming a delivery: it is done when the CLI says it took the prompt, not when Enter went.

After Enter, a dispatch is `sent`; the CLI's prompt signal carrying its marker (Claude Code's
UserPromptSubmit, Gemini CLI's BeforeAgent, Codex's UserPromptSubmit hook) makes it `delivered`
(`spool.py`). Each Enter gets the profile's `prompt_wait_s`; when it passes with no prompt signal
(seen with Claude Code under load: the paste in the box, the Enter lost), a2a decides from what
it can prove, never from the screen:

- another Enter — never the paste — when the profile says a second Enter is harmless for that CLI
  (`enter_retries` > 0: measured, Enter on an empty input box does nothing, idle or busy) and no
  signal at all came from the pane since the first Enter; at most `enter_retries` times, each
  recorded (`dispatch_enter_resent`). A prompt that was taken after all, its signal still on its
  way, meets an empty box: nothing happens.
- otherwise the dispatch is `unknown` (`dispatch_unknown`), the pane `unknown` with a hint that
  names the dispatch, and the user is called once (`calls.py`). An unknown dispatch is never
  sent again; its own late prompt signal still confirms it, and the user can press Enter in the
  pane or release it.

Only sessions whose launch record says their CLI signals submitted prompts are watched: for the
others an Enter with no signal proves nothing (Codex's notify comes only at the end of a turn).
The orchestrator's one thread runs this when it is otherwise quiet, and arranges to look again
when the next deadline falls due: nothing here waits.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from a2a_tui import profiles
from a2a_tui.errors import A2AError
from a2a_tui.panes import machine
from a2a_tui.panes.delivery import ACTOR, PaneIO
from a2a_tui.panes.hints import record_hint
from a2a_tui.panes.records import pane_of, save_pane, set_dispatch
from a2a_tui.payloads.dispatch import DispatchEnterResent, DispatchUnknown

RESENT = "dispatch_enter_resent"
NO_PROMPT_SIGNAL = "no prompt signal after Enter"


def unconfirmed_hint(n: int, enters: int, after_s: float) -> str:
    said = "Enter" if enters == 1 else f"{enters} Enters"
    return (f"#{n} not confirmed {after_s:g} s after {said}: look at the pane (Enter there if"
            " the text waits in the box; else release it)")


@dataclass(frozen=True)
class _Flight:
    """One dispatch in flight past Enter, not yet confirmed."""

    n: int
    session: str
    pane: str
    cli: str
    enters: tuple[int, ...]   # when each Enter was written (ns), the first one first


def unconfirmed(store, io: PaneIO, tmux_socket: str | None, now_ns: int) -> int | None:
    """Act on every unconfirmed delivery whose wait is over (another Enter, or `unknown`);
    return when the next wait ends (ns), or None."""
    next_due = None
    for f in _in_flight(store, tmux_socket):
        prof = profiles.get(f.cli)
        due = f.enters[-1] + int(prof.prompt_wait_s * 1e9)
        if now_ns < due:
            next_due = due if next_due is None else min(next_due, due)
            continue
        again = _decide(store, f, prof)
        if again:
            due = _enter_again(store, io, f, prof)
            if due is not None:
                next_due = due if next_due is None else min(next_due, due)
    return next_due


def _in_flight(store, tmux_socket: str | None) -> list[_Flight]:
    # CROSS JOIN keeps SQLite's order: the few sessions, then each one's in-flight dispatch by
    # key (not a scan of every dispatch ever queued, on each cycle). Sessions launched before
    # the launch record said whether the CLI signals prompts are left alone.
    rows = store.all(
        "SELECT d.n, d.session, d.enter_ns, s.cli, s.pane_id"
        " FROM sessions s CROSS JOIN dispatches d ON d.n = s.in_flight AND d.session = s.id"
        " JOIN events e ON e.seq = s.launch_seq"
        " WHERE s.state = 'busy' AND d.state = 'sent' AND d.enter_ns IS NOT NULL"
        " AND s.tmux_socket IS ? AND json_extract(e.payload, '$.prompt_signal') = 1",
        (tmux_socket,))
    return [_Flight(r["n"], r["session"], r["pane_id"], r["cli"],
                    (r["enter_ns"], *_resent(store, r["session"], r["n"]))) for r in rows]


def _resent(db, session: str, n: int) -> list[int]:
    """When each further Enter for dispatch n was written (ns), in order."""
    rows = db.all("SELECT json_extract(payload, '$.enter_ns') FROM events INDEXED BY"
                  " events_kind_session WHERE kind = ? AND session = ?"
                  " AND json_extract(payload, '$.n') = ? ORDER BY seq", (RESENT, session, n))
    return [r[0] for r in rows]


def _decide(store, f: _Flight, prof: profiles.Profile) -> bool:
    """True: write Enter again. Else the dispatch is recorded `unknown` here (or it moved on
    meanwhile and nothing is done)."""
    with store.write() as tx:
        row = tx.one("SELECT s.*, d.state AS dstate FROM sessions s JOIN dispatches d"
                     " ON d.n = s.in_flight WHERE s.id = ?", (f.session,))
        if row is None or (row["state"], row["in_flight"], row["dstate"]) != ("busy", f.n, "sent"):
            return False
        heard = row["last_signal_ns"] is not None and row["last_signal_ns"] > f.enters[0]
        if not heard and len(f.enters) <= prof.enter_retries:
            return True
        why = (f"a signal came from the pane after Enter, but no prompt signal for #{f.n}"
               if heard else f"no signal {prof.prompt_wait_s:g} s after each of"
               f" {len(f.enters)} Enter(s)")
        _unknown(tx, row, f, why, unconfirmed_hint(f.n, len(f.enters), prof.prompt_wait_s))
    return False


def _enter_again(store, io: PaneIO, f: _Flight, prof: profiles.Profile) -> int | None:
    """Write Enter once more and record it; returns when its wait ends."""
    enter_ns = time.time_ns()
    try:
        io.send_keys(f.pane, "Enter")
    except A2AError as exc:
        with store.write() as tx:
            row = tx.one("SELECT * FROM sessions WHERE id = ?", (f.session,))
            _unknown(tx, row, f, f"Enter failed: {exc.message}", None)
        return None
    with store.write() as tx:
        row = tx.one("SELECT attempt_id FROM sessions WHERE id = ?", (f.session,))
        tx.append(RESENT, actor=ACTOR, attempt=row["attempt_id"], session=f.session,
                  payload=DispatchEnterResent(n=f.n, pane=f.pane, enter=len(f.enters) + 1,
                                              enter_ns=enter_ns, after_s=prof.prompt_wait_s,
                                              first_enter_ns=f.enters[0]))
    return enter_ns + int(prof.prompt_wait_s * 1e9)


def _unknown(tx, row, f: _Flight, why: str, hint: str | None) -> None:
    set_dispatch(tx, f.n, "unknown")
    tx.append("dispatch_unknown", actor=ACTOR, attempt=row["attempt_id"], session=f.session,
              payload=DispatchUnknown(n=f.n, pane=f.pane, why=why, enters=len(f.enters)))
    old = pane_of(row)
    save_pane(tx, f.session, old, machine.unconfirmed(old, hint))
    if hint is not None:
        record_hint(tx, f.session, hint, why=NO_PROMPT_SIGNAL, n=f.n)
