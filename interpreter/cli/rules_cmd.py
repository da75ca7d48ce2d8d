"""``sogo rules``: parse and diff comprehensive-rules texts.

Registered by the main CLI with ``cli.add_command(rules)``. Problems with the
inputs are printed as ``path:line:col: message`` and exit with status 1, never
as a traceback, so the commands can run in CI and in editors.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import click

from interpreter.cli.output import write_report
from interpreter.loader.diagnostics import LoadError
from interpreter.rulestext import FORMATS, LAYOUTS, Rule, RuleDoc, RulesTextError, diff_rules, read_rules, render
from interpreter.rulestext.diff import RulesDiff
from interpreter.rulestext.impact import Impact

LAYOUT_HELP = ("How to read the text: numbered rules (1.2.1.), an unnumbered page of headings and 「・」 bullets "
               "(rules get derived ids, see docs/rules-versions.md), or auto: numbered when rule numbers are "
               "found, else a page.")


@click.group(name="rules")
def rules() -> None:
    """Parse comprehensive-rules texts and compare their revisions."""


def _fail(message: str) -> NoReturn:
    click.echo(message, err=True)
    raise click.exceptions.Exit(1)


@contextmanager
def _located_errors(path: str) -> Iterator[None]:
    """Turn any failure into ``path:line:col: message`` and exit status 1."""
    try:
        yield
    except (RulesTextError, LoadError) as error:
        _fail(str(error))
    except click.exceptions.Exit:
        raise
    except Exception as error:  # the contract is "never a traceback"
        _fail(f"{path}:1:1: internal error: {type(error).__name__}: {error}")


def _load(path: str, layout: str = "auto") -> RuleDoc:
    """Read and parse one file; a file that yields no rules is an error."""
    return read_rules(path, layout)


def _summary(doc: RuleDoc, path: str) -> str:
    counts = doc.counts()
    version = f", version {doc.version}" if doc.version else ""
    date = f" ({doc.date})" if doc.date else ""
    if doc.unnumbered:
        return (f"{path}: unnumbered page: {counts['rules']} rules: {counts['headings']} headings, "
                f"{counts['bullets']} bullets, {counts['notes']} notes, {counts['paragraphs']} paragraphs, "
                f"{counts['examples']} examples ({counts['detail']} below a detail toggle); "
                f"{counts['changes']} change records, {counts['unparsed']} unparsed, {counts['dropped']} toggle "
                f"lines dropped{version}{date}")
    return (f"{path}: {counts['rules']} rules in {counts['sections']} sections, {counts['items']} items, "
            f"{counts['unparsed']} unparsed, {counts['dropped']} header/footer lines dropped, "
            f"{counts['toc_lines']} table-of-contents lines skipped, {counts['appendix_sections']} appendix "
            f"sections, {counts['gaps']} numbering gaps{version}{date}")


def _report_parse(doc: RuleDoc, path: str) -> None:
    """Unparsed lines and a summary on stderr, so stdout stays machine-readable."""
    for line in doc.unparsed:
        reason = f" ({line.reason})" if line.reason else ""
        click.echo(f"{path}:{line.line}: unparsed: {line.text}{reason}", err=True)
    click.echo(_summary(doc, path), err=True)
    for note in doc.notes:
        click.echo(f"{path}: note: {note}", err=True)


def _label(rule: Rule, limit: int = 100) -> str:
    """Heading, or first line of the text (with its marker on a page), shortened."""
    label = rule.heading or (f"{rule.marker}{rule.text}" if rule.kind else rule.text).split("\n", 1)[0]
    return label if len(label) <= limit else label[: limit - 1] + "…"


def _outline(doc: RuleDoc) -> str:
    """Indented outline of the rule tree, one rule per line (a page's rules with their ids)."""
    lines: list[str] = []
    for rule in doc.ordered():
        indent = "  " * (rule.depth - 1)
        where = [f"line {rule.line}"] + (["detail"] if rule.detail else [])
        where += [f"{change.kind} {change.date}" for change in rule.changes]
        lines.append(f"{indent}{rule.number} {_label(rule)}  [{', '.join(where)}]")
    return "\n".join(lines) + "\n"


def _changes(doc: RuleDoc, fmt: str) -> str:
    """The dated notes of a page as change records: one per line, or a JSON list."""
    records = [{"id": rule.number, **change.to_dict(), "text": _label(rule, 60)} for rule, change in doc.changes()]
    if fmt == "json":
        return json.dumps(records, ensure_ascii=False, indent=2) + "\n"
    return "".join(f"{r['date']} {r['kind']:<9} {r['id']:<11} {r['text']}  [line {r['line']}]\n" for r in records)


@rules.command("parse")
@click.argument("file", type=str)
@click.option("--format", "fmt", type=click.Choice(["json", "text"]), default="json", show_default=True,
              help="json: the rule tree; text: an indented outline, each rule's number or id beside its text.")
@click.option("--layout", type=click.Choice(list(LAYOUTS)), default="auto", show_default=True, help=LAYOUT_HELP)
@click.option("--changes", "changes", is_flag=True,
              help="List the dated notes of an unnumbered page (\"(2024/9/20 更新)\") as change records instead.")
def parse_command(file: str, fmt: str, layout: str, changes: bool) -> None:
    """Parse FILE and print its rule tree (unparsed lines and counts go to stderr)."""
    with _located_errors(file):
        doc = _load(file, layout)
        if changes:
            output = _changes(doc, fmt)
        else:
            output = doc_json(doc) if fmt == "json" else _outline(doc)
        _report_parse(doc, file)
    click.echo(output, nl=False)


def doc_json(doc: RuleDoc) -> str:
    """The parsed document as JSON, Japanese left readable."""
    return json.dumps(doc.to_dict(), ensure_ascii=False, indent=2) + "\n"


# --- rulebook impact ------------------------------------------------------------------------------
# ``--rulebook RULEBOOK`` on ``sogo rules diff`` lists which elements of a YAML rulebook, and which
# scenarios, cite rules that were added, removed, changed or renumbered (interpreter.rulestext.impact).
def rulebook_impact_hook(
    diff: RulesDiff,
    rulebook: str | Path | None = None,
    scenarios: str | Path | None = None,
    old_doc: RuleDoc | None = None,
) -> Impact | None:
    """The impact of ``diff`` on ``rulebook`` (a game id or directory) and its scenarios; None without one."""
    if rulebook is None:
        return None
    from interpreter.rbdiff.raw import load_raw_rulebook
    from interpreter.rulestext.impact import compute_impact

    book = load_raw_rulebook(rulebook)
    return compute_impact(diff, book, Path(scenarios) if scenarios is not None else None, old_doc)


@rules.command("diff")
@click.argument("old", type=str)
@click.argument("new", type=str)
@click.option("--format", "fmt", type=click.Choice(list(FORMATS)), default="text", show_default=True,
              help="Report format.")
@click.option("-o", "--output", "output", type=str, default=None,
              help="Write the report here instead of stdout.")
@click.option("--rulebook", "rulebook", type=str, default=None,
              help="Add an Impact section: which elements of this rulebook (game id or directory) cite "
                   "the rules that changed.")
@click.option("--scenarios", "scenarios", type=click.Path(file_okay=False), default=None,
              help="Scenario directory for the Impact section (default: tests/scenarios/<rulebook id>).")
@click.option("--layout", type=click.Choice(list(LAYOUTS)), default="auto", show_default=True, help=LAYOUT_HELP)
def diff_command(old: str, new: str, fmt: str, output: str | None, rulebook: str | None,
                 scenarios: str | None, layout: str) -> None:
    """Compare two revisions OLD and NEW of a rules text, matching rules by content."""
    with _located_errors(old):
        old_doc = _load(old, layout)
    with _located_errors(new):
        new_doc = _load(new, layout)
    with _located_errors(new):
        result = diff_rules(old_doc, new_doc)
        report = render(result, fmt)
    impact: Impact | None = None
    if rulebook is not None:
        with _located_errors(rulebook):
            from interpreter.rulestext.impact import attach_impact

            impact = rulebook_impact_hook(result, rulebook, scenarios, old_doc)
            if impact is not None:
                report = attach_impact(report, impact, fmt)
                for note in impact.notes:
                    click.echo(f"{rulebook}: note: {note}", err=True)
    for path, doc in ((old, old_doc), (new, new_doc)):
        for line in doc.unparsed:
            click.echo(f"{path}:{line.line}: unparsed: {line.text}", err=True)
    if not write_report(report, output):
        return
    counts = result.counts()
    summary = ", ".join(f"{value} {key}" for key, value in counts.items())
    if impact is not None:
        summary += f"; impact: {impact.counts()['rules_affecting_citations']} rules cited by the rulebook"
    click.echo(f"{output}: {summary}", err=True)


if __name__ == "__main__":  # pragma: no cover - convenience for running the module directly
    sys.exit(rules())
