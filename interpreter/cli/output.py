"""Where a report goes: standard output, or a file named with -o (a failure is a located error)."""

from __future__ import annotations

import click

from interpreter.files import write_text_atomic


def write_report(report: str, output: str | None) -> bool:
    """Print the report, or write it to `output`; returns whether a file was written."""
    if output is None:
        click.echo(report, nl=False)
        return False
    try:
        write_text_atomic(output, report)
    except OSError as error:
        click.echo(f"{output}:1:1: cannot write report: {error.strerror or error}", err=True)
        raise click.exceptions.Exit(1) from error
    return True
