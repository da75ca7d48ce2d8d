"""The play mat (`layout.yaml` beside rulebook.yaml, schemas/layout.schema.json) compiled into
`Rulebook.layout`; a rulebook without one gets a generic mat made from its zones.

A layout is presentation: it changes nothing in a game. It is still checked like the rest of the
rulebook, every problem reported where it is written: the zones, card types, fields, states and
roles it names must exist, a zone is placed once, zones a player owns go on the mat and shared ones
in `shared`, and its expressions compile against the rulebook's names and functions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from interpreter.loader.compile import Compiler, Loc
from interpreter.loader.diagnostics import Diagnostics, LoadError
from interpreter.loader.schema import schema_names, validate
from interpreter.loader.yaml_safe import load_yaml
from interpreter.model.layout import (
    Cell,
    HeldLook,
    Layout,
    PlayerValue,
    Row,
    StateLook,
    Tile,
    TileField,
)
from interpreter.model.rulebook import Rulebook
from interpreter.state.objects import FACE

LAYOUT_FILE = "layout.yaml"
DEFAULT_WIDTH = {"row": 3, "fan": 3, "stack": 1, "count": 1}


def layout_path(directory: Path, files: list[Path]) -> Path | None:
    """The rulebook's layout.yaml: beside its rulebook.yaml, else (a rules version or a format of
    another rulebook) beside the rulebook.yaml it was read from."""
    candidates = [directory] + [f.parent for f in files if f.name == "rulebook.yaml"]
    for d in candidates:
        if (d / LAYOUT_FILE).is_file():
            return d / LAYOUT_FILE
    return None


def words(name: str) -> str:
    """An id as words for a label: `member_left` -> "Member left"."""
    text = name.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def load_layout(rb: Rulebook, comp: Compiler, diags: Diagnostics) -> Layout:
    """The rulebook's layout, problems added to `diags`; the generic mat when it has none."""
    path = layout_path(rb.directory, rb.files)
    if path is None:
        return generic_layout(rb)
    try:
        data, smap = load_yaml(path)
    except LoadError as e:
        diags.extend(e.diagnostics)
        return generic_layout(rb)
    if not isinstance(data, dict):
        diags.add(str(path), 1, 1, "expected a mapping at the top of the layout")
        return generic_layout(rb)
    if "layout" in schema_names():
        problems = validate(data, "layout", smap, str(path))
        if problems:
            diags.extend(problems)
            return generic_layout(rb)
    return _Compile(rb, comp, diags, Loc(str(path), smap, ())).layout(data)


class _Compile:
    """Checks and compiles one layout file's sections, reporting at the values written."""

    def __init__(self, rb: Rulebook, comp: Compiler, diags: Diagnostics, root: Loc) -> None:
        self.rb, self.comp, self.diags, self.root = rb, comp, diags, root
        self.placed: dict[str, Loc] = {}

    def error(self, loc: Loc, message: str) -> None:
        line, col = loc.pos()
        self.diags.add(loc.file, line, col, message)

    def layout(self, d: dict[str, Any]) -> Layout:
        at = self.root
        rows = tuple(self.row(r, at.at("mat", i)) for i, r in enumerate(d["mat"]))
        shared = tuple(self.cell(c, at.at("shared", i), shared=True) for i, c in enumerate(d.get("shared") or []))
        tiles = tuple(self.tile(t, at.at("tiles", i)) for i, t in enumerate(d.get("tiles") or []))
        states = tuple(self.state(s, at.at("states", i)) for i, s in enumerate(d.get("states") or []))
        held = tuple(self.held(h, at.at("held", i)) for i, h in enumerate(d.get("held") or []))
        player = d.get("player") or {}
        values = tuple(self.player_value(v, at.at("player", "values", i))
                       for i, v in enumerate(player.get("values") or []))
        roles = []
        for i, r in enumerate(player.get("roles") or []):
            if r["role"] not in self.rb.roles:
                self.error(at.at("player", "roles", i, "role"),
                           f"unknown role '{r['role']}' (known: {', '.join(self.rb.roles) or 'none'})")
            roles.append((str(r["role"]), str(r["label"])))
        return Layout(id=d["id"], title=str(d.get("title") or self.rb.title), rows=rows, shared=shared,
                      tiles=tiles, states=states, held=held, player_values=values, roles=tuple(roles),
                      palette=dict(d.get("palette") or {}), theme=dict(d.get("theme") or {}),
                      file=at.file)

    def row(self, r: dict[str, Any], loc: Loc) -> Row:
        cells = tuple(self.cell(c, loc.at("cells", i), shared=False) for i, c in enumerate(r["cells"]))
        return Row(id=r["id"], cells=cells, rules=tuple(r.get("rules") or ()))

    def cell(self, c: dict[str, Any], loc: Loc, *, shared: bool) -> Cell:
        zone = c["zone"]
        zdef = self.rb.zones.get(zone)
        if zdef is None:
            self.error(loc.at("zone"), f"unknown zone '{zone}' (known: {', '.join(sorted(self.rb.zones))})")
        elif zdef.shared and not shared:
            self.error(loc.at("zone"), f"zone '{zone}' belongs to no player: place it under `shared`")
        elif shared and not zdef.shared:
            self.error(loc.at("zone"), f"zone '{zone}' belongs to each player: place it in a row of `mat`")
        if zone in self.placed:
            self.error(loc.at("zone"), f"zone '{zone}' is placed twice (first at {self.placed[zone].at('zone')})")
        else:
            self.placed[zone] = loc
        show = c["show"]
        return Cell(zone=zone, show=show, label=str(c.get("label") or words(zone)),
                    width=int(c.get("width") or DEFAULT_WIDTH[show]), rules=tuple(c.get("rules") or ()))

    def card_types(self, types: list[str], loc: Loc) -> None:
        for i, t in enumerate(types):
            if t not in self.rb.card_types:
                self.error(loc.at(i), f"unknown card type '{t}' (known: {', '.join(sorted(self.rb.card_types))})")

    def field_name(self, name: str, loc: Loc) -> None:
        if name not in self.rb.field_types:
            self.error(loc, f"unknown card field '{name}' (known: {', '.join(sorted(self.rb.field_types))})")

    def tile(self, t: dict[str, Any], loc: Loc) -> Tile:
        self.card_types(t["types"], loc.at("types"))
        fields = []
        for i, f in enumerate(t["fields"]):
            floc = loc.at("fields", i)
            if "field" in f:
                self.field_name(f["field"], floc.at("field"))
            value = self.comp.expr(f["value"], floc.at("value")) if "value" in f else None
            most = self.comp.expr(f["max"], floc.at("max")) if "max" in f else None
            if f["at"] == "meter" and most is None:
                self.error(floc.at("at"), "a meter needs `max`, the full value")
            name = f.get("field") or f.get("counter") or f["id"]
            fields.append(TileField(id=f["id"], at=f["at"], label=str(f.get("label") or words(name)),
                                    field=f.get("field"), counter=f.get("counter"), value=value, max=most,
                                    hide_zero=bool(f.get("hide_zero"))))
        return Tile(id=t["id"], types=tuple(t["types"]), fields=tuple(fields))

    def state(self, s: dict[str, Any], loc: Loc) -> StateLook:
        state, value = s["state"], str(s["value"])
        known = self.rb.states.get(state)
        if known is None:
            known_states = ", ".join(sorted(self.rb.states))
            self.error(loc.at("state"), f"unknown placement state '{state}' (known: {known_states})")
        elif value not in [str(v) for v in known.get("values", [])]:
            self.error(loc.at("value"), f"placement state '{state}' has no value '{value}' "
                                        f"(values: {', '.join(map(str, known.get('values', [])))})")
        if s["look"] == "tag" and not s.get("label"):
            self.error(loc.at("look"), "a tag needs its `label`")
        return StateLook(id=s["id"], state=state, value=value, look=s["look"], label=str(s.get("label") or value),
                         rules=tuple(s.get("rules") or ()))

    def held(self, h: dict[str, Any], loc: Loc) -> HeldLook:
        self.card_types(h["types"], loc.at("types"))
        if "color" in h:
            self.field_name(h["color"], loc.at("color"))
        return HeldLook(id=h["id"], types=tuple(h["types"]), look=h["look"], color=h.get("color"))

    def player_value(self, v: dict[str, Any], loc: Loc) -> PlayerValue:
        value = self.comp.expr(v["value"], loc.at("value")) if "value" in v else None
        return PlayerValue(id=v["id"], label=str(v["label"]), counter=v.get("counter"), value=value,
                           hide_zero=bool(v.get("hide_zero")))


def generic_layout(rb: Rulebook) -> Layout:
    """A mat made from the zones alone, for a rulebook without layout.yaml: the public zones no
    ordering piles up (a stage, a field) in the row nearest the opponent, then the piles (ordered or
    hidden zones) as stacks or counts, then what only the player sees (a hand) as a fan. Every card
    shows its name and its whole-number fields."""
    field_row: list[Cell] = []
    piles: list[Cell] = []
    own: list[Cell] = []
    shared: list[Cell] = []
    for zid, z in rb.zones.items():
        if z.shared:
            shared.append(Cell(zid, "row", words(zid), 3))
        elif z.visibility == "owner":
            own.append(Cell(zid, "fan", words(zid), 4))
        elif z.visibility == "private":
            piles.append(Cell(zid, "count", words(zid), 1))
        elif z.ordered:
            piles.append(Cell(zid, "stack", words(zid), 1))
        else:
            field_row.append(Cell(zid, "row", words(zid), 2))
    rows = tuple(Row(rid, tuple(cells)) for rid, cells in
                 (("field", field_row), ("piles", piles), ("own", own)) if cells)
    tiles = []
    for tid, t in rb.card_types.items():
        raw = t.get("fields")
        specs: list[Any] = raw if isinstance(raw, list) else []
        ints = [f["id"] for f in specs if isinstance(f, dict) and f.get("type") == "int"][:3]
        fields = tuple(TileField(id=f, at="corner" if i == 0 else "stat", label=words(f), field=f, hide_zero=i > 0)
                       for i, f in enumerate(ints))
        tiles.append(Tile(id=tid, types=(tid,), fields=fields))
    states = tuple(StateLook(id=f"{sid}_{v}", state=sid, value=str(v), label=str(v),
                             look="face_down" if (sid, v) == (FACE, "down") else "tag")
                   for sid, s in rb.states.items() for v in s.get("values", []) if v != s.get("default"))
    return Layout(id=f"{rb.id}_generic", title=rb.title, rows=rows or (Row("zones", ()),), shared=tuple(shared),
                  tiles=tuple(tiles), states=states, roles=tuple((r, words(r)) for r in rb.roles), generic=True)
