"""SARIF 2.1.0, the format GitHub code scanning and most CI dashboards ingest.

One run; ``tool.driver.rules`` lists every check (id = check name, so rule ids
never change between releases) with its documentation; each finding becomes a
result whose region carries 1-based line/column with an exclusive end column
(SARIF's convention, and ours) plus the 0-based character offset and length.
Columns count code points, declared by ``columnKind: unicodeCodePoints``.

Code scanning deduplicates alerts across runs by ``partialFingerprints``, so
the fingerprint hashes what a finding *is* (check, file, offending text and
which occurrence of that text it is) and not where it sits: editing a line
above a finding does not turn it into a new alert.

A finding's suggested repairs (``check --suggest``) become the result's
``fixes``, one per suggestion, each a replacement of a region of the section
(an empty region inserts), so a code-scanning UI can offer them; the one
``--fix`` applies says so in its ``properties`` (``applies``).

A section that could not be graded is a ``toolExecutionNotification`` (level
error, with its file) in the run's one invocation, whose
``executionSuccessful`` is then false: code scanning shows it as a tool
problem rather than silently receiving fewer results.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from ..checks import CHECKS, ListedCheck
from ..findings import Finding, Graded, Result, Suggestion, Ungraded, graded_only, ungraded_only
from ..spans import LineIndex

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT_KEY = "qcgrade/v1"


def render(everything: Sequence[Result]) -> str:
    from .. import __version__

    rule_index = {check.name: i for i, check in enumerate(CHECKS)}
    sarif_results = [
        _result(graded, finding, rule_index, occurrence)
        for graded in graded_only(everything)
        for finding, occurrence in _with_occurrences(graded)
    ]
    errors = ungraded_only(everything)
    invocation: dict[str, Any] = {"executionSuccessful": not errors}
    if errors:
        invocation["toolExecutionNotifications"] = [_notification(e) for e in errors]
    run = {
        "tool": {
            "driver": {
                "name": "qcgrade",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [_rule(check) for check in CHECKS],
            }
        },
        "columnKind": "unicodeCodePoints",
        "invocations": [invocation],
        "results": sarif_results,
    }
    log = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def artifact_uri(path: str) -> str:
    """A path as a URI reference: forward slashes, reserved characters percent-encoded."""
    return quote(path.replace("\\", "/"), safe="/-._~")


def fingerprint(check: str, path: str, offending: str, occurrence: int) -> str:
    """A stable identity for a finding that does not depend on its line number."""
    material = "\x1f".join((check, path, offending, str(occurrence)))
    return hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()


def _with_occurrences(graded: Graded) -> list[tuple[Finding, int]]:
    seen: dict[tuple[str, str], int] = {}
    out = []
    for finding in graded.report.findings:
        key = (finding.check, _offending(graded, finding))
        out.append((finding, seen.get(key, 0)))
        seen[key] = seen.get(key, 0) + 1
    return out


def _offending(graded: Graded, finding: Finding) -> str:
    # A report built without its text still gets a stable, if coarser, identity.
    return graded.report.text[finding.start : finding.end] if graded.report.text else finding.message


def _notification(error: Ungraded) -> dict[str, Any]:
    return {
        "level": "error",
        "message": {"text": f"{error.path}: {error.error}"},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": artifact_uri(error.path)}}}],
    }


def _rule(check: ListedCheck) -> dict[str, Any]:
    doc = check.doc.strip()
    return {
        "id": check.name,
        "name": check.name,
        "shortDescription": {"text": check.summary},
        "fullDescription": {"text": doc},
        "help": {"text": doc, "markdown": doc},
        "defaultConfiguration": {"level": "error"},
        "properties": {"tier": check.tier, "tags": ["qcgrade", f"tier{check.tier}"]},
    }


def _result(graded: Graded, finding: Finding, rule_index: dict[str, int], occurrence: int) -> dict[str, Any]:
    offending = _offending(graded, finding)
    region: dict[str, Any] = {
        "startLine": finding.line,
        "startColumn": finding.column,
        "endLine": finding.end_line,
        "endColumn": finding.end_column,
        "charOffset": finding.start,
        "charLength": finding.end - finding.start,
    }
    if graded.report.text and finding.end > finding.start:
        region["snippet"] = {"text": offending}
    result: dict[str, Any] = {
        "ruleId": finding.check,
        "level": "error",
        "message": {"text": finding.message},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": artifact_uri(graded.path)}, "region": region}}],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint(finding.check, graded.path, offending, occurrence)},
    }
    if finding.check in rule_index:
        result["ruleIndex"] = rule_index[finding.check]
    if finding.rule is not None:
        result["properties"] = {"rule": finding.rule}  # the reading or grounding rule that fired
    if finding.suggestions and graded.report.text:
        lines = LineIndex(graded.report.text)
        result["fixes"] = [_fix(graded.path, suggestion, lines) for suggestion in finding.suggestions]
    return result


def _fix(path: str, suggestion: Suggestion, lines: LineIndex) -> dict[str, Any]:
    """A suggested repair as a SARIF fix: one replacement in the section file."""
    start_line, start_column = lines.position(suggestion.start)
    end_line, end_column = lines.position(suggestion.end)
    deleted = {
        "startLine": start_line,
        "startColumn": start_column,
        "endLine": end_line,
        "endColumn": end_column,
        "charOffset": suggestion.start,
        "charLength": suggestion.end - suggestion.start,
    }
    return {
        "description": {"text": suggestion.message},
        "artifactChanges": [
            {
                "artifactLocation": {"uri": artifact_uri(path)},
                "replacements": [{"deletedRegion": deleted, "insertedContent": {"text": suggestion.replacement}}],
            }
        ],
        "properties": {"applies": suggestion.applies},
    }
