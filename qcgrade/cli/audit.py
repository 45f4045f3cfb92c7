"""``qcgrade audit`` (measure a judge against the cliff), ``qcgrade audit compare`` and ``qcgrade simulate``.

Thin: parse and validate options (bad values are one-line errors, exit 2),
call :mod:`qcgrade.auditing` / :mod:`qcgrade.curator`, render through
:mod:`qcgrade.render`. The progress bar goes to stderr on terminals only.

``audit`` is a group whose default command is the run: ``qcgrade audit
CORPUS --judge ...`` runs an audit, ``qcgrade audit compare A.json B.json``
compares two (a corpus folder literally named ``compare`` is ``./compare``).

Exit codes: 0 when the report is printed; 2 for bad input, when the judge's
first ``--fail-fast`` calls all failed (no report: the judge's own standard
error instead), and after printing the report when not one judge call
succeeded (its rates and verdict then say nothing about the judge); 5 after
printing the report when its verdict is at or past ``--fail-on``.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NoReturn

import click

from ..errors import InputError, JudgeUnusable
from ..files import read_bytes
from ..options import Options
from .app import ARGV, EXIT_BAD_INPUT, EXIT_VERDICT, CommandGroup, fail, friendly
from .llm_options import build_judge, is_openai, llm_options
from .options import (
    POSITIVE_SECONDS,
    RATE,
    choose_defects,
    count,
    defects_option,
    deprecated,
    html_option,
    jobs_option,
    output_option,
    seeds_option,
)
from .output import check_writable, echo_error, write_output, write_rendered
from .progress import progress_bar


def _check_command(command: str) -> None:
    """Fail fast on a judge that cannot start, rather than once per item."""
    from ..auditing.judges import command_argv

    if not command.strip():
        raise InputError("--judge: empty command")
    try:
        argv = command_argv(command)
    except ValueError as exc:  # shlex's way of saying the quoting is unbalanced
        raise InputError(f"--judge: cannot parse command: {exc}") from None
    program = argv[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        if not Path(program).is_file():
            raise InputError(f"--judge: {program}: no such file")
    elif shutil.which(program) is None:
        raise InputError(f"--judge: {program}: command not found")


RUN = "run"
RUN_EPILOG = (
    "Compare two audits on their shared items: qcgrade audit compare A.json B.json. "
    "Freeze an item set to replay: qcgrade items CORPUS --seeds 5 -o items.jsonl."
)


class _RunCommand(click.Command):
    """The run: its usage line reads ``qcgrade audit [OPTIONS] [CORPUS]``, as users type it."""

    #: Named in help and errors as its group (``qcgrade audit``), and not listed under it.
    shown_as_parent = True

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        path = ctx.parent.command_path if ctx.parent is not None else ctx.command_path
        formatter.write_usage(path, " ".join(self.collect_usage_pieces(ctx)))


class AuditGroup(CommandGroup):
    """``audit`` runs an audit unless its first argument names a subcommand (``compare``)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or args[0] not in self.commands:
            if args and _misspelt_subcommand(args[0], self.commands):
                from ..config import did_you_mean

                hint = did_you_mean(args[0], tuple(c for c in self.commands if c != RUN))
                fail(f"audit: no such command or corpus {args[0]!r}{hint}; see 'qcgrade audit --help'")
            args = [RUN, *args]  # `qcgrade audit CORPUS --judge ...` and `qcgrade audit --help`
        return super().parse_args(ctx, args)


def _misspelt_subcommand(word: str, commands: Iterable[str]) -> bool:
    """``audit comapre a b``: no such corpus, and close to a subcommand's name."""
    if word.startswith("-") or Path(word).exists():
        return False
    from ..config import did_you_mean

    return bool(did_you_mean(word, tuple(c for c in commands if c != RUN)))


def _corpus(corpus: Path | None, old_corpus: Path | None) -> Path:
    if old_corpus is not None:
        deprecated("--corpus", "pass the corpus as an argument: qcgrade audit CORPUS --judge ...")
        if corpus is not None and corpus != old_corpus:
            raise InputError(f"two corpora given: {corpus} and --corpus {old_corpus}")
        corpus = old_corpus
    if corpus is None:
        raise InputError(
            "no corpus: give a folder of NAME.md + NAME.json pairs or a JSONL file (qcgrade audit CORPUS --judge ...)"
        )
    if not corpus.exists():
        raise InputError(f"{corpus}: no such file or directory")
    return corpus


@click.command(name=RUN, cls=_RunCommand, epilog=RUN_EPILOG, short_help="Measure a judge against the retirement cliff.")
@click.argument("corpus", required=False, type=click.Path(path_type=Path))
@click.option(
    "--judge",
    "judge_spec",
    required=True,
    metavar="COMMAND",
    help="Judge command (JSON on stdin, PASS/FAIL or JSON on stdout; a first word {python} is the Python running "
    "qcgrade), 'qcgrade' for the reference grader, 'example' for the bundled example judge, "
    "or openai:MODEL for a Chat Completions server (see --base-url).",
)
@click.option(
    "--items",
    "items_path",
    type=click.Path(path_type=Path),
    help="Replay a frozen item set (qcgrade items) instead of building items from CORPUS.",
)
@click.option("--corpus", "old_corpus", type=click.Path(path_type=Path), hidden=True)
@seeds_option()
@click.option("--tau", type=RATE, default=0.10, show_default=True, help="Curator retirement margin.")
@jobs_option(1, "Judge calls at once.")
@click.option(
    "--timeout", type=POSITIVE_SECONDS, default=60.0, show_default=True, help="Seconds per judge call before it is killed."
)
@click.option("--retries", type=count(0), default=1, show_default=True, help="Retries after a judge error.")
@click.option(
    "--fail-fast",
    type=count(0),
    default=5,
    show_default=True,
    metavar="N",
    help="Stop (exit 2, with the judge's stderr) when its first N calls all fail; 0: judge every item anyway.",
)
@click.option("--cache", "cache_dir", type=click.Path(path_type=Path), help="Directory of cached verdicts; a rerun resumes.")
@defects_option()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@output_option()
@html_option("Also write a self-contained HTML report ('-': stdout).")
@click.option("--curve", is_flag=True, help="Add the simulated curator curve (retirements vs rho_fp) to the HTML.")
@click.option(
    "--timestamp",
    is_flag=True,
    help="Say in the HTML report when the audit ran (off by default: the same audit gives the same bytes).",
)
@click.option(
    "--composite",
    is_flag=True,
    help="Also measure qcgrade's grader alone and the composite 'pass only if both pass', side by side.",
)
@click.option(
    "--grounding",
    is_flag=True,
    help="qcgrade's grader with the tier-3 grounding checks: as the judge (--judge qcgrade) or in --composite.",
)
@click.option(
    "--fail-on",
    metavar="VERDICT",
    callback=lambda ctx, param, value: _verdict(value),
    help="Exit 5 (after writing the report) when the judge's verdict is VERDICT or worse: "
    "safe < starved < at-risk < blind-curator.",
)
@llm_options()
@friendly
def audit_run(
    corpus: Path | None,
    judge_spec: str,
    items_path: Path | None,
    old_corpus: Path | None,
    seeds: int,
    tau: float,
    jobs: int,
    timeout: float,
    retries: int,
    fail_fast: int,
    cache_dir: Path | None,
    defects: str | None,
    fmt: str,
    output: Path | None,
    html_path: Path | None,
    curve: bool,
    timestamp: bool,
    composite: bool,
    grounding: bool,
    fail_on: str | None,
    **llm: Any,
) -> None:
    """Measure a judge's false-pass and false-fail rates on defects injected into CORPUS, and place it against the cliff.

    CORPUS is a folder of NAME.md + NAME.json pairs or a JSONL file of
    {"id", "section", "slice"} lines; or give --items FILE to replay a frozen
    item set.
    """
    from ..auditing.judges import REFERENCE

    if items_path is not None:
        if corpus is not None or old_corpus is not None:
            raise InputError("--items replays a frozen item set: give it or a CORPUS, not both")
        given = click.get_current_context().get_parameter_source("seeds") == click.core.ParameterSource.COMMANDLINE
        if defects is not None or given:
            raise InputError("--items: the item set fixes its seeds and defect classes; drop --seeds and --defects")
    corpus_path = None if items_path is not None else _corpus(corpus, old_corpus)
    reference = judge_spec.strip() == REFERENCE
    if grounding and not reference and not composite:
        raise InputError(
            "--grounding: only qcgrade's own grader has a grounding tier; use it with --judge qcgrade or --composite"
        )
    if not reference and not is_openai(judge_spec):
        _check_command(judge_spec)
    judge = build_judge(judge_spec, timeout, llm)
    if curve and html_path is None:
        raise InputError("--curve: the curve goes into the HTML report; give --html FILE too")
    if timestamp and html_path is None:
        raise InputError("--timestamp: the time goes into the HTML report; give --html FILE too")
    if html_path is not None and output is not None and str(html_path) == "-" and str(output) == "-":
        raise InputError("--html - and -o -: only one of them can be standard output")
    # Before the judge runs, not after an hour of calls.
    check_writable(html_path, "--html")
    check_writable(output, "--output")
    chosen = choose_defects("--defects", defects)
    # qcgrade's grader, as the judge (--judge qcgrade) and as qcgrade's side of --composite.
    grading = Options(grounding=grounding)
    if reference and grounding:
        from ..auditing.judges import ReferenceJudge

        judge = ReferenceJudge(grading)
    source: Any = corpus_path
    if items_path is not None:
        from ..auditing.item_file import load_items

        source = load_items(items_path)  # checked item by item before the judge is asked anything
    judged: list[Any] = []  # the items, for the HTML report's misjudged sections
    try:
        report = _run(
            judge,
            source,
            seeds,
            tau,
            jobs,
            timeout,
            retries,
            fail_fast,
            cache_dir,
            chosen,
            grading if composite else None,
            judged.append,
        )
    except JudgeUnusable as exc:
        _stopped(exc, fail_fast)
    if hasattr(judge, "traffic"):  # the OpenAI judge: this run's requests and tokens, on stderr
        click.echo(judge.traffic(), err=True)
    if not report.items and not report.skipped:
        raise InputError(f"{corpus_path}: no sections in the corpus")
    if html_path is not None:
        from ..curator.curve import judge_point_from_audit, retirement_curve
        from ..render.audit_html import RunDetails, audit_page

        point = judge_point_from_audit(json.dumps(report.to_dict()), "audit")
        sweep = retirement_curve(tau=tau, judge=point) if curve else None
        run = RunDetails(_command_line(), _now() if timestamp else None)
        items = judged[0].items if judged else None
        write_output(html_path, audit_page(report, sweep, items=items, run=run))
    html_on_stdout = html_path is not None and str(html_path) == "-"
    if not html_on_stdout or output is not None:
        from ..render import audit_text

        if fmt == "json":
            write_output(output, json.dumps(report.to_dict(), sort_keys=True, ensure_ascii=False, indent=2) + "\n")
        else:
            write_rendered(output, lambda: audit_text.render(report), lambda: audit_text.render_rich(report))
    if report.judge_errors and all(item.passed is None for item in report.items):
        # Nothing was scored: the rates and verdict above carry no information.
        first = report.judge_errors[0]
        raise InputError(f"--judge: every call failed ({len(report.items)} judge errors; first, {first.id}: {first.error})")
    if fail_on is not None:
        from ..curator.theory import at_least

        if at_least(report.verdict, fail_on):
            echo_error(f"qcgrade: audit verdict {report.verdict!r} is at or past --fail-on {fail_on.replace(' ', '-')}")
            sys.exit(EXIT_VERDICT)


def _verdict(value: str | None) -> str | None:
    """``--fail-on``: a verdict as typed (``at-risk``, ``"at risk"``) -> its name; a bad one is exit 2."""
    if value is None:
        return None
    from ..config import did_you_mean
    from ..curator.theory import VERDICTS, verdict_name

    try:
        return verdict_name(value)
    except ValueError:
        typed = [v.replace(" ", "-") for v in reversed(VERDICTS)]
        hint = did_you_mean(value.strip().lower().replace(" ", "-"), tuple(typed))
        fail(f"--fail-on: unknown verdict {value!r}{hint}; verdicts, least severe first: {', '.join(typed)}")
        return None


def _command_line() -> str | None:
    """The command as typed (``qcgrade audit ...``), whatever the program was called, for the report."""
    argv = click.get_current_context().meta.get(ARGV)
    return None if argv is None else shlex.join(["qcgrade", *argv])


def _now() -> str:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _run(
    judge: Any,
    source: Any,
    seeds: int,
    tau: float,
    jobs: int,
    timeout: float,
    retries: int,
    fail_fast: int,
    cache_dir: Path | None,
    defects: list[str] | None,
    composite: Options | None,
    on_items: Any,
) -> Any:
    from ..auditing.item_file import ItemSet
    from ..auditing.run import audit as run_audit

    replay = isinstance(source, ItemSet)

    def items_ready(item_set: Any) -> None:
        on_items(item_set)
        if advance:
            advance(0, total=len(item_set.items))

    with progress_bar("judging", None) as advance:
        return run_audit(
            judge,
            source,
            seeds=1 if replay else seeds,
            tau=tau,
            jobs=jobs,
            timeout=timeout,
            retries=retries,
            fail_fast=fail_fast,
            cache=cache_dir,
            defects=defects,
            composite=composite,
            on_items=items_ready,
            on_outcome=(lambda _index, _outcome: advance(1)) if advance else None,
        )


def _stopped(exc: JudgeUnusable, fail_fast: int) -> NoReturn:
    """The judge never worked: say so with its own words, exit 2, print no report of nothing."""
    echo_error(f"qcgrade: error: --judge: {exc} (--fail-fast {fail_fast}; 0 judges every item anyway)")
    if exc.stderr:
        lines = exc.stderr.splitlines()
        echo_error(f"the judge's standard error (last {len(lines)} line{'s' if len(lines) != 1 else ''}):")
        for line in lines:
            echo_error(f"    {line}")
    else:
        echo_error("the judge wrote nothing on its standard error")
    sys.exit(EXIT_BAD_INPUT)


@click.command(name="compare", short_help="Compare two audits on their shared items (McNemar).")
@click.argument("first", metavar="A.json", type=click.Path(path_type=Path))
@click.argument("second", metavar="B.json", type=click.Path(path_type=Path))
@click.option(
    "--signal",
    type=click.Choice(["judge", "qcgrade", "composite"]),
    default="judge",
    show_default=True,
    help="Which verdicts to compare (qcgrade and composite need audits run with --composite).",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@output_option()
@friendly
def compare_command(first: Path, second: Path, signal: str, fmt: str, output: Path | None) -> None:
    """Compare two audits item by item on the items both scored.

    McNemar's exact test on false passes (injected items) and on false fails
    (clean items), and the paired difference in rho_fp and rho_pf with its 95%
    interval. A.json and B.json are `qcgrade audit --format json` reports,
    best run on one frozen item set (qcgrade items, then audit --items).
    """
    from ..auditing.compare import compare, load_side
    from ..render import audit_compare

    check_writable(output, "--output")
    a = load_side(read_bytes(first), str(first), signal)
    b = load_side(read_bytes(second), str(second), signal)
    result = compare(a, b, signal)
    if fmt == "json":
        write_output(output, json.dumps(result.to_dict(), sort_keys=True, ensure_ascii=False, indent=2) + "\n")
    else:
        write_output(output, audit_compare.render(result))


@click.group(
    name="audit",
    cls=AuditGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    short_help="Measure a judge's false-pass rate against the cliff.",
)
def audit() -> None:
    """Measure a judge against the retirement cliff; `audit compare` pairs two audits."""


audit.add_command(audit_run)
audit.add_command(compare_command)


@click.command(name="simulate", short_help="Simulate the paper's curator under a corrupted judge.")
@click.option("--rho-fp", type=RATE, help="False-pass rate of the judge channel (default: the audit's, else 0).")
@click.option("--rho-pf", type=RATE, help="False-fail rate of the judge channel (default: the audit's, else 0).")
@click.option("--tau", type=RATE, default=0.10, show_default=True, help="Retirement margin: retire when 2p - 1 <= -tau.")
@click.option("--n-min", type=count(0), default=24, show_default=True, help="Trials before a skill may be retired.")
@click.option("--cap", type=count(1), default=12, show_default=True, help="Most active skills; extra ones are evicted.")
@click.option("--rounds", type=count(1), default=12, show_default=True)
@click.option("--seed", type=count(0), default=42, show_default=True)
@click.option("--tasks-per-round", type=count(1), default=1200, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@output_option()
@html_option("Write a self-contained HTML page ('-': stdout).")
@click.option(
    "--audit",
    "audit_path",
    type=click.Path(path_type=Path),
    help="An audit JSON (qcgrade audit --format json): sweep rho_fp and place the measured judge on the curve.",
)
@friendly
def simulate_command(
    rho_fp: float | None,
    rho_pf: float | None,
    tau: float,
    n_min: int,
    cap: int,
    rounds: int,
    seed: int,
    tasks_per_round: int,
    fmt: str,
    output: Path | None,
    html_path: Path | None,
    audit_path: Path | None,
) -> None:
    """Monte-Carlo of the paper's curator: skills, a router, a judge channel, retirement and a cap."""
    from ..curator.curve import judge_point_from_audit, retirement_curve
    from ..curator.simulate import simulate
    from ..render import simulation

    check_writable(html_path, "--html")
    check_writable(output, "--output")
    params: dict[str, Any] = {"tau": tau, "n_min": n_min, "cap": cap, "rounds": rounds, "tasks_per_round": tasks_per_round}
    point = judge_point_from_audit(read_bytes(audit_path), str(audit_path)) if audit_path is not None else None
    # With an audit, the curator runs with the measured judge unless a rate is given explicitly.
    if rho_fp is None:
        rho_fp = point.rho_fp if point is not None else 0.0
    if rho_pf is None:
        rho_pf = point.rho_pf if point is not None else 0.0
    result = simulate(rho_fp=rho_fp, rho_pf=rho_pf, seed=seed, **params)
    sweep = retirement_curve(rho_pf=rho_pf, judge=point, **params) if point is not None else None
    if html_path is not None:
        from ..render.audit_html import simulation_page

        write_output(html_path, simulation_page(result, sweep))
    if html_path is not None and str(html_path) == "-" and output is None:
        return
    if fmt == "json":
        payload = result.to_dict()
        if sweep is not None:
            payload["curve"] = sweep.to_dict()
        write_output(output, json.dumps(payload, sort_keys=True, ensure_ascii=False, indent=2) + "\n")
    else:
        write_output(output, simulation.render(result, sweep))
