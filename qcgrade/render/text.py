"""Human output: each finding as ``path:line:col: check message`` with its line of source, then a summary.

::

    qcgrade/demo/failing.md:10:30: unregistered_metric metric tag {op_margin} is not registered in slice 's2'
       10 | Operating margin improved to {op_margin}. Management credits the new...
          |                              ^^^^^^^^^^^


The first line keeps the ``path:line:col:`` shape editors and ``grep`` read;
the excerpt under it (see :mod:`qcgrade.render.excerpt`) shows the offending
text. A finding with suggested repairs (``check --suggest``) then has one
``help:`` line each, marked when ``--fix`` applies it::

      = help: cite [E001] (--fix applies this) A section that could not be graded is one ``path: error: ...`` line.
``render`` gives plain text (pipes, files, NO_COLOR); ``render_rich`` gives
the same characters styled for a terminal: both are built from one list of
styled pieces, so they cannot drift apart. rich stays inside this module,
imported only when a terminal asks for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..findings import Finding, Graded, Result, Ungraded, graded_only, ungraded_only
from ..spans import LineIndex
from .excerpt import excerpt

#: One styled piece of output: its text and a rich style (None: plain).
Piece = tuple[str, str | None]

_GUTTER = "blue"

if TYPE_CHECKING:
    from rich.text import Text


def _summary(results: Sequence[Result]) -> str:
    graded = graded_only(results)
    errors = len(ungraded_only(results))
    if errors:
        noun = "section" if len(results) == 1 else "sections"
        head = f"error: {errors} of {len(results)} {noun} could not be graded"
        return head + (f"; {_verdict(graded)}" if graded else "")
    return _verdict(graded)


def _verdict(results: Sequence[Graded]) -> str:
    violations = sum(len(r.report.findings) for r in results)
    failed = sum(1 for r in results if not r.report.passed)
    files = len(results)
    noun = "section" if files == 1 else "sections"
    if violations == 0:
        return f"passed: {files} {noun}, 0 violations"
    counts: dict[str, int] = {}
    for result in results:
        for finding in result.report.findings:
            counts[finding.check] = counts.get(finding.check, 0) + 1
    detail = ", ".join(f"{name} {n}" for name, n in sorted(counts.items()))
    plural = "violation" if violations == 1 else "violations"
    return f"failed: {violations} {plural} in {failed} of {files} {noun} ({detail})"


def _finding(path: str, finding: Finding, text: str, index: LineIndex | None, gutter: int) -> list[Piece]:
    pieces: list[Piece] = [
        (f"{path}:{finding.line}:{finding.column}:", "bold"),
        (" ", None),
        (finding.check, "bold red"),
        (f" {finding.message}", None),
        (f" [{finding.rule}]\n" if finding.rule else "\n", _GUTTER if finding.rule else None),
    ]
    if index is None:
        return pieces
    line_start, line_end = index.line_bounds(finding.line)
    shown = excerpt(text, line_start, line_end, finding.start, finding.end)
    number = str(finding.line).rjust(gutter)
    pieces += [(f"  {number} | ", _GUTTER), (shown.source + "\n", None)]
    pieces += [(f"  {' ' * gutter} | ", _GUTTER), (shown.marker, "bold red")]
    if finding.end_line > finding.line:
        pieces.append((f" ...continues to line {finding.end_line}", "red"))
    pieces.append(("\n", None))
    pieces += _help(finding, gutter)
    pieces.append(("\n", None))
    return pieces


def _help(finding: Finding, gutter: int) -> list[Piece]:
    pieces: list[Piece] = []
    for suggestion in finding.suggestions:
        pieces += [(f"  {' ' * gutter} = ", _GUTTER), ("help:", "bold cyan"), (f" {suggestion.message}", None)]
        pieces.append((" (--fix applies this)\n" if suggestion.applies else "\n", None))
    return pieces


def _pieces(results: Sequence[Result]) -> list[Piece]:
    pieces: list[Piece] = []
    for result in results:
        if isinstance(result, Ungraded):
            pieces += [(f"{result.path}:", "bold"), (" ", None), ("error:", "bold red"), (f" {result.error}\n", None)]
            continue
        report = result.report
        # A report built without its text (by hand, in a test) still lists its findings.
        index = LineIndex(report.text) if report.text else None
        gutter = len(str(max((f.line for f in report.findings), default=1)))
        for finding in report.findings:
            pieces += _finding(result.path, finding, report.text, index, gutter)
    summary = _summary(results)
    pieces.append((summary + "\n", "bold green" if summary.startswith("passed") else "bold red"))
    return pieces


def render(results: Sequence[Result]) -> str:
    return "".join(text for text, _ in _pieces(results))


def render_rich(results: Sequence[Result]) -> Text:
    from rich.text import Text

    out = Text()
    for text, style in _pieces(results):
        out.append(text, style=style or "")
    return out
