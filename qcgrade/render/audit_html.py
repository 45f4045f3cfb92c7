"""Self-contained HTML pages for an audit and for a curator simulation.

One file each, readable offline and safe to attach to a ticket: inline CSS and
inline SVG only -- no script, no external font, image or stylesheet, no URL at
all. Every string that came from outside (section text, judge names, the
judge's notes, error messages, ids, the command line) is escaped. No clock
unless asked for (:class:`RunDetails`), so the same audit gives the same bytes.

The audit page answers the questions after the verdict: which items the
judge passed wrongly and failed wrongly, each with its section, the injected
span highlighted and the judge's answer (given the audit's items); how the
run was made (qcgrade version, judge, seeds, command); and what its terms
mean (a glossary).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from ..auditing.ground_truth import CLEAN
from ..auditing.items import AuditItem
from ..auditing.report import AuditReport, ItemResult, Rate
from ..curator.curve import RetirementCurve
from ..curator.simulate import SimulationResult
from ..curator.stats import wilson_interval
from .audit_text import (
    COMPOSITE_HEADER,
    composite_rows,
    counts_line,
    judge_info_line,
    seeds_phrase,
    summary_lines,
    table_rows,
)
from .svg import (
    BLUE,
    GREEN,
    GREY,
    INK,
    PURPLE,
    RED,
    AxisMark,
    Bar,
    Series,
    cliff_axis,
    flag_rate_bars,
    line_chart,
)

#: Judge errors listed on the page before the rest are summarised.
_LISTED = 50
#: Misjudged items shown with their section, per list, before the rest are only counted.
_SHOWN = 40
#: Longest injected or replaced text quoted in full.
_EDIT_CHARS = 300


@dataclass(frozen=True)
class RunDetails:
    """How the audit was run, for the page's run details: the command line, and the time only when asked for."""

    command: str | None = None
    timestamp: str | None = None


_CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:16px;color:#263238;margin:2rem auto;max-width:960px;padding:0 1rem;line-height:1.45;overflow-wrap:anywhere}
h1{font-size:1.5rem;margin-bottom:.2rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #cfd8dc}
.verdict{display:inline-block;padding:.3rem .8rem;border-radius:4px;color:#fff;font-weight:bold;text-transform:uppercase}
.v-safe{background:#2e7d32}.v-at-risk{background:#ef6c00}.v-blind-curator{background:#c62828}.v-starved{background:#6d4c41}
.scroll{overflow-x:auto}table{border-collapse:collapse;margin:.5rem 0}td,th{padding:.2rem .7rem;border-bottom:1px solid #eceff1;text-align:right;white-space:nowrap}
td:first-child,th:first-child{text-align:left}code{background:#eceff1;padding:0 .2rem}
.muted{color:#607d8b}figure{margin:1.5rem 0;max-width:760px}svg.chart{display:block;width:100%;overflow:visible}
.chart-title{font-weight:bold;margin-bottom:.4rem}figcaption{color:#455a64;margin-top:.3rem}figcaption>div+div{margin-top:.2rem}
.legend{display:flex;flex-wrap:wrap;gap:.2rem 1.2rem}.key{white-space:nowrap}
.key i{display:inline-block;width:1.4rem;margin-right:.4rem;vertical-align:middle}.key i.box{height:.9rem}.key i.stroke{height:0}
details.item{margin:.4rem 0;border:1px solid #eceff1;border-radius:4px;padding:.3rem .6rem}details.item>summary{cursor:pointer}
pre.section{white-space:pre-wrap;overflow-wrap:anywhere;max-height:28rem;overflow:auto;background:#fafafa;border:1px solid #eceff1;padding:.5rem;font-size:.85rem;margin:.4rem 0}
mark.injected{background:#ffcc80}mark.judge{background:none;text-decoration:underline 2px #7b1fa2}mark.injected.judge{background:#ffcc80}
.cut{background:#ef9a9a;padding:0 .2rem;font-style:italic}.note{white-space:pre-wrap;overflow-wrap:anywhere;border-left:3px solid #b0bec5;padding-left:.6rem}
del{background:#ffebee}ins{background:#e8f5e9;text-decoration:none}dl.glossary dt{font-weight:bold;margin-top:.5rem}dl.glossary dd{margin-left:1.2rem}
table.run td{text-align:left;white-space:normal}table.run td:first-child{white-space:nowrap;color:#455a64}
@media (max-width:480px){body{margin:1rem auto;padding:0 .75rem}td,th{padding:.2rem .4rem}.key{white-space:normal}}
"""


def _page(title: str, body: Sequence[str]) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{escape(title)}</title>\n'
        f"<style>{_CSS}</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    # A wide table scrolls inside its box on a phone; the page itself never scrolls sideways.
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def at_risk_from(rate: Rate, cliff: float) -> float:
    """Smallest observed rate k/n whose Wilson upper bound reaches the cliff at this audit's n.

    Below it an audit of this size can call a judge safe; between it and the
    cliff it cannot rule the cliff out. With n = 0 nothing can be ruled out.
    """
    if rate.n == 0:
        return 0.0
    for k in range(rate.n + 1):
        if wilson_interval(k, rate.n)[1] >= cliff:
            return min(k / rate.n, cliff)
    return cliff


def _bars(report: AuditReport) -> str:
    bars = [
        Bar(name, r.flag.value, r.flag.ci_low, r.flag.ci_high, r.flag.n, "visible" if r.visible else "invisible")
        for name, r in report.per_class.items()
    ]
    c = report.clean.flag
    bars.append(Bar("clean (rho_pf)", c.value, c.ci_low, c.ci_high, c.n, "clean"))
    return flag_rate_bars(bars, "Flag rate per defect class (cf. paper Fig. 2)")


def _axis(report: AuditReport) -> str:
    fp = report.rho_fp
    marks = [AxisMark(f"rho_fp = {fp.value:.3f} (all injected)", fp.value, fp.ci_low, fp.ci_high, INK, 9)]
    for label, r, colour in (("QC-visible", report.rho_fp_visible, GREEN), ("QC-invisible", report.rho_fp_invisible, PURPLE)):
        if r.n:
            marks.append(AxisMark(f"{label}: {r.value:.3f}", r.value, r.ci_low, r.ci_high, colour, 5))
    note = f"rho_pf = {report.rho_pf.value:.3f} · kappa = {report.kappa:.3f} · tau = {report.tau:g} · verdict: {report.verdict}"
    return cliff_axis(
        marks, report.cliff, at_risk_from(fp, report.cliff), note, "The judge against the retirement cliff (cf. paper Fig. 5)"
    )


#: Colours of the three signals on the composite axis.
_SIGNAL_COLOURS = {"judge": PURPLE, "qcgrade": GREEN, "composite": INK}


def _composite_axis(report: AuditReport) -> str:
    """Judge, qcgrade and the composite on one rho_fp axis against the cliff."""
    assert report.composite is not None
    marks = []
    for name, signal in report.composite.signals.items():
        fp = signal.report.rho_fp
        size = 9 if name == "composite" else 6
        marks.append(
            AxisMark(
                f"{name}: {fp.value:.3f} ({signal.report.verdict})", fp.value, fp.ci_low, fp.ci_high, _SIGNAL_COLOURS[name], size
            )
        )
    combined = report.composite.signals["composite"].report
    note = (
        "composite = pass only if the judge and qcgrade both pass · "
        f"composite rho_pf = {combined.rho_pf.value:.3f} · kappa = {combined.kappa:.3f} · tau = {report.tau:g}"
    )
    return cliff_axis(
        marks,
        report.cliff,
        at_risk_from(combined.rho_fp, report.cliff),
        note,
        "Judge, qcgrade and both against the retirement cliff",
    )


def _composite_section(report: AuditReport) -> list[str]:
    if report.composite is None:
        return []
    who = "".join(
        f"<li>{escape(name)}: <code>{escape(signal.identity)}</code> -- {escape(signal.report.verdict_reason)}</li>"
        for name, signal in report.composite.signals.items()
    )
    return [
        "<h2>Composite reward: judge AND qcgrade</h2>",
        f"<figure>{_composite_axis(report)}</figure>",
        _table(COMPOSITE_HEADER, composite_rows(report)),
        f"<ul>{who}</ul>",
    ]


def curve_figure(curve: RetirementCurve) -> str:
    """Mean genuine retirements vs corruption level, the cliff, and the judge if measured."""
    series = [
        Series(f"false-pass bias (rho_pf = {dict(curve.params).get('rho_pf', 0.0):g})", RED, curve.bias),
        Series("symmetric noise (rho_fp = rho_pf)", BLUE, curve.noise, "5,3"),
    ]
    top = max([y for _, y in (*curve.bias, *curve.noise)] + [curve.judge_retirements or 0.0, 1.0])
    markers = []
    if curve.judge is not None and curve.judge_retirements is not None:
        markers.append(
            (
                curve.judge.rho_fp,
                curve.judge_retirements,
                f"judge: rho_fp {curve.judge.rho_fp:.3f}, {curve.judge_retirements:.2f} retired",
            )
        )
    cliff = (1.0 - curve.tau) / 2.0
    return line_chart(
        series,
        title="Simulated curator: genuine retirements per run",
        x_label="corruption level (rho)",
        y_label="mean genuine retirements",
        x_max=1.0,
        y_max=top,
        vlines=[(cliff, f"cliff {cliff:.3f}")],
        markers=markers,
        x_ticks=(0.0, 0.2, 0.4, 0.6, 0.8, 1.0),
    )


def _curve_section(curve: RetirementCurve) -> list[str]:
    p = dict(curve.params)
    detail = ", ".join(f"{k} {v}" for k, v in sorted(p.items()))
    return [
        "<h2>The curator, simulated</h2>",
        curve_figure(curve),
        (
            f'<p class="muted">Mean over seeds {escape(", ".join(map(str, curve.seeds)))} of '
            f"<code>qcgrade.simulate</code> at tau {curve.tau:g}; {escape(detail)}. "
            "Genuine retirement only: cap evictions are counted apart.</p>"
        ),
    ]


def audit_page(
    report: AuditReport,
    curve: RetirementCurve | None = None,
    *,
    items: Sequence[AuditItem] | None = None,
    run: RunDetails | None = None,
) -> str:
    """The audit as one HTML page.

    Verdict, Fig. 2 bars, Fig. 5 axis, tables, optionally the curve; the
    items the judge got wrong (with their sections when ``items``, the
    audit's :class:`~qcgrade.auditing.items.AuditItem` values, are given); the
    run's details and a glossary.
    """
    slug = report.verdict.replace(" ", "-")
    body = [
        f"<h1>Judge audit: <code>{escape(report.judge)}</code></h1>",
        *([f'<p class="muted">{escape(info)}</p>'] if (info := judge_info_line(report)) is not None else []),
        f'<p class="muted">{escape(counts_line(report))}</p>',
        f'<p><span class="verdict v-{escape(slug)}">{escape(report.verdict)}</span> {escape(report.verdict_reason)}</p>',
        _axis(report),
        _bars(report),
        "<h2>Per class</h2>",
        _table(("class", "QC", "n", "flag rate", "95% CI", "span Jaccard", "judge errors"), table_rows(report)),
        "<h2>Rates and the curator</h2>",
        "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in summary_lines(report)) + "</ul>",
        *_composite_section(report),
        *_misjudged_section(report, items),
    ]
    if curve is not None:
        body.extend(_curve_section(curve))
    if report.skipped:
        body.append(
            "<h2>Skipped sections (fail the deterministic grader)</h2><ul>"
            + "".join(
                f"<li><code>{escape(s.source)}</code>: {escape(s.reason)}"
                + (f" ({escape(', '.join(s.checks))})" if s.checks else "")
                + "</li>"
                for s in report.skipped
            )
            + "</ul>"
        )
    if report.judge_errors:
        shown = report.judge_errors[:_LISTED]
        more = len(report.judge_errors) - len(shown)
        body.append(
            f"<h2>Judge errors ({len(report.judge_errors)}, not scored)</h2><ul>"
            + "".join(f"<li><code>{escape(e.id)}</code> after {e.attempts} attempt(s): {escape(e.error)}</li>" for e in shown)
            + (f"<li>... and {more} more</li>" if more else "")
            + "</ul>"
        )
    body.extend(_run_section(report, run))
    body.extend(_glossary())
    return _page(f"qcgrade judge audit: {report.verdict}", body)


# --- what the judge got wrong ---------------------------------------------------------------


def _misjudged_section(report: AuditReport, items: Sequence[AuditItem] | None) -> list[str]:
    """The false passes (injected, judged pass) and false fails (clean, judged fail), each shown with its section."""
    by_id = {item.id: item for item in items} if items is not None else {}
    injected = [r for r in report.items if r.kind != CLEAN and r.passed is not None]
    clean = [r for r in report.items if r.kind == CLEAN and r.passed is not None]
    false_passes = [r for r in injected if r.passed]
    false_fails = [r for r in clean if not r.passed]
    out = [
        "<h2>What the judge got wrong</h2>",
        (
            "<p>Each item opens to its section as the judge saw it: "
            '<mark class="injected">the injected defect</mark>, <mark class="judge">what the judge flagged</mark>, '
            '<span class="cut">a deletion</span>; then the judge\'s own words, where it gave any.</p>'
        ),
    ]
    if items is None:
        out.append('<p class="muted">The sections are shown when the page is written with the audit\'s items.</p>')
    out.append(f"<h3>Passed wrongly: {len(false_passes)} of {len(injected)} injected items (the false passes behind rho_fp)</h3>")
    out.extend(_item_list(false_passes, by_id, "no injected item was judged pass"))
    out.append(f"<h3>Failed wrongly: {len(false_fails)} of {len(clean)} clean items (the false fails behind rho_pf)</h3>")
    out.extend(_item_list(false_fails, by_id, "no clean section was judged fail"))
    return out


def _item_list(results: Sequence[ItemResult], by_id: dict[str, AuditItem], none: str) -> list[str]:
    if not results:
        return [f'<p class="muted">None: {escape(none)}.</p>']
    shown = [_item(result, by_id.get(result.id)) for result in results[:_SHOWN]]
    more = len(results) - len(shown)
    if more:
        shown.append(f'<p class="muted">... and {more} more (every item, by id, is in the audit\'s --format json).</p>')
    return shown


def _item(result: ItemResult, item: AuditItem | None) -> str:
    said = "pass" if result.passed else "fail"
    visible = "" if item is None or item.visible is None else (" (QC-visible)" if item.visible else " (QC-invisible)")
    summary = f"<code>{escape(result.id)}</code> · {escape(result.kind)}{visible} · the judge said <b>{said}</b>"
    parts = [f'<details class="item"><summary>{summary}</summary>']
    if item is not None:
        record = item.record
        if record is not None:
            parts.append(
                f"<p>Injected at character {record.injected_start}: "
                f"<del>{escape(_clip(record.original_text)) or '(nothing)'}</del> → "
                f"<ins>{escape(_clip(record.replacement_text)) or '(nothing: deleted)'}</ins></p>"
            )
        parts.append(f'<pre class="section">{_marked(item.text, item.targets, result.spans or ())}</pre>')
    spans = "none" if not result.spans else ", ".join(f"{s}-{e}" for s, e in result.spans)
    parts.append(f"<p>The judge's answer: <b>{said}</b>; spans flagged: {escape(spans)}.</p>")
    if result.note:
        parts.append(f'<p class="note">{escape(result.note)}</p>')
    parts.append("</details>")
    return "".join(parts)


def _clip(text: str) -> str:
    return text if len(text) <= _EDIT_CHARS else text[: _EDIT_CHARS - 3] + "..."


def _marked(text: str, injected: Sequence[tuple[int, int]], judged: Sequence[tuple[int, int]]) -> str:
    """``text`` escaped, with injected spans and judge spans marked (they may overlap) and deletions shown."""
    size = len(text)
    clip = [(max(0, min(s, size)), max(0, min(e, size))) for s, e in injected]
    inj = [(s, e) for s, e in clip if e > s]
    cuts = sorted({s for s, e in clip if e == s})
    jud = [(s, e) for s, e in ((max(0, min(s, size)), max(0, min(e, size))) for s, e in judged) if e > s]
    points = sorted({0, size, *cuts, *(p for span in (*inj, *jud) for p in span)})
    out: list[str] = []
    for start, end in zip(points, points[1:] + [size]):
        if start in cuts:
            out.append('<span class="cut">[deleted here]</span>')
            cuts.remove(start)
        if end <= start:
            continue
        classes = [name for name, spans in (("injected", inj), ("judge", jud)) if any(s <= start and end <= e for s, e in spans)]
        piece = escape(text[start:end])
        out.append(f'<mark class="{" ".join(classes)}">{piece}</mark>' if classes else piece)
    return "".join(out)


# --- the run and the terms --------------------------------------------------------------------


def _run_section(report: AuditReport, run: RunDetails | None) -> list[str]:
    from .. import __version__

    rows: list[tuple[str, str]] = [("qcgrade", __version__), ("judge", report.judge)]
    for key, value in sorted((report.judge_info or {}).items()):
        if key != "usage" and value is not None:
            rows.append((f"judge {key.replace('_', ' ')}", str(value)))
    rows += [
        ("seeds", seeds_phrase(report.seeds)),
        ("tau", f"{report.tau:g}"),
        ("sections", str(report.sections)),
        ("defect classes", ", ".join(report.per_class)),
    ]
    if run is not None and run.command:
        rows.append(("command", run.command))
    if run is not None and run.timestamp:
        rows.append(("run at", run.timestamp))
    body = "".join(f"<tr><td>{escape(k)}</td><td><code>{escape(v)}</code></td></tr>" for k, v in rows)
    return ["<h2>The run</h2>", f'<div class="scroll"><table class="run"><tbody>{body}</tbody></table></div>']


#: The terms the page uses, in the order a reader meets them.
GLOSSARY: tuple[tuple[str, str], ...] = (
    (
        "rho_fp (false-pass rate)",
        "The share of injected, truly failing items the judge passed. The curator's enemy: "
        "a skill that fails but is reported as passing is never retired.",
    ),
    ("rho_pf (false-fail rate)", "The share of clean, truly passing sections the judge failed."),
    (
        "kappa",
        "1 - rho_fp - rho_pf: how much the judge's verdict says about the truth. 1 is a perfect judge, "
        "0 a coin that ignores the section.",
    ),
    ("tau", "The curator's retirement margin: a skill is retired when 2p - 1 falls to -tau after N_min trials."),
    (
        "cliff (1 - tau)/2",
        "The false-pass rate at which retirement stops working at any sample size: past it the curator is blind (appendix C.1).",
    ),
    (
        "QC-visible / QC-invisible",
        "Defect classes the deterministic checks are built to see (a citation to no card, "
        "a bare number) and classes that change meaning while every marker stays intact (a flipped claim, a swapped digit).",
    ),
    (
        "flag rate",
        "The share of a class's items the judge failed. For a defect class it should be 1; for clean sections it is rho_pf.",
    ),
    ("95% CI", "The Wilson score interval: the range the true rate lies in with 95% confidence, given this many items."),
    (
        "span Jaccard",
        "Overlap (intersection over union, in characters) between the spans the judge flagged and the "
        "injected span; 1 means it pointed at exactly the defect.",
    ),
    ("largest operative tau", "1 - 2 rho_fp: the biggest margin for which retirement still fires with this judge."),
    (
        "symmetric-equivalent rho, effective tau, N_min inflation",
        "The symmetric noise level with the same kappa, the "
        "margin the curator effectively runs at under it (tau / (1 - 2 rho)), and how many more trials it needs "
        "((1 - 2 rho)^-2).",
    ),
    (
        "Prop. 1' floor terms",
        "The paper's lower bound on what curation keeps (appendix C.2): E[pass@1] >= E[p0] - margin - attenuation "
        "- tail, with margin = (tau/2 + eps + rho_fp)/kappa, attenuation = (1 - kappa)/2 and tail = cap x delta, "
        "taken at the rates' upper 95% bounds, eps from Hoeffding at N_min trials. The smaller the total, the less "
        "this judge can cost; vacuous when retirement is inoperative.",
    ),
    (
        "verdicts",
        "safe: below the cliff with room to spare; starved: safe from bias but kappa < 0.1, so the curator "
        "learns little; at risk: the interval of rho_fp reaches the cliff, audit more items; blind curator: rho_fp at or "
        "past the cliff. From least to most severe: safe, starved, at risk, blind curator (qcgrade audit --fail-on).",
    ),
    (
        "judge errors",
        "Items the judge could not answer (a crash, a timeout, an unreadable answer) after every retry; "
        "never counted as a pass or a fail.",
    ),
    ("composite", "With --composite: pass only if the judge and qcgrade's grader both pass, measured on the same items."),
)


def _glossary() -> list[str]:
    entries = "".join(f"<dt>{escape(term)}</dt><dd>{escape(meaning)}</dd>" for term, meaning in GLOSSARY)
    return ["<h2>Glossary</h2>", f'<dl class="glossary">{entries}</dl>']


def simulation_page(result: SimulationResult, curve: RetirementCurve | None = None) -> str:
    """One simulation run's per-round activity (cf. paper Fig. 8), and the sweep if given."""
    rounds = result.per_round

    def pick(name: str) -> tuple[tuple[float, float], ...]:
        return tuple((float(r.round), float(getattr(r, name))) for r in rounds)

    series = [
        Series("genuine retirements", RED, pick("genuine_retirements")),
        Series("cap evictions", GREY, pick("evictions"), "5,3"),
        Series("synthesized", GREEN, pick("synthesized")),
        Series("active skills", BLUE, pick("active"), "2,3"),
    ]
    top = max([y for s in series for _, y in s.points] + [1.0])
    activity = line_chart(
        series,
        title="Curation activity per round",
        x_label="round",
        y_label="skills",
        x_max=float(len(rounds)),
        y_max=top,
        x_ticks=[float(r.round) for r in rounds],
    )
    params = dict(result.params)
    totals = result.to_dict()["totals"]
    body = [
        "<h1>Curator simulation</h1>",
        '<p class="muted">' + escape(", ".join(f"{k} {v}" for k, v in sorted(params.items()))) + "</p>",
        activity,
        _table(("total", "count"), [(k, str(v)) for k, v in sorted(totals.items())]),
    ]
    if curve is not None:
        body.extend(_curve_section(curve))
        if curve.judge is not None:
            j = curve.judge
            verdict = f", verdict {j.verdict}" if j.verdict else ""
            body.append(
                f"<p>Measured judge <code>{escape(j.label)}</code>: rho_fp {j.rho_fp:.3f} "
                f"(95% CI {j.rho_fp_ci[0]:.3f}-{j.rho_fp_ci[1]:.3f}), rho_pf {j.rho_pf:.3f}{escape(verdict)}.</p>"
            )
    return _page("qcgrade curator simulation", body)
