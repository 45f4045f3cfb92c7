"""Output formats. Each module has a pure ``render(results) -> str``.

``results`` is a sequence of :class:`~qcgrade.findings.Graded` (path plus
report) and :class:`~qcgrade.findings.Ungraded` (path plus the reason it could
not be graded), so one call renders one section or a whole directory.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence

from ..findings import Result

Renderer = Callable[[Sequence[Result]], str]


def _on_first_use(module: str) -> Renderer:
    """The module's ``render``, imported when first called (XML and rich load only when asked for)."""

    def render(results: Sequence[Result]) -> str:
        function: Renderer = importlib.import_module(f"{__name__}.{module}").render
        return function(results)

    render.__qualname__ = render.__name__ = f"render_{module}"
    return render


RENDERERS: dict[str, Renderer] = {
    "text": _on_first_use("text"),
    "json": _on_first_use("json_format"),
    "sarif": _on_first_use("sarif"),
    "github": _on_first_use("github"),
    "junit": _on_first_use("junit"),
}

__all__ = ["RENDERERS", "Renderer"]
