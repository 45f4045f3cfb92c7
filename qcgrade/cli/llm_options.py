"""The ``qcgrade audit`` options of the OpenAI-compatible judge (``--judge openai:MODEL``).

Kept apart from :mod:`.audit` so the audit command only gains one decorator
and one call: :func:`llm_options` declares the options, :func:`build_judge`
turns ``--judge`` plus them into a judge (or leaves a command judge alone).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..errors import InputError
from .options import Bounded, count

if TYPE_CHECKING:
    from ..auditing.judges import Judge

#: ``--judge openai:MODEL`` (the same prefix as :data:`qcgrade.auditing.judges.OPENAI_PREFIX`, kept
#: here so parsing options does not import the audit machinery).
OPENAI_PREFIX = "openai:"

F = TypeVar("F", bound=Callable[..., Any])

#: Option name -> default; a non-default value with a non-OpenAI judge is an error, not silently ignored.
DEFAULTS: dict[str, Any] = {
    "base_url": "https://api.openai.com/v1",
    "api_key_env": "OPENAI_API_KEY",
    "temperature": 0.0,
    "judge_seed": None,
    "max_tokens": 600,
    "prompt_path": None,
    "response_format": "auto",
}


def llm_options() -> Callable[[F], F]:
    """Add the options, in the order ``--help`` lists them."""
    number = Bounded(False, 0.0, None, "a number >= 0")
    integer = Bounded(True, None, None, "an integer")
    options = [
        click.option(
            "--base-url",
            default=DEFAULTS["base_url"],
            show_default=True,
            help="openai judge: the server's Chat Completions base URL (vLLM, SGLang, Ollama, llama.cpp: http://HOST:PORT/v1).",
        ),
        click.option(
            "--api-key-env",
            default=DEFAULTS["api_key_env"],
            show_default=True,
            metavar="NAME",
            help="openai judge: environment variable holding the API key (unset is fine for a local server).",
        ),
        click.option(
            "--temperature",
            type=number,
            default=DEFAULTS["temperature"],
            show_default=True,
            help="openai judge: sampling temperature.",
        ),
        click.option("--judge-seed", type=integer, default=None, help="openai judge: the seed sent with every request."),
        click.option(
            "--max-tokens",
            type=count(1),
            default=DEFAULTS["max_tokens"],
            show_default=True,
            help="openai judge: most tokens per answer.",
        ),
        click.option(
            "--prompt",
            "prompt_path",
            type=click.Path(path_type=Path),
            help="openai judge: rubric prompt file with {{slice}} and {{section}} (default: the bundled rubric).",
        ),
        click.option(
            "--response-format",
            type=click.Choice(["auto", "json_schema", "json_object", "text"]),
            default=DEFAULTS["response_format"],
            show_default=True,
            help="openai judge: structured output; auto steps down json_schema -> json_object -> text when refused.",
        ),
    ]

    def decorate(func: F) -> F:
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


def is_openai(spec: str) -> bool:
    return spec.strip().startswith(OPENAI_PREFIX)


def build_judge(spec: str, timeout: float, options: dict[str, Any]) -> str | Judge:
    """The judge for ``--judge``: an OpenAI judge built from the options, else ``spec`` unchanged.

    A bad option value, a missing prompt file or a missing ``httpx`` is a
    :class:`~qcgrade.errors.QcgradeError` (one line, exit 2).
    """
    if not is_openai(spec):
        for name, value in options.items():
            if value != DEFAULTS[name]:
                flag = "--prompt" if name == "prompt_path" else "--" + name.replace("_", "-")
                raise InputError(f"{flag}: only for --judge openai:MODEL")
        return spec
    prompt = options["prompt_path"]
    if prompt is not None and not Path(prompt).is_file():
        raise InputError(f"{prompt}: no such prompt file")
    from ..auditing.judges import openai_judge

    return openai_judge(
        spec.strip()[len(OPENAI_PREFIX) :],
        base_url=options["base_url"],
        api_key_env=options["api_key_env"],
        temperature=options["temperature"],
        seed=options["judge_seed"],
        max_tokens=options["max_tokens"],
        prompt=prompt,
        response_format=options["response_format"],
        timeout=timeout,
    )
