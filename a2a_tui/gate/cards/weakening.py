"""Whether a new version of a card weakens the checks of the version before it.

After a claim, a card's checks are what the writer's work is judged by; a controller that makes
them weaker (a check dropped or made advisory, a command changed, the red step or a required
review taken off, a test report no longer read, the scope widened) decides what "done" means
for work already under way. That is the user's decision (`add_card`): a session's weaker
version is refused (`card_weakened`).
"""

from __future__ import annotations

from a2a_tui.gate.cards.schema import Card


def weakenings(old: Card, new: Card) -> list[str]:
    """What `new` drops or relaxes of `old`'s checks and contract, in words (empty: nothing)."""
    found: list[str] = []
    checks = {c.name: c for c in new.checks}
    for c in old.checks:
        n = checks.get(c.name)
        if n is None:
            found.append(f"check {c.name!r} removed")
        elif n.command != c.command:
            found.append(f"check {c.name!r} runs another command")
        elif c.blocking and not n.blocking:
            found.append(f"check {c.name!r} no longer blocks")
        elif (n.timeout_s or 0) > (c.timeout_s or 0) and c.timeout_s is not None:
            found.append(f"check {c.name!r} has a longer timeout")
        elif c.report and n.report != c.report:
            # Its tests are held to the base's one by one only through its report (per_test).
            found.append(f"check {c.name!r} reads its test report elsewhere, or none")
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
