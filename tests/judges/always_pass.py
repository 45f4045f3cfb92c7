"""Test judge: passes everything (a maximally lenient judge: rho_fp = 1)."""

import sys

sys.stdin.read()
print("PASS")
print("looks fine to me")  # later lines are free text and must be ignored
