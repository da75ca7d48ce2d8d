"""The generated reference (docs/reference.md, `sogo reference`) is complete, current and correct.

Every built-in function, verb, argument kind, card attribute, engine name, kind of action, operator
and engine event has a summary and an example where its code is; the checked-in page is what the
generator writes; and every example compiles against a toy rulebook (and each expression example
evaluates in a toy game), so an example cannot name a function, zone or argument that does not exist.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from toy_engine import TOY, game_of, toy_variant

from interpreter import reference
from interpreter.expr.lexer import _ONE_CHAR_OPS, _TWO_CHAR_OPS, KEYWORDS
from interpreter.expr.parser import OPERATORS
from interpreter.loader.compile import Compiler, Loc
from interpreter.loader.diagnostics import Diagnostics
from interpreter.loader.names import BINDING_KEYS, BINDINGS, GIVEN_NAMES, collect_names
from interpreter.loader.schema import validate
from interpreter.loader.yaml_safe import load_yaml_text
from interpreter.model.vocabulary import ARG_KINDS
from interpreter.state.events import ENGINE_EVENTS
from interpreter.table.attributes import ATTRIBUTES, SLOTS
from interpreter.table.context import NAME_DOCS, POSITIONAL, Ctx
from interpreter.table.functions import GENERIC_FUNCTIONS
from interpreter.timing.play_timing import ACTION_KINDS
from interpreter.verbs.registry import load_all

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "reference.md"
REGENERATE = "python -m interpreter.cli.main reference --write docs/reference.md"


# -- complete -----------------------------------------------------------------------------------------
def test_every_entry_has_a_summary_and_an_example():
    missing = reference.problems()
    assert not missing, "\n".join(missing) + f"\nthen regenerate the reference: {REGENERATE}"


def test_every_function_and_verb_is_in_the_reference():
    assert [e.name for e in reference.functions()] == sorted(GENERIC_FUNCTIONS)
    assert {e.name for e in reference.verbs()} == set(load_all())


def test_every_reading_names_only_its_arguments():
    """A verb's or function's reading (`reads=`) fills its placeholders from its own arguments (`*`:
    the ones a verb takes besides those it names)."""
    from interpreter.model.readings import placeholders

    for name, spec in load_all().items():
        unknown = placeholders(spec.reads) - set(spec.args)
        assert not unknown, f"verb '{name}' reads {spec.reads!r}: no argument {sorted(unknown)}"
    for name, fn in GENERIC_FUNCTIONS.items():
        params = {p.rstrip("?").removesuffix("...") for p in reference.parameters(fn.fn, 1 if fn.pass_env else 0)}
        unknown = placeholders(fn.reads) - params
        assert not unknown, f"function '{name}' reads {fn.reads!r}: no parameter {sorted(unknown)}"


def test_every_attribute_is_documented():
    readable = set(SLOTS) | {"type"}  # what attr_kind reads itself, before states and fields
    assert set(ATTRIBUTES) == readable, (
        f"card attributes without an entry in ATTRIBUTES (interpreter/table/attributes.py): "
        f"{sorted(readable - set(ATTRIBUTES))}; entries for no attribute: {sorted(set(ATTRIBUTES) - readable)}")


def test_every_engine_name_is_documented():
    assert set(NAME_DOCS) == set(POSITIONAL), (
        f"engine names without an entry in NAME_DOCS (interpreter/table/context.py): "
        f"{sorted(set(POSITIONAL) - set(NAME_DOCS))}; entries for no name: {sorted(set(NAME_DOCS) - set(POSITIONAL))}")


def test_every_name_given_for_a_part_is_documented():
    """The names the loader accepts for a part of the rulebook (`names.add(...)` in load_rulebook), the
    names rule processes bind, and every key that binds a name."""
    source = (ROOT / "interpreter" / "loader" / "rulebook.py").read_text(encoding="utf-8")
    added = set(re.findall(r'names\.add\("(\w+)"\)', source)) | {"it", "chooser", "p", "z"}
    assert "chooser" in source.replace("CHOOSER", "chooser")
    assert added <= set(GIVEN_NAMES), (
        f"names without an entry in GIVEN_NAMES (interpreter/loader/names.py): {sorted(added - set(GIVEN_NAMES))}")
    assert BINDING_KEYS <= set(BINDINGS), (
        f"binding keys without an entry in BINDINGS (interpreter/loader/names.py): "
        f"{sorted(BINDING_KEYS - set(BINDINGS))}")


def test_every_action_kind_is_documented():
    schema = json.loads((ROOT / "schemas" / "rulebook-part.schema.json").read_text(encoding="utf-8"))
    kinds = set(schema["$defs"]["sections"]["properties"]["actions"]["items"]["properties"]["kind"]["enum"])
    assert set(ACTION_KINDS) == kinds, (
        f"action kinds the schema allows without an entry in ACTION_KINDS (interpreter/timing/play_timing.py): "
        f"{sorted(kinds - set(ACTION_KINDS))}; entries the schema does not allow: {sorted(set(ACTION_KINDS) - kinds)}")


def test_every_operator_is_documented():
    documented = {t for tokens, _, _ in OPERATORS for t in tokens.split()}
    tokens = set(KEYWORDS) | set(_TWO_CHAR_OPS) | set(_ONE_CHAR_OPS)
    assert tokens <= documented, (
        f"operators and keywords without an entry in OPERATORS (interpreter/expr/parser.py): "
        f"{sorted(tokens - documented)}")


def test_every_argument_kind_is_documented():
    used = {kind.rstrip("?").split(":")[0]: name for name, spec in load_all().items() for kind in spec.args.values()}
    missing = {k: v for k, v in used.items() if k not in ARG_KINDS}
    assert not missing, f"argument kinds without an entry in ARG_KINDS (interpreter/model/vocabulary.py): {missing}"


def test_every_engine_event_has_an_example():
    assert set(reference.EVENT_EXAMPLES) == set(ENGINE_EVENTS), (
        f"engine events without an example in EVENT_EXAMPLES (interpreter/reference.py): "
        f"{sorted(set(ENGINE_EVENTS) - set(reference.EVENT_EXAMPLES))}; examples of no engine event: "
        f"{sorted(set(reference.EVENT_EXAMPLES) - set(ENGINE_EVENTS))}")


def f_undocumented(env: Any) -> int:
    return 0


def v_undocumented(game: Any, a: dict[str, Any], ctx: Any) -> Any:
    """Do nothing."""
    yield from ()


def test_an_undocumented_function_is_reported(monkeypatch):
    """A function registered without a docstring fails the check, saying where to write what."""
    from interpreter.expr import FuncSpec
    from interpreter.table import functions

    monkeypatch.setitem(functions.GENERIC_FUNCTIONS, "undocumented",
                        FuncSpec("undocumented", f_undocumented, 0, 0, pass_env=True))
    missing = reference.problems()
    assert any("function 'undocumented' has no summary" in m and "test_reference.py" in m for m in missing), missing
    assert any("function 'undocumented' has no example: add an `Example:` section" in m for m in missing), missing


def test_an_undocumented_verb_is_reported(monkeypatch):
    """A verb registered with a docstring but no example fails the check, saying where to add it."""
    from interpreter.model import vocabulary

    spec = vocabulary.VerbSpec("undocumented", {"what": "expr"})
    spec.fn, spec.doc = v_undocumented, "Do nothing."
    monkeypatch.setitem(vocabulary.VERBS, "undocumented", spec)
    missing = reference.problems()
    assert not any("verb 'undocumented' has no summary" in m for m in missing), missing
    assert any("verb 'undocumented' has no reading: give its declaration in interpreter/model/vocabulary.py a "
               "`reads=`" in m for m in missing), missing
    assert any("verb 'undocumented' has no example: add an `Example:` section at the end of its docstring "
               "(test_reference.py, v_undocumented)" in m for m in missing), missing


# -- current ------------------------------------------------------------------------------------------
def test_the_page_is_up_to_date():
    current = PAGE.read_text(encoding="utf-8") if PAGE.is_file() else ""
    assert current == reference.render(), f"docs/reference.md is out of date: run `{REGENERATE}`"


def test_the_rulebook_guide_links_the_reference():
    assert "reference.md" in (ROOT / "docs" / "writing-rulebooks.md").read_text(encoding="utf-8")
    assert "docs/reference.md" in (ROOT / "README.md").read_text(encoding="utf-8")


# -- correct ------------------------------------------------------------------------------------------
OLD_ZONE_RULES = 'zone_rules: {id: zone_rules, rules: ["3"], identity_kept_within: [board], to_owner_except: []}\n'
LAST_EVENT = '  - {id: swapped, rules: ["5"], fields: [outgoing]}\n'
PING = '  - {id: on_ping, rules: ["4"], kind: trigger, trigger: {event: ping}}\n'
CHARGE = '  - {id: charge, rules: ["4"], kind: notation, params: {n: {type: int}}}\n'
EXTRAS = """templates:
  - {id: discard_cards, rules: ["9"], params: {cards: null}, do: [{move: {cards: "cards", to: discard}}]}
"""
SAMPLE = """game: toy
cards:
  - {id: REF-SAMPLE, type: unit, name: Sample Unit, power: 3, tags: [red, blue], needs: {red: 1, blue: 1}}
"""


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    """The toy rulebook with what the examples name besides: a template, a kind of move, every engine
    event declared, a keyword with a parameter, and a card with every field."""
    toy = (TOY / "all.yaml").read_text(encoding="utf-8")
    events = "".join(f"  - {{id: {name}, rules: [\"5\"], fields: [{', '.join(ev.fields)}]}}\n"
                     for name, ev in ENGINE_EVENTS.items() if f"{{id: {name}," not in toy)
    zone_rules = OLD_ZONE_RULES.replace("to_owner_except: []", "to_owner_except: [], move_kinds: [{id: appear, "
                                        "rules: [\"3\"]}]")
    return toy_variant(tmp_path_factory.mktemp("reference"), replace=((OLD_ZONE_RULES, zone_rules),
                                                                       (LAST_EVENT, LAST_EVENT + events),
                                                                       (PING, PING + CHARGE)),
                       append=EXTRAS, cards=SAMPLE)


def _compiler(env: tuple[Any, Any], data: Any = None) -> tuple[Compiler, Diagnostics]:
    rb, _ = env
    names = set(rb.names) | set(GIVEN_NAMES)
    collect_names(data, names)
    diags = Diagnostics()
    return Compiler(diags, rb.compiler.known, names, rb.functions), diags


def _loc(text: str) -> tuple[Any, Loc]:
    data, smap = load_yaml_text(text, "example")
    return data, Loc("example", smap, ())


def _compile_expr(env: tuple[Any, Any], src: str) -> Any:
    comp, diags = _compiler(env)
    _, loc = _loc(json.dumps(src))
    compiled = comp.compile_str(src, loc)
    assert compiled is not None and not diags.sorted(), "\n".join(str(d) for d in diags.sorted())
    return compiled


def _expression_examples() -> list[tuple[str, str, str]]:
    out = [("function", e.name, e.example) for e in reference.functions()]
    out += [("attribute", e.name, e.example) for e in reference.attributes()]
    out += [("engine name", e.name, e.example) for e in reference.engine_names()]
    out += [("given name", e.name, e.example) for e in reference.given_names()]
    out += [("operator", e.name, e.example) for e in reference.operators()]
    return out


@pytest.fixture(scope="module")
def game(env: tuple[Any, Any]) -> Any:
    """A toy game in P1's turn: P1 has cards everywhere, one held under another."""
    g = game_of(env, {
        "P1": {"deck": ["U-PLAIN", "U-DASH", "U-PLAIN"], "hand": ["U-PLAIN", "REF-SAMPLE"],
               "field": [{"card": "REF-SAMPLE", "under": ["U-PLAIN"], "counters": {"charge": 2},
                          "marks": {"chosen": True}}, "U-PLAIN"],
               "discard": ["U-DASH"]},
        "P2": {"deck": ["U-PLAIN", "U-PLAIN"], "hand": ["U-DASH"], "field": ["U-PLAIN"]},
    })
    g.state.turn = 2
    g.cur_tp = g.cur_ap = 0
    return g


def _scope(game: Any) -> Ctx:
    """Where an expression example is read: P1's ability of the sample card on the field, triggered by
    a card moving from the field to the discard pile, with every name some place gives bound."""
    st = game.state
    this = next(o for o in st.objects.values() if o.card_id == "REF-SAMPLE" and o.zone == "field")
    gone = next(o for o in st.objects.values() if o.zone == "discard")
    event = {"type": "moved", "card": gone, "old": gone, "new": gone, "from": "field", "to": "discard",
             "from_player": 0, "to_player": 0}
    names = {"target": {"kind": "card", "card": gone, "player": 1, "ability_kind": None, "keywords": [],
                        "negated": False},
             "chooser": 1, "leavers": [1], "p": 0, "z": "hand"}
    return Ctx(game, None, you=0, this=this, event=event, vars=names)


@pytest.mark.parametrize("kind,name,example", _expression_examples(), ids=lambda x: str(x)[:40])
def test_each_expression_example_compiles_and_evaluates(env, game, kind, name, example):
    compiled = _compile_expr(env, example)
    if kind == "function":
        assert name in compiled.calls_used, f"the example of {name}() does not call it: {example}"
    elif kind == "attribute":
        assert name in compiled.attrs_used, f"the example of attribute {name} does not read it: {example}"
    elif kind in ("engine name", "given name") and name != "it":
        assert name in compiled.names_used, f"the example of name {name} does not use it: {example}"
    ctx = _scope(game)
    compiled(ctx.with_it(ctx.this) if "it" in compiled.names_used else ctx)


@pytest.mark.parametrize("verb", sorted(load_all()))
def test_each_verb_example_compiles(env, verb):
    entry = next(e for e in reference.verbs() if e.name == verb)
    data, _ = _loc(entry.example)
    assert isinstance(data, dict) and list(data) == [verb], f"the example of {verb} is not one {verb} step"
    comp, diags = _compiler(env, data)
    steps = comp.steps([data], _list_loc(entry.example))
    assert len(steps) == 1 and not diags.sorted(), "\n".join(str(d) for d in diags.sorted())


def _list_loc(text: str) -> Loc:
    """The place of a one-step example read as a list of steps (as an effect holds it)."""
    _, smap = load_yaml_text("- " + text.replace("\n", "\n  "), "example")
    return Loc("example", smap, ())


@pytest.mark.parametrize("kind", sorted(ACTION_KINDS))
def test_each_action_example_compiles(env, kind):
    entry = next(e for e in reference.action_kinds() if e.name == kind)
    data, loc = _loc(entry.example)
    assert data.get("kind") == kind, f"the example of action kind {kind} is of kind {data.get('kind')}"
    comp, diags = _compiler(env, data)
    for key in ("candidates", "legal"):
        if key in data:
            comp.expr(data[key], loc.at(key))
    comp.steps(data.get("do", []), loc.at("do"))
    assert not diags.sorted(), "\n".join(str(d) for d in diags.sorted())
    part, smap = load_yaml_text("actions:\n  - " + entry.example.replace("\n", "\n    ") + "\n", "example")
    shape = validate(part, "rulebook-part", smap, "example")
    assert not shape, "\n".join(str(d) for d in shape)


@pytest.mark.parametrize("event", sorted(ENGINE_EVENTS))
def test_each_event_example_compiles(env, event):
    data, loc = _loc(reference.EVENT_EXAMPLES[event])
    assert data.get("event") == event, f"the example of event {event} triggers on {data.get('event')}"
    comp, diags = _compiler(env)
    comp.trigger(data, loc)
    assert not diags.sorted(), "\n".join(str(d) for d in diags.sorted())
    fields = set(ENGINE_EVENTS[event].fields)
    read = {m for m in re.findall(r"event\.(\w+)", yaml.safe_dump(data))}
    assert read <= fields, f"the example of {event} reads fields it does not carry: {sorted(read - fields)}"
