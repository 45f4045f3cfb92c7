"""Human output: ``path:line:col: check message`` lines, then a summary.

``render`` gives plain text (pipes, files, NO_COLOR); ``render_rich`` gives
the same lines styled for a terminal. rich stays inside this module, imported only when a terminal asks for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..findings import Graded

if TYPE_CHECKING:
    from rich.text import Text


def _summary(results: Sequence[Graded]) -> str:
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


def render(results: Sequence[Graded]) -> str:
    lines = [f"{r.path}:{f.line}:{f.column}: {f.check} {f.message}" for r in results for f in r.report.findings]
    lines.append(_summary(results))
    return "\n".join(lines) + "\n"


def render_rich(results: Sequence[Graded]) -> Text:
    from rich.text import Text

    out = Text()
    for result in results:
        for f in result.report.findings:
            out.append(f"{result.path}:{f.line}:{f.column}:", style="bold")
            out.append(" ")
            out.append(f.check, style="bold red")
            out.append(f" {f.message}\n")
    summary = _summary(results)
    out.append(summary + "\n", style="bold green" if summary.startswith("passed") else "bold red")
    return out
