"""Machine output: sorted keys, so identical input gives identical bytes.

One section renders as ``{"counts", "passed", "violations"}``; several as
``{"passed", "sections": [{"path", "counts", "passed", "violations"}, ...]}``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..findings import Graded


def render(results: Sequence[Graded]) -> str:
    if len(results) == 1:
        payload: object = results[0].report.to_dict()
    else:
        payload = {
            "passed": all(r.report.passed for r in results),
            "sections": [{"path": r.path, **r.report.to_dict()} for r in results],
        }
    return json.dumps(payload, sort_keys=True, ensure_ascii=False, indent=2) + "\n"
