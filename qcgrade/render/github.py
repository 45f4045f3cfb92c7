"""GitHub Actions workflow commands: one ``::error`` annotation per finding, then a summary.

``::error file=F,line=L,endLine=EL,col=C,endColumn=EC,title=T::MESSAGE``.
Escaping follows the Actions toolkit: in the message ``%``, CR and LF are
percent-encoded; in property values ``:`` and ``,`` are too, since they
delimit properties. GitHub accepts ``col``/``endColumn`` only when the
annotation starts and ends on one line, so a multi-line finding gives lines
only. GitHub shows at most 10 error annotations per step, so the last line is
a plain-text summary that the log always shows in full. A section that could
not be graded is a file-level ``::error`` annotation saying why.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..findings import Finding, Graded, Result, Ungraded, graded_only, ungraded_only

#: Error annotations GitHub displays per step; the rest are only in the log.
ANNOTATIONS_SHOWN_PER_STEP = 10


def escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def annotation(path: str, finding: Finding) -> str:
    props = [f"file={escape_property(path)}", f"line={finding.line}", f"endLine={finding.end_line}"]
    if finding.line == finding.end_line:
        props += [f"col={finding.column}", f"endColumn={finding.end_column}"]
    title = f"qcgrade ({finding.check}{', ' + finding.rule if finding.rule else ''})"
    props.append(f"title={escape_property(title)}")
    return f"::error {','.join(props)}::{escape_data(finding.message)}"


def error_annotation(result: Ungraded) -> str:
    props = f"file={escape_property(result.path)},title={escape_property('qcgrade (not graded)')}"
    return f"::error {props}::{escape_data(result.error)}"


def render(results: Sequence[Result]) -> str:
    lines: list[str] = []
    for result in results:
        if isinstance(result, Graded):
            lines.extend(annotation(result.path, f) for f in result.report.findings)
        else:
            lines.append(error_annotation(result))
    lines.append(summary(results))
    return "\n".join(lines) + "\n"


def summary(everything: Sequence[Result]) -> str:
    results = graded_only(everything)
    errors = len(ungraded_only(everything))
    text = _verdict(results)
    if errors:
        noun = "section" if len(everything) == 1 else "sections"
        text = f"qcgrade: error: {errors} of {len(everything)} {noun} could not be graded; {text.removeprefix('qcgrade: ')}"
    return text


def _verdict(results: Sequence[Graded]) -> str:
    sections = len(results)
    noun = "section" if sections == 1 else "sections"
    violations = sum(len(r.report.findings) for r in results)
    if violations == 0:
        return f"qcgrade: passed: {sections} {noun}, 0 violations"
    failed = sum(1 for r in results if not r.report.passed)
    plural = "violation" if violations == 1 else "violations"
    text = f"qcgrade: failed: {violations} {plural} in {failed} of {sections} {noun}"
    if violations > ANNOTATIONS_SHOWN_PER_STEP:
        text += f" (GitHub shows the first {ANNOTATIONS_SHOWN_PER_STEP} annotations of a step; all are listed above)"
    return text
