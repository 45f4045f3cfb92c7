"""JUnit XML: one ``<testcase>`` per section, a ``<failure>`` listing its violations.

A section that could not be graded is a testcase with an ``<error>`` saying why.

CI systems (Jenkins, GitLab, Azure, most test-report actions) read this
format, so a section shows up as a passing or failing test. Built with
ElementTree, whose escaping handles ``& < > "``; characters XML 1.0 cannot
carry at all (most C0 controls, lone surrogates) are written as Python escapes (``\\x01``, ``\\ud800``) so
hostile paths or messages still give a well-formed document. No timestamps or
durations, so the same results always give the same bytes.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import PurePosixPath

from ..findings import Finding, Graded, Result

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(value: str) -> str:
    return _NOT_XML.sub(lambda m: ascii(m.group())[1:-1], value)


def render(results: Sequence[Result]) -> str:
    failures = sum(1 for r in results if isinstance(r, Graded) and not r.report.passed)
    errors = sum(1 for r in results if not isinstance(r, Graded))
    counts = {"tests": str(len(results)), "failures": str(failures), "errors": str(errors), "skipped": "0"}
    root = ET.Element("testsuites", {"name": "qcgrade", **counts})
    suite = ET.SubElement(root, "testsuite", {"name": "qcgrade", **counts})
    for result in results:
        path = xml_safe(result.path.replace("\\", "/"))
        pure = PurePosixPath(path)
        case = ET.SubElement(suite, "testcase", {"classname": str(pure.parent), "name": pure.name or path, "file": path})
        if not isinstance(result, Graded):
            error = ET.SubElement(case, "error", {"type": "qcgrade", "message": xml_safe(result.error)})
            error.text = xml_safe(f"{path}: error: {result.error}")
            continue
        findings = result.report.findings
        if findings:
            plural = "violation" if len(findings) == 1 else "violations"
            by_check: dict[str, int] = {}
            for finding in findings:
                by_check[finding.check] = by_check.get(finding.check, 0) + 1
            detail = ", ".join(f"{name} {n}" for name, n in sorted(by_check.items()))
            failure = ET.SubElement(case, "failure", {"type": "qcgrade", "message": f"{len(findings)} {plural}: {detail}"})
            failure.text = "\n".join(xml_safe(f"{path}:{f.line}:{f.column}: {f.check} {f.message}{_rule(f)}") for f in findings)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _rule(finding: Finding) -> str:
    return f" [{finding.rule}]" if finding.rule else ""
