"""Whether a new version of a card weakens the checks of the version before it.

After a claim, a card's checks are what the writer's work is judged by; a controller that makes
them weaker (a check dropped or made advisory, a command changed, the red step or a required
review taken off, a test report no longer read, the scope widened) decides what "done" means
for work already under way. That is the user's decision (`add_card`): a session's weaker
version is refused (`card_weakened`).
"""

from __future__ import annotations

from a2a_tui.gate.cards.schema import Card, Check


def weakenings(old: Card, new: Card) -> list[str]:
    """What `new` drops or relaxes of `old`'s checks and contract, in words (empty: nothing)."""
    found: list[str] = []
    checks = {c.name: c for c in new.checks}
    for c in old.checks:
        if (relaxed := _check_relaxed(c, checks.get(c.name))) is not None:
            found.append(f"check {c.name!r} {relaxed}")
    if old.red_command and new.red_command != old.red_command:
        found.append("red_command removed or changed")
    elif old.red_report and new.red_report != old.red_report:
        found.append("red_report removed or changed")
    for field in ("allowed_paths", "droppable_tests"):
        added = sorted(set(getattr(new, field)) - set(getattr(old, field)))
        if added:
            found.append(f"{field} widened by {', '.join(added)}")
    for field in ("acceptance_files", "artifacts", "acceptance", "red_paths"):
        gone = sorted(set(getattr(old, field)) - set(getattr(new, field)))
        if gone:
            found.append(f"{field} lost {', '.join(gone)}")
    if new.env != old.env:
        found.append("env changed")
    for field, strong in (("review", "required"), ("integrate_approval", "user")):
        if getattr(old, field) == strong and getattr(new, field) != strong:
            found.append(f"{field} no longer {strong!r}")
    if old.needs_user_authorization and not new.needs_user_authorization:
        found.append("needs_user_authorization dropped")
    return found


def _check_relaxed(old: Check, new: Check | None) -> str | None:
    """How the new version of a check is weaker than the old one (the first way), if it is."""
    if new is None:
        return "removed"
    if new.command != old.command:
        return "runs another command"
    if old.blocking and not new.blocking:
        return "no longer blocks"
    if (new.timeout_s or 0) > (old.timeout_s or 0) and old.timeout_s is not None:
        return "has a longer timeout"
    if old.report and new.report != old.report:
        # Its tests are held to the base's one by one only through its report (per_test).
        return "reads its test report elsewhere, or none"
    return None
