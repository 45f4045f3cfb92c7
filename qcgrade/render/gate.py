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

from ..auditing.gate import ClassRow, GateResult

#: Column headings, on a terminal and in a pipe alike; :data:`LEGEND` explains the short ones.
HEADERS = ("defect", "QC", "applied", "n/a", "flag", "exact", "Jaccard", "reverted", "rejected")

LEGEND = (
    "flag: share of injections flagged; exact: share where only its own check fired;",
    "Jaccard: overlap of flagged and injected spans; reverted: records that undo it;",
    "QC invisible: every marker intact, so no check can see it (flag 0 by design);",
    "rejected: checked places where the grader did not act as the class demands.",
)

#: Extra columns with ``--grounding``: the same injections graded with the tier-3 checks added.
GROUNDING_HEADERS = ("+g flag", "+g exact", "g Jaccard")

GROUNDING_LEGEND = (
    "+g flag, +g exact: the same with the tier-3 grounding checks added;",
    "g Jaccard: overlap of the grounding findings alone with the injected spans.",
)

#: Left-aligned columns (names and words); the rest are numbers, right-aligned.
_TEXT_COLUMNS = 2


def headers(result: GateResult) -> tuple[str, ...]:
    """The column headings of this table (grounding columns only when it was measured)."""
    return HEADERS + (GROUNDING_HEADERS if result.grounding else ())


def legend(result: GateResult) -> tuple[str, ...]:
    return LEGEND + (GROUNDING_LEGEND if result.grounding else ())


def table_rows(result: GateResult) -> list[tuple[str, ...]]:
    """The table's cells as text, one tuple per class (shared by every renderer)."""
    return [_cells(row) + (_grounding_cells(row) if result.grounding else ()) for row in result.rows]


def _cells(row: ClassRow) -> tuple[str, ...]:
    return (
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


def _grounding_cells(row: ClassRow) -> tuple[str, ...]:
    return (_rate(row.grounding_flag_rate), _rate(row.grounding_exact_check_rate), _rate(row.grounding_jaccard))


def headline(result: GateResult) -> str:
    """One line: what was injected into what."""
    attempts = sum(row.applied + row.not_applicable for row in result.rows)
    noun = "section" if result.sections == 1 else "sections"
    return (
        f"gate: {result.sections} clean {noun}, {len(result.skipped)} skipped, "
        f"{result.seeds} seed(s), {attempts} injection attempts"
    )


def skipped_lines(result: GateResult) -> list[str]:
    lines = [f"skipped {s.id}: fails before injection ({', '.join(s.checks)}; {s.findings} finding(s))" for s in result.skipped]
    lines.extend(
        f"grounding false alarm on clean {s.id}: {', '.join(s.checks)} ({s.findings} finding(s))"
        for s in result.grounding_false_alarms
    )
    return lines


def render_text(result: GateResult) -> str:
    """The gate table as plain ASCII, for pipes and files: the terminal's table with ``-`` for its rule."""
    names = headers(result)
    cells = [names, *table_rows(result)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(names))]

    def line(row: Sequence[str]) -> str:
        parts = [cell.ljust(w) if i < _TEXT_COLUMNS else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))]
        return " ".join(parts)

    rule = "-" * (sum(widths) + len(widths) - 1)
    out = [headline(result), "", line(names), rule, *(line(r) for r in cells[1:]), "", *legend(result)]
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
    # One space between columns (the box's divider) and fixed widths, laid out
    # exactly as render_text lays it out: 80 columns show every cell whole, and a
    # wider table (--grounding) runs past a narrow terminal rather than losing a column.
    names = headers(result)
    widths = [max(len(name), *(len(r[i]) for r in rows)) if rows else len(name) for i, name in enumerate(names)]
    table = Table(box=box.SIMPLE_HEAD, padding=0, show_edge=False, width=sum(widths) + len(widths) - 1)
    for i, (name, width) in enumerate(zip(names, widths)):
        table.add_column(name, justify="left" if i < _TEXT_COLUMNS else "right", no_wrap=True, min_width=width)
    for row, cells in zip(result.rows, rows):
        table.add_row(*(Text(cell) for cell in cells), style=None if row.visible else "magenta")
    parts.append(table)
    parts.append(Text(""))
    parts.extend(Text(line, style="dim") for line in legend(result))
    parts.extend(Text(line, style="yellow") for line in skipped_lines(result))
    return Group(*parts)
