"""What the Gate panel opens: a card in full, and the checks of a verify with each one's
output (its kept tail) and, on `l` or Enter, its whole log."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from a2a_tui.gate.views import output_tail
from a2a_tui.tui import actions
from a2a_tui.tui.fmt import check_mark
from a2a_tui.tui.queries import GateRow
from a2a_tui.tui.screens.detail import DetailScreen
from a2a_tui.tui.screens.lines import ContentRead, ContentUnreadable, read_in_worker
from a2a_tui.tui.screens.log import LogRead, LogScreen

if TYPE_CHECKING:
    from a2a_tui.gate.views import CardDetail, CheckOutput

TAIL_LINES = 12


def card_text(d: CardDetail) -> Text:
    """A card's fields as the workbench shows them (the TOML's names, in its order)."""
    b, c = d.body, d.card
    t = Text()
    t.append(f"{c.id} · {b.get('title', c.title)}\n", style="bold")
    t.append(f"version {c.version} · {c.state} · fence {c.fence} · {b.get('task_type', '')}"
             f" · complexity {b.get('complexity', '')}"
             + (f" · ticket {b['source_ticket']}" if b.get("source_ticket") else "") + "\n",
             style="dim")

    def field(name: str, value: Any) -> None:
        if value in (None, "", [], {}):
            return
        t.append(f"\n{name}", style="bold cyan")
        if isinstance(value, list):
            for item in value:
                t.append(f"\n  • {item}")
        else:
            t.append(f"  {value}")

    field("goal", b.get("goal"))
    field("non-goals", b.get("non_goals"))
    field("allowed paths", ", ".join(b.get("allowed_paths", [])))
    field("acceptance", b.get("acceptance"))
    field("acceptance files (the candidate may not change them)", b.get("acceptance_files"))
    field("red command", b.get("red_command"))
    if b.get("needs_user_authorization"):
        field("needs your authorization", "claimed only after an authorized assign")
    ex = b.get("executor") or {}
    field("executor", " ".join(str(ex[k]) for k in ("cli", "model", "effort") if ex.get(k)))
    field("checks", [_check_line(ch) for ch in b.get("checks", [])])
    field("attempts", [f"{a.id}: {a.state} · fence {a.fence} · writer {a.writer}"
                       + (f" · {a.submitted_sha[:12]}" if a.submitted_sha else "")
                       for a in d.attempts])
    return t


def _check_line(ch: dict[str, Any]) -> str:
    kind = "blocking" if ch.get("blocking", True) else "advisory"
    # No timeout_s of its own (None): the gate's (gate.toml [timeouts]).
    timeout = f"{ch['timeout_s']}s" if ch.get("timeout_s") else "the gate's default timeout"
    return f"{ch['name']}: {ch['command']} ({kind}, {timeout})"


class CardScreen(DetailScreen):
    """A card in full (read in a worker from the store)."""

    def __init__(self, card: str, load: Callable[[], CardDetail]) -> None:
        super().__init__(f"card {card}")
        self.load = load

    def body(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text("reading the card…", style="dim"), id="card")

    def on_mount(self) -> None:
        read_in_worker(self, self.load)

    @on(ContentRead)
    def _read(self, message: ContentRead) -> None:
        self.query_one("#card", Static).update(card_text(message.value))

    @on(ContentUnreadable)
    def _unreadable(self, message: ContentUnreadable) -> None:
        self.query_one("#card", Static).update(
            Text(f"{message.message} [{message.code}]", style="bold red"))


class ChecksScreen(DetailScreen):
    """Every check of the attempt's last verify: verdict, kind, blocking, exit, time, detail;
    under it, the highlighted check's output; `l` or Enter opens its whole log."""

    SCOPE = "checks"
    BINDINGS = [Binding("escape,q", "close", "Close", priority=True),
                *actions.bindings("checks")]
    DEFAULT_CSS = """
    ChecksScreen #output { height: auto; max-height: 16; border-top: solid $panel-lighten-2; }
    """

    def __init__(self, row: GateRow, load_outputs: Callable[[], list[CheckOutput]],
                 load_log: Callable[[str], LogRead]) -> None:
        super().__init__(f"{row.attempt} · verify run {row.verify_run} · {row.verify_state}")
        self.row = row
        self.load_outputs = load_outputs
        self.load_log = load_log
        self.outputs: dict[str, CheckOutput] = {}

    def body(self) -> ComposeResult:
        table: DataTable = DataTable(cursor_type="row", id="checks")
        table.styles.height = "auto"
        table.styles.max_height = 14
        yield table
        with VerticalScroll(id="output"):
            yield Static("", id="tail")

    def keys_hint(self) -> str:
        return "↑↓ a check · l or Enter its log · Esc close"

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("", "Check", "Kind", "Blocking", "Exit", "Time", "Detail")
        for c in self.row.checks:
            table.add_row(check_mark(c), c.name, c.kind, "yes" if c.blocking else "no",
                          "" if c.exit_code is None else str(c.exit_code),
                          "" if c.duration_s is None else f"{c.duration_s:.2f}s", c.detail,
                          key=c.name)
        failed = next((i for i, c in enumerate(self.row.checks)
                       if not c.passed and not c.skipped), 0)
        table.move_cursor(row=failed, animate=False)
        table.focus()
        read_in_worker(self, self.load_outputs)

    @property
    def check(self) -> Any:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        return self.row.checks[table.cursor_row]

    @on(ContentRead)
    def _read(self, message: ContentRead) -> None:
        self.outputs = {o.name: o for o in message.value}
        self._show_output()

    @on(ContentUnreadable)
    def _unreadable(self, message: ContentUnreadable) -> None:
        self.query_one("#tail", Static).update(
            Text(f"{message.message} [{message.code}]", style="bold red"))

    def on_data_table_row_highlighted(self, _event: DataTable.RowHighlighted) -> None:
        self._show_output()
        self.refresh_bindings()

    def _show_output(self) -> None:
        c = self.check
        if c is None:
            return
        t = Text()
        t.append(f"{c.name}: ", style="bold")
        t.append(c.detail or ("passed" if c.passed else "failed"))
        out = self.outputs.get(c.name)
        lines = output_tail(out.stdout_tail, out.stderr_tail, TAIL_LINES) if out else []
        if lines:
            t.append(f"\nlast {len(lines)} line(s) of its output:\n", style="dim")
            t.append("\n".join(lines))
        elif out is not None and c.log_path:
            t.append("\nit printed nothing", style="dim")
        if c.log_path:
            t.append(f"\nlog {c.log_path}  (l opens it)", style="dim")
        self.query_one("#tail", Static).update(t)

    def why_disabled(self, action: str, params: tuple[object, ...]) -> str | None:
        c = self.check
        if c is None:
            return "no check has run yet"
        if not c.log_path:
            return (f"{c.name} wrote no log: structural checks keep only their detail, and a"
                    " skipped check did not run")
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return actions.check(self, action, parameters)

    def action_log(self) -> None:
        name, run = self.check.name, self.row.verify_run
        self.app.push_screen(LogScreen(f"{self.row.attempt} · run {run} · {name}",
                                       lambda: self.load_log(name)))
