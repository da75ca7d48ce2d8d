"""Rule processing: every applicable process is found first, then all are carried out together,
and the check repeats until none applies. Outcomes declared in one pass are simultaneous."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.model.rulebook import RuleProcess
from interpreter.table.context import Ctx
from interpreter.table.derived import EFFECTS, MISSING, PLAYER_COUNTERS
from interpreter.table.log import log
from interpreter.table.reads import ANY_PLAYER, ZONE_VAR
from interpreter.timing import events  # a module import: events and rule processing use one another
from interpreter.timing.outcomes import finalize_outcomes, loop_draw
from interpreter.timing.runner import run

if TYPE_CHECKING:
    from interpreter.derive.play import Play


def _places(game: Play, proc: RuleProcess, p: Any, z: Any) -> list[Any] | None:
    """The (zone, player) places one binding of a process reads, and EFFECTS (None: cannot tell)."""
    if proc.watch_keys is None:
        return None
    zones = game.rb.zones
    out: list[Any] = []
    for zone, who in proc.watch_keys:
        if zone == ZONE_VAR:
            zone = z
        zdef = zones.get(zone)
        if zdef is None:
            return None
        if zdef.shared or who is None:
            out.append((zone, None))
        elif who == ANY_PLAYER or p is None:
            out.extend((zone, q) for q in range(game.state.num_players))
        else:
            out.append((zone, p))
    out.append(EFFECTS)  # and what continuous effects make of the cards there
    out.append(PLAYER_COUNTERS)  # and the players' counters (counter(p, name))
    return out


Binding = tuple[RuleProcess, Any, Any, int]
"""One binding of a process: the process, its player `p`, its zone `z` and the number of the fact "its
condition is false" in the game's store of derived facts (table/derived.py)."""


class KeptBindings:
    """One process list's bindings, kept per assignment of the roles (`_bindings`)."""

    __slots__ = ("procs", "version", "by_roles", "current")

    def __init__(self, procs: list[RuleProcess], version: int,
                 by_roles: dict[tuple[tuple[str, int], ...], list[Binding]], current: list[Binding]) -> None:
        self.procs = procs  # the list itself: an id alone may be reused once the list is gone
        self.version = version  # the game's global version when `current` was last checked
        self.by_roles = by_roles
        self.current = current


def applicable(game: Play, procs: list[RuleProcess], ctx: Ctx) -> list[tuple[RuleProcess, Ctx]]:
    """Every (process, binding) whose condition holds now. A binding whose condition was false is
    known false (a derived fact) until a place it reads changes, when it reads nothing but zones and
    cards (`RuleProcess.zone_only`): rule processes are checked after every action, and almost always
    nothing they read has changed. A condition that reads a variable, a status, a pending ability, the
    turn or a positional name is evaluated every time."""
    derived = game.derived
    cont = game.continuous
    # An effect that has ended leaves nothing that may change a field, but what it changed matters
    # once: a rebuild since the last look (any field read does one) shows in the known generation.
    if cont.may_change(game.process_fields) or cont.known_generation() != game.process_effects:
        effects = cont.generation()
        if effects != game.process_effects:
            derived.changed(EFFECTS)
            game.process_effects = effects
    bindings = _bindings(game, procs, ctx)
    values = derived.values
    batch = []
    for proc, p, z, binding in [b for b in bindings if values[b[3]] is MISSING]:
        pctx = Ctx(game, ctx, vars={"p": p, "z": z}, rules=proc.rules, you=p)
        if proc.cond(pctx):
            batch.append((proc, pctx))
        elif proc.zone_only:
            try:
                places = game.process_places[binding]
            except KeyError:
                places = game.process_places[binding] = _places(game, proc, p, z)
            if places is not None:
                derived.keep(binding, False, places, game.version)
    return batch


def _bindings(game: Play, procs: list[RuleProcess], ctx: Ctx) -> list[Binding]:
    """Every (process, player, zone, binding number) to check, in order. When every process's lists
    depend on the roles alone they are kept per assignment of the roles (a turn usually swaps the
    same two back and forth), checked against the roles only when something global changed."""
    cache = game.binding_lists
    key = id(procs)
    hit = cache.get(key)  # kept only for static processes
    if hit is not None and hit.procs is not procs:
        hit = None  # another list that had the same id (a plan rebuilt after a player left)
    if hit is not None:
        if hit.version == game.global_version:
            return hit.current
        kept = hit.by_roles.get(tuple(game.state.roles.items()))
        if kept is not None:
            hit.version = game.global_version
            hit.current = kept
            return kept
    static = all(proc.static_bindings for proc in procs)
    lists: dict[Any, list[Any]] = {}  # processes share their binding lists ([first, other(first)])
    out: list[Binding] = []
    for proc in procs:
        for p in _binding_list(proc, proc.players, ctx, lists):
            for z in _binding_list(proc, proc.zones, ctx, lists):
                out.append((proc, p, z, game.derived.number(("process", proc.id, p, z))))
    if static:
        roles = tuple(game.state.roles.items())
        if hit is None:
            cache[key] = KeptBindings(procs, game.global_version, {roles: out}, out)
        else:
            hit.by_roles[roles] = out
            hit.version = game.global_version
            hit.current = out
    return out


def _binding_list(proc: RuleProcess, fn: Any, ctx: Ctx, lists: dict[Any, list[Any]]) -> list[Any]:
    if fn is None:
        return [None]
    if not proc.static_bindings:
        return list(fn(ctx))
    out = lists.get(fn.src)
    if out is None:
        out = lists[fn.src] = list(fn(ctx))
    return out


def run_processes(game: Play, procs: list[RuleProcess], ctx: Ctx) -> Any:
    """Run rule processes until none applies; returns whether any ran."""
    any_done = False
    rounds = 0
    while not game.state.over():
        if rounds == 1000:
            if applicable(game, procs, ctx):
                loop_draw(game, "rule processing")
            break
        did = yield from run_batch(game, procs, ctx)
        if not did:
            break
        rounds += 1
        any_done = True
    return any_done


def run_batch(game: Play, procs: list[RuleProcess], ctx: Ctx, first_only: bool = False) -> Any:
    """Carry out every applicable process at once (one simultaneous action), or with `first_only`
    the first that applies; returns whether any was carried out."""
    batch = applicable(game, procs, ctx)
    if not batch:
        return False
    if first_only:
        batch = batch[:1]
    outer = game.collecting
    outer_interrupt = game.in_interrupt
    game.collecting = []
    game.in_interrupt = True  # the batch is one simultaneous action: no interrupt inside it
    try:
        for proc, pctx in batch:
            log(game, "rule", f"rule process {proc.id}", proc.rules)
            yield from run(game, proc.steps, pctx)
    finally:
        outcomes, game.collecting = game.collecting, outer
        game.in_interrupt = outer_interrupt
    if outcomes:
        finalize_outcomes(game, outcomes, tuple(r for proc, _ in batch for r in proc.rules))
    if not outer_interrupt and not game.state.over():
        # What the batch did may call for an interrupt it held back (a deck emptied by a process
        # must be refreshed at once, not at the next move).
        yield from events.interrupts(game, ctx)
    return True
