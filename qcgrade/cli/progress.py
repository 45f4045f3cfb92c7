"""The one progress bar: on stderr when it is a terminal, nothing otherwise.

Every long command (``batch``, ``gate``, ``audit``) shows the same bar:
a label, the bar, done/total (or a count and rate when the total is not
known), the time left. Output on stdout is never touched.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: Advance the bar by ``steps``; extra fields (e.g. ``lines=``) update its columns.
Advance = Callable[..., None]


@contextmanager
def progress_bar(label: str, total: float | None, *, unit: str | None = None) -> Iterator[Advance | None]:
    """Yield ``advance(steps, **fields)`` driving a bar, or None when stderr is not a terminal.

    ``total`` may be None (unknown) and set later with ``advance(0, total=N)``.
    ``unit`` names what is counted when it differs from what the total measures
    (``batch`` measures bytes read but counts lines): the bar then shows
    ``N unit  R unit/s`` from the ``count`` field.
    """
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class CountColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            count = task.fields.get("count", 0)
            rate = count / task.elapsed if task.elapsed else 0.0
            return Text(f"{count:,} {unit}  {rate:,.0f} {unit}/s")

    middle: Any = CountColumn() if unit else MofNCompleteColumn()
    # A narrow bar keeps the line within 80 columns.
    columns = (TextColumn(label), BarColumn(bar_width=16), middle, TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total, count=0)
        counted = [0]

        def advance(steps: float = 1, **fields: Any) -> None:
            if "count" in fields:
                counted[0] += fields.pop("count")
                fields["count"] = counted[0]
            bar.update(task, advance=steps, **fields)

        yield advance
