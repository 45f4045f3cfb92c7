"""The gate table as text: plain ASCII for pipes and files, a rich table for a terminal.

Pure: :func:`render_text` and :func:`rich_table` format a
:class:`~qcgrade.auditing.gate.GateResult`; the CLI prints them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..auditing.gate import GateResult

_HEADERS = (
    "defect",
    "QC",
    "applied",
    "n/a",
    "flag rate",
    "exact check",
    "span jaccard",
    "reverted",
    "places",
    "rejected",
)


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
            str(row.places),
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
    """The gate table as plain ASCII, for pipes and files."""
    cells = [_HEADERS, *table_rows(result)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(_HEADERS))]
    numeric = range(2, len(_HEADERS))

    def line(row: Sequence[str]) -> str:
        parts = [cell.rjust(w) if i in numeric else cell.ljust(w) for i, (cell, w) in enumerate(zip(row, widths))]
        return "| " + " | ".join(parts) + " |"

    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    out = [headline(result), "", rule, line(_HEADERS), rule, *(line(r) for r in cells[1:]), rule]
    out.extend(skipped_lines(result))
    return "\n".join(out) + "\n"


def headers() -> tuple[str, ...]:
    return _HEADERS


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def rich_table(result: GateResult) -> object:
    """The same table for a terminal: compact, QC-invisible classes in magenta, nothing cut."""
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    parts: list[Any] = [Text(headline(result))]
    short = ("defect", "applied", "n/a", "flag", "exact", "jaccard", "reverted", "places", "rejected")
    rows = [(cells[0], *cells[2:]) for cells in table_rows(result)]
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, collapse_padding=True)
    for i, name in enumerate(short):
        width = max(len(name), *(len(r[i]) for r in rows)) if rows else len(name)
        table.add_column(name, justify="left" if i == 0 else "right", no_wrap=True, min_width=width)
    for row, cells in zip(result.rows, rows):
        table.add_row(*cells, style=None if row.visible else "magenta")
    parts.append(table)
    parts.append(Text("flag: share flagged; exact: only its own check; magenta: QC-invisible classes", style="dim"))
    parts.extend(Text(line, style="yellow") for line in skipped_lines(result))
    parts.append(Text(""))
    return Group(*parts)
