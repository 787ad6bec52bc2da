"""The project's profile (rule 8, collab/project.py): `a2a profile`, `a2a profile confirm`."""

# Imports inside functions: each command imports what it runs when it runs (a2a's start-up:
# tests/test_startup.py, bench/bench_cli.py).

from __future__ import annotations

from a2a_tui.cli.output import Result


def _lines(profile) -> list[str]:
    from a2a_tui.collab.project import FIELDS

    return [f"  {f}: {getattr(profile, f) or '-'}" for f in FIELDS]


def cmd_profile(ctx, args) -> Result:
    from a2a_tui.collab.project import detect, profile_confirmed

    found, given = detect(ctx.repo.root), profile_confirmed(ctx.store)
    text = [f"detected (from {found.source or 'no marker file'}"
            + (f"; also {', '.join(found.also)}" if found.also else "") + "):",
            *_lines(found.profile)]
    text += (["confirmed (event " + str(given.seq) + "), given to the controllers and the"
              " card template:", *_lines(given.profile)] if given else
             ["not confirmed: nothing is given out until you run `a2a profile confirm`"])
    return Result({"detected": found.to_json(), "confirmed": given.to_json() if given else None},
                  "\n".join(text))


def cmd_profile_confirm(ctx, args) -> Result:
    from a2a_tui.collab.project import confirm_in_tx, detect, edited
    from a2a_tui.collab.user_input import record_user_input_in_tx

    found = detect(ctx.repo.root)
    profile = edited(found.profile, args.set or [])
    with ctx.store.write() as tx:
        uid = record_user_input_in_tx(tx, "action", "confirm the project profile", source="cli",
                                      details={"profile": profile.to_json(),
                                               "edits": args.set or []})
        seq = confirm_in_tx(tx, profile, found, args.set or [], ctx.caller.actor, uid)
    return Result({"profile": profile.to_json(), "event": seq, "user_input": uid},
                  "\n".join([f"confirmed the project profile · {uid}", *_lines(profile)]))
