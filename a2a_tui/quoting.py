"""Text an agent wrote, quoted by what it claims to be before a2a shows it to another agent or
to the user.

A file name in a candidate, a review issue's title, a check's output: each reaches another
agent inside a2a's own prompts, where a line reading `⟦主控 #9 · 用户⟧` would pass for the
user's own marker. Escaping one code point is not enough (a newline in a file name starts a
line; `〚`, `【`, `［` or a fullwidth form read the same to a model). So:

- `name` is for what is one line by nature (a path, a title, an id): every line break, tab,
  control and format character is written as an escape (`\\n`, `\\u202e`), so it stays one line
  and nothing in it is invisible;
- `body` is for text of many lines (a report, a check's output): lines kept, every other
  control and format character written as an escape;
- both neutralise what could read as a2a's marker: a backslash before every bracket that looks
  like the marker's (`⟦⟧〚〛【】［］`, the other CJK and fullwidth brackets) and before the
  marker's words (主控, 门禁), as the marker's pattern does not take an escaped one.
"""

from __future__ import annotations

import re
import unicodedata

# Brackets that read as the marker's ⟦ ⟧: the marker's own, the CJK and fullwidth ones, the
# mathematical white ones.
LOOKALIKE = "⟦⟧〚〛【】［］〔〕〘〙〖〗⦃⦄⦅⦆｟｠⟬⟭⟪⟫⁅⁆﹝﹞〈〉《》「」『』｢｣"
MARKER_WORDS = ("主控", "门禁")
# Not after a backslash: quoting twice adds nothing.
_MARKERS = re.compile(r"(?<!\\)(?:" + "|".join([f"[{re.escape(LOOKALIKE)}]", *MARKER_WORDS])
                      + ")")
_BREAKS = "\n\r\t\v\f\x85\u2028\u2029"


def _visible(ch: str) -> str:
    if ch in "\n\t\r":
        return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


def _hidden(ch: str) -> bool:
    """A character that acts on the text rather than showing (controls, format characters
    such as bidi overrides and zero-width joiners, separators, lone surrogates)."""
    return unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def neutralise(text: str) -> str:
    """A backslash before every marker look-alike bracket and every marker word."""
    return _MARKERS.sub(lambda m: "\\" + m.group(), text)


def name(text: str) -> str:
    """`text` kept to one line, nothing invisible, no marker: for a path, a title, an id."""
    return neutralise("".join(_visible(c) if c in _BREAKS or _hidden(c) else c for c in text))


def body(text: str) -> str:
    """`text` with its lines (and tabs) kept, every other control or format character visible,
    no marker: for a report, a reason, a check's output."""
    return neutralise("".join(c if c in "\n\t" or not (c in _BREAKS or _hidden(c))
                              else _visible(c) for c in text))


def terminal(text: str) -> str:
    """`text` for the user's terminal: lines and tabs kept (a CR just before a LF too), every
    other control or format character visible, so an escape sequence an agent wrote (in a
    title, a file, a check's output) cannot act on the terminal — clear it, retitle it, write
    over a line — and a bidi override cannot reorder what is shown. Markers are left alone:
    the user reads them, no model does. Lines of ordinary text cost one `isprintable`."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if not line.isprintable():
            crlf = line.endswith("\r")
            core = line[:-1] if crlf else line
            lines[i] = "".join(c if c == "\t" or not (c in _BREAKS or _hidden(c))
                               else _visible(c) for c in core) + ("\r" if crlf else "")
    return "\n".join(lines)
