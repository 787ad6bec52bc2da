""""Did you mean": an unknown card, attempt or session id is answered with the existing one it
most likely meant (`T-1` for `t1`, `T-3-a1` for `T-3-a2` when only a1 exists)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from a2a_tui.errors import A2AError

# The error codes that name an id the store does not have, and where such ids live.
_TABLES = {"unknown_card": ("card", "SELECT id FROM cards"),
           "unknown_attempt": ("attempt", "SELECT id FROM attempts"),
           "unknown_session": ("session", "SELECT id FROM sessions")}
_ASKED = re.compile(r"no (?:card|attempt|session) '([^']*)'")


def suggest(err: A2AError, argv: Sequence[str]) -> A2AError:
    """`err` with "; did you mean 'T-1'?" when it names an unknown id and one is near; else
    `err` itself. Reading the store for it never hides the error: any failure keeps `err`."""
    if err.code not in _TABLES:
        return err
    m = _ASKED.search(err.message)
    if not m:
        return err
    try:
        known = _known(err.code, argv)
    except Exception:  # a hint must never replace the error it adds to
        return err
    near = nearest(m.group(1), known)
    if near is None:
        return err
    return A2AError(err.code, f"{err.message}; did you mean '{near}'?", exit_code=err.exit_code,
                    details={**err.details, "did_you_mean": near})


def nearest(asked: str, known: Sequence[str]) -> str | None:
    """The known id closest to `asked`: the same but for case, `-` and `_`, else the closest
    by spelling (difflib's ratio, at least 0.6)."""
    def norm(s: str) -> str:
        return re.sub(r"[-_ ]", "", s.lower())

    same = [k for k in known if norm(k) == norm(asked)]
    if same:
        return same[0]
    by_norm = {norm(k): k for k in known}
    close = difflib.get_close_matches(norm(asked), list(by_norm), n=1, cutoff=0.6)
    return by_norm[close[0]] if close else None


def _known(code: str, argv: Sequence[str]) -> list[str]:
    # lazy: only an unknown id pays for opening the store
    from a2a_tui.repo import find_repo

    repo_arg = None
    for i, a in enumerate(argv):
        if a == "--repo" and i + 1 < len(argv):
            repo_arg = argv[i + 1]
        elif a.startswith("--repo="):
            repo_arg = a.split("=", 1)[1]
    store = find_repo(repo_arg).store()
    try:
        return [r[0] for r in store.all(_TABLES[code][1])]
    finally:
        store.close()
