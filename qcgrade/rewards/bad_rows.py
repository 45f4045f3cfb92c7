"""How the trainer adapters report the rows they could not grade: the first few by name, then counts.

A run can feed thousands of bad rows. A warning for each buries the log;
one warning in all (what Python's warnings registry leaves of a repeated
message) hides that the problem goes on. So a reporter names the first
:data:`FIRST` bad rows, each by where it lies (its index in the dataset when
the row carries one, else its place in the batch), and after that says how
many more there were and why:

- once per reward call (one generation batch, so once per step) where the
  host calls with a whole batch and says which step it is (TRL);
- where the host calls once per sample and passes no step (verl's reward
  loop, OpenRLHF), whenever the count of further bad rows reaches a power
  of two (4, 8, 16, ...): never silent, never more than a logarithm of the
  number of rows.

Hosts call the per-sample adapters from several threads at once, so a
reporter counts under a lock.
"""

from __future__ import annotations

import threading
import warnings
from collections import Counter

#: Bad rows each reporter names one by one before it only counts.
FIRST = 3


class BadRows:
    """Reports one adapter's bad rows (see the module's documentation)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._named = 0
        self._pending: Counter[str] = Counter()  # counted, not yet reported (batch hosts)
        self._counted: Counter[str] = Counter()  # counted since the first few (per-sample hosts)
        self._next_report = 4

    def __reduce__(self) -> tuple[type[BadRows], tuple[()]]:
        # A pickled adapter (a trainer sends it to its workers) starts counting afresh; a lock cannot be pickled.
        return (BadRows, ())

    def row(self, where: str, problem: str, kind: str) -> None:
        """One bad row: named while fewer than :data:`FIRST` were, else counted under ``kind``.

        ``where`` locates the row for a person ("dataset row 17"), ``problem``
        says what is wrong with it, ``kind`` is the short reason it is
        counted under ("no slice", "unusable slice").
        """
        with self._lock:
            named = self._named < FIRST
            if named:
                self._named += 1
            else:
                self._pending[kind] += 1
        if named:
            _warn(f"{where}: {problem}")

    def end_of_batch(self, step: str) -> None:
        """Report how many rows of this batch were counted but not named (batch hosts, once per call)."""
        with self._lock:
            pending, self._pending = self._pending, Counter()
        if pending:
            _warn(f"{step}: {_more(pending)} could not be graded ({_reasons(pending)})")

    def end_of_sample(self) -> None:
        """Report the running count when it reaches the next power of two (per-sample hosts, after each call)."""
        with self._lock:
            self._counted.update(self._pending)
            self._pending.clear()
            total = sum(self._counted.values())
            if total < self._next_report:
                return
            while self._next_report <= total:
                self._next_report *= 2
            counted = Counter(self._counted)
        _warn(f"{_more(counted)} could not be graded so far ({_reasons(counted)}); the first {FIRST} were named above")


def _more(counts: Counter[str]) -> str:
    total = sum(counts.values())
    return f"{total} more row" + ("" if total == 1 else "s")


def _reasons(counts: Counter[str]) -> str:
    return ", ".join(f"{kind}: {n}" for kind, n in sorted(counts.items()))


def _warn(message: str) -> None:
    warnings.warn(f"qcgrade reward: {message}", RuntimeWarning, stacklevel=3)


__all__ = ["FIRST", "BadRows"]
