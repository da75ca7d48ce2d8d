"""Run the `sogo` command in-process for tests: (exit code, stdout, stderr); real errors propagate."""

from __future__ import annotations

from click.testing import CliRunner

from interpreter.cli.main import cli


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, list(args))
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r.exit_code, r.stdout, r.stderr
