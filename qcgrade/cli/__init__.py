"""The ``qcgrade`` command line: one group, its commands listed explicitly.

click lives in this package and nowhere else; each command module stays thin
and calls into the library.
"""

from __future__ import annotations

from .app import main
from .audit import audit, simulate_command
from .batch import batch
from .changed import check_changed
from .check import check, demo, list_checks
from .config import show_config
from .inject import gate_command, inject_command, revert_command

for command in (
    check,
    check_changed,
    list_checks,
    demo,
    batch,
    show_config,
    audit,
    simulate_command,
    inject_command,
    revert_command,
    gate_command,
):
    main.add_command(command)

__all__ = ["main"]
