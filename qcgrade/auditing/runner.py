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

from .cache import VerdictCache, cache_key
from .judges import Judge, JudgeError, Verdict


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


async def judge_all(
    judge: Judge,
    requests: Sequence[Request],
    *,
    jobs: int = 1,
    retries: int = 0,
    cache: VerdictCache | None = None,
    on_outcome: Callable[[int, Outcome], None] | None = None,
) -> list[Outcome]:
    """Judge every request; ``on_outcome(index, outcome)`` is called as each finishes."""
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    if retries < 0:
        raise ValueError(f"retries must be >= 0, got {retries}")
    results: list[Outcome | None] = [None] * len(requests)
    gate = asyncio.Semaphore(jobs)

    async def one(index: int, request: Request, pool: ThreadPoolExecutor) -> None:
        key = cache_key(judge.identity, request.section, request.slice, request.sample) if cache else ""
        hit = cache.get(key) if cache else None
        if hit is not None:
            outcome = Outcome(hit, cached=True)
        else:
            async with gate:
                outcome = await _attempt(judge, request, retries, pool)
            if cache and outcome.verdict is not None:
                cache.put(key, judge.identity, outcome.verdict)
        results[index] = outcome
        if on_outcome is not None:
            on_outcome(index, outcome)

    with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="qcgrade-judge") as pool:
        try:
            await asyncio.gather(*(one(i, r, pool) for i, r in enumerate(requests)))
        except BaseException:
            # Interrupted (Ctrl-C, a cache write error): kill judge processes in
            # flight rather than wait out their timeouts in the pool's shutdown.
            judge.abort()
            raise
    return [r for r in results if r is not None]


async def _attempt(judge: Judge, request: Request, retries: int, pool: ThreadPoolExecutor) -> Outcome:
    error = ""
    for attempt in range(1, retries + 2):
        try:
            verdict = await judge.judge(request.section, request.slice, pool)
        except JudgeError as exc:
            error = str(exc)
            continue
        return Outcome(verdict, attempts=attempt)
    return Outcome(None, error=error, attempts=retries + 1)
