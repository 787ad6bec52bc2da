"""From an idea to a running agent without leaving the workbench: `N` writes a card in the
user's $EDITOR (the workbench steps aside while it runs, as lazygit does for a commit message),
every problem of it listed at once with the way back into the editor; `e` edits a card; `r`
makes it ready with the card shown; `C` claims it and starts a session on the attempt, which
is given its task as its first prompt.

A mixin of the app (it uses the app's services and panels), like `away.py`.
"""

# Imports inside functions: the card model (pydantic) and the forms load when first used, not
# for the workbench's first frame (bench/run_all.py --only workbench).

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.app import SuspendNotSupported

from a2a_tui.errors import A2AError
from a2a_tui.tui.messages import ActionRequested, CardAdded, CardClaimed, CardReady, UserActed

if TYPE_CHECKING:
    from textual.app import App

    from a2a_tui.tui.needs import CardFlowNeeds

    class _Base(CardFlowNeeds, App[None]):  # what this part needs of the app it is mixed into
        ...
else:
    _Base = object


class CardFlows(_Base):
    """What the app does with task cards (see the module's docstring)."""

    # --- writing a card -----------------------------------------------------------------------
    def action_new_card(self) -> None:
        path, template = self.services.gate.new_card_file()
        self.edit_card_file(path, template, new=True)

    def edit_card(self, card: str) -> None:
        """`e` on the Gate panel: the card's current version in the editor."""
        try:
            path, text = self.services.gate.edit_card_file(card)
        except A2AError as err:
            self.notify(f"{err.message} [{err.code}]", title=f"edit {card}", severity="error")
            return
        self.edit_card_file(path, text, new=False)

    def edit_card_file(self, path: Path, untouched: str, *, new: bool) -> None:
        """Open the editor on the file; what it leaves there is added (in a worker)."""
        code = self.run_editor(path)
        if code != 0:
            self.notify(f"the editor exited {code}: nothing added; the card is in {path}",
                        title="card", severity="error", timeout=15)
            return
        if path.read_text(encoding="utf-8") == untouched:
            if new:
                path.unlink(missing_ok=True)
            self.notify("the card was not changed: nothing added", title="card", timeout=5)
            return
        self.add_card_file(path, untouched, new)

    def run_editor(self, path: Path) -> int:
        """$VISUAL / $EDITOR on the file, in this terminal: the screen is handed to it and
        taken back after (where the app cannot give its terminal away, as under a test, the
        editor runs without it)."""
        from a2a_tui.gate.cards.cardfile import editor_argv
        from a2a_tui.tui.up import editor_env

        argv = editor_argv(str(path), editor_env(self.services.repo, self.services.tmux_socket))
        try:
            with self.suspend():
                return subprocess.run(argv).returncode
        except SuspendNotSupported:
            return subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True
                                  ).returncode

    @work(thread=True, exit_on_error=False, group="cards", name="add card")
    def add_card_file(self, path: Path, untouched: str, new: bool) -> None:
        try:
            done = self.services.gate.add_card_file(path, new=new)
        except A2AError as err:
            self.call_from_thread(self.card_refused, err, path, untouched, new)
            return
        self.post_message(CardAdded(done.summary, done.data))

    def card_refused(self, err: A2AError, path: Path, untouched: str, new: bool) -> None:
        """Every problem of the card at once; `e` opens the editor on it again."""
        from a2a_tui.tui.screens.cards import CardProblemsScreen

        problems = err.details.get("problems") if err.code == "bad_card" else None
        if not problems:
            self.notify(f"{err.message} [{err.code}]", title="card", severity="error",
                        timeout=15)
            return

        def then(again: bool | None) -> None:
            if again:
                self.edit_card_file(path, untouched, new=new)
            else:
                self.notify(f"kept in {path}: N opens it again (or `a2a card add {path}`)",
                            title="card", timeout=10)

        self.push_screen(CardProblemsScreen(path, [str(p) for p in problems]), then)

    # Handlers by name (on_<message>): Textual reads `@on` only from the app's own class body.
    def on_card_added(self, message: UserActed) -> None:
        self.show_row("gate", message.data["card"])

    # --- ready, claim, and a session on the attempt -----------------------------------------
    @work(thread=True, exit_on_error=False, group="cards", name="card for ready")
    def ready_card(self, card: str) -> None:
        """`r`: the card in full, and a yes to make it ready."""
        try:
            detail = self.services.reads.card_detail(card)
        except A2AError as err:
            self.post_message_refused(card, err)
            return
        self.call_from_thread(self._ask_ready, card, detail)

    def _ask_ready(self, card: str, detail) -> None:
        from rich.text import Text

        from a2a_tui.tui.screens.confirm import ConfirmScreen
        from a2a_tui.tui.screens.gate import card_text

        def then(yes: bool | None) -> None:
            if yes:
                self.post_message(ActionRequested(f"ready {card}",
                                                  lambda w: w.gate.ready_card(card), CardReady))

        text = card_text(detail)
        text.append(Text("\n\nOnce ready it can be claimed (C); a change of its contract makes"
                         " it a draft again.", style="dim"))
        self.push_screen(ConfirmScreen(f"Ready {card} v{detail.card.version}?", text,
                                       yes="y: ready"), then)

    def claim_card(self, card: str, attempt: str | None = None) -> None:
        """`C`: claim the card; once the attempt is there, the form starts its session. With
        `attempt` (the card claimed already, no session on it), the form for that attempt."""
        if attempt is not None:
            self.offer_worker(card, attempt)
            return
        self.post_message(ActionRequested(f"claim {card}", lambda w: w.gate.claim(card),
                                          CardClaimed))

    def ask_claim_again(self, card: str, why: str) -> None:
        """`C` on a card whose work was integrated: said, and claimed only on a yes."""
        from rich.text import Text

        from a2a_tui.tui.screens.confirm import ConfirmScreen

        def then(yes: bool | None) -> None:
            if yes:
                self.post_message(ActionRequested(f"claim {card} again",
                                                  lambda w: w.gate.claim(card, again=True),
                                                  CardClaimed))

        self.push_screen(ConfirmScreen(f"Claim {card} again?", Text(why.split(";")[0] + "."),
                                       yes="y: claim again"), then)

    def on_card_claimed(self, message: UserActed) -> None:
        self.offer_worker(message.data["card"], message.data["attempt"])

    @work(thread=True, exit_on_error=False, group="cards", name="worker form")
    def offer_worker(self, card: str, attempt: str) -> None:
        """The form that starts a worker on `attempt`: the user's settings, the card's executor
        (its CLI first when installed) and which CLIs are installed, read off the UI thread."""
        from a2a_tui.profiles import CLIS, installed

        try:
            settings = self.services.settings()
            executor = self.services.reads.card_detail(card).body.get("executor") or {}
        except A2AError as err:
            self.call_from_thread(self.notify, f"{err.message} [{err.code}]",
                                  title="new session", severity="error")
            return
        here = frozenset(c for c in CLIS if installed(c))
        self.call_from_thread(self._worker_form, attempt, settings, executor.get("cli", ""),
                              here)

    def _worker_form(self, attempt: str, settings, preferred: str, here: frozenset) -> None:
        from a2a_tui.profiles import CLIS
        from a2a_tui.tui.messages import SessionStarted
        from a2a_tui.tui.screens.session_form import NewSessionScreen, SessionSpec

        def start(spec: SessionSpec | None) -> None:
            if spec is not None:
                self.post_message(ActionRequested(f"start a {spec.role} on {attempt}",
                                                  lambda w: w.sessions.new_session(spec),
                                                  SessionStarted))

        self.push_screen(NewSessionScreen(settings.launch, list(settings.roles), CLIS,
                                          [attempt], role="worker", attempt=attempt,
                                          title=f"Start a session on {attempt}", assign=True,
                                          preferred=preferred, here=here), start)

    def post_message_refused(self, what: str, err: A2AError) -> None:
        from a2a_tui.tui.messages import UserActionRefused

        self.post_message(UserActionRefused(what, err.code, err.message))
