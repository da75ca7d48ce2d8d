"""Where a report goes: standard output, or a file named with -o (a failure is a located error)."""

from __future__ import annotations

from pathlib import Path

import click


def write_report(report: str, output: str | None) -> bool:
    """Print the report, or write it to `output`; returns whether a file was written."""
    if output is None:
        click.echo(report, nl=False)
        return False
    try:
        Path(output).write_text(report, encoding="utf-8")
    except OSError as error:
        click.echo(f"{output}:1:1: cannot write report: {error.strerror or error}", err=True)
        raise click.exceptions.Exit(1) from error
    return True
