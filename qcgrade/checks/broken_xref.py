"""A cross-reference points to a section the slice does not allow.

Why it matters: ``§id`` promises the reader a section to turn to; an id
outside the slice's ``xref`` list is a dead link in the finished report.

Fails (the slice allows s5 and sec-2)::

    See the competitive landscape (see §s9).

Passes::

    See the competitive landscape (see §s5).

Examples are graded against the slice ``tests/cases/slice.json``.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..evidence import EvidenceSlice
from ..findings import Finding
from ..options import Options
from ..reading.section import Section
from .base import Check

NAME = "broken_xref"


def run(section: Section, evidence: EvidenceSlice, options: Options) -> Iterator[Finding]:
    allowed = evidence.xref_ids
    for marker in section.xrefs:
        if marker.id not in allowed:
            message = f"cross-reference §{marker.id} is not an allowed section of slice {evidence.section!r}"
            yield section.finding(NAME, marker.start, marker.end, message, marker.id)


CHECK = Check(NAME, 1, run, __doc__ or "")
