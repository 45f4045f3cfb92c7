"""``qcgrade config``, and the grading flags every grading command shares.

``grading_options`` adds ``--config`` and the flags that override the
configuration file (``--select``, ``--ignore``, ``--tier2/--no-tier2``,
``--hedge-words``, ``--coverage-floor``, ``--allow-years/--no-allow-years``);
``resolve_options`` turns them into the :class:`~qcgrade.options.Options` a
command grades with. Flags win over the file, the file over the defaults.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..checks import CHECK_NAMES
from ..config import CONFIG_KEYS, Config, ConfigError, did_you_mean, effective_settings, load_config
from ..grader import UnknownCheckError, active_checks
from ..options import Options
from .app import friendly

F = TypeVar("F", bound=Callable[..., Any])


def _names(ctx: click.Context, param: click.Parameter, value: str | None) -> frozenset[str] | None:
    if value is None:
        return None
    names = frozenset(n.strip() for n in value.split(",") if n.strip())
    if not names and param.name == "select":
        raise click.BadParameter("must name at least one check", ctx, param)
    return names


def _words(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(w.strip() for w in value.split(",") if w.strip())


def grading_options(func: F) -> F:
    """The configuration file and override flags, as keyword arguments named like the config keys."""
    decorators = [
        click.option(
            "--config",
            "config_path",
            type=click.Path(path_type=Path, dir_okay=False),
            help="Configuration file (default: qcgrade.toml or pyproject.toml [tool.qcgrade], searched upwards).",
        ),
        click.option(
            "--select",
            callback=_names,
            help="Comma-separated checks to run (default: tier 1); --tier2 and --grounding add tiers 2 and 3 to either.",
        ),
        click.option("--ignore", callback=_names, help="Comma-separated checks to skip."),
        click.option(
            "--tier2/--no-tier2",
            default=None,
            help="Also run the tier-2 disciplines, with or without --select/select (overrides the config).",
        ),
        click.option("--hedge-words", callback=_words, help="Comma-separated hedge lexicon, replacing the default one."),
        click.option(
            "--coverage-floor", type=click.IntRange(min=0), help="Cards a section must cite (default: half the slice's cards)."
        ),
        click.option(
            "--allow-years/--no-allow-years", default=None, help="Exempt plain years 1900-2099 from bare_number (default: off)."
        ),
        click.option(
            "--grounding/--no-grounding",
            default=None,
            help="Also run the tier-3 grounding checks (numbers, directions vs the cited cards), with or without --select.",
        ),
    ]
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def resolve_options(config_path: Path | None = None, **flags: Any) -> tuple[Options, Config]:
    """The options to grade with: the configuration file, then each flag that was given.

    Raises :class:`~qcgrade.config.ConfigError` for a bad file or a selection
    that leaves no check to run, and :class:`~qcgrade.grader.UnknownCheckError`
    for an unknown check name.
    """
    config = load_config(config_path)
    changes = {key: value for key, value in flags.items() if value is not None}
    unknown = set(changes) - set(CONFIG_KEYS)
    if unknown:
        raise TypeError(f"unknown option names: {sorted(unknown)}")
    for key in ("select", "ignore"):
        for name in sorted(changes.get(key) or ()):
            if name not in CHECK_NAMES:
                hint = did_you_mean(name, CHECK_NAMES)
                raise UnknownCheckError(f"--{key}: unknown check {name!r}{hint}; known checks: {', '.join(CHECK_NAMES)}")
    options = config.options.with_(**changes) if changes else config.options
    if not active_checks(options):
        # Grading with no check passes every section: a policy typo, never an intent.
        where = "--select/--ignore" if {"select", "ignore"} & set(changes) else config.origin
        raise ConfigError(f"{where}: no check left to run (ignore removes every selected check)")
    return options, config


@click.command(name="config")
@grading_options
@click.option("--format", "fmt", type=click.Choice(["toml", "json"]), default="toml", show_default=True)
@friendly
def show_config(fmt: str, config_path: Path | None, **flags: Any) -> None:
    """Print the effective configuration (file plus flags) and where it came from."""
    options, config = resolve_options(config_path, **flags)
    overridden = sorted(key for key, value in flags.items() if value is not None)
    checks = [check.name for check in active_checks(options)]
    settings = effective_settings(options)
    if fmt == "json":
        payload = {
            "source": str(config.source) if config.source else None,
            "table": config.table or None,
            "overridden_by_flags": overridden,
            "settings": settings,
            "checks": checks,
        }
        click.echo(json.dumps(payload, indent=2, sort_keys=True, ensure_ascii=False))
        return
    click.echo(render_toml(settings, config, overridden, checks), nl=False)


def render_toml(settings: dict[str, Any], config: Config, overridden: list[str], checks: list[str]) -> str:
    """The settings as a TOML file that loads back to the same options."""
    lines = [f"# qcgrade configuration from {config.origin}"]
    if overridden:
        lines.append(f"# overridden by flags: {', '.join(overridden)}")
    unset = {
        "select": "not set: the tier-1 checks (tier2 = true adds tier 2, here or to a select list)",
        "coverage_floor": "not set: half the slice's cards, rounded up",
    }
    for key in CONFIG_KEYS:
        value = settings[key]
        if value is None:
            lines.append(f"# {key}: {unset[key]}")
        else:
            # JSON scalars and arrays of strings are valid TOML values.
            lines.append(f"{key} = {json.dumps(value, ensure_ascii=False)}")
    lines.append(f"# checks that run: {', '.join(checks)}")
    return "\n".join(lines) + "\n"
