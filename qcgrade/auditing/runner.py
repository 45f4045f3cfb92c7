"""Ask a judge about many items: concurrency, retries, the cache, stable order.

One asyncio event loop drives every call; at most ``jobs`` are in flight
(a semaphore), blocking work (commands, plain callables) runs on a thread pool
of the same size. Results are stored by item index, so the order of the output
never depends on which call finished first.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..errors import JudgeError, JudgeUnusable
from .cache import VerdictCache, cache_key
from .protocol import Judge, Verdict


@dataclass(frozen=True, slots=True)
class Request:
    """What the judge sees (section, slice) plus the sample index for the cache key."""

    section: str
    slice: dict[str, Any]
    sample: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """A verdict, or the last error after every attempt failed (never both)."""

    verdict: Verdict | None
    error: str | None = None
    attempts: int = 0
    cached: bool = False
    stderr: str = ""  # the end of a command judge's standard error, with an error


async def judge_all(
    judge: Judge,
    requests: Sequence[Request],
    *,
    jobs: int = 1,
    retries: int = 0,
    cache: VerdictCache | None = None,
    on_outcome: Callable[[int, Outcome], None] | None = None,
    fail_fast: int = 0,
) -> list[Outcome]:
    """Judge every request; ``on_outcome(index, outcome)`` is called as each finishes.

    With ``fail_fast`` N > 0, when the judge failed on each of the first N
    requests (or on all, if there are fewer; a cached verdict is a success),
    the rest is cancelled and
    :class:`~qcgrade.errors.JudgeUnusable` raised, carrying the last error and
    the judge's standard error: a judge that cannot start or always crashes
    is reported in seconds, not after every item. One verdict among them
    turns the check off for the rest of the run.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    if retries < 0:
        raise ValueError(f"retries must be >= 0, got {retries}")
    if fail_fast < 0:
        raise ValueError(f"fail_fast must be >= 0, got {fail_fast}")
    results: list[Outcome | None] = [None] * len(requests)
    gate = asyncio.Semaphore(jobs)
    first_failures: dict[int, Outcome] = {}
    watching = fail_fast > 0
    stopped = False

    async def one(index: int, request: Request, pool: ThreadPoolExecutor) -> None:
        key = cache_key(judge.identity, request.section, request.slice, request.sample) if cache else ""
        hit = cache.get(key) if cache else None
        if hit is not None:
            outcome = Outcome(hit, cached=True)
        else:
            async with gate:
                if stopped:
                    return  # the judge was found unusable while this call waited its turn
                outcome = await _attempt(judge, request, retries, pool)
            if cache and outcome.verdict is not None:
                cache.put(key, judge.identity, outcome.verdict)
        _watch(index, outcome)
        results[index] = outcome
        if on_outcome is not None:
            on_outcome(index, outcome)

    def _watch(index: int, outcome: Outcome) -> None:
        # The first N items by position, not by finishing time: the same judge
        # stops or not the same way at any --jobs.
        nonlocal watching, stopped
        if not watching or index >= fail_fast:
            return
        if outcome.verdict is not None:
            watching = False
            return
        first_failures[index] = outcome
        if len(first_failures) == min(fail_fast, len(requests)):
            stopped = True
            last = first_failures[max(first_failures)]
            raise JudgeUnusable(
                f"the judge's first {len(first_failures)} calls all failed, so the audit stopped; the last one: {last.error}",
                last.stderr,
            )

    with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="qcgrade-judge") as pool:
        tasks = [asyncio.ensure_future(one(i, r, pool)) for i, r in enumerate(requests)]
        try:
            await asyncio.gather(*tasks)
        except BaseException:
            # Interrupted (Ctrl-C, a cache write error, a judge that never works):
            # cancel what waits and kill judge processes in flight rather than
            # wait out their timeouts in the pool's shutdown.
            for task in tasks:
                task.cancel()
            judge.abort()
            raise
    return [r for r in results if r is not None]


async def _attempt(judge: Judge, request: Request, retries: int, pool: ThreadPoolExecutor) -> Outcome:
    error, stderr = "", ""
    for attempt in range(1, retries + 2):
        try:
            verdict = await judge.judge(request.section, request.slice, pool)
        except JudgeError as exc:
            error, stderr = str(exc), exc.stderr
            continue
        return Outcome(verdict, attempts=attempt)
    return Outcome(None, error=error, attempts=retries + 1, stderr=stderr)
