"""Terminal input bytes to keys: typed text, control keys, Esc, and bracketed pastes.

Whatever bytes arrive, decoding never raises: invalid UTF-8 becomes U+FFFD, unknown escape
sequences become an ignored `seq` key. A bracketed paste (ESC[200~ ... ESC[201~, tmux
`paste-buffer -p`, PROTOCOLS.md D) is one `paste` key holding the literal text, newlines
included, however many reads it spans.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
# A lone ESC at the end of a read may be the start of a sequence split across reads; it counts
# as the Esc key only when nothing follows within this many seconds. 30 ms lost a paste's
# ESC[200~ to the Esc key beside two busy loops on 2 cores; 100 ms is vim's default ttimeoutlen.
ESC_TIMEOUT = 0.1

CONTROL_KEYS = {
    "\r": "enter",
    "\n": "newline",     # Ctrl-J: insert a newline, as in Claude Code
    "\x7f": "backspace",
    "\x08": "backspace",
    "\x15": "ctrl-u",
    "\x04": "ctrl-d",
    "\x03": "ctrl-c",
    "\t": "tab",
}


@dataclass(frozen=True)
class Key:
    """One input event. `name` is text|paste|enter|newline|backspace|ctrl-*|esc|tab|seq|other."""

    name: str
    text: str = ""


class KeyDecoder:
    """Incremental decoder: feed raw bytes, get keys; `flush()` after ESC_TIMEOUT of silence."""

    def __init__(self) -> None:
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buf = ""
        self._paste: list[str] | None = None

    def feed(self, data: bytes) -> list[Key]:
        self._buf += self._utf8.decode(data)
        return self._parse(final=False)

    def flush(self) -> list[Key]:
        """Resolve a pending lone ESC (or a truncated sequence) now."""
        return self._parse(final=True)

    @property
    def waiting_for_escape(self) -> bool:
        """True when a lone ESC (or partial sequence) waits for more bytes."""
        return self._paste is None and self._buf.startswith("\x1b")

    @property
    def in_paste(self) -> bool:
        return self._paste is not None

    def _parse(self, final: bool) -> list[Key]:
        keys: list[Key] = []
        s = self._buf
        i = 0
        while i < len(s):
            if self._paste is not None:
                j = s.find(PASTE_END, i)
                if j < 0:
                    keep = _partial_suffix(s, i, PASTE_END)
                    self._paste.append(s[i:len(s) - keep])
                    i = len(s) - keep
                    break
                self._paste.append(s[i:j])
                keys.append(Key("paste", "".join(self._paste)))
                self._paste = None
                i = j + len(PASTE_END)
                continue
            c = s[i]
            if c == "\x1b":
                used = self._escape(s, i, final, keys)
                if used == 0:
                    break  # wait for the rest of the sequence
                i += used
                continue
            if c in CONTROL_KEYS:
                keys.append(Key(CONTROL_KEYS[c]))
                i += 1
                continue
            if ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0:
                keys.append(Key("other", c))
                i += 1
                continue
            j = i
            while j < len(s) and s[j] != "\x1b" and s[j] not in CONTROL_KEYS and not (
                    ord(s[j]) < 0x20 or 0x7f <= ord(s[j]) < 0xa0):
                j += 1
            keys.append(Key("text", s[i:j]))
            i = j
        self._buf = s[i:]
        return keys

    def _escape(self, s: str, i: int, final: bool, keys: list[Key]) -> int:
        """Consume an escape sequence at s[i]; return chars used (0 = need more input)."""
        rest = s[i:]
        if rest.startswith(PASTE_START):
            self._paste = []
            return len(PASTE_START)
        if len(rest) == 1:
            if final:
                keys.append(Key("esc"))
                return 1
            return 0
        nxt = rest[1]
        if nxt == "[":
            j = 2
            while j < len(rest) and 0x20 <= ord(rest[j]) <= 0x3F:
                j += 1
            if j >= len(rest):
                # Unfinished: wait for the rest (a paste start may be split across reads),
                # unless time is up or it is too long to be a real sequence.
                if final or j > 32:
                    keys.append(Key("esc"))
                    return 1
                return 0
            if 0x40 <= ord(rest[j]) <= 0x7E:
                keys.append(Key("seq", rest[:j + 1]))
                return j + 1
            keys.append(Key("esc"))
            return 1
        if nxt == "O":
            if len(rest) < 3:
                if final:
                    keys.append(Key("esc"))
                    return 1
                return 0
            keys.append(Key("seq", rest[:3]))
            return 3
        # ESC followed by anything else (another ESC, a letter: Alt-x): the Esc key, then the
        # rest is parsed on its own. An Esc must never be lost: it is the interrupt.
        keys.append(Key("esc"))
        return 1


def _partial_suffix(s: str, start: int, marker: str) -> int:
    """Length of the longest tail of s[start:] that is a proper prefix of `marker`."""
    for n in range(min(len(marker) - 1, len(s) - start), 0, -1):
        if marker.startswith(s[len(s) - n:]):
            return n
    return 0
