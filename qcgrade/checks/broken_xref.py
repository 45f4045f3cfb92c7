"""A cross-reference points to a section the slice does not allow.

Why it matters: ``§id`` promises the reader a section to turn to; an id
outside the slice's ``xref`` list is a dead link in the finished report.
A numbered section (``§ 7 of the Clayton Act``, ``15 U.S.C. § 18``) is
another document's section, not a cross-reference, unless the slice's own
xref ids are numbers; its number is read as a number, which needs a
citation like any other.

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
from ..reading.lexicon import NUMBERED_SECTION
from ..reading.section import Section
from .base import Check

NAME = "broken_xref"


def run(section: Section, evidence: EvidenceSlice, options: Options) -> Iterator[Finding]:
    allowed = evidence.xref_ids
    # A numbered section ("§ 7 of the Clayton Act") points into a statute, not
    # into this report, unless the report numbers its own sections.
    numbered = any(NUMBERED_SECTION.fullmatch(x) for x in allowed)
    for marker in section.xrefs:
        if marker.id not in allowed:
            if not numbered and NUMBERED_SECTION.fullmatch(marker.id):
                continue
            message = f"cross-reference §{marker.id} is not an allowed section of slice {evidence.section!r}"
            yield section.finding(NAME, marker.start, marker.end, message, marker.id, "marker.xref")


CHECK = Check(NAME, 1, run, __doc__ or "")
