"""Walk the compiled turn structure: enter nodes, run their steps, follow transitions.

Entering a node with children enters its first child; a leaf runs its `do` steps; then the first
transition whose guard holds is taken, else the next sibling, else the parent ends. A `jump` from
an effect or a pending `skip` changes where the walk goes next.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.derive.changes import touched
from interpreter.loader.graph import END, CNode, TurnGraph
from interpreter.table.context import Ctx
from interpreter.table.log import log
from interpreter.timing.moves import forget_departed
from interpreter.timing.runner import run

if TYPE_CHECKING:
    from interpreter.engine.game import Game


def node_ctx(game: Game, node: CNode) -> Ctx:
    you = game.cur_tp if game.cur_tp is not None else game.cur_ap
    return Ctx(game, None, you=you, rules=node.rules, node=node)


def enter(game: Game, node: CNode) -> None:
    st = game.state
    game.cur_node = node
    was = game.cur_tp
    game.cur_tp = st.roles.get(node.tp_role) if node.tp_role else None
    if game.cur_tp != was and game.owner_turn_durations and st.effects:
        touched(game)  # effects that apply only in their owner's turn may wake or wait now
    ap = node.ap_role
    if ap in (None, "turn_player"):
        game.cur_ap = game.cur_tp
    else:
        game.cur_ap = st.roles.get(ap)
    if node.counts_turn:
        st.turn += 1
        st.seating = game.players_in()
        for p in game.turn_team():
            st.turns_taken[p] += 1
        touched(game)
        forget_departed(game)
        st.ability_uses.clear()
        st.triggered_this_turn.clear()
        st.applying.clear()  # lapsed continuous abilities apply again from the next turn
        st.lapsed.clear()
        log(game, "turn", f"turn {st.turn} begins", node.rules)


def walk(game: Game, graph: TurnGraph, start: str | None = None) -> Any:
    st = game.state
    nid: str | None = start if start is not None else (graph.roots[0] if graph.roots else None)
    while nid is not None and not st.over():
        node = graph.nodes[nid]
        if game.stop_at is not None and (node.id == game.stop_at or node.base == game.stop_at):
            log(game, "stop", f"stopped before {node.id}")
            return
        if st.skips and (node.id in st.skips or node.base in st.skips):
            st.skips.remove(node.id if node.id in st.skips else node.base)
            log(game, "skip", f"{node.base} is skipped", node.rules)
            nid = after(game, graph, node, skip_guards=True)
            continue
        enter(game, node)
        if node.children:
            nid = node.children[0]
            continue
        if node.steps:
            yield from run(game, node.steps, node_ctx(game, node))
        nid = after(game, graph, node)


def after(game: Game, graph: TurnGraph, node: CNode, skip_guards: bool = False) -> str | None:
    st = game.state
    if st.jump is not None:
        target = graph.resolve(st.jump, node.id)
        st.jump = None
        return target
    cur: CNode | None = node
    while cur is not None:
        ended_parent = False
        if not skip_guards and cur.next:
            ctx = node_ctx(game, cur)
            for guard, target, rules in cur.next:
                if guard is None or guard(ctx):
                    if guard is not None:
                        log(game, "transition", f"{cur.base} -> {target}", rules or cur.rules)
                    if target == END:
                        ended_parent = True
                        break
                    return target
        skip_guards = False
        if ended_parent:
            cur = graph.nodes[cur.parent] if cur.parent else None
            if cur is None:
                return None
            # The parent ends now: its own transitions apply.
            continue
        if cur.next_sibling is not None:
            return cur.next_sibling
        cur = graph.nodes[cur.parent] if cur.parent else None
    return None
