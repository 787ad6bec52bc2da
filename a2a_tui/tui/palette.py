"""The action registry's keys, wherever the user looks: why an action cannot run now (the footer,
the help, the palette say it), a disabled key answered with that reason instead of nothing, and
the command palette listing every action of every scope.

A mixin of the app (it uses the app's panels and screens), like `away.py` and `cardflow.py`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING

from textual.actions import parse as parse_action
from textual.app import SystemCommand
from textual.css.query import NoMatches
from textual.screen import Screen

from a2a_tui.tui import actions
from a2a_tui.tui.panels.base import Panel

if TYPE_CHECKING:
    from textual.app import App

    from a2a_tui.tui.needs import PanelsNeed

    class _Base(PanelsNeed, App[None]):  # what this part needs of the app it is mixed into
        ...
else:
    _Base = object


class Palette(_Base):
    """Why an action is unavailable, and the palette of every action (module docstring)."""

    def why_disabled(self, action: str, params: tuple[object, ...]) -> str | None:
        return None

    def why(self, scope: str, action: str, params: tuple[object, ...],
            screen: Screen | None = None) -> str | None:
        """Why an action of the registry cannot run now (None: it can); `screen` is the one the
        user looks at (under the palette or the help)."""
        if scope == "app":
            return self.why_disabled(action, params)
        if scope == "panel":
            return None
        screen = screen or self.screen
        if getattr(screen, "SCOPE", None) == scope:   # a screen's own keys (checks, diff)
            return screen.why_disabled(action, params)  # type: ignore[attr-defined]
        try:
            return self.panel(scope).why_disabled(action, params)
        except NoMatches:   # the keys of a screen that is not open: nothing to say
            return None

    async def run_action(self, action, default_namespace=None, namespaces=None) -> bool:
        """As Textual's, but a disabled action says why instead of doing nothing."""
        done = await super().run_action(action, default_namespace, namespaces)
        if done or not isinstance(action, str):
            return done
        target = default_namespace if default_namespace is not None else self
        why = getattr(target, "why_disabled", None)
        _, name, params = parse_action(action)
        if target.check_action(name, params) is not None:
            return done   # not dimmed but hidden (a filter box has the keys): no word to say
        reason = why(name, params) if why is not None else None
        if reason:
            self.notify(reason, title="not now", severity="warning", timeout=5)
            return True
        return done

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The command palette lists every action of the registry, whichever panel has the
        focus, each with why it is unavailable right now; a panel's action runs on that panel
        (which takes the focus, so you see what it acted on)."""
        yield from super().get_system_commands(screen)
        for scope in actions.SCOPES:
            target = self._palette_target(scope, screen)
            if target is None:
                continue
            for a in actions.for_scope(scope):
                if a.name == "pick" and a.method != "pick(1)":
                    continue
                reason = self.why(scope, a.name, (1,) if a.name == "pick" else (), screen)
                title = f"{actions.SCOPES[scope]}: {a.label} ({a.keys_shown})"
                help_ = f"unavailable: {reason}" if reason else a.help
                yield SystemCommand(title, help_, partial(self._run_from_palette, a.method,
                                                          target))

    def _palette_target(self, scope: str, screen: Screen) -> object | None:
        """Who runs a scope's actions from the palette: the app, a panel, or the screen the
        palette was opened over (for the keys of that screen); None: not here."""
        if scope == "app":
            return self
        if scope == "panel":
            focused = screen.focused
            return next((n for n in (focused.ancestors_with_self if focused else [])
                         if isinstance(n, Panel)), None)
        if getattr(screen, "SCOPE", None) == scope:
            return screen
        try:
            return self.panel(scope) if screen is self.screen_stack[0] else None
        except NoMatches:
            return None

    async def _run_from_palette(self, method: str, target: object) -> None:
        if isinstance(target, Panel):
            target.table.focus()
        await self.run_action(method, target)  # type: ignore[arg-type]
