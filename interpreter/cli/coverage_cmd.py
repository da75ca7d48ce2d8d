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
@click.option("--rules", "rules_file", required=True, type=str, metavar="FILE",
              help="The comprehensive-rules text the rulebook encodes.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text",
              show_default=True, help="Report format.")
@click.option("--layout", type=click.Choice(["auto", "numbered", "unnumbered"]), default="auto", show_default=True,
              help="How to read FILE: numbered rules, or an unnumbered page of headings and bullets whose rules "
                   "are cited by the ids `sogo rules parse` prints; auto tells them apart.")
def coverage(rulebook: str, rules_file: str, fmt: str, layout: str) -> None:
    """Report how much of the rules text RULES the rulebook RULEBOOK (a game id or directory) covers."""
    from interpreter.rbdiff.raw import load_raw_rulebook
    from interpreter.rulestext import RulesTextError, read_rules
    from interpreter.rulestext.coverage import bad_message, compute_coverage, render_coverage

    try:
        book = load_raw_rulebook(rulebook)
    except LoadError as error:
        click.echo(str(error), err=True)
        raise click.exceptions.Exit(1) from error
    try:
        doc = read_rules(rules_file, layout)
    except RulesTextError as error:
        click.echo(str(error), err=True)
        raise click.exceptions.Exit(1) from error
    report = compute_coverage(book, doc)
    click.echo(render_coverage(report, fmt), nl=False)
    for citation in report.bad:
        click.echo(bad_message(citation, rules_file), err=True)
    if report.bad:
        raise click.exceptions.Exit(1)
