"""Machine output: sorted keys, so identical input gives identical bytes.

One section file renders as ``{"counts", "passed", "violations"}``; a run
over a directory or several files as ``{"passed", "sections": [{"path",
"counts", "passed", "violations"}, ...]}``, even when it found one section,
so a script's parser does not depend on how many files a folder holds.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..findings import Graded


def render(results: Sequence[Graded]) -> str:
    """One section as one report object; several as a list of them."""
    if len(results) == 1:
        return _dump(results[0].report.to_dict())
    return render_sections(results)


def render_sections(results: Sequence[Graded]) -> str:
    """Always the several-sections shape."""
    return _dump(
        {
            "passed": all(r.report.passed for r in results),
            "sections": [{"path": r.path, **r.report.to_dict()} for r in results],
        }
    )


def _dump(payload: object) -> str:
    return json.dumps(payload, sort_keys=True, ensure_ascii=False, indent=2) + "\n"
