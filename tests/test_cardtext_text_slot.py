"""A `text` slot gives the text between its brackets itself, where a `quoted` slot gives an expression
string literal: for a value that is no expression, such as a keyword parameter naming cards."""

from __future__ import annotations

from interpreter.cardtext.compiler import compile_ability_text
from interpreter.cardtext.grammar import Grammar


def test_a_quoted_slot_gives_its_text_or_a_literal() -> None:
    section = {"quotes": [{"open": "「", "close": "」"}],
               "slots": [{"id": "name", "kind": "quoted", "open": "「", "close": "」"},
                         {"id": "plain_name", "kind": "text", "open": "「", "close": "」"}],
               "phrases": [
                   {"id": "m", "rules": ["1"], "part": "marker", "text": "【常在】", "gives": {"kind": "aura"}},
                   {"id": "as", "rules": ["1"], "part": "clause", "text": "{a:plain_name}か{b:plain_name}として扱う。",
                    "gives": {"keywords": [{"named": {"names": ["{a}", "{b}"]}}]}},
                   {"id": "is", "rules": ["1"], "part": "clause", "text": "{n:name}を探す。",
                    "gives": {"effect": [{"set_var": {"name": "x", "value": "{n}"}}]}}]}
    g = Grammar(section, lambda path: ("ct.yaml", 1, 1))
    assert g.problems == []
    assert compile_ability_text(g, "【常在】「星野 あかり」か「月島 ゆう」として扱う。").ability == {
        "kind": "aura", "keywords": [{"named": {"names": ["星野 あかり", "月島 ゆう"]}}]}
    assert compile_ability_text(g, "【常在】「It's」を探す。").ability["effect"] == [
        {"set_var": {"name": "x", "value": "'It\\'s'"}}]
