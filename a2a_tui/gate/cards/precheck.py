"""The card's contract, checked before any of its checks runs: at `card ready` against the target
head (the commit a claim will start from) and at the start of every verify against the attempt's
start commit. A problem found here is the card's, never the worker's (`contract_invalid`).

For each check and the red command:
- it is valid shell, and each program it starts exists — inside the repository at that commit,
  or on the gate's PATH — and is allowed (gate.toml `[commands]`). Programs are read from the
  command line: the first word of each simple command (after `env`, `exec`, `timeout` ... too);
  shell keywords and builtins need no lookup; a program chosen at run time (`$TOOL`, inside
  `sh -c '...'`) is not seen;
- each file it names (a word with a `/` or a file extension, e.g. `tests/test_x.py::test_y`;
  not a URL or a Go package pattern `./...`) exists in that commit, or is declared in the
  card's `artifacts` (the worker writes it); a check that names only such files is refused: it
  would test nothing the card fixed. What the runner writes is not read: the check's `report`,
  a redirection's target and the value of a report option (`--junitfile X`, `--output-junit X`,
  `--test-reporter-destination=X` ...: OUTPUT_OPTIONS). A finding names the word it read;
- its timeout is within the gate's maximum.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from dataclasses import dataclass, field

from a2a_tui.gate.cards.gate_rules import GateRules
from a2a_tui.gate.cards.schema import Card, path_matches
from a2a_tui.git import Git

OPERATORS = set("();<>|&\n")
REDIRECTS = {">", ">>", ">&", "<", "<<", "<&", "<>", ">|", "&>", "&>>"}
KEYWORDS = {"if", "then", "else", "elif", "fi", "while", "until", "do", "done", "!", "{", "}",
            "[[", "]]", "time"}
SKIP_UNTIL_SEPARATOR = {"for", "select", "case", "in", "esac", "function"}
BUILTINS = {":", ".", "source", "break", "continue", "eval", "exec", "exit", "export",
            "readonly", "return", "set", "shift", "times", "trap", "unset", "cd", "echo",
            "printf", "test", "[", "true", "false", "read", "wait", "kill", "pwd", "umask",
            "alias", "unalias", "type", "command", "getopts", "hash", "jobs", "fg", "bg",
            "ulimit", "local"}
# Words after which the next word is again a program (`env X=1 pytest`, `timeout 60 make`).
WRAPPERS = {"exec", "command", "env", "nice", "nohup", "timeout", "xargs", "time"}
# Their arguments are not files the command needs: a test of existence, or text to print.
NOT_FILES = {"test", "[", "[[", "echo", "printf"}
VALUE_OPTIONS = {"-c", "-m", "-k", "-e", "-o"}  # their value is code or a name, not a file
# Their value is a file the runner writes (its report), not one the command reads.
OUTPUT_OPTIONS = {"--junitfile", "--jsonfile", "--junitxml", "--junit-xml", "--output-junit",
                  "--test-reporter-destination", "--outputFile", "--output-file",
                  "--resultlog", "--log-junit"}
URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
FILE_EXTENSIONS = {
    "py", "pyi", "sh", "bash", "js", "mjs", "cjs", "ts", "tsx", "jsx", "rb", "go", "rs", "c",
    "h", "cc", "cpp", "hpp", "java", "kt", "scala", "swift", "cs", "php", "pl", "lua", "r",
    "toml", "json", "yaml", "yml", "ini", "cfg", "txt", "md", "xml", "html", "css", "sql",
    "bats", "mk", "lock", "csv",
}
PLAIN_WORD = re.compile(r"^[\w.@+:/-]+$")
# Arithmetic and parameter expansions hold no commands: read as a plain word.
ARITHMETIC = re.compile(r"\$\(\((?:[^()]|\([^()]*\))*\)\)")
PARAMETER = re.compile(r"\$\{[^}]*\}")


@dataclass
class Parsed:
    programs: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    words: dict[str, str] = field(default_factory=dict)  # a file: the word it was read from

    def read(self, word: str) -> None:
        path = _strip_node(word)
        self.files.append(path)
        self.words.setdefault(path, word)


def parse(command: str) -> Parsed:
    """The programs a shell command line starts and the repository files it names.

    Raises ValueError when the line is not valid shell (an unclosed quote)."""
    # A backslash-newline continues the line (the shell drops both).
    text = PARAMETER.sub("$V", ARITHMETIC.sub("0", command.replace("\\\n", "")))
    lex = shlex.shlex(text, posix=True, punctuation_chars="();<>|&\n")
    lex.whitespace = " \t\r"
    lex.whitespace_split = True
    scan = _Scan(Parsed())
    for word in list(lex):
        scan.word(word)
    return scan.found


@dataclass
class _Scan:
    """The parse's state from one word to the next: whether a program comes next, whether the
    words are skipped up to a separator (`for x in ...`), the wrapper a program follows
    (`timeout 5 pytest`), the word before, and the program whose arguments these are."""

    found: Parsed
    expect_program: bool = True
    skip: bool = False
    wrapped: str = ""
    after: str = ""
    program: str = ""

    def word(self, word: str) -> None:
        if word and set(word) <= OPERATORS:  # ; && || | & ( ) newline, or a redirection
            self._operator(word)
        elif self.after in REDIRECTS:
            self._redirected(word)
        elif self.skip:
            self.skip = word not in ("do", "then")
            self.expect_program = not self.skip
        elif self.expect_program:
            self._program(word)
        else:
            self._argument(word)

    def _argument(self, word: str) -> None:
        option, eq, value = word.partition("=")
        if self.after in OUTPUT_OPTIONS:
            self.found.outputs.append(word)
        elif eq and option in OUTPUT_OPTIONS:
            self.found.outputs.append(value)
        elif self.after not in VALUE_OPTIONS and self.program not in NOT_FILES \
                and _file_like(word):
            self.found.read(word)
        self.after = word

    def _operator(self, word: str) -> None:
        self.skip = self.skip and word not in (";", "\n")
        # After `)` (a subshell's or a `$(...)`'s end) come arguments, not a program.
        self.expect_program = word not in REDIRECTS and word != ")"
        self.after, self.wrapped = word, ""

    def _redirected(self, word: str) -> None:
        """The target of a redirection: written, or read."""
        if self.after.startswith("<") and _file_like(word):
            self.found.read(word)
        self.after = ""
        self.expect_program = False

    def _program(self, word: str) -> None:
        self.after = word
        if word in SKIP_UNTIL_SEPARATOR:
            self.skip = True
            return
        if word in KEYWORDS or ASSIGNMENT.match(word) or self._wrapper_argument(word):
            return
        if "$" not in word and "`" not in word and word not in BUILTINS:
            self.found.programs.append(word)
        self.program = word
        if word in WRAPPERS:
            self.wrapped = word
            return
        self.expect_program, self.wrapped = False, ""
        if "/" in word and not word.startswith("/"):  # a script of the repository
            self.found.read(word)

    def _wrapper_argument(self, word: str) -> bool:
        """An option of the wrapper before its program, or `timeout`'s duration."""
        if self.wrapped and word.startswith("-"):
            return True
        return self.wrapped == "timeout" and bool(re.match(r"^[0-9.]+[smhd]?$", word))


def _strip_node(word: str) -> str:
    """`tests/test_x.py::test_y` names the file `tests/test_x.py`."""
    return word.split("::", 1)[0].removeprefix("./")


def _file_like(word: str) -> bool:
    path = _strip_node(word)
    if word.startswith("-") or path.startswith("/") or not PLAIN_WORD.match(path) \
            or URL.match(word) or path == "..." or path.endswith("/..."):
        return False
    if "/" in path:
        return True
    ext = path.rsplit(".", 1)[-1] if "." in path else ""
    return ext.lower() in FILE_EXTENSIONS


@dataclass(frozen=True)
class Runner:
    """What the programs are looked up in: the commit's tree and the gate's PATH."""

    git: Git
    commit: str
    path: str


def problems(card: Card, rules: GateRules, runner: Runner) -> list[str]:
    """Everything wrong with the card's contract, one line each (empty: the contract holds)."""
    found: list[str] = []
    commands = [(f"check {c.name}", c.command, c.timeout_s, True) for c in card.checks]
    reports = {f"check {c.name}": c.report for c in card.checks}
    if card.red_command:
        commands.append(("red_command", card.red_command, card.red_timeout_s, False))
        reports["red_command"] = card.red_report
    parsed: dict[str, Parsed] = {}
    for what, command, timeout, _ in commands:
        if timeout is not None and timeout > rules.timeouts.max_s:
            found.append(f"{what}: timeout {timeout}s is above the gate's maximum"
                         f" {rules.timeouts.max_s}s (gate.toml [timeouts] max_s)")
        try:
            parsed[what] = _without_report(parse(command), reports.get(what))
        except ValueError as exc:
            found.append(f"{what}: not valid shell: {exc}")
    named = sorted({f for p in parsed.values() for f in p.files})
    present = runner.git.paths_exist(runner.commit, [f for f in named if _inside(f)])
    for what, _command, _timeout, is_check in commands:
        if what not in parsed:
            continue
        p = parsed[what]
        for program in p.programs:
            problem = _program_problem(program, rules, runner, present)
            if problem:
                found.append(f"{what}: {problem}")
        written = []
        for f in dict.fromkeys(p.files):
            if not _inside(f):
                found.append(f"{what}: {f} is outside the repository")
            elif present.get(f):
                continue
            elif path_matches(f, card.artifacts):
                written.append(f)
            else:
                found.append(f"{what}: takes the word {p.words.get(f, f)!r} for a path: {f}"
                             f" is not in the start commit {runner.commit[:12]} (a file the"
                             " worker writes belongs in artifacts; the runner's report is the"
                             " check's `report`)")
        if is_check and written and len(written) == len(
                [f for f in dict.fromkeys(p.files) if _inside(f)]):
            found.append(f"{what}: runs only files the worker writes ({', '.join(written)}):"
                         " it would pass on whatever the worker puts there; run them beside"
                         " tests of the start commit, or through the red command")
    return found


def _without_report(p: Parsed, report: str | None) -> Parsed:
    """The check's `report` is what the runner writes: an output, not a file it reads."""
    if report:
        kept = [f for f in p.files if not path_matches(f, [report])]
        p.outputs += [f for f in p.files if f not in kept]
        p.files = kept
    return p


def _inside(path: str) -> bool:
    return ".." not in path.split("/")


def _program_problem(program: str, rules: GateRules, runner: Runner,
                     present: dict[str, bool]) -> str | None:
    if program.startswith("/"):
        if not (os.path.isfile(program) and os.access(program, os.X_OK)):
            return f"program {program} does not exist on this machine"
    elif "/" in program:
        rel = program.removeprefix("./")
        if not present.get(rel):
            return f"program {program} is not in the start commit {runner.commit[:12]}"
        if rules.commands.repository:
            return None
    elif shutil.which(program, path=runner.path) is None:
        return f"program {program!r} is not found on the gate's PATH"
    if not rules.allows_program(program):
        shown = ", ".join(rules.commands.allow[:8]) + (" …" if len(rules.commands.allow) > 8
                                                      else "")
        return f"program {program!r} is not allowed (gate.toml [commands] allow: {shown})"
    return None
