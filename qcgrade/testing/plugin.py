"""pytest glue for qcgrade, registered through the ``pytest11`` entry point.

- ini ``qcgrade_sections``: glob patterns, relative to the rootdir, of section
  files to collect as tests (one item per section, named after the file, so
  ``-k s3`` selects it). Each ``NAME.md`` is graded against ``NAME.json`` or
  ``NAME.slice.json`` beside it. Nothing is collected when it is unset.
- ini ``qcgrade_tier2``: also run the tier-2 disciplines (default false).
- fixture ``qcgrade_assert``: :func:`qcgrade.testing.assert_passes`, with
  ``tier2`` defaulting to the ini setting.

The logic lives in :mod:`qcgrade.testing.asserts`; this module only adapts it to pytest.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ..evidence import SliceError
from ..files import InputError
from .asserts import SectionFailure, assert_passes, check_section_file, glob_matcher

_MATCHER = pytest.StashKey[Callable[[str], bool]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "qcgrade_sections",
        "qcgrade: glob patterns (relative to rootdir) of section files to grade as tests",
        type="linelist",
        default=[],
    )
    parser.addini("qcgrade_tier2", "qcgrade: also run the tier-2 checks", type="bool", default=False)


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_MATCHER] = glob_matcher(config.getini("qcgrade_sections"))


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> SectionFile | None:
    if file_path.suffix != ".md":
        return None
    try:
        relative = file_path.relative_to(parent.config.rootpath).as_posix()
    except ValueError:
        return None
    if not parent.config.stash[_MATCHER](relative):
        return None
    return SectionFile.from_parent(parent, path=file_path)


class SectionFile(pytest.File):
    """A section file: one test item, named after the section."""

    def collect(self) -> Iterator[SectionItem]:
        yield SectionItem.from_parent(self, name=self.path.stem)


class SectionItem(pytest.Item):
    """Grades one section; fails with the violation list, or one line for bad input."""

    def runtest(self) -> None:
        check_section_file(self.path, tier2=_tier2(self.config), display=self._display_path())

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, (SectionFailure, InputError, SliceError)):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"qcgrade section {self.name}"

    def _display_path(self) -> str:
        try:
            return self.path.relative_to(self.config.rootpath).as_posix()
        except ValueError:
            return str(self.path)


def _tier2(config: pytest.Config) -> bool:
    return bool(config.getini("qcgrade_tier2"))


@pytest.fixture
def qcgrade_assert(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """``assert_passes(section, slice, *, tier2=<ini qcgrade_tier2>)``: fails listing every violation."""
    return functools.partial(assert_passes, tier2=_tier2(request.config))
