"""``grade()``: parse a section once, run the selected checks, sort the findings."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from .checks import CHECKS, ListedCheck
from .errors import UnknownCheckError
from .evidence import SliceLike, load_slice
from .findings import Finding, Report
from .options import Options
from .reading.section import parse_section


@lru_cache(maxsize=64)
def active_checks(options: Options) -> tuple[ListedCheck, ...]:
    """The checks an options value selects, in their canonical order.

    ``select`` names checks explicitly; ``tier2`` adds every tier-2 check and
    ``grounding`` every tier-3 one, with or without a selection (so
    ``--tier2`` is never silently ignored because a configuration file has a
    ``select`` list); ``ignore`` removes checks from the result.
    """
    known = {check.name for check in CHECKS}
    for name in sorted((options.select or frozenset()) | options.ignore):
        if name not in known:
            raise UnknownCheckError(f"unknown check {name!r}; known checks: {', '.join(sorted(known))}")
    chosen = []
    for check in CHECKS:
        if (check.tier == 2 and options.tier2) or (check.tier == 3 and options.grounding):
            wanted = True
        elif options.select is not None:
            wanted = check.name in options.select
        else:
            wanted = check.tier == 1
        if wanted and check.name not in options.ignore:
            chosen.append(check)
    return tuple(chosen)


@lru_cache(maxsize=64)
def _switched(options: Options, tier2: bool | None, grounding: bool | None) -> Options:
    """``options`` with ``tier2`` and ``grounding`` overridden where given.

    A reward loop passes the same switches call after call: building and
    validating a fresh ``Options`` for each section costs more than a lookup.
    """
    changes = {name: value for name, value in (("tier2", tier2), ("grounding", grounding)) if value is not None}
    return options.with_(**changes)


def grade(
    text: str,
    slice: SliceLike,
    options: Options | Mapping[str, Any] | None = None,
    *,
    tier2: bool | None = None,
    grounding: bool | None = None,
) -> Report:
    """Grade one composed section against its evidence slice.

    ``slice`` may be an :class:`EvidenceSlice`, a plain dict or JSON text; a
    slice seen before is not validated again. ``tier2`` overrides
    ``options.tier2`` and ``grounding`` overrides ``options.grounding``
    (tier 3: citing sentences compared with their cards). Raises :class:`~qcgrade.evidence.SliceError` for a bad
    slice and ``TypeError`` when ``text`` is not a string.
    """
    if not isinstance(text, str):
        raise TypeError(f"section text must be str, got {type(text).__name__}")
    evidence = load_slice(slice)
    opts = Options.coerce(options)
    if (tier2 is not None and tier2 != opts.tier2) or (grounding is not None and grounding != opts.grounding):
        opts = _switched(opts, tier2, grounding)
    checks = active_checks(opts)
    if not checks:
        # Grading with no check would pass everything: never a silent pass.
        raise UnknownCheckError("the selected and ignored checks leave no check to run")
    section = parse_section(text)
    names = {check.name for check in checks}
    if "bare_number" in names and ("value_mismatch" in names or "polarity_mismatch" in names):
        # bare_number reads the numerals of the uncited sentences and grounding those of the
        # cited ones: every numeral, which one scan of the section reads faster than both sets
        # of stretches (each stretch pays for a choice of pattern and a scan of its own).
        _ = section.numerals
    findings: list[Finding] = []
    for check in checks:
        findings.extend(check.run(section, evidence, opts))
    findings.sort(key=Finding.sort_key)
    return Report(tuple(findings), tuple(c.name for c in checks), text)
