"""``sogo diff``: what changed between two rulebooks, element by element and in the turn structure.

Registered by the main CLI. Rulebooks are read as raw YAML (they need not load
in the engine); unreadable files are reported as ``path:line:col: message``
with exit status 1.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import click

from interpreter.cli.output import write_report
from interpreter.loader.diagnostics import LoadError


@click.command("diff")
@click.argument("rulebook_a", type=str)
@click.argument("rulebook_b", type=str)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json", "html"]), default="text",
              show_default=True, help="Report format.")
@click.option("--graph-out", "graph_out", type=click.Path(dir_okay=False), default=None,
              help="Draw the turn-structure diff: FILE.svg (needs Graphviz 'dot', else FILE.dot is written) "
                   "or FILE.dot.")
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False), default=None,
              help="Write the report here instead of stdout.")
def diff(rulebook_a: str, rulebook_b: str, fmt: str, graph_out: str | None, output: str | None) -> None:
    """Compare rulebooks RULEBOOK_A and RULEBOOK_B (game ids or directories) by element id."""
    from interpreter.rbdiff import diff_rulebooks, load_raw_rulebook, render_rbdiff, write_graph

    try:
        a = load_raw_rulebook(rulebook_a)
        b = load_raw_rulebook(rulebook_b)
    except LoadError as error:
        click.echo(str(error), err=True)
        raise click.exceptions.Exit(1) from error
    result = diff_rulebooks(a, b)
    report = render_rbdiff(result, fmt)
    if graph_out is not None:
        try:
            written, warning = write_graph(result.graph, Path(graph_out), title=f"{a.id} -> {b.id}")
        except (OSError, subprocess.SubprocessError) as error:
            click.echo(f"{graph_out}:1:1: cannot write the graph: {error}", err=True)
            raise click.exceptions.Exit(1) from error
        if warning:
            click.echo(f"warning: {warning}", err=True)
        click.echo(f"{written}: turn-structure diff", err=True)
    write_report(report, output)
