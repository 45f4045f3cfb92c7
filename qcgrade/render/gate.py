"""The gate table as text: plain ASCII for pipes and files, a rich table for a terminal.

Pure: :func:`render_text` and :func:`rich_table` format a
:class:`~qcgrade.auditing.gate.GateResult`; the CLI prints them. Both draw
the same cells (:func:`table_rows`) under the same :data:`HEADERS`, and say
in words which classes are QC-invisible, so a pipe, a log file and a
terminal show one table, laid out alike, in 80 columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..auditing.gate import GateResult

#: Column headings, on a terminal and in a pipe alike; :data:`LEGEND` explains the short ones.
HEADERS = ("defect", "QC", "applied", "n/a", "flag", "exact", "Jaccard", "reverted", "rejected")

LEGEND = (
    "flag: share of injections flagged; exact: share where only its own check fired;",
    "Jaccard: overlap of flagged and injected spans; reverted: records that undo it;",
    "QC invisible: every marker intact, so no check can see it (flag 0 by design);",
    "rejected: checked places where the grader did not act as the class demands.",
)

#: Left-aligned columns (names and words); the rest are numbers, right-aligned.
_TEXT_COLUMNS = 2


def table_rows(result: GateResult) -> list[tuple[str, ...]]:
    """The table's cells as text, one tuple per class (shared by every renderer)."""
    return [
        (
            row.defect,
            "visible" if row.visible else "invisible",
            str(row.applied),
            str(row.not_applicable),
            _rate(row.flag_rate),
            _rate(row.exact_check_rate),
            _rate(row.mean_jaccard),
            f"{row.reverted}/{row.applied}",
            f"{row.rejected}/{row.checked}",
        )
        for row in result.rows
    ]


def headline(result: GateResult) -> str:
    """One line: what was injected into what."""
    attempts = sum(row.applied + row.not_applicable for row in result.rows)
    noun = "section" if result.sections == 1 else "sections"
    return (
        f"gate: {result.sections} clean {noun}, {len(result.skipped)} skipped, "
        f"{result.seeds} seed(s), {attempts} injection attempts"
    )


def skipped_lines(result: GateResult) -> list[str]:
    return [f"skipped {s.id}: fails before injection ({', '.join(s.checks)}; {s.findings} finding(s))" for s in result.skipped]


def render_text(result: GateResult) -> str:
    """The gate table as plain ASCII, for pipes and files: the terminal's table with ``-`` for its rule."""
    cells = [HEADERS, *table_rows(result)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(HEADERS))]

    def line(row: Sequence[str]) -> str:
        parts = [cell.ljust(w) if i < _TEXT_COLUMNS else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))]
        return " ".join(parts)

    rule = "-" * (sum(widths) + len(widths) - 1)
    out = [headline(result), "", line(HEADERS), rule, *(line(r) for r in cells[1:]), "", *LEGEND]
    out.extend(skipped_lines(result))
    return "\n".join(out) + "\n"


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def rich_table(result: GateResult) -> object:
    """The same table for a terminal: same columns and words, QC-invisible rows also in magenta."""
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    parts: list[Any] = [Text(headline(result)), Text("")]
    rows = table_rows(result)
    # One space between columns (the box's divider) and fixed minimum widths: 80
    # columns show every cell whole, laid out exactly as render_text lays it out.
    table = Table(box=box.SIMPLE_HEAD, padding=0, show_edge=False)
    for i, name in enumerate(HEADERS):
        width = max(len(name), *(len(r[i]) for r in rows)) if rows else len(name)
        table.add_column(name, justify="left" if i < _TEXT_COLUMNS else "right", no_wrap=True, min_width=width)
    for row, cells in zip(result.rows, rows):
        table.add_row(*(Text(cell) for cell in cells), style=None if row.visible else "magenta")
    parts.append(table)
    parts.append(Text(""))
    parts.extend(Text(line, style="dim") for line in LEGEND)
    parts.extend(Text(line, style="yellow") for line in skipped_lines(result))
    return Group(*parts)
