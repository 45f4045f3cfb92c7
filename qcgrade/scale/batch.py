"""Batch grading: JSON Lines in, one JSON line per input out, in input order.

Each input line is an object ``{"id", "section", "slice"}`` (the slice as an
object or JSON text) or ``{"id", "section", "slice_path"}`` (a slice file,
relative to the input file's directory); other keys are ignored so dataset
rows can be fed as they are. Each output line is, with sorted keys::

    {"counts", "id", "line", "passed", "reward", "violations"}

where ``reward`` is the paper's QC reward (1.0 when the section has no
violation, else 0.0) and ``line`` is the 1-based input line number. A line
that cannot be graded (invalid JSON or UTF-8, a missing field, a bad slice)
becomes ``{"error", "id" (when known), "line"}`` and the batch goes on.
Blank lines are skipped. Rows are read by :func:`qcgrade.files.read_row`,
the reader corpus files use too, so both say the same about a bad row.

Memory stays flat however long the file: lines are read lazily, sent to
worker processes in chunks, and at most ``workers * 2`` chunks are in flight
at once (``multiprocessing.Pool.imap`` would read the whole input ahead).
Results come back in input order whatever the number of workers, and each
output line is the same bytes whatever the number of workers.
"""

from __future__ import annotations

import json
import multiprocessing
import multiprocessing.context
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from ..files import RowError, numbered_lines, read_row
from ..grader import active_checks, grade
from ..options import Options
from ..rewards.base import reward_number

#: Lines sent to a worker at once: big enough to amortise the inter-process
#: round trip, small enough that a chunk of long sections stays small.
DEFAULT_CHUNK_SIZE = 32

#: ``status`` of a result: graded (passed or failed), bad input, or a qcgrade bug.
PASSED, FAILED, ERROR, INTERNAL_ERROR = "passed", "failed", "error", "internal_error"

Chunk = list[tuple[int, bytes]]


class BatchResult(NamedTuple):
    """One output line: its input line number, its status and its JSON text (no newline)."""

    line: int
    status: str
    json: str


@dataclass
class BatchSummary:
    """Counts of a batch so far; ``ok`` when every line was graded."""

    passed: int = 0
    failed: int = 0
    errors: int = 0
    internal_errors: int = 0
    first_error: str | None = field(default=None)

    @property
    def total(self) -> int:
        return self.passed + self.failed + self.errors

    @property
    def ok(self) -> bool:
        return self.errors == 0

    def add(self, result: BatchResult) -> None:
        if result.status == PASSED:
            self.passed += 1
        elif result.status == FAILED:
            self.failed += 1
        else:
            self.errors += 1
            self.internal_errors += result.status == INTERNAL_ERROR
            if self.first_error is None:
                self.first_error = f"line {result.line}: {json.loads(result.json)['error']}"


def default_workers() -> int:
    """The CPUs this process may run on (the affinity mask, where the OS has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def grade_jsonl(
    lines: Iterable[bytes | str],
    options: Options | None = None,
    *,
    base_dir: Path | str = ".",
    workers: int = 1,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    on_chunk: Callable[[int, int], None] | None = None,
) -> Iterator[BatchResult]:
    """Grade JSON Lines lazily, yielding one :class:`BatchResult` per non-blank line, in order.

    ``workers`` > 1 grades in that many processes, started by a fork server
    (spawn on Windows) so no thread of the caller is forked mid-operation; as
    with any multiprocessing code, a script calling this needs an
    ``if __name__ == "__main__":`` guard. 1 grades in this process.
    ``on_chunk(lines, nbytes)`` is called after each chunk's results have
    been yielded, for progress reporting.
    """
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be >= 1, got {chunk_size}")
    opts = options or Options()
    active_checks(opts)  # a bad check name fails here, not once per line
    return _graded(lines, opts, str(Path(base_dir)), workers, chunk_size, on_chunk)


def _graded(
    lines: Iterable[bytes | str],
    opts: Options,
    base: str,
    workers: int,
    chunk_size: int,
    on_chunk: Callable[[int, int], None] | None,
) -> Iterator[BatchResult]:
    chunks = _chunks(lines, chunk_size)
    if workers == 1:
        graded: Iterator[tuple[Chunk, list[BatchResult]]] = ((c, grade_chunk(c, opts, base)) for c in chunks)
    else:
        graded = _in_pool(chunks, opts, base, workers)
    for chunk, results in graded:
        yield from results
        if on_chunk is not None:
            on_chunk(len(chunk), sum(len(raw) for _, raw in chunk))


def grade_line(number: int, raw: bytes | str, options: Options, base_dir: str = ".") -> BatchResult:
    """Grade one input line; never raises for bad input, which becomes an error record."""
    record_id: Any = None
    try:
        row = read_row(number, raw, base_dir)
        record_id = row.id
        report = grade(row.section, row.slice, options)
    except RowError as exc:
        return _error(number, exc.id, str(exc))
    except Exception as exc:  # noqa: BLE001 - a qcgrade bug must not sink the other lines of a batch
        return _error(number, record_id, f"internal error: {type(exc).__name__}: {exc}", INTERNAL_ERROR)
    record = {
        "id": record_id,
        "line": number,
        "passed": report.passed,
        "reward": reward_number(report),
        "counts": report.counts,
        "violations": [f.to_dict() for f in report.findings],
    }
    return BatchResult(number, PASSED if report.passed else FAILED, _dumps(record))


def grade_chunk(chunk: Chunk, options: Options, base_dir: str) -> list[BatchResult]:
    return [grade_line(number, raw, options, base_dir) for number, raw in chunk]


def _error(number: int, record_id: Any, message: str, status: str = ERROR) -> BatchResult:
    record: dict[str, Any] = {"line": number, "error": message}
    if record_id is not None:
        record["id"] = record_id
    return BatchResult(number, status, _dumps(record))


def _dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _chunks(lines: Iterable[bytes | str], size: int) -> Iterator[Chunk]:
    chunk: Chunk = []
    for number, data in numbered_lines(lines):
        chunk.append((number, data))
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


# Set once per worker process by the pool initializer, so options are pickled
# once per worker rather than once per chunk.
_worker_state: tuple[Options, str] | None = None


def _init_worker(options: Options, base_dir: str) -> None:
    global _worker_state
    _worker_state = (options, base_dir)


def _grade_in_worker(chunk: Chunk) -> list[BatchResult]:
    assert _worker_state is not None, "worker used without its initializer"
    return grade_chunk(chunk, *_worker_state)


def _context() -> multiprocessing.context.BaseContext:
    # fork() in a process with threads (a progress bar's refresh thread, the
    # pool's own manager thread, Ray's threads) can deadlock the child; a fork
    # server is forked once, before any of those exist, and is cheap after.
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["qcgrade.scale.batch"])
        return context
    return multiprocessing.get_context("spawn")


def _in_pool(chunks: Iterator[Chunk], options: Options, base_dir: str, workers: int) -> Iterator[tuple[Chunk, list[BatchResult]]]:
    max_in_flight = workers * 2
    with ProcessPoolExecutor(workers, mp_context=_context(), initializer=_init_worker, initargs=(options, base_dir)) as pool:
        pending: deque[tuple[Chunk, Future[list[BatchResult]]]] = deque()
        try:
            for chunk in chunks:
                pending.append((chunk, pool.submit(_grade_in_worker, chunk)))
                if len(pending) >= max_in_flight:
                    done, future = pending.popleft()
                    yield done, future.result()
            while pending:
                done, future = pending.popleft()
                yield done, future.result()
        except BrokenProcessPool as exc:
            raise RuntimeError(
                "a batch worker process died; when a script calls grade_jsonl(workers > 1), "
                "its entry point needs the usual `if __name__ == '__main__':` guard"
            ) from exc
        finally:
            for _, future in pending:
                future.cancel()
