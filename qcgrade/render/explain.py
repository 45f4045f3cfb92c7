"""The reader's decisions about one section (``qcgrade explain``): text lines or JSON, pure functions."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..reading.explain import Explained

_SHOWN = 40


def _shown(text: str) -> str:
    """What the reader sees, escaped so a unit break or a control shows as one visible token."""
    shown = text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "\u2026"
    return json.dumps(shown, ensure_ascii=False)


def render_text(path: str, decisions: Sequence[Explained]) -> str:
    """One line a decision: ``path:line:column: kind shown -> verdict [rule] detail``."""
    lines = []
    for d in decisions:
        detail = f" ({d.detail})" if d.detail else ""
        lines.append(f"{path}:{d.line}:{d.column}: {d.kind} {_shown(d.shown)} -> {d.verdict} [{d.rule}]{detail}")
    return "\n".join(lines) + ("\n" if lines else "")


def render_json(path: str, decisions: Sequence[Explained]) -> str:
    """``{"path", "decisions": [...]}``, keys sorted: the same bytes for the same reading."""
    document = {"path": path, "decisions": [d.to_dict() for d in decisions]}
    return json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
