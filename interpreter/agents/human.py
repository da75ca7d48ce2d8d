"""A human player at the terminal. It shows only what that player may see."""

from __future__ import annotations

from typing import Any

import click

from interpreter.engine.decisions import Decision


def render_view(view: dict[str, Any]) -> str:
    lines = [f"-- P{view['player'] + 1}'s view, turn {view['turn']}, at {view['node']} --"]
    for zone, cards in sorted(view["zones"].items()):
        if not cards:
            continue
        shown = []
        for c in cards:
            name = c["card"] or "?"
            states = ",".join(v for v in c["states"].values() if v)
            under = f" under #{c['holder']}" if c["holder"] else ""
            shown.append(f"{name}{'(' + states + ')' if states else ''}{under}")
        lines.append(f"  {zone:<28} {len(cards):>2}: {' '.join(shown) if any(c['card'] for c in cards) else ''}")
    return "\n".join(lines)


class HumanAgent:
    def __init__(self, player: int) -> None:
        self.player = player

    def decide(self, decision: Decision, view: dict[str, Any]) -> list[str]:
        click.echo(render_view(view))
        click.echo(f"\n{decision.describe()}" + (f"  [rules {', '.join(decision.rules)}]" if decision.rules else ""))
        for i, o in enumerate(decision.options, 1):
            click.echo(f"  {i:>3}. {o.label}")
        while True:
            hint = "number" if decision.max == 1 else "numbers separated by spaces (empty for none)"
            raw = click.prompt(f"Your choice ({hint})", default="" if decision.min == 0 else None,
                               show_default=False)
            try:
                picks = [int(x) for x in raw.replace(",", " ").split()]
            except ValueError:
                click.echo("Please type option numbers.")
                continue
            if not decision.min <= len(picks) <= decision.max or any(not 1 <= p <= len(decision.options)
                                                                      for p in picks) or len(set(picks)) != len(picks):
                click.echo(f"Choose between {decision.min} and {decision.max} different options.")
                continue
            return [decision.options[p - 1].id for p in picks]
