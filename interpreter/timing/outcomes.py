"""Outcomes: players win or lose (together inside a rule-process batch), leave a game that goes on,
and the game ends, in a win, a draw, or a cut-off loop."""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.derive.changes import place_changed
from interpreter.state.events import GAME_LOST
from interpreter.table.context import Ctx
from interpreter.table.log import log

if TYPE_CHECKING:
    from interpreter.derive.play import Play


def declare_outcomes(game: Play, players: list[int], kind: str, ctx: Ctx) -> None:
    """Players win or lose together: inside a rule-process batch with that batch's outcomes."""
    if game.collecting is not None:
        game.collecting.extend((p, kind) for p in players)
    else:
        finalize_outcomes(game, [(p, kind) for p in players], ctx.rules)


def finalize_outcomes(game: Play, outcomes: list[tuple[int, str]], rules: tuple[str, ...]) -> None:
    """Outcomes declared together. A winner ends the game (every other player loses); every player
    winning at once, or winning and losing at once, is a draw. Losers leave the game: when one
    player is left they win, when none is the game is a draw (nobody wins), and otherwise the
    others play on, and the event `game_lost` (if declared) is raised for each who left. With two
    players: one loses and the other wins, both lose and it is a draw."""
    if not outcomes or game.state.result is not None:
        return
    present = game.players_in()
    winners = {p for p, k in outcomes if k == "win"}
    losers = {p for p, k in outcomes if k == "lose"}
    if game.teams:
        winners |= {q for p in winners for q in game.teammates(p)}  # a team wins together
        if game.teams_lose_together:
            losers |= {q for p in losers for q in game.teammates(p)}
    remaining = [p for p in present if p not in losers]
    if (winners and winners >= set(present)) or (winners & losers) or (not winners and not remaining):
        end_game(game, None, "draw", rules + tuple(game.rb.outcomes.get("rules") or ()))
        return
    if winners:
        end_game(game, sorted(winners), "win", rules)
        return
    one_team_left = any(set(remaining) <= set(team) for team in game.teams)
    leavers = [p for p in sorted(losers) if p in present]
    if one_team_left or len(remaining) > 1:
        for p in leavers:
            leave(game, p, rules)
    if one_team_left or len(remaining) == 1:
        end_game(game, remaining, "win", rules)  # the last player, or the last team's players, win
    elif leavers:
        apply_after_leaving(game, leavers)
    if leavers and GAME_LOST in game.rb.events and not game.state.over():
        for p in leavers:  # the others' abilities may trigger on it (the leavers' cards are gone)
            game.triggers.collect({"type": GAME_LOST, "player": p})


def apply_after_leaving(game: Play, leavers: list[int]) -> None:
    """A format's rule for when players leave a game that goes on (`after_leaving`): the players
    its expression gives, with `leavers` bound to those who just left (when watched, to all who
    have left), win at once."""
    if game.after_leaving is None:
        return
    spec, winners_of_leave = game.after_leaving
    ctx = Ctx(game, None, you=game.cur_tp, rules=tuple(spec.get("rules") or ()), vars={"leavers": leavers})
    winners = sorted({p for p in winners_of_leave(ctx) or [] if p is not None and p not in game.state.left})
    if winners:
        end_game(game, winners, "win", ctx.rules)


def leave(game: Play, player: int, rules: tuple[str, ...]) -> None:
    """A player who lost leaves a game that goes on (Re:Birth 12.4): the cards they own cease to
    exist, their pending abilities, the effects they are master of and those whose duration
    belongs to them (a turn of theirs that would end it never comes) end, and nothing is
    processed for them from now on (their decisions get the least answer; the turn goes on)."""
    st = game.state
    st.left.append(player)
    log(game, "leave", f"P{player + 1} leaves the game", rules)
    gone = [o for o in st.objects.values() if o.owner == player]
    for o in gone:
        st.zones[(o.zone, o.zone_player)].remove(o.oid)
        st.lki[o.oid] = o
        del st.objects[o.oid]
        place_changed(game, o.zone, o.zone_player)
    st.cards_gone += len(gone)
    st.pending = [x for x in st.pending if x.master != player]
    st.effects = [e for e in st.effects if e.master != player and e.owner != player]
    game.version += 1
    game.global_version += 1
    game.derived.changed_all()
    game.binding_lists.clear()  # binding lists kept per roles named the player who left


def end_game(game: Play, winner: int | list[int] | None, outcome: str, rules: tuple[str, ...]) -> None:
    """The game ends: a win for one player or several (`winners` lists them when there are
    several), or a draw."""
    if game.state.result is not None:
        return
    winners = [] if winner is None else [winner] if isinstance(winner, int) else sorted(winner)
    game.state.result = {"outcome": outcome, "winner": winners[0] if len(winners) == 1 else None,
                         "rules": list(rules), "turn": game.state.turn}
    if len(winners) > 1:
        game.state.result["winners"] = winners
    text = ("the game is a draw" if not winners else
            " and ".join(f"P{w + 1}" for w in winners) + (" wins the game" if len(winners) == 1
                                                          else " win the game"))
    # Structured for readers of the log (interpreter/table/brief.py): who won, and why in words.
    reasons = [[p, kind, why] for p, (kind, why) in sorted(game.outcome_reasons.items())]
    log(game, "result", text, rules, outcome=outcome, winners=winners, reasons=reasons)


def loop_draw(game: Play, what: str) -> None:
    """End a game that cannot end. The rulebook's `infinite_loop.result` says how: `draw`, or
    `lose_master`: the player in control when the loop was cut off (the turn player, else the
    active player) loses."""
    log(game, "loop", f"the game cannot end ({what} exceeded the cap)", game.loop_rules)
    result = (game.rb.raw.get("infinite_loop") or {}).get("result", "draw")
    if result == "lose_master":
        master = game.cur_tp if game.cur_tp is not None else game.cur_ap
        if master is not None:
            log(game, "loop", f"P{master + 1} started the loop and loses", game.loop_rules)
            end_game(game, [p for p in game.players_in() if p != master] or None, "win", game.loop_rules)
            return
        result = "draw"
    end_game(game, None, result, game.loop_rules)
