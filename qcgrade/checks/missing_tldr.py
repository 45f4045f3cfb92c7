"""The section has no TL;DR, or its TL;DR has fewer bullets than the slice asks for.

Why it matters: the TL;DR is the structural contract readers rely on. A TL;DR
is a heading, bold line or paragraph starting ``TL;DR`` followed by a list
(its non-empty items are the bullets), or the inline form
``TL;DR – first; – second`` (its dash-separated items). A TL;DR inside an
HTML comment or code does not count. A slice with ``tldr_min_bullets: 0``
asks for none.

Fails (``tldr_min_bullets: 2``)::

    **TL;DR**

    - Revenue grew [E001], though share may be smaller [E002].

Passes::

    **TL;DR**

    - Revenue grew [E001].
    - Share may be smaller [E002].

Examples are graded against the slice ``tests/cases/slice.json``.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..evidence import EvidenceSlice
from ..findings import Finding
from ..options import Options
from ..reading.section import Section
from .base import Check

NAME = "missing_tldr"


def run(section: Section, evidence: EvidenceSlice, options: Options) -> Iterator[Finding]:
    wanted = evidence.tldr_min_bullets
    if wanted <= 0:
        return
    if not section.tldrs:
        message = f"no TL;DR found; slice {evidence.section!r} asks for {wanted} bullet(s)"
        yield section.finding(NAME, 0, 0, message, rule="tldr.missing")
        return
    best = max(section.tldrs, key=lambda t: (t.bullets, -t.start))
    if best.bullets < wanted:
        message = f"TL;DR has {best.bullets} non-empty bullet(s); slice {evidence.section!r} asks for {wanted}"
        yield section.finding(NAME, best.start, best.end, message, rule=f"tldr.{best.form}")


CHECK = Check(NAME, 1, run, __doc__ or "")
