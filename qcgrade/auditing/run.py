"""``audit()``: inject known defects into truly passing sections, ask a judge, measure it.

>>> from qcgrade.auditing import audit
>>> report = audit(lambda text, slice_: True, "fixtures/", seeds=1)   # doctest: +SKIP
>>> report.verdict                                                     # doctest: +SKIP
'blind curator'
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..options import Options
from .cache import VerdictCache
from .composite import composite_outcomes, composite_report, qcgrade_outcomes
from .items import ItemSet, build_items, corpus_entries
from .judges import ReferenceJudge, make_judge
from .measure import measure
from .report import AuditReport, CompositeReport, usage_totals
from .runner import Outcome, Request, judge_all


def seed_list(seeds: int | Sequence[int]) -> tuple[int, ...]:
    """``5`` means seeds 0..4; a sequence is used as given (duplicates rejected)."""
    if isinstance(seeds, bool):
        raise TypeError("seeds must be a count or a list of integers")
    if isinstance(seeds, int):
        if seeds < 1:
            raise ValueError(f"seeds must be >= 1, got {seeds}")
        return tuple(range(seeds))
    out = tuple(seeds)
    if not out or any(isinstance(s, bool) or not isinstance(s, int) for s in out) or len(set(out)) != len(out):
        raise ValueError(f"seeds must be distinct integers, got {list(out)!r}")
    return out


def _check(tau: float, jobs: int, retries: int, timeout: float | None) -> None:
    if isinstance(tau, bool) or not isinstance(tau, (int, float)) or not 0.0 <= tau <= 1.0:
        raise ValueError(f"tau must be in [0, 1], got {tau!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an integer >= 1, got {jobs!r}")
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise ValueError(f"retries must be an integer >= 0, got {retries!r}")
    if timeout is not None and not (math.isfinite(timeout) and timeout > 0):
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")


async def audit_async(
    judge: Any,
    corpus: Any,
    *,
    seeds: int | Sequence[int] = 1,
    tau: float = 0.10,
    jobs: int = 1,
    retries: int = 1,
    timeout: float | None = 60.0,
    cache: str | Path | None = None,
    defects: Sequence[str] | None = None,
    identity: str | None = None,
    n_min: int = 24,
    cap: int = 12,
    delta: float = 0.01,
    composite: Options | bool | None = None,
    on_items: Callable[[ItemSet], None] | None = None,
    on_outcome: Callable[[int, Outcome], None] | None = None,
    fail_fast: int = 5,
) -> AuditReport:
    """The coroutine behind :func:`audit`, for callers already inside an event loop."""
    _check(tau, jobs, retries, timeout)
    if isinstance(fail_fast, bool) or not isinstance(fail_fast, int) or fail_fast < 0:
        raise ValueError(f"fail_fast must be an integer >= 0, got {fail_fast!r}")
    replay = isinstance(corpus, ItemSet)
    if replay and defects is not None:
        raise ValueError("defects: a frozen item set already fixes its defect classes")
    chosen_seeds = frozen_seeds(corpus) if replay else seed_list(seeds)
    the_judge = make_judge(judge, timeout=timeout, identity=identity)
    entries = None if replay else corpus_entries(corpus)
    verdicts = VerdictCache(cache) if cache is not None else None
    # Probe the judge (key, server, model) before the first item: a setup
    # problem is one line, not one error per item.
    await the_judge.start(jobs)
    try:
        item_set = corpus if replay else build_items(entries or [], chosen_seeds, defects)
        if on_items is not None:
            on_items(item_set)
        requests = [Request(i.text, i.slice, i.seed) for i in item_set.items]
        outcomes = await judge_all(
            the_judge, requests, jobs=jobs, retries=retries, cache=verdicts, on_outcome=on_outcome, fail_fast=fail_fast
        )
    finally:
        await the_judge.stop()
    terms: dict[str, Any] = {"tau": tau, "seeds": chosen_seeds, "n_min": n_min, "cap": cap, "delta": delta}
    report = measure(item_set, outcomes, judge=the_judge.identity, **terms)
    info = the_judge.describe()
    if info is not None:
        info = {**info, "usage": usage_totals([o.verdict.usage if o.verdict else None for o in outcomes])}
        report = dataclasses.replace(report, judge_info=info)
    if composite is not None and composite is not False:
        report = dataclasses.replace(report, composite=_composite(item_set, outcomes, report, composite, terms))
    return report


def frozen_seeds(item_set: ItemSet) -> tuple[int, ...]:
    """The seeds of a frozen item set, in the order its items first use them."""
    return tuple(dict.fromkeys(i.seed for i in item_set.items))


def _composite(
    item_set: ItemSet, outcomes: Sequence[Outcome], judged: AuditReport, options: Options | bool, terms: dict[str, Any]
) -> CompositeReport:
    chosen = Options() if options is True else options
    if not isinstance(chosen, Options):
        raise TypeError(f"composite must be True or an Options, got {type(chosen).__name__}")
    reference = ReferenceJudge(chosen).identity
    graded = qcgrade_outcomes(item_set.items, chosen)
    reports = {
        "judge": judged,
        "qcgrade": measure(item_set, graded, judge=reference, **terms),
        "composite": measure(item_set, composite_outcomes(outcomes, graded), judge=f"{judged.judge} AND {reference}", **terms),
    }
    return composite_report(item_set.items, outcomes, graded, reports, chosen)


def audit(judge: Any, corpus: Any, **options: Any) -> AuditReport:
    """Measure a judge's false-pass and false-fail rates and place it against the cliff.

    ``judge``: a callable ``(section_text, slice_dict) -> bool`` (True = pass),
    plain or ``async``, or returning ``(bool, spans)``, a verdict dict or
    ``"PASS"``/``"FAIL"``; a command string (run per item, JSON on stdin);
    or ``"qcgrade"`` for the built-in reference judge. ``corpus``: a
    directory/file for :func:`qcgrade.auditing.corpus.load_corpus`, an iterable of
    corpus items / ``(id, text, slice)`` triples, or a frozen
    :class:`~qcgrade.auditing.items.ItemSet` (:func:`qcgrade.auditing.item_file.load_items`),
    replayed exactly (its seeds and classes; ``seeds`` and ``defects`` do not apply).

    Options (keyword only): ``seeds`` (count or list, default 1), ``tau``
    (0.10), ``jobs`` (1), ``retries`` (1), ``timeout`` (60 s; commands and
    async callables), ``cache`` (directory; resumes an interrupted audit),
    ``defects`` (subset of classes), ``composite`` (True or grading
    :class:`~qcgrade.options.Options`: also measure qcgrade alone and "both
    pass", see :mod:`.composite`), ``identity`` (judge name for reports and
    the cache key), ``n_min``/``cap``/``delta`` (Prop. 1' terms), the
    progress hooks ``on_items``/``on_outcome``, and ``fail_fast`` (5): raise
    :class:`~qcgrade.errors.JudgeUnusable` when the judge's first that many
    calls all fail (0: judge every item whatever happens).

    Safe to call with an event loop already running in this thread (e.g. a
    notebook): the audit then runs its own loop on a helper thread.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(audit_async(judge, corpus, **options))
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as helper:
        return helper.submit(asyncio.run, audit_async(judge, corpus, **options)).result()
