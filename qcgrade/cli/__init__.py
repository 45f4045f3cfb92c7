"""The ``qcgrade`` command line: one group, its commands listed explicitly in :data:`.app.COMMANDS`.

click lives in this package and nowhere else; each command module stays thin
(parse options, call the library, render) and is imported only when its
command runs.
"""

from __future__ import annotations

from .app import main

__all__ = ["main"]
