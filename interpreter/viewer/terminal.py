"""A play mat (`viewer.mat.mat`) drawn compactly in a terminal with rich: what the terminal player
sees at each decision.

The other players' mats come first, turned round as the mat gives them (their hand at the top, the
middle of the table below), then the shared zones, then the seat's own mat with its hand at the
bottom, as if the screen were the table. Each row of the play mat is one line of cells side by side
(widths from the layout); a cell is its label, how many cards it holds and its cards as short tiles:
`#174 Backup Dancer  spot · HP 70/110 · white red · damage 40 (rest)` with the cards held under or
attached to it. Hidden cards are drawn as `hidden` with the facts everyone knows of them: the mat
itself never carries their identity. Nothing here reads a game: it draws the mat dict it is given,
so a saved mat draws the same.
"""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from interpreter.model.layout import Layout

Json = dict[str, Any]


def turn_line(m: Json) -> str:
    """`Turn 3 · P1's turn (you) · Main phase · Main step`: whose turn it is and where, in words."""
    seat = m.get("seat")
    tp = m.get("turn_player")
    parts = [f"Turn {m.get('turn', 0)}"]
    if tp is not None:
        parts.append(f"P{tp + 1}'s turn" + (" (you)" if tp == seat else ""))
    if m.get("phase"):
        parts.append(str(m["phase"]))
    return " · ".join(parts)


def render_mat(m: Json, looks: dict[str, str] | None = None) -> RenderableType:
    """The mat as a rich renderable. `looks` names a placement look in words (`sideways` -> `rest`),
    from the layout's states; a look not named is shown as it is called."""
    draw = _Draw(m, looks or {})
    parts: list[RenderableType] = [Text(turn_line(m), style="bold")]
    if m.get("result"):
        parts.append(Text(f"Game over: {result_words(m['result'])}", style="bold red"))
    players = m.get("players", [])
    for p in players[1:][::-1]:
        parts.append(draw.player(p))
    shared = [c for c in m.get("shared", []) if c.get("count")] + list(m.get("elsewhere", []))
    if shared:
        parts.append(draw.row(shared))
    if players:
        parts.append(draw.player(players[0]))
    return Group(*parts)


def mat_text(m: Json, width: int = 110, looks: dict[str, str] | None = None, color: bool = False) -> str:
    """The mat drawn as plain text (`color`: with ANSI styles), `width` columns wide."""
    console = Console(record=True, width=width, file=io.StringIO(), force_terminal=color,
                      color_system="truecolor" if color else None)
    console.print(render_mat(m, looks))
    return console.export_text(styles=color)


def result_words(result: Json) -> str:
    """A finished game's result in words: `P2 wins (rules 10.3)`."""
    from interpreter.state.objects import result_text

    rules = result.get("rules") or []
    return result_text(result) + (f" (rules {', '.join(map(str, rules))})" if rules else "")


def look_words(layout: Layout) -> dict[str, str]:
    """Each placement look in words: a card turned sideways in the word of the state it shows (`rest`,
    `wait`), a face-down card as `face down`; a look two states share keeps its own name."""
    named: dict[str, set[str]] = {}
    for s in layout.states:
        if s.look not in ("tag", "face_down"):
            named.setdefault(s.look, set()).add(s.value.replace("_", " "))
    return {look: next(iter(values)) for look, values in named.items() if len(values) == 1}


def tile_texts(m: Json, looks: dict[str, str] | None = None) -> dict[int, str]:
    """Each card the mat shows by name, by object number, as its tile reads in one line (name,
    fields, counters, looks; not the cards it holds): what an option about that card can say of it."""
    draw = _Draw(m, looks or {})
    out: dict[int, str] = {}
    cells = [c for p in m.get("players", []) for r in p.get("rows", []) for c in r.get("cells", [])]
    for c in cells + list(m.get("shared", [])) + list(m.get("elsewhere", [])):
        for t in list(c.get("cards") or []) + ([c["top"]] if "top" in c else []):
            if not t.get("hidden"):
                out[int(t["oid"])] = draw.tile({k: v for k, v in t.items() if k != "held"}).plain
    return out


def card_name(m: Json, card: str | None) -> str:
    """A card id as its name in the mat's card list (the id itself when the mat does not name it)."""
    if card is None:
        return "hidden card"
    return str((m.get("cards", {}).get(card) or {}).get("name", card))


class _Draw:
    def __init__(self, m: Json, looks: dict[str, str]) -> None:
        self.m, self.looks = m, looks
        self.palette: dict[str, str] = dict(m.get("palette") or {})

    def player(self, p: Json) -> RenderableType:
        title = Text()
        title.append(f"{p['name']}" + (" (you)" if p.get("you") else ""), style="bold")
        if p.get("turn"):
            title.append(" ▶ turn", style="bold green")
        if p.get("left"):
            title.append(" (left the game)", style="red")
        for role in p.get("roles", []):
            title.append(f" · {role}", style="cyan")
        for v in p.get("values", []):
            title.append(f" · {v['label']} {_plain(v['value'])}")
        rows = [self.row(r["cells"]) for r in p.get("rows", []) if r.get("cells")]
        return Panel(Group(*rows), title=title, title_align="left", padding=(0, 1),
                     border_style="green" if p.get("you") else "blue")

    def row(self, cells: list[Json]) -> RenderableType:
        grid = Table.grid(expand=True, padding=(0, 2))
        for c in cells:
            if c.get("show") == "count" or not c.get("count"):  # a number or a dash: as narrow as it is
                grid.add_column(no_wrap=True)
            else:
                grid.add_column(ratio=max(1, int(c.get("width", 1))), overflow="fold")
        grid.add_row(*[self.cell(c) for c in cells])
        return grid

    def cell(self, c: Json) -> RenderableType:
        text = Text()
        text.append(str(c.get("label", c.get("zone", ""))), style="bold underline")
        count = int(c.get("count", 0))
        show = c.get("show")
        if show == "count":
            text.append(f" {count}")
            return text
        tiles: list[Json] = list(c.get("cards") or []) if show != "stack" else ([c["top"]] if "top" in c else [])
        # How many cards lie here, not counting those held under or attached to the cards shown.
        own = len(tiles) if show != "stack" else max(len(tiles), count - sum(len(t.get("held") or []) for t in tiles))
        if own > 1 or (show != "stack" and own):
            text.append(f" ({own})", style="dim")
        if not count:
            text.append("\n—", style="dim")
            return text
        # Cards that read alike (the same card, fields, looks, nothing held) are one line: `5× Energy`.
        groups: dict[str, tuple[Text, list[int]]] = {}
        for t in tiles:
            shown = self.tile(t)
            key = shown.plain if not t.get("held") and not t.get("counters") else f"#{t['oid']}"
            groups.setdefault(key, (shown, []))[1].append(int(t["oid"]))
        for shown, oids in groups.values():
            text.append("\n")
            if len(oids) > 1:
                text.append(f"{len(oids)}× ", style="bold")
            elif not shown.plain.startswith("hidden"):
                text.append(f"#{oids[0]} ", style="dim")
            text.append_text(shown)
        return text

    def tile(self, t: Json) -> Text:
        """A card as a line: name, fields, counters, tags, looks, then what it holds (no number)."""
        out = Text()
        if t.get("hidden"):
            out.append("hidden", style="italic")
            if t.get("facts"):
                out.append(f" ({', '.join(t['facts'])})", style="italic")
        else:
            out.append(card_name(self.m, t.get("card")), style="bold")
            for f in t.get("fields", []):
                out.append(" · ", style="dim")
                out.append_text(self.field(f))
            for k, v in (t.get("counters") or {}).items():
                out.append(" · ", style="dim")
                out.append(f"{k.replace('_', ' ')} {v}", style="bold red")
            for tag in t.get("tags", []):
                out.append(f" [{tag}]", style="magenta")
        looks = [self.looks.get(x, x.replace("_", " ")) for x in t.get("looks", [])]
        if looks:
            out.append(f" ({', '.join(looks)})", style="yellow")
        held = t.get("held") or []
        if held:
            out.append_text(self.held(held))
        return out

    def field(self, f: Json) -> Text:
        value, label, at = f.get("value"), str(f.get("label", f.get("id", ""))), f.get("at")
        if at == "meter":
            most = f.get("max")
            shown = f"{_plain(value)}/{_plain(most)}" if most is not None else _plain(value)
            low = isinstance(value, int) and isinstance(most, int) and value < most
            return Text(f"{label} {shown}", style="bold red" if low else "")
        if at == "icons":
            return self.icons(value)
        if at == "badge" and isinstance(value, str):
            return Text(value, style="cyan")
        return Text(f"{label} {_plain(value)}")

    def icons(self, value: Any) -> Text:
        """A multiset or list of symbols (colours), each in its palette colour."""
        out = Text()
        items: list[tuple[str, int]]
        if isinstance(value, dict):
            items = [(str(k), int(n)) for k, n in value.items() if n]
        elif isinstance(value, list):
            items = [(str(k), 1) for k in value]
        else:
            items = [(_plain(value), 1)] if value not in (None, "") else []
        for i, (k, n) in enumerate(items):
            if i:
                out.append(" ")
            colour = self.palette.get(k)
            out.append(f"{k}×{n}" if n != 1 else k, style=colour or "")
        return out if items else Text("-", style="dim")

    def held(self, held: list[Json]) -> Text:
        out = Text()
        by_look: dict[str, Counter[str]] = {}
        for h in held:
            name = "hidden" if h.get("hidden") else card_name(self.m, h.get("card"))
            if h.get("color") and not h.get("hidden"):
                name += f" ({h['color']})"
            by_look.setdefault(str(h.get("held_look", "under")), Counter())[name] += 1
        for look, names in by_look.items():
            shown = ", ".join(f"{n}×{k}" if k > 1 else n for n, k in names.items())
            out.append(f"\n   {look}: {shown}", style="dim")
        return out


def _plain(value: Any) -> str:
    """A mat value (number, text, {symbol: count}, list) as short words."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return " ".join(f"{k}×{n}" if n != 1 else str(k) for k, n in value.items()) or "-"
    if isinstance(value, list):
        return " ".join(_plain(v) for v in value) or "-"
    return str(value)
