"""Test judge: fails everything, answering in the JSON form (rho_pf = 1)."""

import json
import sys

json.load(sys.stdin)
print(json.dumps({"verdict": "fail", "reason": "nothing is ever good enough"}))
