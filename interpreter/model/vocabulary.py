"""The vocabulary effects are written in: every verb, the arguments it takes and how a step of it reads.

A rulebook's effects are lists of steps; each step is a one-key mapping `{verb: {args}}`. This table
declares every verb with the kinds of its arguments, so the loader compiles and checks steps once
without importing the engine, and `schemas/effect.schema.json` can be checked against it in the
tests. Each verb's implementation (interpreter/verbs/) binds itself to its entry with
`@verb(name)` (interpreter/verbs/registry.py); a compiled `Step` reaches it through its entry, so
steps compiled before the implementations were imported run all the same.

Argument kinds are listed in ARG_KINDS; a trailing `?` marks an optional argument, and the key `*`
stands for any other key (its kind is that of every such argument).

Each verb's implementation has a docstring that says what it does and ends with an `Example:`
section, one step in YAML: the generated reference (`sogo reference`, docs/reference.md) reads both,
and tests/test_reference.py checks that every verb has them and that each example compiles. Each verb
also says here how a step of it reads in plain English (`reads`, a reading with its arguments as
placeholders, interpreter/reading): `sogo cards review` and `sogo card` describe an ability with it,
for a reviewer who reads no YAML.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

Gen = Generator[Any, Any, Any]
VerbFn = Callable[..., Gen]


def _unbound(*args: Any) -> Gen:
    raise RuntimeError("a verb ran before its implementation was imported (interpreter.verbs.registry.load_all)")


class VerbSpec:
    """One verb: its name, its arguments' kinds and its reading, and (once interpreter/verbs binds
    it) the implementation `fn(game, args, ctx)`, a generator, with its docstring."""

    def __init__(self, name: str, args: dict[str, str], reads: str = "") -> None:
        self.name = name
        self.args = args
        self.reads = reads  # how a step reads in English, its arguments as placeholders (interpreter/model/readings.py)
        self.fn: VerbFn = _unbound
        self.doc = ""

    def required(self) -> set[str]:
        return {k for k, v in self.args.items() if not v.endswith("?")}


@dataclass(frozen=True, slots=True)
class Step:
    """One compiled effect step: its verb (`spec.fn` runs it) and its compiled arguments."""

    verb: str
    spec: VerbSpec
    args: dict[str, Any]
    where: str  # file:line:col of the step, for runtime error messages


ARG_KINDS: dict[str, str] = {
    "expr": "an expression (or a literal number, true, false, null, or a list of expressions)",
    "zone": "a zone id the rulebook declares",
    "zones": "a list of zone ids",
    "effect": "a list of steps",
    "name": "a name (letters, digits and `_`, not starting with a digit), e.g. one the step binds",
    "str": "a literal string",
    "bool": "true or false",
    "enum": "one of the words given (`enum:a|b` in the registry, shown here as \"`a` or `b`\")",
    "options": "a list of options, each `{id, label?, if?, do}`",
    "fields": "a mapping of names to expressions",
    "event": "an event id the rulebook declares (`events:`)",
    "state": "a placement state id the rulebook declares (`placement_states:`)",
    "template": "a template id the rulebook declares (`templates:`)",
    "role": "a role id the rulebook declares (`roles:`)",
    "node": "the id of a turn, phase or step of the turn structure",
    "duration": "a duration id the rulebook declares (`durations:`)",
    "durations": "a list of duration ids",
    "actions": "a list of action ids the rulebook declares (`actions:`)",
    "move_kind": "a kind of move the rulebook declares (`zone_rules.move_kinds`)",
    "keyword": "a keyword id the rulebook declares (`keywords:`)",
    "rules": "a list of rule numbers, each a string",
    "spec": "a mapping describing the effect created (the keys it reads are listed with the verb)",
    "value": "any literal value",
}
"""What each kind of verb argument takes (`enum:a|b` takes a or b): the generated reference lists a
verb's arguments with their kinds, and tests/test_reference.py checks that every kind a verb uses is here."""


VERBS: dict[str, VerbSpec] = {}
"""Every verb by name, in the order of the modules that implement them."""


def _declare(name: str, args: dict[str, str], reads: str = "") -> None:
    VERBS[name] = VerbSpec(name, args, reads)


# cards: interpreter/verbs/cards.py
_declare("move", {"cards": "expr", "to": "zone?", "to_expr": "expr?", "player": "expr?",
                  "position": "enum:top|bottom?", "face": "enum:up|down?", "orientation": "str?",
                  "mark": "name?", "as": "name?", "shuffle": "bool?", "redirect": "bool?", "kind": "move_kind?"},
         reads="put {cards} into [the {to}][{to_expr}][ of {~player}][ at the {position}][ face {face}]"
               "[ in orientation {orientation}][, in random order{?shuffle}][, marked {mark}]"
               "[ (a move of kind {kind})][, called {as}]")
_declare("shuffle", {"zone": "zone?", "zone_expr": "expr?", "player": "expr"},
         reads="shuffle {player's} [{zone}][{zone_expr}]")
_declare("set_state", {"cards": "expr", "state": "state", "value": "str"},
         reads="set the {state} of {cards} to {value}")
_declare("place_under", {"cards": "expr", "under": "expr"},
         reads="put {cards} under {under}")
_declare("stack_onto", {"card": "expr", "onto": "expr", "event": "event?"},
         reads="put {card} on top of {onto}[, raising the event {event}]")
_declare("swap", {"a": "expr", "b": "expr", "kind": "move_kind?"},
         reads="swap {a} and {b}[ (a move of kind {kind})]")
_declare("reveal", {"cards": "expr"},
         reads="reveal {cards}")
_declare("look", {"cards": "expr", "player": "expr", "as": "name?"},
         reads="[have {~player} ]look at {cards}[, called {as}]")
_declare("mark", {"cards": "expr", "key": "name", "value": "expr"},
         reads="mark {cards} with {key} = {value}")
_declare("counter", {"target": "expr", "name": "name", "add": "expr?", "set": "expr?"},
         reads="change the {name} counter of {target}[ by {add}][ to {set}]")

# choice: interpreter/verbs/choice.py
_declare("choose", {"player": "expr", "from": "expr", "min": "expr?", "max": "expr?", "as": "name",
                    "prompt": "str?", "where": "expr?", "distinct": "expr?"},
         reads="[have {~player} ]choose {min..max} of {from}[ where {where}][ with different {distinct}], called {as}")
_declare("choose_cover", {"player": "expr", "from": "expr", "field": "str", "requirements": "expr", "wildcard": "str?",
                          "as": "name", "prompt": "str?"},
         reads="[have {~player} ]choose cards of {from} whose {field} cover {requirements}"
               "[ ({wildcard} pays any)], called {as}")
_declare("choose_one", {"player": "expr", "options": "options", "prompt": "str?", "as": "name?"},
         reads="[have {~player} ]choose one: {options}[, called {as}]")
_declare("choose_player", {"player": "expr", "as": "name", "prompt": "str?", "from": "expr?", "min": "expr?",
                           "max": "expr?"},
         reads="[have {~player} ]choose a player[ of {from}][ ({min..max} of them)], called {as}")
_declare("random_player", {"as": "name", "from": "expr?"},
         reads="pick a player at random[ of {from}], called {as}")
_declare("roll", {"sides": "expr", "as": "name", "player": "expr?"},
         reads="[have {~player} ]roll a {sides}-sided die, called {as}")

# control: interpreter/verbs/control.py
_declare("emit", {"event": "event", "once_per_turn": "bool?", "once_per": "expr?", "only_player": "expr?",
                  "seen_by_departed": "expr?", "*": "expr"},
         reads="raise the event {event}[ with {*}][ (once per turn{?once_per_turn})][ (once per {once_per})]"
               "[ (for the abilities of {only_player})]")
_declare("win", {"player": "expr", "reason": "str?"},
         reads="make {player} win")
_declare("lose", {"player": "expr", "reason": "str?"},
         reads="make {player} lose")
_declare("draw_game", {"reason": "str?"},
         reads="end the game in a draw")
_declare("set_role", {"role": "role", "player": "expr"},
         reads="make {player} the {role}")
_declare("skip", {"node": "node"},
         reads="skip the next {node}")
_declare("jump", {"to": "node"},
         reads="go on at {to}")
_declare("status", {"player": "expr", "status": "name", "duration": "duration?"},
         reads="give {player} the status {status}[, {duration}]")
_declare("cancel_skips", {"node": "node?"},
         reads="cancel the skips not used yet[ of {node}]")

# effects: interpreter/verbs/effects.py
_declare("continuous", {"effect": "spec", "duration": "duration?", "lock": "bool?"},
         reads="[{duration}, ]{effect}")
_declare("delayed_trigger", {"effect": "spec", "duration": "duration?"},
         reads="[{duration}, ]{effect}")
_declare("replacement", {"effect": "spec", "duration": "duration?"},
         reads="[{duration}, ]{effect}")
_declare("replaceable", {"event": "event", "fields": "fields?", "as": "name?", "do": "effect?"},
         reads="{event} happens[ with {fields}][, called {as}], unless a replacement effect replaces it[: {do}]")
_declare("end_durations", {"durations": "durations", "player": "expr?"},
         reads="end the effects lasting {durations}[ that belong to {player}]")
_declare("cancel_pending", {"player": "expr?"},
         reads="cancel the pending abilities[ of {player}]")
_declare("end_effects", {"cards": "expr"},
         reads="end the continuous effects created for {cards}")

# flow: interpreter/verbs/flow.py
_declare("if", {"cond": "expr", "then": "effect?", "else": "effect?"},
         reads="if {cond}: {then}[; otherwise: {else}]")
_declare("repeat", {"times": "expr", "do": "effect", "may_stop": "expr?", "until": "expr?"},
         reads="repeat {times} time(s)[ ({may_stop} may stop before each)][ until {until}]: {do}")
_declare("for_each", {"in": "expr", "as": "name", "do": "effect", "simultaneous": "bool?"},
         reads="for each {as} of {in}[, all at once{?simultaneous}]: {do}")
_declare("let", {"*": "expr"},
         reads="let {*}")
_declare("set_var", {"name": "name", "value": "expr"},
         reads="set {name} to {value}")
_declare("call", {"template": "template", "*": "expr"},
         reads="do {template}[ with {*}]")
_declare("log", {"message": "expr", "brief": "expr?"},
         reads="note in the log: {message}")
_declare("cite", {"rules": "rules", "inferred": "str?", "do": "effect"},
         reads="{do}")

# procedures: interpreter/verbs/procedures.py
_declare("check_timing", {"as": "name?"},
         reads="run a check timing[, called {as}]")
_declare("play_timing", {"player": "expr", "actions": "actions", "end": "enum:all_passed|passed_in_order?"},
         reads="give {player} play timing to {actions} or pass")
_declare("satisfy", {"pool": "expr", "requirements": "expr", "symbols": "str", "wildcard": "str?",
                     "generic": "str?", "as": "name"},
         reads="check whether {pool} can pay {requirements}, called {as}")
_declare("respond", {"card": "expr", "as": "name?"},
         reads="open the response window to {card}[, called {as}]")
_declare("negate", {"target": "expr"},
         reads="negate {target}")
_declare("resolve_abilities", {"card": "expr?", "kind": "str", "index": "expr?", "keyword": "keyword?", "one": "bool?",
                               "event": "event?", "fields": "fields?", "players": "expr?"},
         reads="resolve the {kind} abilities of [{card}][ (number {index})][ with {keyword}][ for {players}]")
