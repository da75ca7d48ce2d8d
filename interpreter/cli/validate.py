"""`sogo validate`: find what each path is (rulebook, card file, deck, scenario, replay) and check it."""

from __future__ import annotations

from pathlib import Path

from interpreter import locations
from interpreter.loader.cards import CardPool, load_cards, load_deck
from interpreter.loader.diagnostics import Diagnostic, LoadError
from interpreter.loader.rulebook import find_rulebook, known_rulebooks, load_rulebook, rulebook_versions
from interpreter.loader.yaml_safe import load_yaml
from interpreter.model.rulebook import Rulebook


def _classify(path: Path) -> list[tuple[str, Path]]:
    if path.is_dir():
        if (path / "rulebook.yaml").is_file():
            return [("rulebook", path)]
        out: list[tuple[str, Path]] = []
        subdirs = sorted(p for p in path.iterdir() if p.is_dir())
        files = sorted(path.glob("*.yaml"))
        if files:
            out.append(("cardset" if not any(_looks_like_scenario(f) for f in files) else "scenarios", path))
        for d in subdirs:
            out.extend(_classify(d))
        return out
    if path.suffix == ".jsonl":
        return [("replay", path)]
    if _looks_like_scenario(path):
        return [("scenario", path)]
    if path.name.startswith("deck"):
        return [("deck", path)]
    return [("cards", path)]


_CHECKED_SUFFIXES = (".yaml", ".yml", ".jsonl")
"""What `sogo validate` reads: YAML files and replays; anything else given (a README) is skipped."""


def _game_named(name: str) -> list[Path] | None:
    """A game id (as `sogo play` takes it, `game@version` too): its rulebook folder and its card
    folders (its own and the added ones); None when no rulebook has that name."""
    if "/" in name or name.endswith((".yaml", ".yml", ".jsonl")):
        return None
    try:
        rdir = find_rulebook(name)
    except LoadError:
        return None
    from interpreter.cli.setup import card_folders

    here = Path.cwd().resolve()

    def shown(f: Path) -> Path:
        full = f.resolve()
        return full.relative_to(here) if full.is_relative_to(here) else full

    return [shown(rdir)] + [shown(f) for f in card_folders(name) if f.is_dir()]


def _looks_like_scenario(path: Path) -> bool:
    try:
        head = path.read_text(encoding="utf-8", errors="replace")[:4000]
    except OSError:
        return False
    return "\nexpect:" in head or head.startswith("expect:") or "\nsetup:\n  start_at" in head


def _game_of(path: Path) -> tuple[str | None, tuple[int, int], list[Diagnostic]]:
    """The `game:` a card or deck file names and where it is written, so a bad name is reported
    there; if the file does not load, its problems, which "cannot tell which game" would hide."""
    try:
        data, smap = load_yaml(path)
    except LoadError as e:
        return None, (1, 1), e.diagnostics
    game = data.get("game") if isinstance(data, dict) else None
    return (game if isinstance(game, str) else None), smap.get(("game",)), []


def validate_paths(paths: list[Path]) -> tuple[list[Diagnostic], list[str]]:
    """Every problem found (each once) and a line per thing found sound."""
    v = _Validator()
    check = {"rulebook": v.rulebook_dir, "cardset": v.cards, "cards": v.cards, "deck": v.cards,
             "scenario": v.scenarios, "scenarios": v.scenarios, "replay": v.replay}
    for given in paths:
        if not given.exists():
            game = _game_named(str(given))
            if game is None:
                v.problems.append(Diagnostic(str(given), 1, 1, "no such file or directory, nor a game id (games: "
                                             f"{', '.join(known_rulebooks()) or 'none'})"))
                continue
            found = game
        elif given.is_file() and given.suffix not in _CHECKED_SUFFIXES:
            v.ok.append(f"skipped {given} (not YAML)")
            continue
        else:
            found = [given]
        for kind, p in (c for f in found for c in _classify(f)):
            try:
                check[kind](p)
            except LoadError as e:
                v.problems.extend(e.diagnostics)
    return list(dict.fromkeys(v.problems)), v.ok  # cards checked for a version's decks and for the version alike


class _Validator:
    """One `sogo validate` run: what it found, and each rulebook loaded once for everything naming it."""

    def __init__(self) -> None:
        self.problems: list[Diagnostic] = []
        self.ok: list[str] = []
        self.rulebooks: dict[str, Rulebook | None] = {}

    def rulebook(self, game: str, named_in: Path, at: tuple[int, int]) -> Rulebook | None:
        if game not in self.rulebooks:
            try:
                find_rulebook(game)
            except LoadError as e:  # no such rulebook: report it at the `game:` naming it
                self.problems.extend(Diagnostic(str(named_in), *at, d.message) for d in e.diagnostics)
                self.rulebooks[game] = None
                return None
            try:
                self.rulebooks[game] = load_rulebook(game)
            except LoadError as e:
                self.problems.extend(e.diagnostics)
                self.rulebooks[game] = None
        return self.rulebooks[game]

    def rulebook_dir(self, p: Path) -> None:
        rb = load_rulebook(str(p))
        # A versioned rulebook (game@1.02) is cached under its own name, not the game id.
        self.rulebooks[p.name if p.name.startswith(f"{rb.id}@") else rb.id] = rb
        self.ok.append(f"ok rulebook {rb.id} {rb.rules_version} ({len(rb.graph.nodes)} nodes, "
                       f"{len(rb.templates)} templates, {len(rb.rule_processes)} rule processes)")
        for fmt in rb.raw.get("formats") or []:  # each format is the rulebook with its edits: load each
            try:
                f = load_rulebook(str(p), fmt=str(fmt))
            except LoadError as e:
                self.problems.extend(e.diagnostics)
                continue
            counts = (f.raw.get("players") or {}).get("counts") or [(f.raw.get("players") or {}).get("count")]
            seats = ", ".join(map(str, counts[:-1])) + (" or " if len(counts) > 1 else "") + str(counts[-1])
            self.ok.append(f"ok format {rb.id} {fmt} ({seats} players)")

    def cards(self, p: Path) -> None:
        """Card files and decks (a file, or a folder of them), under their game's rulebook."""
        files = sorted(p.glob("*.yaml")) if p.is_dir() else [p]
        card_files = [f for f in files if not f.name.startswith("deck")]
        deck_files = [f for f in files if f.name.startswith("deck")]
        found = [(f, *_game_of(f)) for f in files]
        named = next(((f, g, at) for f, g, at, _ in found if g), None)
        if named is None:
            unreadable = [d for *_, errors in found for d in errors]
            unknown = Diagnostic(str(p), 1, 1, "cannot tell which game this is for (expected a top-level 'game: ID')")
            self.problems.extend(unreadable or [unknown])
            return
        named_in, game, at = named
        cdir = p if p.is_dir() else p.parent
        # cards/game@1.02/ holds decks for that rules version; the cards are the game's.
        versioned = cdir.name.startswith(f"{game}@")
        crb = self.rulebook(cdir.name if versioned else game, named_in, at)
        if crb is None:
            return
        home = cdir.parent / game if versioned else cdir
        all_cards = sorted(x for x in home.glob("*.yaml") if not x.name.startswith("deck"))
        if versioned and not all_cards:
            all_cards = sorted(x for x in cdir.glob("*.yaml") if not x.name.startswith("deck"))
        if not card_files and not all_cards:
            # A deck kept apart from any card file: its cards are the game's, from the card search path.
            from interpreter.cli.setup import cards_dir

            all_cards = sorted(x for x in cards_dir(game).glob("*.yaml") if not x.name.startswith("deck"))
        pool_files = card_files or all_cards
        if not versioned and cdir.resolve() in [f.resolve() for f in locations.added_folders(game)]:
            # A folder added to the game's cards (--add-cards): checked with them, as play loads it.
            from interpreter.cli.setup import card_folders

            pool_files = [x for f in card_folders(game) for x in sorted(f.glob("*.yaml"))
                          if not x.name.startswith("deck")]
        cards = _under(cdir.name, crb, pool_files) if versioned else load_cards(crb, pool_files)
        for f in deck_files:
            load_deck(crb, cards, f)
        self.ok.extend(str(d) for d in cards.notices if str(d) not in self.ok)
        under = f" under {cdir.name}" if versioned else ""
        self.ok.append(f"ok cards {p}{under} ({len(cards)} cards, {len(deck_files)} legal decks)")
        # Card files are for every rules version of their game: check them under each.
        for other in rulebook_versions(game) if card_files and not versioned else []:
            orb = self.rulebook(other, named_in, at)
            if orb is not None:
                pool = _under(other, orb, card_files)
                self.ok.append(f"ok cards {p} under {other} ({len(pool)} cards, {len(pool.later)} "
                               f"for later rules left out)")

    def scenarios(self, p: Path) -> None:
        from interpreter.scenarios.runner import run_scenario

        files = sorted(p.glob("*.yaml")) if p.is_dir() else [p]
        outcomes = [run_scenario(f) for f in files]
        for o in outcomes:
            self.problems.extend(o.diagnostics)  # located where the scenario went wrong
        if all(o.passed for o in outcomes):
            self.ok.append(f"ok scenarios {p} ({len(files)})")

    def replay(self, p: Path) -> None:
        """Its shape and its rulebook; `sogo replay` plays it and compares the end."""
        from interpreter.replay import Replay

        rep = Replay.load(p)
        name = rep.header.get("rulebook_dir") or rep.header.get("rulebook")
        if not isinstance(name, str):
            self.problems.append(Diagnostic(str(p), 1, 1, "the replay's header names no rulebook"))
        elif self.rulebook(name, p, (1, 1)) is not None:
            self.ok.append(f"ok replay {p} ({name}, {len(rep.steps)} decisions)")


def _under(name: str, rb: Rulebook, files: list[Path]) -> CardPool:
    """Cards loaded under another rules version of their game: a problem says which version, since a
    card that is fine for the newest rules may use what an older one lacks (it then says `since:`)."""
    try:
        return load_cards(rb, files)
    except LoadError as e:
        raise LoadError(Diagnostic(d.path, d.line, d.col, f"{d.message} (under {name}, rules "
                                   f"{rb.rules_version}; a card for later rules says since:)")
                        for d in e.diagnostics) from e
