"""pytest glue for qcgrade, registered through the ``pytest11`` entry point.

The plugin grades with the project's configuration, read by the function the
command line uses (:func:`qcgrade.config.resolve_options`), so ``pytest`` and
``qcgrade check`` give the same verdict on the same section. The file is
searched from pytest's rootdir upwards (``qcgrade.toml``, or
``pyproject.toml`` with a ``[tool.qcgrade]`` table), or named explicitly;
the plugin's own switches apply over it, command line first:

- ini ``qcgrade_sections``: glob patterns, relative to the rootdir, of section
  files to collect as tests (one item per section, named after the file, so
  ``-k s3`` selects it). Each ``NAME.md`` is graded against ``NAME.json`` or
  ``NAME.slice.json`` beside it. Nothing is collected when it is unset.
- ini ``qcgrade_config`` / ``--qcgrade-config FILE``: the configuration
  file, instead of searching for one (relative to the rootdir).
- ini ``qcgrade_tier2`` / ``--qcgrade-tier2``, ``--qcgrade-no-tier2``: the
  tier-2 disciplines, over the configuration's ``tier2``.
- ini ``qcgrade_grounding`` / ``--qcgrade-grounding``,
  ``--qcgrade-no-grounding``: the tier-3 grounding checks, over the
  configuration's ``grounding`` (as ``qcgrade check --grounding``).
- fixture ``qcgrade_assert``: :func:`qcgrade.testing.assert_passes` with
  those options; ``tier2=``/``grounding=`` still override per call.

A bad configuration stops the run with one line (a usage error) when
sections are collected, and fails the tests that use the fixture otherwise.
The logic lives in :mod:`qcgrade.testing.asserts`; this module only adapts it to pytest.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ..config import Config, resolve_options
from ..errors import QcgradeError
from ..evidence import SliceError
from ..files import InputError
from ..grader import active_checks
from ..options import Options
from .asserts import SectionFailure, assert_passes, check_section_file, glob_matcher

_MATCHER = pytest.StashKey[Callable[[str], bool]]()
_SETTINGS = pytest.StashKey[tuple[Options, Config]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "qcgrade_sections",
        "qcgrade: glob patterns (relative to rootdir) of section files to grade as tests",
        type="linelist",
        default=[],
    )
    parser.addini("qcgrade_config", "qcgrade: configuration file (default: searched from the rootdir upwards)", default=None)
    for switch, what in (("tier2", "the tier-2 checks"), ("grounding", "the tier-3 grounding checks")):
        parser.addini(f"qcgrade_{switch}", f"qcgrade: also run {what} (overrides the configuration)", type="bool", default=None)
    group = parser.getgroup("qcgrade", "qcgrade section grading")
    group.addoption("--qcgrade-config", dest="qcgrade_config", metavar="FILE", help="qcgrade configuration file.")
    for switch, what in (("tier2", "the tier-2 checks"), ("grounding", "the tier-3 grounding checks")):
        group.addoption(
            f"--qcgrade-{switch}", dest=f"qcgrade_{switch}", action="store_const", const=True, default=None, help=f"Run {what}."
        )
        group.addoption(
            f"--qcgrade-no-{switch}", dest=f"qcgrade_{switch}", action="store_const", const=False, help=f"Do not run {what}."
        )


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_MATCHER] = glob_matcher(config.getini("qcgrade_sections"))
    if config.getini("qcgrade_sections"):
        try:
            settings(config)
        except QcgradeError as exc:
            raise pytest.UsageError(f"qcgrade: {exc}") from None


def settings(config: pytest.Config) -> tuple[Options, Config]:
    """The options sections are graded with, and the configuration they came from (read once per session)."""
    if _SETTINGS not in config.stash:
        path = config.getoption("qcgrade_config") or config.getini("qcgrade_config") or None
        overrides = {switch: _switch(config, switch) for switch in ("tier2", "grounding")}
        config.stash[_SETTINGS] = resolve_options(
            config.rootpath / path if path else None, start=config.rootpath, overrides=overrides
        )
    return config.stash[_SETTINGS]


def _switch(config: pytest.Config, name: str) -> bool | None:
    """The command-line switch, else the ini value, else None (the configuration decides)."""
    given = config.getoption(f"qcgrade_{name}")
    if given is not None:
        return bool(given)
    value = config.getini(f"qcgrade_{name}")
    return value if isinstance(value, bool) else None  # pytest < 9 gives [] for an unset bool


def pytest_report_header(config: pytest.Config) -> str | None:
    if not config.getini("qcgrade_sections"):
        return None
    options, origin = settings(config)
    checks = ", ".join(check.name for check in active_checks(options))
    return f"qcgrade: configuration from {origin.origin}; checks: {checks}"


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
        options, _ = settings(self.config)
        check_section_file(self.path, options, display=self._display_path())

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


@pytest.fixture
def qcgrade_assert(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """``assert_passes(section, slice, *, tier2=..., grounding=...)`` with the project's options.

    Fails listing every violation.
    """
    options, _ = settings(request.config)
    return functools.partial(assert_passes, options=options)
