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

`check_timing.order_chosen_by` (an expression giving a player) makes that priority a choice: when
players (or teams) of two or more places of the order have pending abilities at once, that player
chooses whose go next. The choice holds for a batch, not for one ability: the chosen player's
abilities (those waiting, and any of theirs that trigger while they are resolved) are resolved one at
a time, in the order they choose, rule processes between as ever, before any other player's; once
they have none left, the choice is made again if two or more still have some. A single player with
pending abilities is no choice (nothing is asked, and nothing is held).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.derive.effects import effect_dormant
from interpreter.model.rulebook import RuleProcess
from interpreter.state.decisions import Decision, Option
from interpreter.state.objects import Pending
from interpreter.table.context import Ctx
from interpreter.table.log import log
from interpreter.table.views import describe_pending
from interpreter.timing import rule_processing as rproc
from interpreter.timing.abilities import resolve_pending
from interpreter.timing.outcomes import loop_draw
from interpreter.timing.runner import ask

if TYPE_CHECKING:
    from interpreter.derive.play import Play

MAX_PASSES = 10000  # passes without end are an unstoppable loop of rule processes


@dataclass(frozen=True)
class Stage:
    id: str
    processes: list[RuleProcess] | None  # None: the pending-ability stage
    one_action: bool = False
    until_none: bool = False  # repeat the stage until it finds nothing, then start over


def _players_for(game: Play, entry: dict[str, Any], ctx: Ctx) -> list[int]:
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


def _by_team(game: Play, players: list[int]) -> list[list[int]]:
    """The players grouped by team, each team where its first member stands in the order."""
    groups: list[list[int]] = []
    placed: set[int] = set()
    for p in players:
        if p not in placed:
            mates = set(game.teammates(p))
            groups.append([q for q in players if q == p or q in mates])
            placed.update(groups[-1])
    return groups


@dataclass(frozen=True)
class Config:
    order: list[dict[str, Any]]
    rules: tuple[str, ...]
    plan: list[Stage]
    chosen_by: Any  # the compiled `order_chosen_by` (who chooses whose abilities go next), or None


def _config(rb: Any) -> Config:
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
    return Config(order, tuple(cfg.get("rules", ())), plan, cfg.get("compiled_chosen_by"))


def check_timing(game: Play, ctx: Ctx) -> Any:
    """Run the check timing; returns whether anything was done (a process or an ability)."""
    cfg: Config | None = game.check_config
    if cfg is None:
        cfg = game.check_config = _config(game.rb)
    rules, plan = cfg.rules, cfg.plan
    cctx = ctx.child(rules=rules) if rules else ctx
    held: list[list[int]] = []  # with order_chosen_by: the players whose batch was chosen, until it is done
    resolved = False
    st = game.state
    passes = 0
    while not st.halted() and not st.over():  # a jump ends the procedure (the walk moves on)
        passes += 1
        if passes > MAX_PASSES:
            loop_draw(game, "check timing")
            break
        acted = False
        for stage in plan:
            if stage.processes is None:
                acted = yield from _resolve_one(game, cfg, cctx, held)
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


def _idle_trigger(game: Play) -> bool:
    """Nothing remains to be done: the first delayed trigger waiting for that (`when_idle`) becomes
    pending (it fires once), and the procedure goes on to resolve it."""
    st = game.state
    for eff in st.effects:
        if eff.kind == "delayed_trigger" and eff.spec.get("when_idle") and not effect_dormant(game, eff):
            st.effects.remove(eff)
            spec = dict(eff.spec)
            spec["_bindings"] = eff.bindings
            st.pending.append(Pending(st.new_id(), eff.source, eff.source_card, -1, eff.master, {"type": "idle"},
                                      spec))
            log(game, "trigger", "a delayed trigger triggers (nothing else remains)", tuple(spec.get("rules", ())))
            return True
    return False


def _waiting(game: Play, order: list[dict[str, Any]], cctx: Ctx,
             first_only: bool) -> list[tuple[dict[str, Any], list[int], list[Pending]]]:
    """The places of the order with pending abilities, in priority order: (its order entry, its
    players: one, or a team with `by_team`, and their pending abilities), each ability once."""
    st = game.state
    out: list[tuple[dict[str, Any], list[int], list[Pending]]] = []
    taken: set[int] = set()
    for entry in order:
        players = _players_for(game, entry, cctx)
        for group in _by_team(game, players) if entry.get("by_team") else [[p] for p in players]:
            mine = [x for x in st.pending if x.master in group and x.pid not in taken]
            if not mine:
                continue
            out.append((entry, group, mine))
            if first_only:
                return out
            taken.update(x.pid for x in mine)
    return out


def _group_name(group: list[int]) -> str:
    return "+".join(f"P{p + 1}" for p in group)


def _chosen_first(game: Play, cfg: Config, cctx: Ctx, held: list[list[int]],
                  waiting: list[tuple[dict[str, Any], list[int], list[Pending]]]) -> Any:
    """`order_chosen_by`: the place whose abilities go next. The batch held goes on while it has
    some; else, with two or more places waiting, the chooser chooses (and the choice is held)."""
    if held and not any(w[1] == held[0] for w in waiting):
        held.clear()  # the chosen player's batch is done
    if held:
        return next(w for w in waiting if w[1] == held[0])
    if len(waiting) < 2:
        return waiting[0]
    chooser = cfg.chosen_by(cctx)
    if not isinstance(chooser, int) or isinstance(chooser, bool) or chooser not in game.players_in():
        return waiting[0]
    rules = tuple(dict.fromkeys(r for w in waiting for r in w[0].get("rules", ()))) or cfg.rules
    options = [Option(f"p{w[1][0] + 1}", f"{_group_name(w[1])} first ({len(w[2])} waiting)", w[1][0])
               for w in waiting]
    (first,) = yield from ask(game, Decision(chooser, "player", "choose_whose_abilities_resolve_first", options, 1, 1,
                                             rules), cctx)
    pick = next(w for w in waiting if w[1][0] == first)
    log(game, "choice", f"P{chooser + 1} has {_group_name(pick[1])}'s waiting abilities resolved first", rules)
    held.append(pick[1])
    return pick


def _resolve_one(game: Play, cfg: Config, cctx: Ctx, held: list[list[int]]) -> Any:
    """The first player in the order with a pending ability (with `order_chosen_by`: the player
    whose batch was chosen) resolves one of them, choosing which when they have several."""
    game.triggers.check_state_triggers()
    st = game.state
    if not st.pending:
        return False
    waiting = _waiting(game, cfg.order, cctx, cfg.chosen_by is None)
    if not waiting:
        return False
    if cfg.chosen_by is None:
        entry, group, mine = waiting[0]
    else:
        entry, group, mine = yield from _chosen_first(game, cfg, cctx, held, waiting)
    pend = mine[0]
    distinct = {(x.card_id, x.ability, x.source) for x in mine}
    if len(distinct) > 1:
        d = Decision(group[0], "one", "choose_pending_ability",
                     [Option(f"t{x.pid}", describe_pending(game, x), x) for x in mine], 1, 1,
                     tuple(entry.get("rules", ())) or cfg.rules)
        (pend,) = yield from ask(game, d, cctx)
    yield from resolve_pending(game, pend, cctx)
    return True
