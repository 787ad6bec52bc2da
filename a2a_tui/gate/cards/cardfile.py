"""A task card as a file a person edits: the commented template `a2a card new` (and the
workbench's `N`) opens in $EDITOR, the same layout filled with a card's values for an edit, and
the editor command line.

Only goal, non-goals, allowed paths, acceptance and checks are the author's (seed 003): the
template says what each field means and which ones the gate fills in (id, source ticket, title
when left empty, version, start commit, writer).
"""

from __future__ import annotations

import os
import textwrap
from typing import Any

import tomli_w

from a2a_tui.gate.cards.schema import DEFAULT_RED_PATHS

HEADER = """\
# A task card for a2a. Lines starting with # are comments. Write the goal, the non-goals, where
# the worker may change files, how the result is judged and the checks the gate runs; save and
# close the editor: the card is added as a draft (every problem is listed at once, each with its
# line). Leaving the template as it is adds nothing.
# The gate fills in the rest: id (T-<n>), version, source ticket (when left empty), title (the
# goal's first line, when left empty), and at claim the start commit and the sole writer.
"""

# (field, comment above it, default written when the card has none). A field whose default is
# None is written as a comment (optional).
_FIELDS: tuple[tuple[str, str, Any], ...] = (
    ("id", "The card's id: filled in by the gate (T-<n>) when left out.", None),
    ("title", "One line; empty: the goal's first line.", ""),
    ("goal", "What must be true when this is done (one or two sentences).", ""),
    ("non_goals", "At least one thing this task must not do or change.", [""]),
    ("allowed_paths", "Where the worker may change files: globs relative to the repository"
     " (`src/**`, `tests/test_x.py`).", [""]),
    ("acceptance", "How the result is judged: outcomes someone can check.", [""]),
    ("task_type", "feature | bugfix | refactor | test | docs | chore", "feature"),
    ("complexity", "S | M | L", "M"),
    ("source_ticket", "Where this comes from (an issue, U-<n>); empty: filled in by the gate.",
     ""),
    ("red_command", "Optional: a command whose new tests fail on the start commit and pass on"
     " the candidate, e.g. \"python -m pytest -q tests/test_names.py\".", None),
    ("artifacts", "Optional: files the candidate must contain (a file a check runs that does"
     " not exist yet goes here).", None),
    ("acceptance_files", "Optional: files the candidate may not change.", None),
    ("hints", "Optional: hints for the worker, quoted in its task as written. The demo agent"
     " (cli demo, no model or key) does a task only this way: it runs each hint that starts"
     " with `!` in its clone, then delivers.", None),
    ("review", "Optional: \"required\": no integration without an accepted review.", None),
    ("integrate_approval", "Optional: \"user\": no integration without your approval.", None),
)
_CHECK_EXAMPLE = {"name": "tests", "command": "python -m pytest -q", "blocking": True}
_CHECKS_COMMENT = """\
# The checks the gate runs on the worker's commit, in a clean checkout: at least one blocking.
# A command's program must exist in the repository or on the gate's PATH and be allowed by
# .a2a/gate.toml (`a2a gate-rules`); timeout_s is optional (the gate's default otherwise).
"""
_EXECUTOR_COMMENT = """\
# Optional: who should do it (cli: claude | codex | gemini | demo).
"""


def template(title: str = "", project: dict[str, Any] | None = None) -> str:
    """The commented template of a new card (`title` filled in when given; `project`: the
    project's confirmed profile, whose test command the example check runs)."""
    return render({"title": title} if title else {}, project)


def render(card: dict[str, Any], project: dict[str, Any] | None = None) -> str:
    """The card file for `card` (a body, or part of one): every field with its comment, the
    card's value where it has one, else the default (optional fields as comments); a card
    without checks gets an example, the `project` profile's test command when given."""
    out = [HEADER]
    for name, comment, default in _FIELDS:
        value = card.get(name, default)
        unset = value is None or (name in ("review", "integrate_approval") and value == "none") \
            or (name in ("artifacts", "acceptance_files", "hints") and not value)
        line = f"# {name} = {_example(name)}\n" if unset else _assign(name, value)
        out.append("\n" + _comment(comment) + line)
    for name in ("red_paths", "red_timeout_s", "droppable_tests", "needs_user_authorization"):
        value = card.get(name)
        if value not in (None, [], False) and not (name == "red_paths"
                                                     and value == DEFAULT_RED_PATHS):
            out.append(_assign(name, value))
    if card.get("env"):
        out.append("\n" + tomli_w.dumps({"env": card["env"]}))
    out.append("\n" + _CHECKS_COMMENT + _profile_comment(project))
    example = {**_CHECK_EXAMPLE, "command": project["test"]} if project and project.get(
        "test") else _CHECK_EXAMPLE
    for check in card.get("checks") or [example]:
        body = {k: v for k, v in check.items() if v is not None}
        out.append("[[checks]]\n" + tomli_w.dumps(body))
        if "timeout_s" not in body:
            out.append("# timeout_s = 300\n")
    out.append("\n" + _EXECUTOR_COMMENT)
    executor = card.get("executor")
    if executor:
        out.append(tomli_w.dumps({"executor": {k: v for k, v in executor.items() if v}}))
    else:
        out.append('# [executor]\n# cli = "codex"\n# model = ""\n# effort = ""\n')
    return "".join(out)


def _profile_comment(project: dict[str, Any] | None) -> str:
    """What the project's confirmed profile (`a2a profile`) says of its commands, as a comment."""
    if not project:
        return ""
    said = [f"{label} `{project[f]}`" for f, label in (("test", "tests"), ("build", "build"))
            if project.get(f)]
    where = f"; its tests live in {project['tests']}" if project.get("tests") else ""
    return _comment(f"This project ({project.get('language')}, as you confirmed it: `a2a"
                    f" profile`): {', '.join(said)}{where}.")


def _comment(text: str, width: int = 98) -> str:
    return "".join(f"# {line}\n" for line in textwrap.wrap(text, width))


def _assign(name: str, value: Any) -> str:
    text = tomli_w.dumps({name: value}, multiline_strings=False)
    if isinstance(value, list):
        # One item a line, so that an error names the line of the list (and adding one is easy).
        items = "".join(f"    {tomli_w.dumps({'x': v}).split(' = ', 1)[1]}".rstrip("\n") + ",\n"
                        for v in value)
        text = f"{name} = [\n{items}]\n"
    return text


def _example(name: str) -> str:
    return {"id": '"T-1"', "red_command": '"python -m pytest -q tests/test_names.py"',
            "artifacts": '["tests/test_names.py"]', "acceptance_files": '["tests/test_api.py"]',
            "review": '"required"', "integrate_approval": '"user"',
            "hints": """["!echo hello > hello.txt", "!git add hello.txt && git commit -qm hello"]"""
            }.get(name, '""')


def editor_argv(path: str, env: dict[str, str] | None = None) -> list[str]:
    """How $VISUAL, else $EDITOR, else vi opens `path`: through sh, as git does, so that an
    editor given with its options (`code -w`, `emacs -nw`) works."""
    env = os.environ if env is None else env
    editor = env.get("VISUAL") or env.get("EDITOR") or "vi"
    return ["sh", "-c", f'{editor} "$@"', editor, path]


def describe_editor(env: dict[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    return env.get("VISUAL") or env.get("EDITOR") or "vi"
