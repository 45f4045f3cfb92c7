"""Test judge speaking the JSON protocol with spans.

usage: spans_judge.py grader   -- grade with qcgrade's tier-1 checks; spans are the findings
       spans_judge.py fixed    -- always fail, with the one span [0, 10]

Exits 2 if standard input is not the protocol's {"section": str, "slice": object}.
"""

import json
import sys

request = json.load(sys.stdin)
if set(request) != {"section", "slice"} or not isinstance(request["section"], str) or not isinstance(request["slice"], dict):
    print(f"bad request keys {sorted(request)}", file=sys.stderr)
    sys.exit(2)
if sys.argv[1] == "fixed":
    print(json.dumps({"verdict": "fail", "spans": [[0, 10]]}))
    sys.exit(0)

from qcgrade import grade

report = grade(request["section"], request["slice"])
print(
    json.dumps(
        {
            "verdict": "pass" if report.passed else "fail",
            "spans": [[f.start, f.end] for f in report.findings],
        }
    )
)
