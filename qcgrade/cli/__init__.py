"""The ``qcgrade`` command line: one group, its commands listed explicitly.

click lives in this package and nowhere else; each command module stays thin
and calls into the library.
"""

from __future__ import annotations

from .app import main
from .check import check, demo, list_checks

for command in (check, list_checks, demo):
    main.add_command(command)

__all__ = ["main"]
