"""Project configuration: ``[tool.qcgrade]`` in pyproject.toml, or a qcgrade.toml.

A team writes its grading policy once, next to its code, instead of repeating
flags. Where the settings come from, highest precedence first:

1. command-line flags (``--select``, ``--tier2`` ...);
2. an explicit ``--config FILE`` (a ``pyproject.toml`` is read at its
   ``[tool.qcgrade]`` table, any other file at its top level);
3. the first ``qcgrade.toml`` or ``pyproject.toml`` with a ``[tool.qcgrade]``
   table found in the current directory or, failing that, its parents. In one
   directory ``qcgrade.toml`` wins; a ``pyproject.toml`` without the table does
   not stop the search;
4. the defaults of :class:`~qcgrade.options.Options`.

Files and flags never merge with a second file: the first file found is the
whole configuration. Validation is strict because a typo in a grading policy
silently changes a reward: an unknown key, a wrong type or an unknown check
name is an error that names the file and the key.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .checks import CHECK_NAMES
from .errors import ConfigError
from .files import decode, read_bytes
from .options import Options

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

#: Every key a configuration may set, in the order ``qcgrade config`` prints them.
CONFIG_KEYS: tuple[str, ...] = ("select", "ignore", "tier2", "hedge_words", "coverage_floor", "allow_years", "grounding")

PYPROJECT, QCGRADE_TOML = "pyproject.toml", "qcgrade.toml"


@dataclass(frozen=True)
class Config:
    """The options a configuration file sets, and where they came from.

    ``source`` is ``None`` when no file was found (defaults only); ``table``
    names where in the file the settings live (``[tool.qcgrade]`` or the top
    level); ``keys`` are the keys the file set explicitly.
    """

    options: Options
    source: Path | None = None
    table: str = ""
    keys: frozenset[str] = frozenset()

    @property
    def origin(self) -> str:
        if self.source is None:
            return "defaults (no qcgrade.toml or [tool.qcgrade] found)"
        return f"{self.source} {self.table}".rstrip()


def find_config(start: Path | None = None) -> Path | None:
    """The configuration file that applies to ``start`` (default: the current directory)."""
    here = (start or Path.cwd()).resolve()
    for directory in (here, *here.parents):
        candidate = directory / QCGRADE_TOML
        if candidate.is_file():
            return candidate
        candidate = directory / PYPROJECT
        if candidate.is_file() and _tool_table(_parse_toml(candidate), candidate) is not None:
            return candidate
    return None


def load_config(path: Path | None = None, *, start: Path | None = None) -> Config:
    """Read and validate a configuration: ``path`` if given, else the one found from ``start``."""
    explicit = path is not None
    if path is None:
        path = find_config(start)
        if path is None:
            return Config(Options())
    document = _parse_toml(path)
    if path.name == PYPROJECT:
        table = _tool_table(document, path)
        if table is None:
            if explicit:
                raise ConfigError(f"{path}: no [tool.qcgrade] table")
            table = {}
        where = "[tool.qcgrade]"
    else:
        table, where = document, ""
    return Config(parse_settings(table, str(path)), path, where, frozenset(table))


def parse_settings(table: Mapping[str, Any], where: str = "<config>") -> Options:
    """Options from a mapping of configuration keys; errors name ``where`` and the key."""
    for key in table:
        if key not in CONFIG_KEYS:
            raise ConfigError(
                f"{where}: unknown key {key!r}{did_you_mean(key, CONFIG_KEYS)}; known keys: {', '.join(CONFIG_KEYS)}"
            )
    changes: dict[str, Any] = {}
    if "select" in table:
        changes["select"] = frozenset(_check_names(table["select"], where, "select"))
        if not changes["select"]:
            raise ConfigError(f"{where}: select: must name at least one check (an empty selection passes everything)")
    if "ignore" in table:
        changes["ignore"] = frozenset(_check_names(table["ignore"], where, "ignore"))
    for key in ("tier2", "allow_years", "grounding"):
        if key in table:
            changes[key] = _boolean(table[key], where, key)
    if "hedge_words" in table:
        changes["hedge_words"] = _hedge_words(table["hedge_words"], where)
    if "coverage_floor" in table:
        changes["coverage_floor"] = _floor(table["coverage_floor"], where)
    return Options().with_(**changes)


def effective_settings(options: Options) -> dict[str, Any]:
    """Options as plain JSON-able values, keyed like the configuration file."""
    return {
        "select": sorted(options.select) if options.select is not None else None,
        "ignore": sorted(options.ignore),
        "tier2": options.tier2,
        "hedge_words": list(options.hedge_words),
        "coverage_floor": options.coverage_floor,
        "allow_years": options.allow_years,
        "grounding": options.grounding,
    }


def _parse_toml(path: Path) -> dict[str, Any]:
    if path.is_dir():
        raise ConfigError(f"{path}: is a directory, expected a TOML file")
    text = decode(path, read_bytes(path))
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:  # arrays nested thousands deep
        raise ConfigError(f"{path}: invalid TOML: nested too deeply") from None


def _tool_table(document: Mapping[str, Any], path: Path) -> dict[str, Any] | None:
    tool = document.get("tool")
    if not isinstance(tool, dict) or "qcgrade" not in tool:
        return None
    table = tool["qcgrade"]
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: tool.qcgrade: expected a table, got {_describe(table)}")
    return table


def did_you_mean(word: str, choices: tuple[str, ...]) -> str:
    """`` (did you mean 'x'?)`` for the closest choice, or nothing when none is close."""
    from rapidfuzz import process  # only on the error path: keeps start-up short

    best = process.extractOne(word, choices, score_cutoff=70)
    return f" (did you mean {best[0]!r}?)" if best else ""


def _check_names(value: Any, where: str, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: {key}: expected a list of check names, got {_describe(value)}")
    for name in value:
        if name not in CHECK_NAMES:
            hint = did_you_mean(name, CHECK_NAMES)
            raise ConfigError(f"{where}: {key}: unknown check {name!r}{hint}; known checks: {', '.join(CHECK_NAMES)}")
    return value


def _boolean(value: Any, where: str, key: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where}: {key}: expected true or false, got {_describe(value)}")
    return value


def _hedge_words(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: hedge_words: expected a list of strings, got {_describe(value)}")
    if any(not v.strip() for v in value):
        raise ConfigError(f"{where}: hedge_words: contains an empty word")
    return tuple(value)


def _floor(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{where}: coverage_floor: expected a whole number of cards, got {_describe(value)}")
    if value < 0:
        raise ConfigError(f"{where}: coverage_floor: must be >= 0, got {value}")
    return value


def _describe(value: Any) -> str:
    if isinstance(value, list):
        return "an array containing a non-string" if value else "an empty array"
    if isinstance(value, dict):
        return "a table"
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string"}
    return f"{names.get(type(value), type(value).__name__)} ({value!r})"
