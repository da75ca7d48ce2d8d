"""Semantic diff of two YAML rulebooks, keyed by element id, with the turn structure as a graph.

``load_raw_rulebook`` reads a rulebook's YAML as written (no compiler), ``diff_rulebooks``
compares two of them, ``render_rbdiff`` writes text, Markdown, JSON or HTML, and ``to_dot`` /
``write_graph`` draw the turn-structure changes.
"""

from .diff import SECTIONS, ItemChange, RulebookDiff, SectionDiff, diff_rulebooks
from .fields import FieldChange, diff_values, step_verbs
from .graph import GraphDiff, TurnGraph, build_turn_graph, diff_graphs, to_dot, write_graph
from .raw import Citation, RawRulebook, load_raw_rulebook, rule_key
from .render import RB_FORMATS, render_rbdiff

__all__ = [
    "RB_FORMATS",
    "SECTIONS",
    "Citation",
    "FieldChange",
    "GraphDiff",
    "ItemChange",
    "RawRulebook",
    "RulebookDiff",
    "SectionDiff",
    "TurnGraph",
    "build_turn_graph",
    "diff_graphs",
    "diff_rulebooks",
    "diff_values",
    "load_raw_rulebook",
    "render_rbdiff",
    "rule_key",
    "step_verbs",
    "to_dot",
    "write_graph",
]
