"""A human player at the terminal. It shows only what that player may see.

The board lists every zone with its cards by name and the fields that matter (interpreter/agents/
cardinfo.py); a player may ask for a card's full text (`?N` for option N, `show CARD` for a card id
or a card number `#12` on the board), for one zone (`zone NAME [P2]`), the board again (`board`) or
help (`help`) before answering. Layout and colour come from rich when the output is a terminal;
otherwise the same text is printed plainly, so logs and tests read the same words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import click

from interpreter.agents.cardinfo import card_details, card_summary
from interpreter.model.rulebook import CardDef, Rulebook
from interpreter.state.decisions import Decision

HELP = ("Enter the number of an option (several numbers separated by spaces when more may be chosen).\n"
        "  ?N or show N      the full text of option N's card\n"
        "  show ID or #OID   the full text of a card by its id, or by its number on the board\n"
        "  zone NAME [P2]    the cards of one zone (yours unless a player is given)\n"
        "  board             the board again\n"
        "  help              this help")

_OID = re.compile(r"(?:^|:)c(\d+)(?::|$)")


class HumanAgent:
    """Asks a person, through `read` (a prompt) and `write` (the terminal), for each decision."""

    def __init__(self, player: int, read: Callable[[str], str] | None = None,
                 write: Callable[[str], None] | None = None) -> None:
        self.player = player
        self.read = read or (lambda text: click.prompt(text, default="", show_default=False))
        self.write = write or _terminal_writer()
        self.rb: Rulebook | None = None
        self.cards: dict[str, CardDef] = {}

    def use_cards(self, rb: Rulebook, cards: dict[str, CardDef]) -> None:
        """The game's rulebook and card database (public knowledge), to show cards by name."""
        self.rb, self.cards = rb, dict(cards)

    # -- showing ----------------------------------------------------------------------------
    def _card(self, card_id: str | None, states: dict[str, Any] | None = None) -> str:
        if card_id is None:
            return "hidden card"
        card = self.cards.get(card_id)
        return card_summary(self.rb, card, states) if card is not None and self.rb is not None else card_id

    def render_view(self, view: dict[str, Any]) -> str:
        lines = [f"-- P{view['player'] + 1}'s view, turn {view['turn']}, at {view['node']} --"]
        for zone, cards in sorted(view["zones"].items()):
            if not cards:
                continue
            visible = [c for c in cards if c["card"] is not None]
            lines.append(f"  {zone} ({len(cards)})" + ("" if visible else ": hidden"))
            for c in visible:
                under = f" under #{c['holder']}" if c["holder"] else ""
                lines.append(f"    #{c['oid']} {self._card(c['card'], c['states'])}{under}")
            for c in cards:
                known = [name for name, holds in (c.get("facts") or {}).items() if holds]
                if c["card"] is None and known:  # what everyone may know of a hidden card
                    lines.append(f"    #{c['oid']} hidden card ({', '.join(known)})")
        return "\n".join(lines)

    def _details(self, card_id: str) -> str:
        card = self.cards.get(card_id)
        if card is None or self.rb is None:
            return f"no card '{card_id}'"
        return "\n".join(card_details(self.rb, card))

    @staticmethod
    def _oids(view: dict[str, Any]) -> dict[int, str | None]:
        return {c["oid"]: c["card"] for cards in view["zones"].values() for c in cards}

    def _option_card(self, decision: Decision, view: dict[str, Any], n: int) -> str | None:
        m = _OID.search(decision.options[n - 1].id)
        return self._oids(view).get(int(m.group(1))) if m else None

    # -- asking -----------------------------------------------------------------------------
    def decide(self, decision: Decision, view: dict[str, Any]) -> list[str]:
        self.write(self.render_view(view))
        self._show_decision(decision)
        while True:
            raw = self.read("Your choice (help for commands)").strip()
            answer = self._command(raw, decision, view)
            if answer is not None:
                return answer

    def _show_decision(self, decision: Decision) -> None:
        rules = f"  [rules {', '.join(decision.rules)}]" if decision.rules else ""
        lines = [f"\n{decision.describe()}{rules}"]
        lines += [f"  {i:>3}. {o.label}" for i, o in enumerate(decision.options, 1)]
        self.write("\n".join(lines))

    def _command(self, raw: str, decision: Decision, view: dict[str, Any]) -> list[str] | None:
        """Carry out a command and return None, or return the chosen option ids."""
        words = raw.split()
        n = len(decision.options)
        if raw in ("help", "h"):
            self.write(HELP)
            return None
        if raw == "board":
            self.write(self.render_view(view))
            self._show_decision(decision)
            return None
        if raw.startswith("?") or (words and words[0] == "show"):
            target = raw[1:].strip() if raw.startswith("?") else " ".join(words[1:])
            self.write(self._show(target, decision, view, n))
            return None
        if words and words[0] == "zone":
            self.write(self._zone(words[1:], view))
            return None
        return self._picks(raw, decision, n)

    def _show(self, target: str, decision: Decision, view: dict[str, Any], n: int) -> str:
        if target.isdigit():
            k = int(target)
            if not 1 <= k <= n:
                return f"enter ?N with N from 1 to {n}"
            card_id = self._option_card(decision, view, k)
            return self._details(card_id) if card_id else f"option {k} is not a card you can see"
        if target.startswith("#") and target[1:].isdigit():
            card_id = self._oids(view).get(int(target[1:]))
            return self._details(card_id) if card_id else f"card {target} is not one you can see"
        return self._details(target) if target else "show what? e.g. ?1, show SGL-M01 or show #12"

    def _zone(self, args: list[str], view: dict[str, Any]) -> str:
        if not args:
            return "zone what? e.g. zone hand, zone waiting_room P2"
        name = args[0]
        who = args[1].upper() if len(args) > 1 else f"P{self.player + 1}"
        key = name if name in view["zones"] else f"{name}@{who}"
        cards = view["zones"].get(key)
        if cards is None:
            known = sorted({k.split("@")[0] for k in view["zones"]})
            return f"no zone '{name}' for {who} (zones: {', '.join(known)})"
        if not cards:
            return f"{key}: empty"
        hidden = sum(1 for c in cards if c["card"] is None)
        shown = [f"  #{c['oid']} {self._card(c['card'], c['states'])}" for c in cards if c["card"] is not None]
        if hidden:
            shown.append(f"  {hidden} hidden card(s)")
        return "\n".join([f"{key} ({len(cards)})", *shown])

    def _picks(self, raw: str, decision: Decision, n: int) -> list[str] | None:
        lo, hi = decision.min, decision.max
        want = (f"a number from 1 to {n}" if lo == hi == 1 else
                f"{lo} different numbers from 1 to {n}" if lo == hi else
                f"between {lo} and {hi} different numbers from 1 to {n}" + (" (nothing for none)" if lo == 0 else ""))
        try:
            picks = [int(x) for x in raw.replace(",", " ").split()]
        except ValueError:
            self.write(f"enter {want}, or help")
            return None
        if not lo <= len(picks) <= hi or any(not 1 <= p <= n for p in picks) or len(set(picks)) != len(picks):
            self.write(f"enter {want}")
            return None
        return [decision.options[p - 1].id for p in picks]


def _terminal_writer() -> Callable[[str], None]:
    """rich's console on a terminal (layout, colour), plain echo otherwise."""
    import sys

    if sys.stdout.isatty():
        from rich.console import Console

        console = Console(highlight=True)
        return lambda text: console.print(text, markup=False)
    return click.echo


def render_view(view: dict[str, Any]) -> str:
    """A view as text without a card database (card ids only)."""
    return HumanAgent(view["player"]).render_view(view)
