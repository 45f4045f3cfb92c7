"""Output formats. Each module has a pure ``render(results) -> str``.

``results`` is a sequence of :class:`~qcgrade.findings.Graded` (path plus
report) and :class:`~qcgrade.findings.Ungraded` (path plus the reason it could
not be graded), so one call renders one section or a whole directory.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..findings import Result
from . import github, json_format, junit, sarif, text

Renderer = Callable[[Sequence[Result]], str]

RENDERERS: dict[str, Renderer] = {
    "text": text.render,
    "json": json_format.render,
    "sarif": sarif.render,
    "github": github.render,
    "junit": junit.render,
}

__all__ = ["RENDERERS", "Renderer"]
