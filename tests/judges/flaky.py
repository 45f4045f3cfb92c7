"""Test judge that misbehaves deterministically, to exercise retries and judge errors.

usage: flaky.py STATE_DIR

* a section whose length is odd is never answered: exit status 7;
* any other request: the first attempt prints garbage, later attempts answer FAIL.

Attempts are counted per request (hash of standard input) in STATE_DIR.
"""

import hashlib
import pathlib
import sys

request = sys.stdin.buffer.read()
state = pathlib.Path(sys.argv[1])
state.mkdir(parents=True, exist_ok=True)
counter = state / hashlib.sha256(request).hexdigest()
attempt = int(counter.read_text()) + 1 if counter.exists() else 1
counter.write_text(str(attempt))

import json

section = json.loads(request)["section"]
if len(section) % 2 == 1:
    print("model overloaded", file=sys.stderr)
    sys.exit(7)
print("FAIL" if attempt > 1 else "hmm, hard to say")
