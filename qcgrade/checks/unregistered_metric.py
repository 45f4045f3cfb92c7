"""A metric tag is not among the slice's registered metrics.

Why it matters: a metric tag vouches for a number by pointing at a registered
value. A tag that is not registered vouches for nothing.

Fails (the slice registers m_rev and m_share)::

    Revenue reached {m_revenue}.

Passes::

    Revenue reached {m_rev}.

Examples are graded against the slice ``tests/cases/slice.json``.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..evidence import EvidenceSlice
from ..findings import Finding
from ..options import Options
from ..reading.section import Section
from .base import Check

NAME = "unregistered_metric"


def run(section: Section, evidence: EvidenceSlice, options: Options) -> Iterator[Finding]:
    tags = evidence.metric_tags
    for marker in section.metric_tags:
        if marker.id not in tags:
            message = f"metric tag {{{marker.id}}} is not registered in slice {evidence.section!r}"
            yield section.finding(NAME, marker.start, marker.end, message, marker.id, "marker.metric")


CHECK = Check(NAME, 1, run, __doc__ or "")
