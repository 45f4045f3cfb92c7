"""Machine output: sorted keys, so identical input gives identical bytes.

One section file renders as ``{"counts", "passed", "violations"}``; a run
over a directory or several files as ``{"passed", "sections": [{"path",
"counts", "passed", "violations"}, ...]}``, even when it found one section,
so a script's parser does not depend on how many files a folder holds.
A section that could not be graded is a ``{"path", "error"}`` record in that
list (and makes ``passed`` false).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..findings import Graded, Result


def render(results: Sequence[Result]) -> str:
    """One graded section as one report object; several (or an error) as a list of them."""
    if len(results) == 1 and isinstance(results[0], Graded):
        return _dump(results[0].report.to_dict())
    return render_sections(results)


def render_sections(results: Sequence[Result]) -> str:
    """Always the several-sections shape."""
    return _dump(
        {
            "passed": all(isinstance(r, Graded) and r.report.passed for r in results),
            "sections": [_record(r) for r in results],
        }
    )


def _record(result: Result) -> dict[str, object]:
    if isinstance(result, Graded):
        return {"path": result.path, **result.report.to_dict()}
    return result.to_dict()


def _dump(payload: object) -> str:
    return json.dumps(payload, sort_keys=True, ensure_ascii=False, indent=2) + "\n"
