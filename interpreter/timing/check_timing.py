"""Check timing: rule processes and pending auto abilities, stage by stage.

A rulebook's `check_timing.stages` lists the stages in order: a stage runs the rule processes of one
`stage` name (all that apply at once, or with `one_action` only the first; with `until_none` the
stage repeats until nothing of it applies), or lets one pending ability resolve. A stage that did
anything sends the procedure back to the first stage; the procedure ends when a pass through every
stage does nothing; then a delayed trigger waiting for nothing else to remain (`when_idle`)
becomes pending, and the procedure goes on. Without stages the procedure is two stages: every rule
process, then one pending ability.

`check_timing.order` lists whose pending abilities are resolved first: a role (`player:` active
player, non-active player, turn player or non-turn player) or an expression giving players in
priority order (`players:`); the next player is reached only when earlier ones have nothing pending.
With `by_team: true` teammates among them are one pool (a team choosing among its members'
abilities), the first of them in the order choosing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.engine.context import Ctx
from interpreter.engine.decisions import Decision, Option
from interpreter.loader.model import RuleProcess
from interpreter.state.objects import Pending
from interpreter.timing import rule_processing as rproc
from interpreter.timing.abilities import resolve_pending

if TYPE_CHECKING:
    from interpreter.engine.game import Game

MAX_PASSES = 10000  # passes without end are an unstoppable loop of rule processes


@dataclass(frozen=True)
class Stage:
    id: str
    processes: list[RuleProcess] | None  # None: the pending-ability stage
    one_action: bool = False
    until_none: bool = False  # repeat the stage until it finds nothing, then start over


def _players_for(game: Game, entry: dict[str, Any], ctx: Ctx) -> list[int]:
    if "compiled" in entry:
        return [p for p in entry["compiled"](ctx) if p is not None]
    who = entry.get("player", "active_player")
    tp = game.cur_tp if game.cur_tp is not None else game.cur_ap
    if who == "active_player":
        p = game.cur_ap
    elif who == "non_active_player":
        p = game._other(game.cur_ap)
    elif who == "turn_player":
        p = tp
    elif who == "non_turn_player":
        p = game._other(tp)
    else:
        p = None
    return [] if p is None else [p]


def _by_team(game: Game, players: list[int]) -> list[list[int]]:
    """The players grouped by team, each team where its first member stands in the order."""
    groups: list[list[int]] = []
    placed: set[int] = set()
    for p in players:
        if p not in placed:
            mates = set(game.teammates(p))
            groups.append([q for q in players if q == p or q in mates])
            placed.update(groups[-1])
    return groups


def _config(rb: Any) -> tuple[list[dict[str, Any]], tuple[str, ...], list[Stage]]:
    cfg = rb.timing.get("check_timing") or {}
    order = cfg.get("order") or [{"player": "active_player"}, {"player": "non_active_player"}]
    stages = cfg.get("stages")
    if not stages:
        plan = [Stage("rule_processing", list(rb.rule_processes)), Stage("pending", None)]
    else:
        plan = [Stage(st["id"], [p for p in rb.rule_processes if p.stage == st["processes"]],
                      bool(st.get("one_action", False)), bool(st.get("until_none", False)))
                if "processes" in st else Stage(st["id"], None)
                for st in stages]
    return order, tuple(cfg.get("rules", ())), plan


def check_timing(game: Game, ctx: Ctx) -> Any:
    """Run the check timing; returns whether anything was done (a process or an ability)."""
    try:
        order, rules, plan = game.cache["check_timing"]
    except KeyError:
        order, rules, plan = game.cache["check_timing"] = _config(game.rb)
    cctx = ctx.child(rules=rules) if rules else ctx
    resolved = False
    st = game.state
    passes = 0
    while not st.halted() and not st.over():  # a jump ends the procedure (the walk moves on)
        passes += 1
        if passes > MAX_PASSES:
            game.loop_draw("check timing")
            break
        acted = False
        for stage in plan:
            if stage.processes is None:
                acted = yield from _resolve_one(game, order, rules, cctx)
            else:
                acted = yield from rproc.run_batch(game, stage.processes, cctx, stage.one_action)
                while acted and stage.until_none and not (st.halted() or st.over()):
                    if not (yield from rproc.run_batch(game, stage.processes, cctx, stage.one_action)):
                        break
            if acted or st.halted() or st.over():
                break
        if not acted and not _idle_trigger(game):
            break
        resolved = True
    return resolved


def _idle_trigger(game: Game) -> bool:
    """Nothing remains to be done: the first delayed trigger waiting for that (`when_idle`) becomes
    pending (it fires once), and the procedure goes on to resolve it."""
    st = game.state
    for eff in st.effects:
        if eff.kind == "delayed_trigger" and eff.spec.get("when_idle"):
            st.effects.remove(eff)
            spec = dict(eff.spec)
            spec["_bindings"] = eff.bindings
            st.pending.append(Pending(st.new_id(), eff.source, eff.source_card, -1, eff.master, {"type": "idle"},
                                      spec))
            game.log("trigger", "a delayed trigger triggers (nothing else remains)", tuple(spec.get("rules", ())))
            return True
    return False


def _resolve_one(game: Game, order: list[dict[str, Any]], rules: tuple[str, ...], cctx: Ctx) -> Any:
    """The first player in `order` with a pending ability resolves one of them."""
    game.triggers.check_state_triggers()
    st = game.state
    if not st.pending:
        return False
    for entry in order:
        players = _players_for(game, entry, cctx)
        for group in _by_team(game, players) if entry.get("by_team") else [[p] for p in players]:
            mine = [x for x in st.pending if x.master in group]
            if not mine:
                continue
            pend = mine[0]
            distinct = {(x.card_id, x.ability, x.source) for x in mine}
            if len(distinct) > 1:
                d = Decision(group[0], "one", "choose_pending_ability",
                             [Option(f"t{x.pid}", game.describe_pending(x), x) for x in mine], 1, 1,
                             tuple(entry.get("rules", ())) or rules)
                (pend,) = yield from game.ask(d, cctx)
            yield from resolve_pending(game, pend, cctx)
            return True
    return False
