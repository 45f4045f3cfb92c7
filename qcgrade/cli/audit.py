"""``qcgrade audit`` (measure a judge against the cliff) and ``qcgrade simulate`` (the curator).

Thin: parse and validate options (bad values are one-line errors, exit 2),
call :mod:`qcgrade.auditing` / :mod:`qcgrade.simulate`, print. rich draws the
progress bar (stderr, terminals only) and the table (stdout, terminals only);
pipes get plain text.

Exit codes: 0 when the report is printed; 2 for bad input, and also after
printing the report when not one judge call succeeded (its rates and verdict
then say nothing about the judge).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..auditing import (
    audit_page,
    judge_point_from_audit,
    retirement_curve,
    simulation_page,
)
from ..auditing import text as audit_text
from ..auditing.judges import REFERENCE
from ..auditing.report import AuditReport
from ..auditing.run import audit as run_audit
from ..config import did_you_mean
from ..files import InputError, read_bytes
from ..injectors import DEFECTS
from ..simulate import SimulationResult, simulate
from ..theory import cliff, true_pass_threshold
from .app import EXIT_BAD_INPUT, _colour_wanted, fail, friendly
from .llm_options import build_judge, is_openai, llm_options


class Bounded(click.ParamType):
    """A number in a range; a bad value is a one-line error (exit 2), not click's usage screen."""

    def __init__(self, integer: bool, low: float | None, high: float | None, what: str) -> None:
        self.integer, self.low, self.high, self.what = integer, low, high, what
        self.name = what

    def _parse(self, value: Any) -> float | int | None:
        if isinstance(value, bool):
            return None
        if isinstance(value, int) or (isinstance(value, float) and not self.integer):
            return value
        try:
            return int(str(value).strip()) if self.integer else float(str(value).strip())
        except ValueError:
            return None

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = self._parse(value)
        ok = number is not None and math.isfinite(number)
        ok = ok and number is not None and (self.low is None or number >= self.low) and (self.high is None or number <= self.high)
        if not ok:
            name = param.opts[0] if param is not None and param.opts else "value"
            fail(f"{name}: expected {self.what}, got {value!r}", EXIT_BAD_INPUT)
        return float(number) if not self.integer and number is not None else number


RATE = Bounded(False, 0.0, 1.0, "a number in [0, 1]")
POSITIVE_SECONDS = Bounded(False, 1e-3, None, "a number of seconds >= 0.001")


def _count(least: int) -> Bounded:
    return Bounded(True, least, None, f"an integer >= {least}")


def _write(path: Path, content: str) -> None:
    try:
        path.write_text(content, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _check_writable(path: Path) -> None:
    """Fail fast on an output file that cannot be written."""
    if path.is_dir():
        fail(f"{path}: is a directory, expected a file to write")
    parent = path.parent
    if not parent.is_dir():
        fail(f"{path}: cannot write: no directory {parent}")


def _defect_list(value: str | None) -> list[str] | None:
    """The classes named by ``--defects`` (None: all of them); unknown or no names are errors."""
    if value is None:
        return None
    names = [d.strip() for d in value.split(",") if d.strip()]
    if not names:
        fail("--defects: name at least one defect class")
    for name in names:
        if name not in DEFECTS:
            hint = did_you_mean(name, DEFECTS)
            fail(f"--defects: unknown defect class {name!r}{hint}; known: {', '.join(DEFECTS)}")
    return names


def _check_command(command: str) -> None:
    """Fail fast on a judge that cannot start, rather than once per item."""
    import shlex

    try:
        argv = shlex.split(command)
    except ValueError as exc:
        fail(f"--judge: cannot parse command: {exc}")
        return
    if not argv:
        fail("--judge: empty command")
    program = argv[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        if not Path(program).is_file():
            fail(f"--judge: {program}: no such file")
    elif shutil.which(program) is None:
        fail(f"--judge: {program}: command not found")


def _progress() -> tuple[Callable[[Any], None], Callable[[int, Any], None], Callable[[], None]]:
    """Hooks driving a rich progress bar on stderr, or no-ops when stderr is not a terminal."""
    if not sys.stderr.isatty():
        return (lambda _items: None), (lambda _i, _o: None), (lambda: None)
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn("judging"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task("judging", total=None)

    def on_items(item_set: Any) -> None:
        bar.update(task, total=len(item_set.items))
        bar.start()

    return on_items, (lambda _i, _o: bar.advance(task)), bar.stop


def _print_rich(report: AuditReport) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    # No markup anywhere: judge names and error messages may contain "[...]".
    console = Console(highlight=False, soft_wrap=True)
    console.print(Text.assemble(("judge: ", "bold"), report.judge))
    if (info := audit_text.judge_info_line(report)) is not None:
        console.print(info, markup=False)
    console.print(audit_text.counts_line(report), markup=False)
    rows = audit_text.table_rows(report)
    # Compact padding and fixed minimum widths: an 80-column terminal shows
    # every class name whole instead of "unregistered_me…".
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, collapse_padding=True)
    for i, name in enumerate(audit_text.HEADER):
        width = max([len(name), *(len(row[i]) for row in rows)])
        table.add_column(name, justify="left" if i < 2 else "right", no_wrap=True, min_width=width)
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    console.print(table)
    for line in audit_text.summary_lines(report):
        console.print(line, markup=False)
    colour = {"safe": "green", "at risk": "yellow", "blind curator": "red", "starved": "magenta"}[report.verdict]
    console.print(Text.assemble((f"verdict: {report.verdict.upper()}", f"bold {colour}"), " ", report.verdict_reason))


@click.command()
@click.option(
    "--judge",
    "judge_spec",
    required=True,
    metavar="COMMAND",
    help="Judge command (JSON on stdin, PASS/FAIL or JSON on stdout), 'qcgrade' for the reference grader, "
    "or openai:MODEL for a Chat Completions server (see --base-url).",
)
@click.option("--corpus", "corpus_path", required=True, type=click.Path(path_type=Path), help="Corpus of clean sections.")
@click.option(
    "--seeds",
    type=_count(1),
    default=1,
    show_default=True,
    help="Seeds 0..N-1: N samples per clean section, N injections per class.",
)
@click.option("--tau", type=RATE, default=0.10, show_default=True, help="Curator retirement margin.")
@click.option("--jobs", "-j", type=_count(1), default=1, show_default=True, help="Judge calls at once.")
@click.option(
    "--timeout", type=POSITIVE_SECONDS, default=60.0, show_default=True, help="Seconds per judge call before it is killed."
)
@click.option("--retries", type=_count(0), default=1, show_default=True, help="Retries after a judge error.")
@click.option("--cache", "cache_dir", type=click.Path(path_type=Path), help="Directory of cached verdicts; a rerun resumes.")
@click.option("--defects", help="Comma-separated defect classes (default: all seven).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--html", "html_path", type=click.Path(path_type=Path), help="Also write a self-contained HTML report.")
@click.option("--curve", is_flag=True, help="Add the simulated curator curve (retirements vs rho_fp) to the HTML.")
@llm_options(Bounded(False, 0.0, None, "a number >= 0"), _count(1), Bounded(True, None, None, "an integer"))
@friendly
def audit(
    judge_spec: str,
    corpus_path: Path,
    seeds: int,
    tau: float,
    jobs: int,
    timeout: float,
    retries: int,
    cache_dir: Path | None,
    defects: str | None,
    fmt: str,
    html_path: Path | None,
    curve: bool,
    **llm: Any,
) -> None:
    """Measure a judge's false-pass and false-fail rates on injected defects and place it against the cliff."""
    if judge_spec.strip() != REFERENCE and not is_openai(judge_spec):
        _check_command(judge_spec)
    judge = build_judge(judge_spec, timeout, llm)
    if not corpus_path.exists():
        fail(f"{corpus_path}: no such file or directory")
    if curve and html_path is None:
        fail("--curve: the curve goes into the HTML report; give --html FILE too")
    if html_path is not None:
        _check_writable(html_path)  # before the judge runs, not after an hour of calls
    chosen = _defect_list(defects)
    on_items, on_outcome, stop = _progress()
    try:
        report = run_audit(
            judge,
            corpus_path,
            seeds=seeds,
            tau=tau,
            jobs=jobs,
            timeout=timeout,
            retries=retries,
            cache=cache_dir,
            defects=chosen,
            on_items=on_items,
            on_outcome=on_outcome,
        )
    except ValueError as exc:  # e.g. an unknown defect class
        fail(str(exc))
        return
    finally:
        stop()
    if hasattr(judge, "traffic"):  # the OpenAI judge: this run's requests and tokens, on stderr
        click.echo(judge.traffic(), err=True)
    if not report.items and not report.skipped:
        fail(f"{corpus_path}: no sections in the corpus")
    if html_path is not None:
        sweep = retirement_curve(tau=tau, judge=_point(report)) if curve else None
        _write(html_path, audit_page(report, sweep))
    if fmt == "json":
        click.echo(json.dumps(report.to_dict(), sort_keys=True, ensure_ascii=False, indent=2))
    elif _colour_wanted():
        _print_rich(report)
    else:
        click.echo(audit_text.render(report), nl=False)
    if report.judge_errors and all(item.passed is None for item in report.items):
        # Nothing was scored: the rates and verdict above carry no information.
        first = report.judge_errors[0]
        fail(f"--judge: every call failed ({len(report.items)} judge errors; first, {first.id}: {first.error})")


def _point(report: AuditReport) -> Any:
    return judge_point_from_audit(json.dumps(report.to_dict()), "audit")


def _simulation_text(result: SimulationResult, sweep: Any) -> str:
    p = dict(result.params)
    head = (
        f"curator simulation: rho_fp {p['rho_fp']:g}, rho_pf {p['rho_pf']:g}, tau {p['tau']:g}, N_min {p['n_min']}, "
        f"cap {p['cap']}, rounds {p['rounds']}, seed {p['seed']}, {p['tasks_per_round']} tasks/round"
    )
    threshold = true_pass_threshold(p["tau"], p["rho_fp"], p["rho_pf"])
    lines = [
        head,
        f"cliff (1 - tau)/2 = {cliff(p['tau']):.3f}; retirement fires in expectation for true pass rate "
        f"<= {threshold:.3f}" + (" (never: retirement inoperative)" if threshold <= 0 else ""),
    ]
    cols = (
        "round",
        "true_failures",
        "observed_failures",
        "flipped",
        "synthesized",
        "genuine_retirements",
        "evictions",
        "active",
        "harmful_active",
    )
    lines.append("  ".join(cols))
    for r in result.per_round:
        lines.append("  ".join(str(getattr(r, c)).rjust(len(c)) for c in cols))
    totals = result.to_dict()["totals"]
    lines.append("totals: " + ", ".join(f"{k} {v}" for k, v in sorted(totals.items())))
    if sweep is not None:
        lines.append("sweep (mean genuine retirements over seeds " + ", ".join(map(str, sweep.seeds)) + "):")
        noise = dict(sweep.noise)
        for x, y in sweep.bias:
            n = f"{noise[x]:6.2f}" if x in noise else "     -"
            lines.append(f"  rho {x:4.2f}  bias {y:6.2f}  noise {n}")
        j = sweep.judge
        lines.append(
            f"judge {j.label}: rho_fp {j.rho_fp:.3f} (95% CI {j.rho_fp_ci[0]:.3f}-{j.rho_fp_ci[1]:.3f}), "
            f"rho_pf {j.rho_pf:.3f}: {sweep.judge_retirements:.2f} genuine retirements per run"
        )
    return "\n".join(lines) + "\n"


@click.command(name="simulate")
@click.option("--rho-fp", type=RATE, default=0.0, show_default=True, help="False-pass rate of the judge channel.")
@click.option("--rho-pf", type=RATE, default=0.0, show_default=True, help="False-fail rate of the judge channel.")
@click.option("--tau", type=RATE, default=0.10, show_default=True, help="Retirement margin: retire when 2p - 1 <= -tau.")
@click.option("--n-min", type=_count(0), default=24, show_default=True, help="Trials before a skill may be retired.")
@click.option("--cap", type=_count(1), default=12, show_default=True, help="Most active skills; extra ones are evicted.")
@click.option("--rounds", type=_count(1), default=12, show_default=True)
@click.option("--seed", type=_count(0), default=42, show_default=True)
@click.option("--tasks-per-round", type=_count(1), default=1200, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--html", "html_path", type=click.Path(path_type=Path), help="Write a self-contained HTML page.")
@click.option(
    "--audit",
    "audit_path",
    type=click.Path(path_type=Path),
    help="An audit JSON (qcgrade audit --format json): sweep rho_fp and place the measured judge on the curve.",
)
@friendly
def simulate_command(
    rho_fp: float,
    rho_pf: float,
    tau: float,
    n_min: int,
    cap: int,
    rounds: int,
    seed: int,
    tasks_per_round: int,
    fmt: str,
    html_path: Path | None,
    audit_path: Path | None,
) -> None:
    """Monte-Carlo of the paper's curator: skills, a router, a judge channel, retirement and a cap."""
    if html_path is not None:
        _check_writable(html_path)
    params: dict[str, Any] = {"tau": tau, "n_min": n_min, "cap": cap, "rounds": rounds, "tasks_per_round": tasks_per_round}
    result = simulate(rho_fp=rho_fp, rho_pf=rho_pf, seed=seed, **params)
    sweep = None
    if audit_path is not None:
        try:
            point = judge_point_from_audit(read_bytes(audit_path), str(audit_path))
        except ValueError as exc:
            fail(str(exc))
            return
        sweep = retirement_curve(rho_pf=rho_pf, judge=point, **params)
    if html_path is not None:
        _write(html_path, simulation_page(result, sweep))
    if fmt == "json":
        payload = result.to_dict()
        if sweep is not None:
            payload["curve"] = sweep.to_dict()
        click.echo(json.dumps(payload, sort_keys=True, ensure_ascii=False, indent=2))
    else:
        click.echo(_simulation_text(result, sweep), nl=False)
