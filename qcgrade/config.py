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
whole configuration. Each layer extends the one below it or replaces it, as
in ruff: ``hedge-words`` replaces the built-in hedge words and
``extend-hedge-words`` adds to them; likewise ``select``/``extend-select``
and ``ignore``/``extend-ignore``, in the file and as flags. A key may be
written with ``-`` or ``_`` (``allow_years`` is ``allow-years``).

Validation is strict because a typo in a grading policy silently changes a
reward: an unknown key (with a did-you-mean), a wrong type or an unknown
check name is an error that names the file and the key.

:func:`resolve_options` is the one place configuration is read, for every
surface: the command line, the pytest plugin and, when asked, the reward
adapters and the Ray grader.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .checks import CHECK_NAMES, TIER1
from .errors import ConfigError
from .files import decode, read_bytes
from .grader import active_checks
from .options import Options

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

#: The settings, in the order ``qcgrade config`` prints them; each is also a flag of the
#: grading commands (``coverage-floor`` is ``--coverage-floor``).
SETTING_KEYS: tuple[str, ...] = ("select", "ignore", "tier2", "hedge-words", "coverage-floor", "allow-years", "grounding")

#: The list-valued settings. As in ruff, the plain key replaces the built-in list
#: and ``extend-KEY`` adds to it (to the plain key's list when both are given).
LIST_KEYS: tuple[str, ...] = ("select", "ignore", "hedge-words")

#: Every key a configuration may set. ``-`` and ``_`` are the same in a key
#: (``hedge_words`` is ``hedge-words``), as in flake8.
CONFIG_KEYS: tuple[str, ...] = (
    "select",
    "extend-select",
    "ignore",
    "extend-ignore",
    "tier2",
    "hedge-words",
    "extend-hedge-words",
    "coverage-floor",
    "allow-years",
    "grounding",
)

PYPROJECT, QCGRADE_TOML = "pyproject.toml", "qcgrade.toml"


@dataclass(frozen=True)
class Config:
    """The options a configuration file sets, and where they came from.

    ``source`` is ``None`` when no file was found (defaults only); ``table``
    names where in the file the settings live (``[tool.qcgrade]`` or the top
    level); ``keys`` are the keys the file set explicitly, spelled as in
    :data:`CONFIG_KEYS`.
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


def load_config(path: Path | str | None = None, *, start: Path | None = None) -> Config:
    """Read and validate a configuration: ``path`` if given, else the one found from ``start``."""
    explicit = path is not None
    if path is None:
        path = find_config(start)
        if path is None:
            return Config(Options())
    path = Path(path)
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
    settings = read_settings(table, str(path))
    return Config(apply_settings(Options(), settings), path, where, frozenset(settings))


def resolve_options(
    path: Path | str | None = None, *, start: Path | None = None, overrides: Mapping[str, Any] | None = None
) -> tuple[Options, Config]:
    """The options every surface grades with: the configuration file, then ``overrides``.

    The one place configuration is read: ``qcgrade check``, ``batch`` and
    ``config``, the pytest plugin and the reward adapters (when given a
    ``config=``) all call it. ``path`` is an explicit file; without one the
    file is searched from ``start`` (default: the current directory).
    ``overrides`` are command-line flags or plugin options, keyed like the
    file (``"extend-select"``; None values are ignored) and applied over it
    by the same rules: a plain list replaces, ``extend-*`` adds. Their errors
    name the flag (``--select: unknown check ...``).

    Raises :class:`ConfigError` for a bad file or flag, or a selection that
    leaves no check to run.
    """
    config = load_config(path, start=start)
    given = {key: value for key, value in (overrides or {}).items() if value is not None}
    flags = read_settings(given, None)
    options = apply_settings(config.options, flags) if flags else config.options
    if not active_checks(options):
        # Grading with no check passes every section: a policy typo, never an intent.
        where = "--select/--ignore" if {"select", "extend-select", "ignore", "extend-ignore"} & set(flags) else config.origin
        raise ConfigError(f"{where}: no check left to run (ignore removes every selected check)")
    return options, config


def parse_settings(table: Mapping[str, Any], where: str = "<config>") -> Options:
    """Options from a mapping of configuration keys over the defaults; errors name ``where`` and the key."""
    return apply_settings(Options(), read_settings(table, where))


def read_settings(table: Mapping[str, Any], where: str | None) -> dict[str, Any]:
    """Validate a table of settings: canonical keys (``hedge-words``) to typed values.

    ``where`` names the file in error messages (``FILE: KEY: problem``); None
    means the values are flags (``--KEY: problem``).
    """
    settings: dict[str, Any] = {}
    spelled: dict[str, str] = {}
    for key, value in table.items():
        canonical = str(key).replace("_", "-")
        if canonical not in CONFIG_KEYS:
            # The suggestion in the spelling the user chose (allow_year -> allow_years).
            snake = "_" in str(key) and "-" not in str(key)
            hint = did_you_mean(canonical, CONFIG_KEYS).replace("-", "_") if snake else did_you_mean(canonical, CONFIG_KEYS)
            label = f"{where}: unknown key {key!r}" if where is not None else f"unknown option {key!r}"
            raise ConfigError(f"{label}{hint}; known keys: {', '.join(CONFIG_KEYS)}")
        if canonical in spelled:
            where_ = f"{where}: " if where is not None else ""
            raise ConfigError(f"{where_}{key!r} and {spelled[canonical]!r} are the same key; give it once")
        spelled[canonical] = str(key)
        label = f"{where}: {key}" if where is not None else f"--{canonical}"
        settings[canonical] = _value(canonical, value, label)
    return settings


def apply_settings(base: Options, settings: Mapping[str, Any]) -> Options:
    """``base`` with validated ``settings`` applied: a plain list replaces, ``extend-*`` adds."""
    changes: dict[str, Any] = {}
    for key in LIST_KEYS:
        extend = settings.get("extend-" + key)
        if key not in settings and extend is None:
            continue
        field = key.replace("-", "_")
        current = settings[key] if key in settings else getattr(base, field)
        if extend is not None:
            if current is None:  # no selection yet: the default one, tier 1
                current = TIER1
            current = (*current, *(item for item in extend if item not in current))
        changes[field] = current
    for key in ("tier2", "coverage-floor", "allow-years", "grounding"):
        if key in settings:
            changes[key.replace("-", "_")] = settings[key]
    return base.with_(**changes) if changes else base


def effective_settings(options: Options) -> dict[str, Any]:
    """Options as plain JSON-able values, keyed like the configuration file (:data:`SETTING_KEYS`)."""
    return {
        "select": sorted(options.select) if options.select is not None else None,
        "ignore": sorted(options.ignore),
        "tier2": options.tier2,
        "hedge-words": list(options.hedge_words),
        "coverage-floor": options.coverage_floor,
        "allow-years": options.allow_years,
        "grounding": options.grounding,
    }


def _value(key: str, value: Any, label: str) -> Any:
    """One setting's value, checked and typed; errors start with ``label``."""
    base = key.removeprefix("extend-")
    if base in ("select", "ignore"):
        names = _check_names(value, label)
        if key == "select" and not names:
            raise ConfigError(f"{label}: must name at least one check (an empty selection passes everything)")
        return frozenset(names)
    if base == "hedge-words":
        return _hedge_words(value, label)
    if key == "coverage-floor":
        return _floor(value, label)
    return _boolean(value, label)


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


def _check_names(value: Any, label: str) -> list[str]:
    if isinstance(value, (set, frozenset, tuple)):  # flags and library callers
        value = sorted(value)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{label}: expected a list of check names, got {_describe(value)}")
    for name in value:
        if name not in CHECK_NAMES:
            hint = did_you_mean(name, CHECK_NAMES)
            raise ConfigError(f"{label}: unknown check {name!r}{hint}; known checks: {', '.join(CHECK_NAMES)}")
    return value


def _boolean(value: Any, label: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{label}: expected true or false, got {_describe(value)}")
    return value


def _hedge_words(value: Any, label: str) -> tuple[str, ...]:
    if isinstance(value, tuple):
        value = list(value)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{label}: expected a list of strings, got {_describe(value)}")
    if any(not v.strip() for v in value):
        raise ConfigError(f"{label}: contains an empty word")
    return tuple(dict.fromkeys(value))


def _floor(value: Any, label: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{label}: expected a whole number of cards, got {_describe(value)}")
    if value < 0:
        raise ConfigError(f"{label}: must be >= 0, got {value}")
    return value


def _describe(value: Any) -> str:
    if isinstance(value, list):
        return "an array containing a non-string" if value else "an empty array"
    if isinstance(value, dict):
        return "a table"
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string"}
    return f"{names.get(type(value), type(value).__name__)} ({value!r})"
