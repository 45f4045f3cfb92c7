"""Test helpers: assert that a section passes, with a failure that lists every violation.

``assert_passes`` works in any test runner; the pytest plugin
(:mod:`qcgrade.testing.plugin`) exposes it as the ``qcgrade_assert`` fixture and
uses :func:`check_section_file` for the section files it collects. A failure
reads like a linter's output::

    section failed 2 qcgrade checks
      7:88 bare_number number '93%' has no valid citation ...: "93%"
      27:18 orphan_citation citation [EV-999] names no card of slice 's3': "EV-999"
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path

from ..errors import SectionFailure
from ..evidence import SliceLike
from ..files import InputError, read_section, read_slice, slice_beside
from ..findings import Finding, Report
from ..grader import grade
from ..options import Options

#: Longest offending text quoted in full; longer text keeps its two ends.
_QUOTE_LIMIT = 60


def format_failure(report: Report, path: str | None = None) -> str:
    """The summary line, then one line per violation: ``[path:]line:col check message: "text"``."""
    count = len(report.findings)
    lines = [f"section failed {count} qcgrade check{'' if count == 1 else 's'}"]
    prefix = f"{path}:" if path else ""
    for finding in report.findings:
        where = f"{prefix}{finding.line}:{finding.column}"
        lines.append(f"  {where} {finding.check} {finding.message}{_quoted(report.text, finding)}")
    return "\n".join(lines)


def _quoted(text: str, finding: Finding) -> str:
    offending = text[finding.start : finding.end]
    if not offending:
        return ""
    if len(offending) > _QUOTE_LIMIT:
        half = _QUOTE_LIMIT // 2
        offending = offending[:half] + "..." + offending[-half:]
    # JSON escaping keeps the quote on one line whatever the text holds.
    return ": " + json.dumps(offending, ensure_ascii=False)


def assert_passes(
    section: str,
    slice: SliceLike,
    options: Options | None = None,
    *,
    tier2: bool | None = None,
    grounding: bool | None = None,
) -> Report:
    """Grade ``section`` against ``slice``; raise :class:`SectionFailure` listing every violation.

    ``options`` defaults to qcgrade's defaults (the pytest fixture passes the
    project's configuration); ``tier2`` and ``grounding`` override it.
    Returns the (passing) report. A bad slice raises
    :class:`~qcgrade.evidence.SliceError`, not an assertion failure: it is a
    broken test, not a failing section.
    """
    __tracebackhide__ = True  # pytest shows the caller's line, not this one
    report = grade(section, slice, options, tier2=tier2, grounding=grounding)
    if not report.passed:
        raise SectionFailure(format_failure(report), report)
    return report


def check_section_file(
    path: Path,
    options: Options | None = None,
    *,
    tier2: bool | None = None,
    grounding: bool | None = None,
    display: str | None = None,
) -> Report:
    """Grade ``NAME.md`` against ``NAME.json`` (or ``NAME.slice.json``) beside it.

    Raises :class:`~qcgrade.files.InputError` (one line naming the file) for
    an unreadable section or a missing or bad slice, and :class:`SectionFailure`
    when the section fails; ``display`` is the path shown in violation lines.
    """
    text = read_section(path)
    beside = slice_beside(path)
    if beside is None:
        raise InputError(f"{display or path}: no slice beside it: expected {path.stem}.json or {path.stem}.slice.json")
    report = grade(text, read_slice(beside), options, tier2=tier2, grounding=grounding)
    if not report.passed:
        raise SectionFailure(format_failure(report, display or str(path)), report)
    return report


def glob_matcher(patterns: Iterable[str]) -> Callable[[str], bool]:
    """A test for ``/``-separated relative paths against glob patterns.

    ``*`` and ``?`` stay within one path segment, ``[...]`` is a character
    class and ``**`` spans any number of directories, none included, so
    ``reports/**/*.md`` matches ``reports/a.md`` and ``reports/x/y/a.md``.
    """
    compiled = [re.compile(_glob_regex(p.strip().strip("/"))) for p in patterns if p.strip()]
    return lambda rel: any(rx.fullmatch(rel) for rx in compiled)


def _glob_regex(pattern: str) -> str:
    parts: list[str] = []
    segments = pattern.split("/")
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            parts.append(".*" if last else "(?:[^/]*/)*")
            continue
        parts.append(_segment_regex(segment) + ("" if last else "/"))
    return "".join(parts)


def _segment_regex(segment: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(segment):
        char = segment[i]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and "]" in segment[i + 2 :]:
            end = segment.index("]", i + 2)
            body = segment[i + 1 : end]
            negate = body.startswith("!")
            body = re.escape(body[1:] if negate else body).replace("\\-", "-")
            out.append(f"[^/{body}]" if negate else f"[{body}]")
            i = end
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


__all__ = ["SectionFailure", "assert_passes", "check_section_file", "format_failure", "glob_matcher"]
