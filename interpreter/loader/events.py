"""Events: every event a rulebook declares can be raised, and every event it names is declared.

The compiler checks the events that steps, triggers and effect descriptions name as it compiles
them; card-text phrases are compiled only when a card's text is read, so the events their `gives`
name are checked here. A declared event that nothing raises would leave every trigger on it silent:
an event is raised by the engine (the list in interpreter/state/events.py) or by a step of the
rulebook, a verb whose argument is of kind `event` (`emit`, `replaceable`, `stack_onto`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter.loader.diagnostics import Diagnostics
from interpreter.loader.sections import Ids, Merged
from interpreter.model.vocabulary import VERBS
from interpreter.state.events import ENGINE_EVENTS


def _raising_args() -> dict[str, tuple[str, ...]]:
    """Verb -> its arguments that name the event it raises (kind `event` in the verb registry)."""
    out = {}
    for name, spec in VERBS.items():
        keys = tuple(k for k, kind in spec.args.items() if kind.rstrip("?") == "event")
        if keys:
            out[name] = keys
    return out


def _mappings(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[dict[Any, Any], tuple[Any, ...]]]:
    """Every mapping inside `data`, with its path, outermost first."""
    todo: list[tuple[Any, tuple[Any, ...]]] = [(data, path)]
    while todo:
        value, here = todo.pop()
        if isinstance(value, dict):
            yield value, here
            todo.extend((v, (*here, k)) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            todo.extend((v, (*here, i)) for i, v in reversed(list(enumerate(value))))


def raised_events(data: dict[str, Any]) -> set[str]:
    """The events some step of the rulebook raises: a one-verb step `{emit: {event: E}}` (or any verb
    with an argument of kind `event`) anywhere in its sections, card-text phrases included."""
    raising = _raising_args()
    out: set[str] = set()
    for mapping, _ in _mappings(data):
        if len(mapping) != 1:
            continue
        (verb, args), = mapping.items()
        if verb in raising and isinstance(args, dict):
            out.update(v for k in raising[verb] if isinstance(v := args.get(k), str))
    return out


def check_events(m: Merged, ids: Ids, diags: Diagnostics) -> None:
    """Report a declared event nothing raises, fields an engine event does not carry, and an event a
    card-text phrase names that is not declared."""
    raised = raised_events(m.data)
    engine = ", ".join(ENGINE_EVENTS)
    for eid, (event, loc) in ids.events.items():
        spec = ENGINE_EVENTS.get(eid)
        if spec is None:
            if eid not in raised:
                line, col = loc.at("id").pos()
                diags.add(loc.file, line, col, f"event '{eid}' is declared but nothing raises it: no emit, replaceable "
                                               f"or stack_onto step of the rulebook names it, and the engine raises "
                                               f"only {engine}")
            continue
        for i, name in enumerate(event.get("fields") or []):
            if name not in spec.fields:
                line, col = loc.at("fields", i).pos()
                diags.add(loc.file, line, col, f"the engine's event '{eid}' has no field '{name}' (it carries: "
                                               f"{', '.join(spec.fields)})")
    section = m.data.get("card_text")
    if not isinstance(section, dict) or not isinstance(section.get("phrases"), list):
        return
    known = ids.known.events
    for i, phrase in enumerate(section["phrases"]):
        if not isinstance(phrase, dict):
            continue
        for mapping, path in _mappings(phrase.get("gives"), ("phrases", i, "gives")):
            name = mapping.get("event")
            if isinstance(name, str) and "{" not in name and name not in known:
                loc = m.loc("card_text").at(*path, "event")
                line, col = loc.pos()
                diags.add(loc.file, line, col, f"unknown event '{name}' (known: {', '.join(sorted(known))})")
