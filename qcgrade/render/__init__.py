"""Output formats. Each module has a pure ``render(results) -> str``.

``results`` is a sequence of :class:`~qcgrade.findings.Graded` (path plus
report), so one call renders one section or a whole directory.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..findings import Graded
from . import github, json_format, junit, sarif, text

Renderer = Callable[[Sequence[Graded]], str]

RENDERERS: dict[str, Renderer] = {
    "text": text.render,
    "json": json_format.render,
    "sarif": sarif.render,
    "github": github.render,
    "junit": junit.render,
}

__all__ = ["RENDERERS", "Renderer"]
