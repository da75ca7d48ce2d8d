"""A human player at the terminal. It shows only what that player's seat may see.

At each decision it tells what happened since the player's last decision (the brief log as that
seat reads it, viewer/brief_log.py; `log=False` when the command prints the log itself), draws the
play mat as the seat sees it (`viewer.mat.mat`, drawn compactly by `viewer.terminal`): whose turn it
is and the phase in words, every player's mat with the zones where the layout puts them, card tiles
with the fields that matter, damage and counters, rest and face-down cards, cards attached or under,
and each player's counters. Then it says what the engine did for the player without asking (a choice
that had only one possible answer, a pass with nothing else to do), asks the question in words
(interpreter/viewer/wording.py, as `sogo serve`'s page does: what each option does, the ability and
its cost read in plain English) and reads the answer: option numbers or names, `pass`, Enter to
choose nothing where nothing may be chosen, `quit` to leave the game; `help` lists the other
commands (a card's full text, a zone's cards, the rules behind the decision, the mat again).

Colour comes from rich when the output is a terminal; otherwise the same text is printed plainly, so
logs and tests read the same words.
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from interpreter.agents.cardinfo import card_details, card_summary
from interpreter.model.rulebook import CardDef, Rulebook
from interpreter.state.decisions import Decision
from interpreter.state.objects import GameObject, Pending
from interpreter.viewer.brief_log import BriefLog
from interpreter.viewer.mat import layout_of, mat
from interpreter.viewer.terminal import look_words, mat_text
from interpreter.viewer.wording import Announcer, Worded, Wording, current_ctx

if TYPE_CHECKING:
    from interpreter.engine.game import Game

HELP = ("Answer with the number of an option or its name (several, where more may be chosen: `1 3` or\n"
        "`name, name`). Where nothing may be chosen, Enter (an empty answer) chooses nothing.\n"
        "  pass              pass (or choose nothing, where that is allowed)\n"
        "  quit              leave the game (it is abandoned; a replay being saved says so)\n"
        "  ?N or show N      the full text of option N's card\n"
        "  show #OID or ID   the full text of a card by its number on the mat (#174), its id or its name\n"
        "  zone NAME [P2]    the cards of one zone (yours unless a player is given)\n"
        "  board             the mat again\n"
        "  rules             the rules this decision applies\n"
        "  help              this help")

QUIT_WORDS = ("quit", "exit", "q")


class Quit(click.Abort):
    """The person chose to leave the game (`quit`): the game is abandoned, as on Ctrl-C."""


class HumanAgent:
    """Asks a person, through `read` (a prompt) and `write` (the terminal), for each decision."""

    def __init__(self, player: int, read: Callable[[str], str] | None = None,
                 write: Callable[[str], None] | None = None, width: int | None = None,
                 color: bool | None = None, log: bool = True) -> None:
        self.player = player
        self.log = log  # tell what happened since the last decision (the brief log of this seat)
        self.log_rules = False  # with the rules each line of it applies (`sogo play --rules`)
        tty = sys.stdout.isatty() if color is None else color
        self.read = read or (lambda text: click.prompt(text, default="", show_default=False))
        self.write = write or click.echo
        self.color = tty if read is None and write is None else bool(color)
        self.width = width or (shutil.get_terminal_size((110, 40)).columns if tty else 110)
        self.rb: Rulebook | None = None
        self.cards: dict[str, CardDef] = {}
        self._announcer: Announcer | None = None  # what was done for this player without asking
        self._brief: BriefLog | None = None  # the log as this seat reads it
        self._logged = 0  # log entries told so far

    def use_cards(self, rb: Rulebook, cards: dict[str, CardDef]) -> None:
        """The game's rulebook and card database (public knowledge), to show cards by name."""
        self.rb, self.cards = rb, dict(cards)

    # -- at the table ---------------------------------------------------------------------------
    def decide_at(self, game: Game, decision: Decision) -> list[str]:
        """The decision asked at the table: what happened since the last one, the mat this seat
        sees, what was done for it, the question in words; the chosen option ids."""
        if self.rb is None:
            self.use_cards(game.rb, game.cards)
        if self._announcer is None:
            self._announcer = Announcer(self.player)
        if self.log:
            told = self.news(game)
            for line in told:
                self.write(line)
            if told:
                self.write("")  # the mat below, apart from the log
        notes = self._announcer.news(game)
        table = mat(game, self.player)
        wording = Wording(game, self.player, table)
        ctx = current_ctx(game)
        options = wording.options(decision, ctx)
        ask = _Asking(self, decision, options, wording.question(decision), wording.about(ctx), game, wording)
        self.write(mat_text(table, self.width, look_words(layout_of(game)), self.color).rstrip("\n"))
        for note in notes:
            self.write(f"» {note}")
        self.write(ask.text())
        answer = ask.loop()
        self._announcer.answering(game, decision, answer)
        return answer

    def news(self, game: Game) -> list[str]:
        """The brief log's lines since the last call, as this seat may read them (a game's last lines
        are told by calling it once the game is over)."""
        if self._brief is None:
            self._brief = BriefLog(game.rb, game.cards, rules=self.log_rules, width=self.width)
        fresh = [e.for_player(self.player) for e in game.entries[self._logged:]]
        self._logged = len(game.entries)
        return self._brief.feed(fresh)

    # -- without a table (a decision and a view only) -----------------------------------------
    def decide(self, decision: Decision, view: dict[str, Any]) -> list[str]:
        """Asked with the engine's labels alone (no game at hand): the options as labelled."""
        options = [Worded(o.id, o.label, names=[o.id]) for o in decision.options]
        ask = _Asking(self, decision, options, decision.describe(), "", None, None)
        self.write(ask.text())
        return ask.loop()

    def details(self, card_id: str) -> str:
        card = self.cards.get(card_id)
        if card is None or self.rb is None:
            return f"no card '{card_id}'"
        from interpreter.cardtext.review import readings_of

        try:
            readings = readings_of(self.rb, card)
        except Exception:  # noqa: BLE001 - the card's file cannot be read again: its text without readings
            readings = {}
        return "\n".join(card_details(self.rb, card, readings))


class _Asking:
    """One decision being asked: its words, and the answers and commands read until one answers it."""

    def __init__(self, agent: HumanAgent, d: Decision, options: list[Worded], question: str, about: str,
                 game: Game | None, wording: Wording | None) -> None:
        self.agent, self.d, self.options = agent, d, options
        self.question, self.about, self.game, self.wording = question, about, game, wording

    # -- words -----------------------------------------------------------------------------------
    def board(self) -> str:
        if self.game is None:
            return ""
        m = mat(self.game, self.agent.player)
        return mat_text(m, self.agent.width, look_words(layout_of(self.game)), self.agent.color).rstrip("\n")

    def text(self) -> str:
        lines = [f"\nP{self.agent.player + 1}, your decision: {self.question}"]
        if self.about:
            lines.append(f"  {self.about}")
        for i, o in enumerate(self.options, 1):
            lines.append(f"  {i:>3}. {o.title}" + (f"  — {o.detail}" if o.detail else ""))
        lines.append(self.hint())
        return "\n".join(lines)

    def hint(self) -> str:
        n, lo, hi = len(self.options), self.d.min, self.d.max
        what = ("a number or a name" if hi == 1 else
                f"{lo} numbers or names" if lo == hi else f"up to {hi} numbers or names")
        parts = [f"Enter {what}"]
        if any(o.id == "pass" for o in self.options):
            parts.append("pass")
        if lo == 0:
            parts.append("Enter alone to choose nothing")
        parts += ["quit", "help"]
        return f"({', '.join(parts)}; 1-{n})" if n else f"({', '.join(parts)})"

    # -- reading -----------------------------------------------------------------------------------
    def loop(self) -> list[str]:
        while True:
            raw = self.agent.read("Your choice").strip()
            answer = self.command(raw)
            if answer is not None:
                return answer

    def say(self, text: str) -> None:
        self.agent.write(text)

    def command(self, raw: str) -> list[str] | None:
        """Carry out a command and return None, or return the chosen option ids."""
        low = raw.lower()
        words = low.split()
        if low in QUIT_WORDS:
            raise Quit()
        if low in ("help", "h"):
            self.say(HELP)
            return None
        if low == "board":
            self.say(self.board())
            self.say(self.text())
            return None
        if low == "rules":
            self.say(f"rules: {', '.join(self.d.rules)}" if self.d.rules else "this decision cites no rules")
            return None
        if raw.startswith("?") or (words and words[0] == "show"):
            target = raw[1:].strip() if raw.startswith("?") else raw.split(None, 1)[1] if len(words) > 1 else ""
            self.say(self.show(target))
            return None
        if words and words[0] == "zone":
            self.say(self.zone(raw.split()[1:]))
            return None
        return self.picks(raw)

    def picks(self, raw: str) -> list[str] | None:
        lo, hi, n = self.d.min, self.d.max, len(self.options)
        if not raw:
            if lo == 0:
                return []
            self.say(f"Something must be chosen here: {self.hint()}")
            return None
        if raw.lower() == "pass":
            passing = [o.id for o in self.options if o.id == "pass"]
            if passing:
                return passing
            if lo == 0:
                return []
            self.say("There is no passing here: something must be chosen.")
            return None
        tokens = raw.replace(",", " ").split()
        if all(t.isdigit() for t in tokens):
            picks = [int(t) for t in tokens]
            if any(not 1 <= p <= n for p in picks):
                self.say(f"Options are numbered 1 to {n}.")
                return None
        else:
            picks = []
            for name in [x.strip() for x in raw.split(",") if x.strip()]:
                found = self.by_name(name)
                if found is None:
                    return None
                picks.append(found)
        if len(set(picks)) != len(picks):
            self.say("An option was named twice.")
            return None
        if not lo <= len(picks) <= hi:
            self.say(f"Choose {lo} here." if lo == hi else f"Choose between {lo} and {hi} here.")
            return None
        return [self.options[p - 1].id for p in picks]

    def by_name(self, name: str) -> int | None:
        """The option a name means: one whose title or other name is it, else the one title holding it."""
        key = name.lower()
        exact = [i for i, o in enumerate(self.options, 1)
                 if key == o.title.lower() or key in (x.lower() for x in o.names)]
        found = exact or [i for i, o in enumerate(self.options, 1) if key in o.title.lower()]
        if len({(self.options[i - 1].title, self.options[i - 1].detail) for i in found}) == 1:
            return found[0]  # one option, or several that read the same: nothing tells them apart
        if not found:
            self.say(f"No option is called '{name}': {self.hint()}")
        else:
            self.say(f"Several options match '{name}' ({', '.join(map(str, found[:10]))}): enter a number.")
        return None

    # -- looking -----------------------------------------------------------------------------------
    def show(self, target: str) -> str:
        agent = self.agent
        if target.isdigit():
            k = int(target)
            if not 1 <= k <= len(self.options):
                return f"enter ?N with N from 1 to {len(self.options)}"
            card_id = self.option_card(k - 1)
            return agent.details(card_id) if card_id else f"option {k} is not a card you can see"
        if target.startswith("#") and target[1:].isdigit():
            obj = self.game.state.objects.get(int(target[1:])) if self.game is not None else None
            if obj is None or not self.visible(obj):
                return f"card {target} is not one you can see"
            return agent.details(obj.card_id)
        if not target:
            return "show what? e.g. ?1, show #12, or show a card's id or name"
        if target in agent.cards:
            return agent.details(target)
        named = sorted({c.id for c in agent.cards.values() if str(c.fields.get("name", "")).lower() == target.lower()})
        if named:
            return "\n\n".join(agent.details(c) for c in named[:3])
        return f"no card '{target}'"

    def visible(self, obj: GameObject) -> bool:
        from interpreter.table.views import can_see

        return self.game is not None and can_see(self.game, obj, self.agent.player)

    def option_card(self, i: int) -> str | None:
        """The card an option is about, when this player may see it."""
        v = self.d.options[i].value
        obj = v[1] if isinstance(v, tuple) and len(v) == 3 else v
        if isinstance(obj, Pending) and self.game is not None:
            obj = self.game.state.objects.get(obj.source)
        return obj.card_id if isinstance(obj, GameObject) and self.visible(obj) else None

    def zone(self, args: list[str]) -> str:
        if self.game is None or self.wording is None:
            return "no table to look at"
        if not args:
            return "zone what? e.g. zone hand, zone archive P2"
        wording, st = self.wording, self.game.state
        want = args[0].lower()
        who = args[1].upper() if len(args) > 1 else f"P{self.agent.player + 1}"
        p = int(who[1:]) - 1 if re.fullmatch(r"P\d+", who) else -1
        zones = [z for z in self.game.rb.zones if want in (z.lower(), wording.zone(z).lower())]
        if not zones or not 0 <= p < st.num_players:
            known = ", ".join(sorted({wording.zone(z).lower() for z in self.game.rb.zones}))
            return f"no zone '{args[0]}' for {who} (zones: {known})"
        z = zones[0]
        key = (z, p) if (z, p) in st.zones else (z, None)
        objs = [st.objects[i] for i in st.zones.get(key, [])]
        if not objs:
            return f"{wording.whose(key[1])}{wording.zone(z)}: empty"
        lines = [f"{wording.whose(key[1])}{wording.zone(z)} ({len(objs)})"]
        hidden = 0
        for o in objs:
            if not self.visible(o):
                hidden += 1
            elif self.agent.rb is not None:
                lines.append(f"  #{o.oid} {card_summary(self.agent.rb, self.game.cards[o.card_id], o.states)}")
        if hidden:
            lines.append(f"  {hidden} hidden card(s)")
        return "\n".join(lines)
