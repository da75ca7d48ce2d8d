"""``sogo coverage``: which rules of a rules text a rulebook encodes, lists as not encoded, or ignores.

Registered by the main CLI. Citations of rule numbers the text does not have
are printed as ``file:line:col: message`` on stderr and make the command exit
with status 1, so CI catches a rulebook drifting from its rules text.
"""

from __future__ import annotations

import click

from interpreter.loader.diagnostics import LoadError


@click.command("coverage")
@click.argument("rulebook", type=str)
@click.option("--rules", "rules_file", type=str, metavar="FILE",
              help="The comprehensive-rules text the rulebook encodes (required unless --inferred).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text",
              show_default=True, help="Report format.")
@click.option("--layout", type=click.Choice(["auto", "numbered", "unnumbered"]), default="auto", show_default=True,
              help="How to read FILE: numbered rules, or an unnumbered page of headings and bullets whose rules "
                   "are cited by the ids `sogo rules parse` prints; auto tells them apart.")
@click.option("--inferred", "only_inferred", is_flag=True,
              help="List only the elements marked `inferred` (id, section, file:line, decision, the decision's "
                   "evidence); with --rules the evidence is shown with its text.")
def coverage(rulebook: str, rules_file: str | None, fmt: str, layout: str, only_inferred: bool) -> None:
    """Report how much of the rules text RULES the rulebook RULEBOOK (a game id or directory) covers."""
    from interpreter.rbdiff.inferred import inferred_elements
    from interpreter.rbdiff.raw import load_raw_rulebook
    from interpreter.rulestext import RulesTextError, read_rules
    from interpreter.rulestext.coverage import bad_message, compute_coverage, render_coverage, render_inferred

    if rules_file is None and not only_inferred:
        raise click.UsageError("give --rules FILE (or --inferred to list the inferred elements only)")
    try:
        book = load_raw_rulebook(rulebook)
    except LoadError as error:
        click.echo(str(error), err=True)
        raise click.exceptions.Exit(1) from error
    if rules_file is None:
        click.echo(render_inferred(inferred_elements(book), fmt, book.label), nl=False)
        return
    try:
        doc = read_rules(rules_file, layout)
    except RulesTextError as error:
        click.echo(str(error), err=True)
        raise click.exceptions.Exit(1) from error
    report = compute_coverage(book, doc)
    if only_inferred:
        click.echo(render_inferred(report.inferred, fmt, book.label, report.labels), nl=False)
    else:
        click.echo(render_coverage(report, fmt), nl=False)
    for citation in report.bad:
        click.echo(bad_message(citation, rules_file), err=True)
    if report.bad:
        raise click.exceptions.Exit(1)
