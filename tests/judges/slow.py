"""Test judge that hangs: records its pid, then sleeps far past any test timeout.

usage: slow.py PID_FILE SECONDS
"""

import os
import sys
import time

with open(sys.argv[1], "a", encoding="utf-8") as handle:
    handle.write(f"{os.getpid()}\n")
time.sleep(float(sys.argv[2]))
print("PASS")
