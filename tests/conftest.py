"""Shared fixtures and the Hypothesis profiles.

Profiles: "dev" (the default: random examples, a database that remembers
failures) and "ci" (derandomized: the same examples on every run, so a CI
failure reproduces and a green run stays green). "ci" is chosen when the CI
environment variable is set, or with ``--hypothesis-profile=ci``. Inputs that
once falsified a property are kept as ``@example``s on it, so every profile
replays them.
"""

from __future__ import annotations

import json
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from helpers import CASES

# A deadline only catches a runaway example: generous, because the machine is
# shared and noisy and a property's examples vary a lot in size.
# Both build on Hypothesis's own defaults, not on whatever profile it loaded
# at import (it picks a built-in "ci" profile itself when it detects CI).
_BASE = settings.get_profile("default")
settings.register_profile("dev", _BASE, deadline=timedelta(seconds=5), print_blob=True)
settings.register_profile("ci", _BASE, deadline=timedelta(seconds=10), derandomize=True, database=None, print_blob=True)


def pytest_configure(config: pytest.Config) -> None:
    # An explicit --hypothesis-profile wins; otherwise CI selects "ci".
    if config.getoption("hypothesis_profile", None) is None:
        settings.load_profile("ci" if os.environ.get("CI") else "dev")


CASE_SLICE_PATH = CASES / "slice.json"


@pytest.fixture(scope="session")
def case_slice_path() -> Path:
    """tests/cases/slice.json: the slice every check case and property is graded against."""
    return CASE_SLICE_PATH


@pytest.fixture(scope="session")
def case_slice() -> dict[str, Any]:
    """The parsed case slice; tests must not change it (it is shared by the whole session)."""
    data: dict[str, Any] = json.loads(CASE_SLICE_PATH.read_text(encoding="utf-8"))
    return data
