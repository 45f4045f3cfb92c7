"""``audit()``: inject known defects into truly passing sections, ask a judge, measure it.

>>> from qcgrade.auditing import audit
>>> report = audit(lambda text, slice_: True, "fixtures/", seeds=1)   # doctest: +SKIP
>>> report.verdict                                                     # doctest: +SKIP
'blind curator'
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .cache import VerdictCache
from .items import ItemSet, build_items, corpus_entries
from .judges import make_judge
from .measure import measure
from .report import AuditReport
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
    on_items: Callable[[ItemSet], None] | None = None,
    on_outcome: Callable[[int, Outcome], None] | None = None,
    fail_fast: int = 5,
) -> AuditReport:
    """The coroutine behind :func:`audit`, for callers already inside an event loop."""
    _check(tau, jobs, retries, timeout)
    if isinstance(fail_fast, bool) or not isinstance(fail_fast, int) or fail_fast < 0:
        raise ValueError(f"fail_fast must be an integer >= 0, got {fail_fast!r}")
    chosen_seeds = seed_list(seeds)
    the_judge = make_judge(judge, timeout=timeout, identity=identity)
    item_set = build_items(corpus_entries(corpus), chosen_seeds, defects)
    if on_items is not None:
        on_items(item_set)
    requests = [Request(i.text, i.slice, i.seed) for i in item_set.items]
    outcomes = await judge_all(
        the_judge,
        requests,
        jobs=jobs,
        retries=retries,
        cache=VerdictCache(cache) if cache is not None else None,
        on_outcome=on_outcome,
        fail_fast=fail_fast,
    )
    return measure(item_set, outcomes, judge=the_judge.identity, tau=tau, seeds=chosen_seeds, n_min=n_min, cap=cap, delta=delta)


def audit(judge: Any, corpus: Any, **options: Any) -> AuditReport:
    """Measure a judge's false-pass and false-fail rates and place it against the cliff.

    ``judge``: a callable ``(section_text, slice_dict) -> bool`` (True = pass),
    plain or ``async``, or returning ``(bool, spans)``, a verdict dict or
    ``"PASS"``/``"FAIL"``; a command string (run per item, JSON on stdin);
    or ``"qcgrade"`` for the built-in reference judge. ``corpus``: a
    directory/file for :func:`qcgrade.auditing.corpus.load_corpus` or an iterable of
    corpus items / ``(id, text, slice)`` triples.

    Options (keyword only): ``seeds`` (count or list, default 1), ``tau``
    (0.10), ``jobs`` (1), ``retries`` (1), ``timeout`` (60 s; commands and
    async callables), ``cache`` (directory; resumes an interrupted audit),
    ``defects`` (subset of classes), ``identity`` (judge name for reports and
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
