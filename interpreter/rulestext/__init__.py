"""Tools for tracking revisions of comprehensive-rules texts.

``parse_rules`` turns an extracted rules document into a rule tree,
``diff_rules`` compares two revisions by content, and ``render`` writes the
result as text, Markdown, JSON or HTML.
"""

from .diff import DiffEntry, RulesDiff, diff_rules
from .model import Rule, RuleDoc, RuleItem
from .parse import parse_rules
from .report import FORMATS, render
from .source import RulesTextError, load_text

__all__ = [
    "FORMATS",
    "DiffEntry",
    "Rule",
    "RuleDoc",
    "RuleItem",
    "RulesDiff",
    "RulesTextError",
    "diff_rules",
    "load_text",
    "parse_rules",
    "render",
]
