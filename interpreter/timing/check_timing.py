"""Check timing: rule processes, then pending auto abilities player by player.

The rulebook's `check_timing.order` lists whose pending abilities are resolved first (active player
then non-active player, or turn player then non-turn player); with `restart_after_each` every
resolution sends the procedure back to rule processing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine.context import Ctx
from interpreter.engine.decisions import Decision, Option
from interpreter.timing import rule_processing as rproc
from interpreter.timing.abilities import resolve_pending

if TYPE_CHECKING:
    from interpreter.engine.game import Game


def _player_for(game: Game, who: str) -> int | None:
    if who in ("active_player",):
        return game.cur_ap
    if who == "non_active_player":
        return game._other(game.cur_ap)
    if who == "turn_player":
        return game.cur_tp if game.cur_tp is not None else game.cur_ap
    if who == "non_turn_player":
        return game._other(game.cur_tp if game.cur_tp is not None else game.cur_ap)
    return None


def _config(rb: Any) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    cfg = rb.timing.get("check_timing") or {}
    order = cfg.get("order") or [{"player": "active_player"}, {"player": "non_active_player"}]
    return order, tuple(cfg.get("rules", ()))


def check_timing(game: Game, ctx: Ctx) -> Any:
    try:
        order, rules = game.cache["check_timing"]
    except KeyError:
        order, rules = game.cache["check_timing"] = _config(game.rb)
    cctx = ctx.child(rules=rules) if rules else ctx
    resolved = False
    st = game.state
    while not st.halted():  # a jump ends the procedure (the walk moves on)
        did = yield from rproc.run_processes(game, game.rb.rule_processes, cctx)
        resolved = resolved or did
        if st.over():
            break
        game.triggers.check_state_triggers()
        if not st.pending:
            break
        acted = False
        for entry in order:
            p = _player_for(game, entry.get("player", "active_player"))
            mine = [x for x in st.pending if x.master == p]
            if p is None or not mine:
                continue
            pend = mine[0]
            distinct = {(x.card_id, x.ability, x.source) for x in mine}
            if len(distinct) > 1:
                d = Decision(p, "one", "choose_pending_ability",
                             [Option(f"t{x.pid}", game.describe_pending(x), x) for x in mine], 1, 1,
                             tuple(entry.get("rules", ())) or rules)
                (pend,) = yield from game.ask(d, cctx)
            yield from resolve_pending(game, pend, cctx)
            resolved = True
            acted = True
            break
        if not acted:
            break
    return resolved
