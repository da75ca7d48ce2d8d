"""Tools for tracking revisions of comprehensive-rules texts.

``parse_rules`` turns an extracted rules document into a rule tree (a numbered
text, or an unnumbered page of headings and bullets whose rules get derived
ids, see :mod:`.ids`), ``diff_rules`` compares two revisions by content, and
``render`` writes the result as text, Markdown, JSON or HTML.
"""

from .diff import DiffEntry, RulesDiff, diff_rules
from .model import ChangeRecord, Rule, RuleDoc, RuleItem
from .parse import LAYOUTS, parse_rules
from .report import FORMATS, render
from .source import RulesTextError, load_text, read_rules

__all__ = [
    "FORMATS",
    "LAYOUTS",
    "ChangeRecord",
    "DiffEntry",
    "Rule",
    "RuleDoc",
    "RuleItem",
    "RulesDiff",
    "RulesTextError",
    "diff_rules",
    "load_text",
    "parse_rules",
    "read_rules",
    "render",
]
