"""The workbench's hands on sessions and their panes: prompts, pause and release, a session
started, restarted, revived, forked or ended, and what waits for the user. Each is carried out
through the core (`a2a_tui.panes.control`, `a2a_tui.lifecycle`) and, where it is a decision,
recorded as a user input (U-<n>)."""

# Imports inside functions: the core areas (collab, panes, gate, tmux), in the methods that use
# them; the workbench's first frame needs none of them (the gate alone, with pydantic, costs
# ~0.1 s).

from __future__ import annotations

from a2a_tui.errors import A2AError
from a2a_tui.tui.services.base import SOURCE, USER, Done, Part


class Sessions(Part):
    """Sessions and panes (the sessions panel, the waiting screen)."""

    def inject(self, sid: str, text: str) -> Done:
        """The user's prompt for a pane: one user input (message) and the dispatch carrying it,
        in one transaction (the same call as `a2a inject`, recording the user input)."""
        from a2a_tui.panes import control

        with self.store() as s:
            r = control.inject(s, sid, text, source="user", actor=USER, user_input_from=SOURCE)
        self._wake()
        return Done(f"{control.queued_line(r, 'p on the Sessions panel')} · {r.user_input}",
                    r.to_json())

    def set_paused(self, sids: list[str] | None, paused: bool) -> Done:
        """Pause or resume the named sessions (None: every session that has not exited)."""
        from a2a_tui.panes import control

        verb = "pause" if paused else "resume"
        with self.store() as s:
            changed = control.set_paused(s, sids, paused, actor=USER)
            what = "all" if sids is None else ", ".join(sids)
            uid = self._record(s, "action", f"{verb} {what}",
                               to_session=sids[0] if sids and len(sids) == 1 else None)
        self._wake()
        done = ", ".join(changed) if changed else "nothing changed"
        return Done(f"{verb}d {done} · {uid}", {"changed": changed, "paused": paused,
                                               "user_input": uid})

    def release(self, sid: str) -> Done:
        """Declare a pane idle (after an Esc interrupt, or a 'probably idle' hint)."""
        from a2a_tui.panes import control

        with self.store() as s:
            r = control.release(s, sid, actor=USER)
            uid = self._record(s, "action", f"release {sid} (was {r.was})", to_session=sid)
        self._wake()
        return Done(f"released {sid} (was {r.was}) · {uid}", {**r.to_json(), "user_input": uid})

    def jump(self, sid: str) -> Done:
        """Show the session's pane in tmux (its window becomes the current one). Navigation,
        not a decision: nothing is recorded."""
        from a2a_tui.tmux import Tmux

        with self.store() as s:
            row = s.one("SELECT pane_id, tmux_socket, state FROM sessions WHERE id = ?", (sid,))
        if row is None or not row["pane_id"]:
            raise A2AError("no_pane", f"session {sid} has no pane")
        followed = Tmux(row["tmux_socket"]).show_pane(row["pane_id"])
        where = "" if followed else " (attach to tmux to see it)"
        return Done(f"tmux shows {sid} in pane {row['pane_id']}{where}",
                    {"session": sid, "pane": row["pane_id"], "client_followed": followed})

    def new_session(self, spec) -> Done:
        """Start a session (`a2a session new`), recorded as the user's input."""
        from a2a_tui import lifecycle

        with self.store() as s:
            r = lifecycle.new(self._gate(s), self.settings(), role=spec.role, cli=spec.cli,
                              model=spec.model, effort=spec.effort, options=spec.options,
                              attempt=spec.attempt, tmux_socket=self.tmux_socket, source=SOURCE,
                              assign=spec.assign)
        return Done(f"started {lifecycle.describe(r)} · {r.user_input}", r.to_json())

    def restart(self, sid: str) -> Done:
        """Start an exited session again (`a2a session restart`)."""
        from a2a_tui import lifecycle

        with self.store() as s:
            r = lifecycle.restart(self._gate(s), sid, source=SOURCE)
        return Done(f"restarted {lifecycle.describe(r)} · {r.user_input}", r.to_json())

    def end_session(self, sid: str) -> Done:
        """End a session (`a2a session end`): its pane is closed, its queue kept."""
        from a2a_tui import lifecycle

        with self.store() as s:
            r = lifecycle.end(self._gate(s), sid, source=SOURCE)
        return Done(f"ended {sid} (pane {r.pane} closed) · {r.user_input}", r.to_json())

    def revive(self, sid: str) -> Done:
        """Start an exited session again on its CLI's own conversation (`a2a session
        revive`); a fresh one where the CLI cannot resume, said so."""
        from a2a_tui import lifecycle

        with self.store() as s:
            r = lifecycle.revive(self._gate(s), sid, source=SOURCE)
        return Done(lifecycle.describe_revive(r), r.to_json())

    def fork(self, sid: str) -> Done:
        """A new session on a copy of the session's conversation (`a2a session fork`)."""
        from a2a_tui import lifecycle

        with self.store() as s:
            r = lifecycle.fork(self._gate(s), sid, tmux_socket=self.tmux_socket, source=SOURCE)
        return Done(lifecycle.describe_fork(r), r.to_json())

    def waiting_seen(self) -> Done:
        """The user has looked at what waits: rejections and stops so far count as seen."""
        from a2a_tui.panes.calls import mark_seen

        with self.store() as s:
            r = mark_seen(s)
        return Done(f"rejections and stops up to event #{r['upto']} seen", r)

    def stop_orchestrator(self) -> int | None:
        """Stop the repository's orchestrator running in another process (quitting for good)."""
        from a2a_tui.panes.orchestrator import stop_running

        return stop_running(self.repo)
