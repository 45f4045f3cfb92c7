"""Testing with qcgrade: assertions for any test runner (:mod:`.asserts`) and the pytest plugin (:mod:`.plugin`)."""

from __future__ import annotations

from .asserts import SectionFailure, assert_passes, check_section_file, format_failure, glob_matcher

__all__ = ["SectionFailure", "assert_passes", "check_section_file", "format_failure", "glob_matcher"]
