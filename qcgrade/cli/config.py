"""``qcgrade config``, and the grading flags every grading command shares.

``grading_options`` adds ``--config`` and the flags that override the
configuration file, each named like its key (``--select``,
``--extend-select``, ``--ignore``, ``--extend-ignore``, ``--tier2/--no-tier2``,
``--hedge-words``, ``--extend-hedge-words``, ``--coverage-floor``,
``--allow-years/--no-allow-years``, ``--grounding/--no-grounding``);
``resolve_options`` hands them to :func:`qcgrade.config.resolve_options`, the
one reader of configuration, which applies them over the file by the file's
own rules (a plain list replaces, ``extend-*`` adds).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from .. import config as configuration
from ..config import SETTING_KEYS, Config, effective_settings
from ..grader import active_checks
from ..options import Options
from .app import friendly

F = TypeVar("F", bound=Callable[..., Any])


def _names(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    names = tuple(dict.fromkeys(n.strip() for n in value.split(",") if n.strip()))
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
            help="Comma-separated checks to run, replacing the configured selection (default: tier 1); "
            "--tier2 and --grounding add tiers 2 and 3 to either.",
        ),
        click.option("--extend-select", callback=_names, help="Comma-separated checks to add to the selection."),
        click.option("--ignore", callback=_names, help="Comma-separated checks to skip, replacing the configured list."),
        click.option("--extend-ignore", callback=_names, help="Comma-separated checks to skip, added to the configured list."),
        click.option(
            "--tier2/--no-tier2",
            default=None,
            help="Also run the tier-2 disciplines, with or without --select/select (overrides the config).",
        ),
        click.option(
            "--hedge-words", callback=_words, help="Comma-separated hedge words, replacing the built-in and configured ones."
        ),
        click.option("--extend-hedge-words", callback=_words, help="Comma-separated hedge words to add to the configured ones."),
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
    """The options to grade with: :func:`qcgrade.config.resolve_options` with the flags that were given.

    Flags arrive as click names them (``extend_select``) and are passed on keyed
    like the file (``extend-select``). Raises :class:`~qcgrade.errors.ConfigError`.
    """
    overrides = {name.replace("_", "-"): value for name, value in flags.items()}
    return configuration.resolve_options(config_path, overrides=overrides)


@click.command(name="config", short_help="Print the effective configuration and where it came from.")
@grading_options
@click.option("--format", "fmt", type=click.Choice(["toml", "json"]), default="toml", show_default=True)
@friendly
def show_config(fmt: str, config_path: Path | None, **flags: Any) -> None:
    """Print the effective configuration (file plus flags) and where it came from."""
    options, config = resolve_options(config_path, **flags)
    overridden = sorted(key.replace("_", "-") for key, value in flags.items() if value is not None)
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
        "coverage-floor": "not set: half the slice's cards, rounded up",
    }
    for key in SETTING_KEYS:
        value = settings[key]
        if value is None:
            lines.append(f"# {key}: {unset[key]}")
        else:
            # JSON scalars and arrays of strings are valid TOML values.
            lines.append(f"{key} = {json.dumps(value, ensure_ascii=False)}")
    lines.append(f"# checks that run: {', '.join(checks)}")
    return "\n".join(lines) + "\n"
