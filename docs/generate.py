"""Write every reference in docs/ from the code, and the figures README.md and docs/ quote from
bench/REPORT.md; so no hand-kept table or figure can drift from what the code says.

    .venv/bin/python docs/generate.py             # write what changed, and say which files
    .venv/bin/python docs/generate.py --check     # write nothing; exit 1 naming what is stale
    .venv/bin/python docs/generate.py --picture   # also retake docs/images/workbench.svg

Two kinds of output:
- whole files (FILES below): docs/reference/cli.md, keys.md, error-codes.md and events.md,
  each from its producer in docs/refgen/;
- regions inside hand-written Markdown: `<!-- gen:NAME ARGS -->` ... `<!-- /gen -->`, the text
  between the two comments written by the producer NAME (REGIONS below) — a table, a TOML file
  of defaults, a diagram, or inline a figure quoted from bench/REPORT.md
  (`<!-- gen:bench "MEASURE" median -->343 ms<!-- /gen -->`).

The picture (`--picture`) is taken from a real `a2a demo` on a private tmux server with
Textual's own screenshot support; it needs tmux and takes a minute, so it is retaken only when
asked (tests/test_docs.py checks that it is there).

tests/test_docs.py runs `stale()`: a checked-in file that differs from what the code says
fails it, with the command above.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
sys.path[:0] = [str(DOCS), str(ROOT)]

from refgen import (  # noqa: E402  (after the path: docs/ is no package)
    bench_ref,
    cli_ref,
    codes_ref,
    events_ref,
    keys_ref,
    markdown,
    models_ref,
)

COMMAND = ".venv/bin/python docs/generate.py"

FILES: dict[str, Callable[[], str]] = {
    "docs/reference/cli.md": cli_ref.render,
    "docs/reference/keys.md": keys_ref.render,
    "docs/reference/error-codes.md": codes_ref.render,
    "docs/reference/events.md": events_ref.render,
}

REGIONS: dict[str, Callable[..., str]] = {
    "bench": bench_ref.quote,
    "bench-table": bench_ref.quote_table,
    "bench-machine": bench_ref.quote_machine,
    "card-fields": models_ref.card_fields,
    "gate-toml": models_ref.gate_toml,
    "gate-toml-fields": models_ref.gate_toml_fields,
    "config-defaults": models_ref.config_defaults,
    "repo-config": models_ref.repo_config,
    "roles": models_ref.roles,
    "broker-commands": models_ref.broker_commands,
    "cli-env": models_ref.cli_env,
    "real-cli-pins": models_ref.real_cli_pins,
    "layers": models_ref.layers,
}

REGION = re.compile(r"<!-- gen:(?P<name>[\w-]+)(?P<args>[^>]*?) -->(?P<body>.*?)<!-- /gen -->",
                    re.S)


def hand_written() -> list[Path]:
    """README.md and every Markdown file under docs/ that is not a whole generated file."""
    generated = {ROOT / f for f in FILES}
    return [ROOT / "README.md", *sorted(p for p in DOCS.rglob("*.md") if p not in generated)]


def fill(text: str, where: str) -> str:
    """`text` with every region rewritten by its producer; a block region keeps its newlines."""
    def one(m: re.Match) -> str:
        name, args = m["name"], shlex.split(m["args"])
        if name not in REGIONS:
            raise markdown.Unwritable(f"{where}: no producer for region gen:{name}")
        body = REGIONS[name](*args)
        if m["body"].startswith("\n"):     # a block: the comments on lines of their own
            body = f"\n{body.strip()}\n"
        return f"<!-- gen:{name}{m['args']} -->{body}<!-- /gen -->"
    return REGION.sub(one, text)


def wanted() -> dict[Path, str]:
    """Every file this script writes, with what it should hold."""
    out = {ROOT / path: render() for path, render in FILES.items()}
    for path in hand_written():
        if path.exists():
            text = path.read_text(encoding="utf-8")
            out[path] = fill(text, str(path.relative_to(ROOT)))
    return out


def stale() -> list[str]:
    """The files (relative to the checkout) that differ from what the code says."""
    return [str(p.relative_to(ROOT)) for p, text in wanted().items()
            if not p.exists() or p.read_text(encoding="utf-8") != text]


def write() -> list[str]:
    changed = []
    for path, text in wanted().items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            changed.append(str(path.relative_to(ROOT)))
    return changed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    ap.add_argument("--picture", action="store_true",
                    help="also retake docs/images/workbench.svg from a real `a2a demo`")
    args = ap.parse_args(argv)
    try:
        return run(args)
    except markdown.Unwritable as exc:
        print(f"docs/generate.py: {exc}", file=sys.stderr)
        return 1


def run(args: argparse.Namespace) -> int:
    if args.check:
        late = stale()
        for path in late:
            print(f"stale: {path}")
        if late:
            print(f"regenerate with: {COMMAND}")
        return 1 if late else 0
    for path in write():
        print(f"wrote {path}")
    if args.picture:
        from refgen import picture  # lazy: tmux, a demo and Textual only when asked

        print(f"wrote {picture.take(ROOT / picture.PATH)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
