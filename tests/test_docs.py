"""The documentation says what the code does (issue 26): the references docs/generate.py writes
are the ones checked in; every link in README.md and docs/ resolves, to a file and a heading;
the README is short and starts with its two commands; the workbench's picture is there; the
examples a reference shows are valid for the code that reads them; no figure is typed by hand
(figures are quoted from bench/REPORT.md); prose shows as written on a forge."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

import pytest

from a2a_tui import settings
from a2a_tui.gate.cards.schema import Card, Check, Executor, parse_card

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
REGENERATE = ".venv/bin/python docs/generate.py"
HEAD = """# a2a

```sh
python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/a2a demo
```
<!-- test-command -->
```sh
python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m pytest -q -n 3
```
"""


def generator():
    spec = importlib.util.spec_from_file_location("docs_generate", DOCS / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def hand_written() -> list[Path]:
    return generator().hand_written()


FENCED = re.compile(r"^(```+|~~~+).*?^\1\s*$", re.S | re.M)
INLINE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
REGION = re.compile(r"<!-- gen:.*?<!-- /gen -->", re.S)
COMMENT = re.compile(r"<!--.*?-->", re.S)


def prose(text: str) -> str:
    """What a page says in its own words: code blocks, code spans, generated regions and
    comments taken out."""
    for pattern in (REGION, FENCED, COMMENT, INLINE):
        text = pattern.sub(" ", text)
    return text


# --- the generated references ---------------------------------------------------------------
def test_the_generated_references_are_what_the_code_says():
    late = generator().stale()
    assert late == [], f"stale: {', '.join(late)}. Regenerate with: {REGENERATE}"


def test_a_stale_reference_is_found(tmp_path, monkeypatch):
    gen = generator()
    path = ROOT / "docs" / "reference" / "cli.md"
    monkeypatch.setitem(gen.FILES, "docs/reference/cli.md", lambda: path.read_text() + "more\n")
    assert gen.stale() == ["docs/reference/cli.md"]


def test_the_workbench_picture_is_there_and_shown():
    svg = DOCS / "images" / "workbench.svg"
    assert svg.is_file(), f"no picture: {REGENERATE} --picture"
    text = svg.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<svg") and text.rstrip().endswith("</svg>")
    for panel in ("Sessions", "Board", "Inbox", "Gate", "Events"):
        assert panel in text, f"the picture shows no {panel} panel"
    assert "](docs/images/workbench.svg)" in (ROOT / "README.md").read_text(encoding="utf-8")


# --- links ----------------------------------------------------------------------------------
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)


def slug(heading: str) -> str:
    """The anchor a forge gives a heading (GitHub's rules)."""
    text = re.sub(r"<[^>]+>", "", heading).replace("`", "").lower().strip()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in a page (a repeated one gets -1, -2, ...)."""
    text = FENCED.sub("", path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    out = set()
    for m in HEADING.finditer(text):
        base = slug(m[2])
        n = seen.get(base, 0)
        out.add(base if n == 0 else f"{base}-{n}")
        seen[base] = n + 1
    return out | set(re.findall(r'<a (?:id|name)="([^"]+)"', text))


def links(path: Path) -> list[str]:
    text = FENCED.sub("", path.read_text(encoding="utf-8"))
    return LINK.findall(INLINE.sub("", text))


def broken(path: Path) -> list[str]:
    out = []
    for target in links(path):
        if re.match(r"[a-z][a-z+.-]*:", target):       # https:, mailto: — not ours to walk
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.exists():
            out.append(f"{target}: no such file")
        elif anchor and (dest.suffix != ".md" or anchor not in anchors(dest)):
            out.append(f"{target}: no such heading")
    return out


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_resolves(page):
    assert broken(page) == []


def test_a_broken_link_or_anchor_is_found(tmp_path):
    (tmp_path / "a.md").write_text("# Top\n\n## Second part\n\n[ok](#second-part) [ok](b.md#b)"
                                   " [gone](c.md) [no heading](b.md#nope) `[code](x.md)`\n")
    (tmp_path / "b.md").write_text("# B\n")
    assert broken(tmp_path / "a.md") == ["c.md: no such file", "b.md#nope: no such heading"]


def test_anchors_are_the_forges():
    assert slug("The gate's record of each target") == "the-gates-record-of-each-target"
    assert slug("The `a2a` command line") == "the-a2a-command-line"
    assert slug("a2a card add") == "a2a-card-add"


# --- the README -----------------------------------------------------------------------------
def test_the_readme_is_short_and_starts_with_its_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    assert text.startswith(HEAD), "the two commands at the top changed (.ci/run runs the second)"
    needs = " ".join(text[len(HEAD):].strip().split("\n\n")[0].split())
    for word in ("Python 3.11", "tmux", "git", "npm", "network"):
        assert word in needs, f"the needs line does not name {word}"


# --- the examples the references show are valid ----------------------------------------------
def block_after(path: Path, heading: str, lang: str = "toml") -> str:
    text = path.read_text(encoding="utf-8")
    part = text[text.index(heading):]
    return re.search(rf"^```{lang}\n(.*?)^```", part, re.S | re.M)[1]


def test_the_card_example_is_a_valid_card_that_shows_every_field():
    text = block_after(DOCS / "reference" / "card.md", "## An example with every field")
    parse_card(text)                       # raises bad_card with every problem
    data = tomllib.loads(text)
    assert set(Card.model_fields) <= set(data), set(Card.model_fields) - set(data)
    assert set(Check.model_fields) <= set(data["checks"][0])
    assert set(Executor.model_fields) <= set(data["executor"])


def test_the_config_example_is_a_valid_config_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(block_after(DOCS / "reference" / "config.md", "## An example"))
    got = settings.load(user_config=path)   # raises bad_config naming the field
    assert got.stall["codex"].hint_after_s == 900 and got.roles["worker"].cli == "codex"


# --- figures and prose ------------------------------------------------------------------------
# A timing or a ratio in a page's own words: it must be quoted from bench/REPORT.md instead
# (a `gen:bench` region), or be one of these constants of behaviour, not measurements.
FIGURE = re.compile(r"~\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:ms|µs|ns|s|min)\b)?"
                    r"|\b\d[\d,]*(?:\.\d+)?\s?(?:ms|µs|ns|s|min)\b|\d(?:\.\d+)?×")
CONSTANTS = {
    "500 ms",      # tmux's escape-time default; the capture-pane poller's interval
    "10 s",        # `a2a down` waits for the agents' processes; Enter not seen submitted
    "15 s",        # the store's busy timeout
    "100 ms",      # confinement's aim: at most this much more per program start
    "2 s",         # a full disk: the orchestrator tries again at most this often
    "1 s",         # Gemini's first paste waits until the pane has been idle this long
    "300",         # (not a figure: a timeout in seconds in a TOML example)
    "1.5×",        # the benchmarks' aim
    "1.00×",       # the limit itself
    "30 s",        # the broker reads a command's stdin this long at most
    "3 s",         # a broker client told of a signal waits this long for its command
}


def typed_figures(path: Path) -> list[str]:
    found = [m[0] for m in FIGURE.finditer(prose(path.read_text(encoding="utf-8")))]
    return [f for f in found if " ".join(f.split()) not in CONSTANTS]


@pytest.mark.parametrize("page", hand_written(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_figure_is_typed_by_hand(page):
    assert typed_figures(page) == [], "quote it from bench/REPORT.md: <!-- gen:bench ... -->"


def test_a_typed_figure_is_found(tmp_path):
    page = tmp_path / "p.md"
    page.write_text('Opens in ~0.6 s, 16 µs an event, 4.3× the limit; quoted: <!-- gen:bench "x"'
                    ' median -->343 ms<!-- /gen -->; `12 ms` in code; tmux waits 500 ms.\n')
    assert typed_figures(page) == ["~0.6 s", "16 µs", "4.3×"]


# A forge drops what looks like an HTML tag (`T-<n>` shows as "T-"): in prose, write it in a
# code span or escape it.
TAG = re.compile(r"<(?!/?(?:a|img|br|sub|sup|details|summary|kbd|em|strong)\b)[/A-Za-z][^>]*>")


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_prose_shows_as_written(page):
    assert TAG.findall(prose(page.read_text(encoding="utf-8"))) == []


def test_a_tag_in_prose_is_found():
    text = "The id is T-<n>; in code `T-<n>` is fine, so are <kbd>q</kbd> and <!-- a comment -->."
    assert TAG.findall(prose(text)) == ["<n>"]


def test_the_state_diagram_and_table_name_every_attempt_state():
    from a2a_tui.gate.model import ACTIVE, ENDED

    text = (DOCS / "reference" / "attempt-states.md").read_text(encoding="utf-8")
    diagram = re.search(r"```mermaid\n(.*?)```", text, re.S)[1]
    drawn = set(re.findall(r"(\w+) -->", diagram)) | set(re.findall(r"--> (\w+)", diagram))
    table = {s for row in re.findall(r"^\| (`[^|]+) \|", text, re.M)
             for s in re.findall(r"`(\w+)`", row)}
    assert drawn == table == set(ACTIVE) | set(ENDED), (drawn, table)
