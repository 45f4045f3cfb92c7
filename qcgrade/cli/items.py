"""``qcgrade items``: freeze an audit's item set as JSONL, to replay with ``audit --items``."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import InputError
from .app import friendly
from .options import choose_defects, defects_option, output_option, seeds_option
from .output import check_writable, write_output


@click.command(name="items", short_help="Freeze an audit's items as JSONL (replay: audit --items).")
@click.argument("corpus", type=click.Path(path_type=Path))
@seeds_option()
@defects_option()
@output_option("Write the JSONL here ('-' or default: stdout).")
@friendly
def items_command(corpus: Path, seeds: int, defects: str | None, output: Path | None) -> None:
    """Freeze the audit items of CORPUS: each clean section and each injected defect, with its record.

    One JSON line per item (section, slice, label, class, injected span and
    the injection record), after a header line; schemas/audit-items.schema.json
    describes them. Replay with: qcgrade audit --items FILE --judge ...
    """
    from ..auditing.item_file import dump_items
    from ..auditing.items import build_items, corpus_entries
    from ..auditing.run import seed_list

    if not corpus.exists():
        raise InputError(f"{corpus}: no such file or directory")
    check_writable(output, "--output")
    chosen = choose_defects("--defects", defects)
    seed_values = seed_list(seeds)
    item_set = build_items(corpus_entries(corpus), seed_values, chosen)
    if not item_set.items:
        raise InputError(f"{corpus}: no section passes the grader, so there is nothing to freeze")
    write_output(output, dump_items(item_set, seed_values))
    if output is not None and str(output) != "-":
        click.echo(
            f"{output}: {len(item_set.items)} items from {item_set.sections} sections "
            f"({len(item_set.skipped)} skipped, {len(item_set.not_applicable)} injections not applicable)",
            err=True,
        )
