"""A rule file changed but not accepted: the user hears of it once, on the board.

`.a2a/gate.toml` and `.a2a/config.toml` are in force only as the user accepted them
(`Repo.rule_file`; `a2a gate-rules accept`, gate/cards/gate_rules.py). A file that says
something else — edited by the user, or written by an agent's shell — changes nothing;
`flag_pending` records it once per content (`rules_pending`, with the diff from what is in
force) and puts a protected item on the board, which only the user closes; accepting the file
closes it.
"""

from __future__ import annotations

import difflib

from a2a_tui.collab.board import close_in_tx, post_finding_in_tx
from a2a_tui.payloads.rules import RulesPending
from a2a_tui.repo import RULE_FILES, Repo, RuleFile

TITLE = "{label} changed: not in force until you accept it"


def diff(rule: RuleFile) -> str:
    """The file's change from the text in force, as a unified diff."""
    if rule.unreadable is not None:
        return f"(a2a cannot read {rule.label}: {rule.unreadable})\n"
    return "".join(difflib.unified_diff(rule.text.splitlines(keepends=True),
                                        (rule.disk or "").splitlines(keepends=True),
                                        fromfile="in force", tofile=rule.label))


def pending(repo: Repo) -> list[RuleFile]:
    """The rule files whose content is not the one in force."""
    return [r for r in (repo.rule_file(n) for n in RULE_FILES) if r.pending]


def flag_pending(repo: Repo, store) -> list[str]:
    """Record each pending change once (per content) and put it on the board; the items
    posted now."""
    found = pending(repo)
    if not found:
        return []
    posted = []
    with store.write() as tx:
        for rule in found:
            seen = tx.one("SELECT 1 FROM events WHERE kind = 'rules_pending' AND"
                          " json_extract(payload, '$.file') = ? AND"
                          " json_extract(payload, '$.digest') = ?",
                          (rule.label, rule.disk_digest))
            if seen:
                continue
            change = diff(rule)
            title = TITLE.format(label=rule.label)
            open_item = _open_item(tx, rule.label)
            item = open_item or post_finding_in_tx(
                tx, title=title, category="security", actor="gate", session=None,
                body=f"{rule.label} says something other than the rules in force. A file any"
                     " process of yours can write (an agent's shell too) changes nothing until"
                     f" you accept it: look at the change, then `a2a gate-rules accept`.\n\n"
                     f"{change[:4000]}")
            tx.append("rules_pending", actor="gate",
                      payload=RulesPending(file=rule.label, digest=rule.disk_digest,
                                           in_force=rule.digest, diff=change, item=item))
            if open_item is None:
                posted.append(item)
    return posted


def close_flags_in_tx(tx, label: str, reason: str) -> list[str]:
    """Close the open board item about `label` (the user accepted it); the items closed."""
    item = _open_item(tx, label)
    if item is None:
        return []
    close_in_tx(tx, item, reason, actor="user", session=None, role=None)
    return [item]


def _open_item(tx, label: str) -> str | None:
    row = tx.one("SELECT i.id FROM board_items i WHERE i.title = ? AND NOT EXISTS (SELECT 1"
                 " FROM board_records r WHERE r.item_id = i.id AND r.kind = 'close')"
                 " ORDER BY i.seq DESC LIMIT 1", (TITLE.format(label=label),))
    return row["id"] if row else None
