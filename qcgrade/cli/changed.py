"""``qcgrade check-changed``: the pre-commit hook's entry (see .pre-commit-hooks.yaml).

pre-commit hands a hook the changed files its ``files`` pattern matches. A
section is worth grading again when the section changed or when its slice
did, so both count: ``NAME.md`` is graded; ``NAME.json`` or ``NAME.slice.json``
grades the ``NAME.md`` beside it, if there is one (a JSON file beside no
section is not a slice, and is left alone). Everything else is graded exactly
as ``qcgrade check`` grades it, with the same options and exit codes.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click

from ..render import RENDERERS
from .app import friendly
from .check import check
from .config import grading_options

SLICE_SUFFIXES = (".slice.json", ".json")


def sections_to_grade(paths: Iterable[Path]) -> list[Path]:
    """The sections the changed files call for, each once, sorted."""
    found: set[Path] = set()
    for path in paths:
        name = path.name
        if name.lower().endswith(".md"):
            if name.lower() != "readme.md":  # documents a folder, as for `qcgrade check DIR`
                found.add(path)
            continue
        for suffix in SLICE_SUFFIXES:
            if name.lower().endswith(suffix):
                section = path.with_name(name[: -len(suffix)] + ".md")
                if section.is_file():
                    found.add(section)
                break
    return sorted(found)


@click.command(name="check-changed", short_help="Grade the sections among changed files (pre-commit).")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(sorted(RENDERERS)), default="text", show_default=True)
@grading_options
@friendly
@click.pass_context
def check_changed(ctx: click.Context, paths: tuple[Path, ...], fmt: str, config_path: Path | None, **flags: Any) -> None:
    """Grade the sections among changed files (NAME.md, or the NAME.md beside a changed slice).

    For pre-commit; nothing to grade is a pass.
    """
    sections = sections_to_grade(paths)
    if sections:
        ctx.invoke(check, paths=tuple(sections), slice_path=None, fmt=fmt, output=None, config_path=config_path, **flags)
