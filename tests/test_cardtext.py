"""Printed card text compiled by a rulebook's phrases (interpreter/cardtext), on the toy rulebook:
normalization, composition and conditions, unmatched fragments at their file positions, and the
`sogo cards` commands (compile, --check, pin, stats, import) with `sogo validate`'s notices."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from interpreter.cardtext.compiler import compile_ability_text
from interpreter.cardtext.grammar import Grammar
from interpreter.cardtext.normalize import TextRules, normalize, pin_of, split_abilities
from interpreter.loader.cards import load_cards
from interpreter.loader.rulebook import load_rulebook
from tests.cli_run import run

TOY = Path(__file__).resolve().parent / "data" / "toy"
CARDS = Path(__file__).resolve().parent / "data" / "cardtext_toy" / "cards.yaml"
LLOCG = Path(__file__).resolve().parent / "data" / "cardimport" / "llocg_small.json"
HAIKYUU = Path(__file__).resolve().parent / "data" / "cardimport" / "haikyuu_small.js"


@pytest.fixture(scope="module")
def rb():
    return load_rulebook(str(TOY))


@pytest.fixture
def card_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the toy card file; the toy rulebook is found by its id (for `sogo validate`)."""
    shutil.copytree(TOY, tmp_path / "books" / "toy")
    monkeypatch.setenv("SOGO_RULEBOOKS", str(tmp_path / "books"))
    p = tmp_path / "cards.yaml"
    shutil.copy(CARDS, p)
    return p


def test_normalize_widths_markup_reminder_and_origin() -> None:
    rules = TextRules(replace=(("{{ping.png|合図}}", "【合図】"),), reminder=("(", ")"), quotes=(("「", "」"),))
    src = "{{ping.png|合図}}２枚 引く（説明）「A B」："
    n = normalize(src, rules)
    assert n.text == "【合図】2枚引く「A B」:"
    # each kept character knows where it was printed
    assert src[n.source_index(n.text.index("2"))] == "２"
    assert src[n.source_index(n.text.index("「"))] == "「"
    # width, spacing and reminder text are no errata; anything else is
    assert pin_of("２枚引く。（注）", rules) == pin_of("2枚 引く。", rules) != pin_of("3枚引く。", rules)


def test_phrases_compose_and_conditions_cover_their_sentence(rb) -> None:
    c = compile_ability_text(rb.card_text, "{{ping.png|合図}}★★払ってもよい：第２段階の場合、合図数を3にし、"
                                           "記録を1にする。手札の「Plain」を1枚捨て札に置く。")
    assert c.status == "full"
    assert c.ability == {
        "kind": "reflex", "keywords": ["on_ping"], "optional": True,
        "cost": [{"set_var": {"name": "paid", "value": 2}}],
        "effect": [
            {"if": {"cond": "stage == 2", "then": [{"set_var": {"name": "pinged", "value": 3}},
                                                   {"set_var": {"name": "record", "value": 1}}]}},
            {"choose": {"player": "you", "from": "cards('hand', you) where it.name == 'Plain'", "as": "chosen"}},
            {"move": {"cards": "chosen", "to": "discard"}},
        ]}
    # a quoted name becomes an expression literal, escaped
    c = compile_ability_text(rb.card_text, "【速攻】手札の「It's」を1枚捨て札に置く。")
    assert c.ability["effect"][0]["choose"]["from"] == "cards('hand', you) where it.name == 'It\\'s'"
    # ... unless the slot is raw: the text itself
    c = compile_ability_text(rb.card_text, "【速攻】名前は「A B」。")
    assert c.ability["effect"] == [{"log": {"message": "'A B'"}}]


def test_rest_of_ability_condition_and_steps_run_last(rb) -> None:
    """`if_rest` covers every later sentence (a sentence end closes only the conditions opened after
    it); `last` steps run after all the others wherever they are written."""
    c = compile_ability_text(rb.card_text, "【速攻】【締め】合図数を1にする。続けてもよい。"
                                           "第２段階の場合、記録を2にする。合図数を3にする。")
    assert c.status == "full", [f.text for f in c.unmatched]
    assert c.ability["effect"] == [
        {"set_var": {"name": "pinged", "value": 1}},
        {"if": {"cond": "go_on", "then": [
            {"if": {"cond": "stage == 2", "then": [{"set_var": {"name": "record", "value": 2}}]}},
            {"set_var": {"name": "pinged", "value": 3}}]}},
        {"set_var": {"name": "record", "value": 0}},
    ]


def test_options_after_bullets_compile_as_abilities(rb) -> None:
    """An ability slot with `until` reads from its bullet to the next one or the end of the text and
    compiles what it reads as a whole ability; `field: effect` gives that ability's steps. A body that
    is more than steps (here a marker) gives no reading (the text is reported, no error)."""
    c = compile_ability_text(rb.card_text, "【速攻】次から1つ選ぶ。▶第２段階の場合、合図数を1にする。▶記録を2にする。")
    assert c.status == "full", [f.text for f in c.unmatched]
    assert c.ability["effect"] == [{"choose_one": {"player": "you", "options": [
        {"id": "first", "do": [{"if": {"cond": "stage == 2", "then": [{"set_var": {"name": "pinged", "value": 1}}]}}]},
        {"id": "second", "do": [{"set_var": {"name": "record", "value": 2}}]}]}}]
    c = compile_ability_text(rb.card_text, "【速攻】次から1つ選ぶ。▶【合図】▶記録を2にする。")
    assert c.ability is None and c.error is None


def test_a_sentence_read_as_an_ability(rb) -> None:
    """An ability slot with `through` reads up to and with the next such token (a sentence of the
    text, with its own conditions); what follows is read on its own."""
    c = compile_ability_text(rb.card_text, "【速攻】次の合図の時、第２段階の場合、記録を2にする。合図数を1にする。")
    assert c.status == "full", [f.text for f in c.unmatched]
    assert c.ability["effect"] == [
        {"delayed_trigger": {"effect": {"trigger": {"event": "ping"}, "do": [
            {"if": {"cond": "stage == 2", "then": [{"set_var": {"name": "record", "value": 2}}]}}]},
            "duration": "round"}},
        {"set_var": {"name": "pinged", "value": 1}}]


def test_unmatched_fragments_and_partial_share(rb) -> None:
    c = compile_ability_text(rb.card_text, "【合図】相手は１点を失う。合図数を2にする。")
    assert c.ability is None and c.status == "partial"
    assert [(f.text, f.start) for f in c.unmatched] == [("相手は1点を失う。", 4)]
    assert 0 < c.matched_share < 1
    assert compile_ability_text(rb.card_text, "まったく知らない文。").status == "none"


def test_grammar_problems_are_located() -> None:
    section = {"phrases": [
        {"id": "a", "rules": ["1"], "part": "clause", "text": "{x:nosuch}する。", "gives": {"effect": []}},
        {"id": "b", "rules": ["1"], "part": "clause", "text": "{n:number}枚", "gives": {"effect": "{m}"}},
        {"id": "c", "rules": ["1"], "part": "card", "text": "{card}と何か", "gives": "x"},
        {"id": "d", "rules": ["1"], "part": "clause", "text": "する。", "gives": {"teleport": 1}},
    ], "slots": [{"id": "number", "kind": "number"}]}
    g = Grammar(section, lambda path: ("ct.yaml", len(path), 1))
    messages = [p[3] for p in g.problems]
    assert any("unknown slot type 'nosuch'" in m for m in messages)
    assert any("gives {m} but pattern 1 has no such slot" in m for m in messages)
    assert any("starts with its own part 'card'" in m for m in messages)
    assert any("unknown ability part 'teleport'" in m for m in messages)


def test_a_broken_phrase_fails_the_rulebook_at_its_line(tmp_path: Path) -> None:
    book = tmp_path / "toy"
    shutil.copytree(TOY, book)
    text = (book / "card_text.yaml").read_text(encoding="utf-8").replace("{c:counter}を{n:number}にする。",
                                                                       "{c:countr}を{n:number}にする。")
    (book / "card_text.yaml").write_text(text, encoding="utf-8")
    code, out, err = run("validate", str(book))
    assert code == 1
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "countr" in t)
    assert f"card_text.yaml:{line}:" in err and "unknown slot type 'countr'" in err


def test_compile_writes_abilities_keeps_hand_and_comments(rb, card_file: Path) -> None:
    code, out, err = run("cards", "compile", str(TOY), str(card_file), "--write")
    assert code == 1  # one fragment is unmatched
    source = CARDS.read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(source, 1) if "１点" in t)
    col = source[line - 1].index("相手") + 1
    assert f"{card_file}:{line}:{col}: card T-TODO: no phrase matches 「相手は1点を失う。」" in err
    data = yaml.safe_load(card_file.read_text(encoding="utf-8"))
    ping, hand, todo = data["cards"]
    assert ping["abilities"][0] == {"text": "{{ping.png|合図}}合図数を2にする。", "pin": ping["abilities"][0]["pin"],
                                    "kind": "reflex", "keywords": ["on_ping"],
                                    "effect": [{"set_var": {"name": "pinged", "value": 2}}]}
    assert ping["abilities"][1]["kind"] == "quick" and len(ping["abilities"]) == 2
    assert hand["abilities"][0]["hand"] is True and hand["abilities"][0]["effect"][0]["set_var"]["value"] == 9
    assert todo["abilities"] == [{"text": "【合図】相手は１点を失う。", "pin": todo["abilities"][0]["pin"],
                                  "todo": ["相手は1点を失う。"]}]
    written = card_file.read_text(encoding="utf-8")
    assert "# written by hand: compile keeps it" in written and written.startswith("# Toy cards")
    # the compiled file loads; the todo ability is left out of play and reported by validate
    pool = load_cards(rb, [card_file])
    assert len(pool["T-PING"].abilities) == 2 and pool["T-TODO"].abilities == []
    code, out, err = run("validate", str(card_file))
    assert code == 0 and "todo: card T-TODO, ability 1 is not written" in out
    # compiling again changes nothing
    before = card_file.read_text(encoding="utf-8")
    run("cards", "compile", str(TOY), str(card_file), "--write")
    assert card_file.read_text(encoding="utf-8") == before


def test_written_files_read_back_without_libyaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Unmatched fragments holding `?` or `:` (or starting with `?`) are written so that the file reads
    back as written with the pure-Python YAML parser too, by `cards compile --write` and `cards import`."""
    from interpreter.loader import yaml_safe

    shutil.copytree(TOY, tmp_path / "books" / "toy")
    monkeypatch.setenv("SOGO_RULEBOOKS", str(tmp_path / "books"))
    texts = ["【合図】相手に好きな数を聞く？その数を記録する。", "【合図】？から始まる文。",
             "【合図】相手は1：2で負ける。", "【合図】記録が1: 相手は負ける。"]
    cards = "".join(f"  - {{id: T-Q{i}, type: unit, name: Q, power: 1, text: \"{t}\"}}\n" for i, t in enumerate(texts))
    path = tmp_path / "cards.yaml"
    path.write_text("game: toy\ncards:\n" + cards, encoding="utf-8")
    code, _, err = run("cards", "compile", str(TOY), str(path), "--write")
    assert code == 1 and "no phrase matches" in err
    monkeypatch.setattr(yaml_safe, "_FAST_LOADER", None)
    data, _ = yaml_safe.load_yaml(path)
    todos = [c["abilities"][0]["todo"] for c in data["cards"]]
    assert todos == [["相手に好きな数を聞く?その数を記録する。"], ["?から始まる文。"], ["相手は1:", "2で負ける。"],
                     ["記録が1:", "相手は負ける。"]]
    # an import writes the same way: a fan list record whose text no phrase reads
    records = json.loads(LLOCG.read_text(encoding="utf-8"))
    records["SGX-bp1-004-N"]["ability"] = "{{toujyou.png|登場}}相手に好きな色を聞く？その色を記録する。"
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    out_file = tmp_path / "imported.yaml"
    code, _, err = run("cards", "import", "lovelive", str(listed), "--mapping", "llocg_db", "-o", str(out_file))
    assert "no phrase matches" in err
    data, _ = yaml_safe.load_yaml(out_file)
    card = next(c for c in data["cards"] if c["id"] == "SGX-bp1-004-N")
    assert card["abilities"][0]["todo"] == ["相手に好きな色を聞く?その色を記録する。"]


def test_check_reports_an_ability_that_drifted_from_its_text(card_file: Path) -> None:
    run("cards", "compile", str(TOY), str(card_file), "--write")
    code, out, err = run("cards", "compile", str(TOY), str(card_file), "--check")
    assert "differs" not in err
    card_file.write_text(card_file.read_text(encoding="utf-8").replace("value: 2}", "value: 5}"), encoding="utf-8")
    code, out, err = run("cards", "compile", str(TOY), str(card_file), "--check")
    assert code == 1
    assert "card T-PING: ability 1 differs from its text: effect[0].set_var.value: text gives 2, card has 5" in err


def test_an_errata_asks_for_review_until_pinned(card_file: Path) -> None:
    run("cards", "compile", str(TOY), str(card_file), "--write")
    code, out, _ = run("validate", str(card_file))
    assert "review:" not in out
    card_file.write_text(card_file.read_text(encoding="utf-8").replace("合図数を2にする。\n", "合図数を3にする。\n", 1),
                         encoding="utf-8")
    code, out, _ = run("validate", str(card_file))
    assert code == 0 and "review: card T-PING, ability 1: its printed text changed since it was pinned" in out
    code, out, _ = run("cards", "pin", str(TOY), str(card_file))
    assert code == 0 and "2 pin(s) updated" in out  # the changed one, and the hand-written one pinned
    code, out, _ = run("validate", str(card_file))
    assert "review:" not in out


def test_stats_counts_and_names_the_next_phrases(card_file: Path) -> None:
    code, out, err = run("cards", "stats", str(TOY), str(card_file), "--json")
    assert code == 0
    report = json.loads(out)
    assert report["abilities"] == {"full": 2, "partial": 2, "none": 0}
    assert report["cards"] == {"full": 1, "partial": 2, "none": 0}
    shapes = {u["shape"]: u["count"] for u in report["unmatched"]}
    assert shapes == {"相手は負ける。": 1, "相手はN点を失う。": 1}
    code, out, _ = run("cards", "stats", str(TOY), str(card_file))
    assert "fully compiled 2 (50.0%)" in out


def test_stats_group_fragments_by_family_with_printings_and_texts(tmp_path: Path) -> None:
    """Each unmatched fragment is counted under the family of what was being read where matching
    stopped (a phrase type or slot type, or the derived family of the phrase: action, condition...),
    once per printing and once per distinct text, with the place marked."""
    texts = {
        "T-A1": "【合図】手札の「Plain」を1枚山札に置く。",  # a clause's own words differ after its slot
        "T-A2": "【合図】手札の「Plain」を1枚山札に置く。",  # another printing of the same text
        "T-N": "【合図】合図数をXにする。",  # a number slot reads no X
        "T-C": "【合図】第2段階なら、合図数を2にする。",  # a condition's words differ
        "T-K": "【合図】手札のもの1枚捨て札に置く。",  # no card description reads it
        "T-O": "【合図】相手は１点を失う。",  # no phrase reads its first word
        # inside a quoted ability
        "T-G": "【合図】ラウンド終了時まで、場のカードは「【合図】合図数をYにする。」を得る。",
    }
    path = tmp_path / "cards.yaml"
    path.write_text("game: toy\ncards:\n" + "".join(
        f"  - {{id: {cid}, type: unit, name: X, power: 1, text: \"{t}\"}}\n" for cid, t in texts.items()),
        encoding="utf-8")
    code, out, _ = run("cards", "stats", str(TOY), str(path), "--json")
    report = json.loads(out)
    assert report["abilities"]["partial"] + report["abilities"]["none"] == 7
    assert sum(report["distinct_texts"].values()) == 6
    families = {f["family"]: (f["count"], f["texts"], [u["stopped_at"] for u in f["top"]]) for f in report["families"]}
    assert families == {
        "action": (2, 1, ["手札の「…」をN枚‸山札に置く。"]),
        "number": (2, 2, ["合図数を‸Xにする。",
                          "ラウンド終了時まで、場のカードは「【合図】合図数を‸Yにする。」を得る。"]),
        "condition": (1, 1, ["第N段階‸なら、合図数をNにする。"]),
        "card": (1, 1, ["手札の‸ものN枚捨て札に置く。"]),
        "opening": (1, 1, ["‸相手はN点を失う。"]),
    }
    assert [f["family"] for f in report["families"]][:2] == ["number", "action"]  # most distinct texts first
    code, out, _ = run("cards", "stats", str(TOY), str(path))
    assert "action: 2 printings, 1 distinct texts" in out and "distinct ability texts: 6" in out


def test_a_phrase_may_name_its_family() -> None:
    section = {"slots": [{"id": "number", "kind": "number"}], "phrases": [
        {"id": "lasting", "rules": ["1"], "part": "clause", "family": "duration", "text": "{n:number}手番の間、",
         "gives": {"if": "true"}},
        {"id": "draw", "rules": ["1"], "part": "clause", "text": "{n:number}枚引く。", "gives": {"effect": []}},
    ]}
    g = Grammar(section, lambda path: ("ct.yaml", 1, 1))
    assert g.problems == [] and g.phrases["lasting"].family == "duration" and g.phrases["draw"].family == "action"
    c = compile_ability_text(g, "山札を引く。")  # nothing reads its first word
    assert [(f.family, f.stop) for f in c.unmatched] == [("opening", 0)]
    c = compile_ability_text(g, "2手番のあいだ、1枚引く。")
    assert [(f.family, f.text[:f.stop]) for f in c.unmatched] == [("duration", "2手番の")]


def test_import_a_fan_card_list(tmp_path: Path) -> None:
    out_file = tmp_path / "imported.yaml"
    code, out, err = run("cards", "import", "lovelive", str(LLOCG), "--mapping", "llocg_db", "-o", str(out_file),
                         "--no-compile")
    assert code == 0, err
    data = yaml.safe_load(out_file.read_text(encoding="utf-8"))
    ids = [c["id"] for c in data["cards"]]
    assert ids == ["SGX-bp1-001-R", "SGX-bp1-001-P", "SGX-bp1-002-N", "SGX-bp1-003-L", "SGX-bp1-004-N"]
    first, _, second, live, _ = data["cards"]
    assert first["hearts"] == {"pink": 2, "green": 1} and first["units"] == ["コメットトリオ"]
    assert second["blade_hearts"] == {"all": 1} and "text" not in second
    assert live["required_hearts"] == {"pink": 2, "colorless": 2} and live["type"] == "live"


def test_import_gives_a_field_its_types_and_their_default(tmp_path: Path) -> None:
    """A list that leaves out a zero (a member's blades, a live card's score) gets the mapping's default
    for the types that have the field, and no other card gets the field: the file validates."""
    records = json.loads(LLOCG.read_text(encoding="utf-8"))
    del records["SGX-bp1-002-N"]["blade"], records["SGX-bp1-003-L"]["score"]
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    out_file = tmp_path / "imported.yaml"
    code, _, err = run("cards", "import", "lovelive", str(listed), "--mapping", "llocg_db", "-o", str(out_file),
                       "--no-compile")
    assert code == 0, err
    cards = {c["id"]: c for c in yaml.safe_load(out_file.read_text(encoding="utf-8"))["cards"]}
    assert cards["SGX-bp1-002-N"]["blades"] == 0 and cards["SGX-bp1-003-L"]["score"] == 0
    assert "score" not in cards["SGX-bp1-002-N"] and "blades" not in cards["SGX-bp1-003-L"]
    assert cards["SGX-bp1-001-R"]["blades"] == 2
    # a mapping without the default: that card is reported where the written file has it, the rest load
    mapping = (Path(__file__).resolve().parents[1] / "rulebooks" / "lovelive" / "imports" / "llocg_db.yaml")
    bare = tmp_path / "bare.yaml"
    bare.write_text(mapping.read_text(encoding="utf-8").replace(
        "blades: {from: blade, types: [member], default: 0}", "blades: {from: blade, types: [member]}"),
        encoding="utf-8")
    code, _, err = run("cards", "import", "lovelive", str(listed), "--mapping", str(bare), "-o", str(out_file),
                       "--no-compile")
    line = next(i for i, t in enumerate(out_file.read_text(encoding="utf-8").splitlines(), 1)
                if "SGX-bp1-002-N" in t and "id:" in t)
    assert code == 1 and f"{out_file}:{line}:" in err
    assert "warning: member card 'SGX-bp1-002-N' is missing required field 'blades'; the card is left out" in err


def test_import_a_list_of_two_card_types(tmp_path: Path) -> None:
    """The haikyuu-cards mapping: events get no parameters, their play timing from the icons of their
    first line and a position only when the list names one; a card of two characters gets both
    affiliations and grades (separators written several ways), its repeated position once."""
    out_file = tmp_path / "imported.yaml"
    code, out, err = run("cards", "import", "haikyu", str(HAIKYUU), "--mapping", "haikyuu_cards", "-o", str(out_file),
                         "--no-compile")
    assert code == 0, err
    cards = {c["id"]: c for c in yaml.safe_load(out_file.read_text(encoding="utf-8"))["cards"]}
    assert list(cards) == ["HVX-001-N", "HVX-001-NP", "HVX-002-R", "HVX-003-N", "HVX-004-N"]
    pair, event, coach = cards["HVX-002-R"], cards["HVX-003-N"], cards["HVX-004-N"]
    assert pair["affiliation"] == ["烏野", "音駒"] and pair["grade"] == ["3年", "2年"] and pair["position"] == ["S"]
    assert pair["block_point"] == "-" and pair["toss_point"] == 4
    assert event["play_timing"] == ["block", "attack"] and "position" not in event
    assert not any(k.endswith("_point") for k in event)
    assert coach["play_timing"] == ["receive"] and coach["position"] == ["監督"]
    assert cards["HVX-001-N"]["number"] == "HVX-001" and "text" not in cards["HVX-001-N"]
    code, out, err = run("validate", str(out_file))
    assert code == 0, err


def test_import_reports_values_the_game_does_not_know(tmp_path: Path) -> None:
    records = json.loads(LLOCG.read_text(encoding="utf-8"))
    records["SGX-bp1-002-N"]["base_heart"] = {"heart09": 1}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    out_file = tmp_path / "imported.yaml"
    code, out, err = run("cards", "import", "lovelive", str(bad), "--mapping", "llocg_db", "-o", str(out_file),
                         "--no-compile")
    assert code == 1
    assert f"{out_file}:" in err and "'heart09' is not a heart_icon" in err
    code, out, err = run("cards", "import", "lovelive", str(bad), "--mapping", "nosuch", "-o", str(out_file))
    assert code == 2 and "no import mapping 'nosuch'" in err


def test_import_and_compile_end_to_end(tmp_path: Path) -> None:
    """A card list in the fan database's shape (original texts) imports, compiles and validates;
    printings share their abilities; a text no phrase reads is reported where the file has it."""
    out_file = tmp_path / "imported.yaml"
    code, out, err = run("cards", "import", "lovelive", str(LLOCG), "--mapping", "llocg_db", "-o", str(out_file))
    assert code == 1  # one text is not compiled
    data = yaml.safe_load(out_file.read_text(encoding="utf-8"))
    r, p, _, live, todo = data["cards"]
    assert r["abilities"] == p["abilities"]
    assert r["abilities"][0]["keywords"] == ["enter"] and r["abilities"][0]["effect"] == [
        {"call": {"template": "draw", "n": 1}}]
    assert [a["keywords"] for a in live["abilities"]] == [["live_success"]]  # the reminder line is no ability
    assert "todo" in todo["abilities"][0]
    lines = out_file.read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(lines, 1) if "text:" in t and "相手は手札を2枚" in t)
    col = lines[line - 1].index("相手") + 1
    assert f"{out_file}:{line}:{col}: card SGX-bp1-004-N: no phrase matches" in err
    code, out, err = run("validate", str(out_file))
    assert code == 0, err


def test_a_quoted_ability_is_compiled_whole_for_a_grant(rb, tmp_path: Path) -> None:
    """An `ability` slot reads up to the close of the quote it stands in and compiles what it holds as
    a whole ability (spaces the quotes kept go): 「...」を得る gives `grant:`, one-shot for a duration
    or in a continuous ability; and the result loads and plays."""
    c = compile_ability_text(rb.card_text, "【速攻】ラウンド終了時まで、場の「Plain」は"
                                           "「【常在】パワーを ＋５ する。」を得る。")
    assert c.status == "full"
    assert c.ability == {"kind": "quick", "effect": [{"continuous": {
        "effect": {"affects": "cards('field', you) where it.name == 'Plain'",
                   "grant": {"kind": "aura", "effect": {"affects": "this", "modify": {"power": {"add": 5}}}}},
        "duration": "round"}}]}
    c = compile_ability_text(rb.card_text, "【常在】場の「Plain」は「【合図】合図数を2にする。」を得る。")
    assert c.ability == {"kind": "aura", "effect": {
        "affects": "cards('field', you) where it.name == 'Plain'",
        "grant": {"kind": "reflex", "keywords": ["on_ping"], "effect": [{"set_var": {"name": "pinged", "value": 2}}]}}}
    # what compiles loads: the granted ability is compiled too, and a ping makes Plain's trigger
    from interpreter.scenarios.runner import build_game

    card_file = tmp_path / "granting.yaml"
    card_file.write_text(yaml.safe_dump({"game": "toy", "cards": [
        {"id": "G-HERALD", "type": "unit", "name": "Herald", "power": 1, "abilities": [c.ability]},
        {"id": "G-PLAIN", "type": "unit", "name": "Plain", "power": 2}]}, allow_unicode=True), encoding="utf-8")
    cards = load_cards(rb, [card_file])
    game = build_game({"setup": {"start_at": "round", "turn": 0, "roles": {"mover": "P1", "other_side": "P2"},
                                 "zones": {"P1": {"field": ["G-HERALD", "G-PLAIN"]}}}}, rb, cards)
    game.stop_at = "two"
    game.advance()
    assert game.state.vars["pinged"] == 2


def test_a_sentence_end_inside_quotes_does_not_split_a_fragment(rb) -> None:
    c = compile_ability_text(rb.card_text, "【速攻】場の「Plain」は「【常在】謎の文。」を得る。合図数を2にする。")
    assert c.status == "partial"
    assert [(f.text, f.start) for f in c.unmatched] == [("場の「Plain」は「【常在】謎の文。」を得る。", 4)]
    # an ability slot holding what no phrase reads does not match, so the grant phrase does not either
    assert compile_ability_text(rb.card_text, "【常在】場の「Plain」は「謎。」を得る。").ability is None


def test_an_ability_slot_with_its_own_quotes() -> None:
    section = {"quotes": [{"open": "「", "close": "」"}],
               "slots": [{"id": "inner", "kind": "ability", "open": "「", "close": "」"}],
               "phrases": [
                   {"id": "m", "rules": ["1"], "part": "marker", "text": "【速攻】", "gives": {"kind": "quick"}},
                   {"id": "x", "rules": ["1"], "part": "clause", "text": "「{n:number}」を記す。",
                    "gives": {"effect": [{"set_var": {"name": "x", "value": "{n}"}}]}},
                   {"id": "g", "rules": ["1"], "part": "clause", "text": "{a:inner}を得る。",
                    "gives": {"effect": {"affects": "this", "grant": "{a}"}}}],
               }
    section["slots"].append({"id": "number", "kind": "number"})
    g = Grammar(section, lambda path: ("ct.yaml", 1, 1))
    assert g.problems == []
    c = compile_ability_text(g, "【速攻】「【速攻】「3」を記す。」を得る。")  # quotes nest inside the ability
    assert c.ability == {"kind": "quick", "effect": {"affects": "this", "grant": {
        "kind": "quick", "effect": [{"set_var": {"name": "x", "value": 3}}]}}}


def test_a_reading_that_fits_the_kind_is_taken() -> None:
    """One text, two phrases: steps for a kind played by effect steps, a description for a kind that
    is continuous (the rulebook's ability kinds played never). The first reading that fits wins."""
    section = {"phrases": [
        {"id": "aura", "rules": ["1"], "part": "marker", "text": "【常在】", "gives": {"kind": "aura"}},
        {"id": "quick", "rules": ["1"], "part": "marker", "text": "【速攻】", "gives": {"kind": "quick"}},
        {"id": "now", "rules": ["1"], "part": "clause", "text": "強くなる。",
         "gives": {"effect": [{"set_var": {"name": "x", "value": 1}}]}},
        {"id": "always", "rules": ["1"], "part": "clause", "text": "強くなる。",
         "gives": {"effect": {"affects": "this", "modify": {"power": {"add": 1}}}}}]}
    g = Grammar(section, lambda path: ("ct.yaml", 1, 1), frozenset({"aura"}))
    assert compile_ability_text(g, "【常在】強くなる。").ability == {
        "kind": "aura", "effect": {"affects": "this", "modify": {"power": {"add": 1}}}}
    assert compile_ability_text(g, "【速攻】強くなる。").ability == {
        "kind": "quick", "effect": [{"set_var": {"name": "x", "value": 1}}]}
    plain = Grammar(section, lambda path: ("ct.yaml", 1, 1))  # kinds not given: the first reading
    assert compile_ability_text(plain, "【常在】強くなる。").ability["effect"] == [
        {"set_var": {"name": "x", "value": 1}}]


def test_a_bracket_after_a_kept_after_token_is_no_reminder(rb) -> None:
    """`reminder.kept_after`: the bracket printed right after such a token (an icon's name, attribute
    or level) is kept and read by the phrases; any other bracket is still reminder text."""
    rules = TextRules(reminder=("(", ")"), reminder_kept_after=("【段階】",))
    assert normalize("【段階】（2）合図数（説明）", rules).text == "【段階】(2)合図数"
    c = compile_ability_text(rb.card_text, "【速攻】【段階】（２）合図数を3にする。")
    assert c.ability == {"kind": "quick", "effect": [
        {"if": {"cond": "stage == 2", "then": [{"set_var": {"name": "pinged", "value": 3}}]}}]}
    # the same bracket elsewhere is reminder text, dropped
    assert compile_ability_text(rb.card_text, "【速攻】(2)合図数を3にする。").ability == {
        "kind": "quick", "effect": [{"set_var": {"name": "pinged", "value": 3}}]}
    # without its bracket the icon's phrase does not match
    assert compile_ability_text(rb.card_text, "【速攻】【段階】合図数を3にする。").ability is None


def test_a_phrase_gives_what_a_response_ability_answers() -> None:
    """A marker may give `answers` (a response ability's condition over `target`); it is written
    after the trigger, before the cost."""
    section = {"phrases": [
        {"id": "counter", "rules": ["1"], "part": "marker", "text": "【対抗】:相手の能力",
         "gives": {"kind": "counter", "answers": "target.kind == 'ability' and target.player != you",
                   "effect": [{"negate": {"target": "target"}}]}},
        {"id": "pay", "rules": ["1"], "part": "cost", "text": "[捨てる]",
         "gives": {"cost": [{"move": {"cards": "this", "to": "discard"}}]}}]}
    g = Grammar(section, lambda path: ("ct.yaml", 1, 1))
    assert g.problems == []
    c = compile_ability_text(g, "【対抗】：相手の能力[捨てる]")
    assert list(c.ability) == ["kind", "answers", "cost", "effect"]
    assert c.ability["answers"] == "target.kind == 'ability' and target.player != you"


def test_a_text_slot_gives_a_keyword_parameter() -> None:
    """A `text` slot gives the text in its brackets itself (a `quoted` one an expression literal), so a
    phrase puts an icon's parameter into its keyword's parameters; the bracket after a `kept_after`
    token, or after the token and the number printed with it, is kept as written, spaces too; a
    sentence in it is reminder text that the slot does not read."""
    section = {
        "reminder": {"open": "（", "close": "）", "kept_after": ["【段階】", "【守り】"]},
        "slots": [{"id": "number", "kind": "number"}, {"id": "param", "kind": "text", "open": "(", "close": ")"}],
        "phrases": [
            {"id": "staged_of", "rules": ["1"], "part": "marker", "text": "【段階】{n:number}{t:param}:",
             "gives": {"kind": "quick", "keywords": [{"staged": {"n": "{n}", "tag": "{t}"}}]}},
            {"id": "staged", "rules": ["1"], "part": "marker", "text": "【段階】{n:number}:",
             "gives": {"kind": "quick", "keywords": [{"staged": "{n}"}]}},
            {"id": "guard_of", "rules": ["1"], "part": "marker", "text": "【守り】{t:param}",
             "gives": {"kind": "aura", "keywords": [{"guard": "{t}"}]}},
            {"id": "ping", "rules": ["1"], "part": "clause", "text": "合図する。",
             "gives": {"effect": [{"emit": {"event": "ping"}}]}}]}
    g = Grammar(section, lambda path: ("ct.yaml", 1, 1))
    assert g.problems == []
    rules = g.rules
    assert normalize("【段階】２（赤 組）：合図 する。", rules).text == "【段階】2(赤 組):合図する。"
    assert normalize("【段階】２：（説明）合図する。", rules).text == "【段階】2:合図する。"
    assert compile_ability_text(g, "【段階】２（赤 組）：合図する。").ability == {
        "kind": "quick", "keywords": [{"staged": {"n": 2, "tag": "赤 組"}}], "effect": [{"emit": {"event": "ping"}}]}
    assert compile_ability_text(g, "【段階】３：合図する。").ability["keywords"] == [{"staged": 3}]
    # the value is the text itself, not an expression literal
    assert compile_ability_text(g, "【守り】（青）").ability == {"kind": "aura", "keywords": [{"guard": "青"}]}
    # a sentence in the kept bracket is no parameter: reported, never read as one
    c = compile_ability_text(g, "【段階】２（合図したら、得る。）：合図する。")
    assert c.ability is None and [f.text for f in c.unmatched][0].startswith("【段階】2(")


def test_icon_spellings_of_other_lists_are_the_same_icons() -> None:
    """Love Live: the icon names of the official card list (【heart01】..【heart06】, 【heart0】, 【ハート】,
    【ALLブレード】) read as the same tokens as the fan list's markup (decision text_icon_spellings)."""
    rules = load_rulebook("lovelive").card_text.rules
    pairs = [("【heart01】【heart02】【heart03】【heart04】【heart05】【heart06】",
              "".join(f"{{{{heart_0{i}.png|heart0{i}}}}}" for i in range(1, 7))),
             ("【ハート】を得る。", "{{icon_all.png|ALL}}を得る。"),
             ("公開された【ALLブレード】", "公開された{{icon_b_all.png|ALL1}}"),
             ("必要ハートを【heart0】減らす。", "必要ハートを[無色ハート]減らす。")]
    for official, fan in pairs:
        assert normalize(official, rules).text == normalize(fan, rules).text
    assert normalize("【heart0】【heart01】", rules).text == "[無色ハート][桃ハート]"


def test_an_ability_without_a_kind_takes_the_default_kind() -> None:
    """`default_kind`: a text no phrase of which gives a kind (a card whose text is its ability, with no
    mark of its kind) is an ability of that kind; a phrase that gives one keeps its own."""
    section = {"default_kind": "play", "phrases": [
        {"id": "quick", "rules": ["1"], "part": "marker", "text": "【速攻】", "gives": {"kind": "quick"}},
        {"id": "ping", "rules": ["1"], "part": "clause", "text": "合図する。",
         "gives": {"effect": [{"emit": {"event": "ping"}}]}}]}
    g = Grammar(section, lambda path: ("ct.yaml", 1, 1))
    assert compile_ability_text(g, "合図する。").ability == {"kind": "play", "effect": [{"emit": {"event": "ping"}}]}
    assert compile_ability_text(g, "【速攻】合図する。").ability["kind"] == "quick"
    plain = Grammar({"phrases": section["phrases"]}, lambda path: ("ct.yaml", 1, 1))
    assert "kind" not in compile_ability_text(plain, "合図する。").ability


def test_steps_a_smaller_phrase_gives_join_the_steps_around_them() -> None:
    """A slot whose phrase gives a list (steps) written as an item of a list is spliced into it, so
    an action phrase can be built from a choice phrase and a verb phrase."""
    section = {"slots": [{"id": "number", "kind": "number"}],
               "phrases": [
                   {"id": "m", "rules": ["1"], "part": "marker", "text": "【速攻】", "gives": {"kind": "quick"}},
                   {"id": "pick", "rules": ["1"], "part": "pick", "text": "手札を{n:number}枚",
                    "gives": [{"choose": {"player": "you", "from": "cards('hand', you)", "min": "{n}", "max": "{n}",
                                          "as": "picked"}}]},
                   {"id": "drop", "rules": ["1"], "part": "verb", "text": "捨てる",
                    "gives": [{"move": {"cards": "picked", "to": "discard"}}]},
                   {"id": "act", "rules": ["1"], "part": "clause", "text": "{p:pick}{v:verb}。",
                    "gives": {"effect": ["{p}", "{v}", {"set_var": {"name": "x", "value": 1}}]}}]}
    g = Grammar(section, lambda path: ("ct.yaml", 1, 1))
    assert g.problems == []
    assert compile_ability_text(g, "【速攻】手札を2枚捨てる。").ability == {"kind": "quick", "effect": [
        {"choose": {"player": "you", "from": "cards('hand', you)", "min": 2, "max": 2, "as": "picked"}},
        {"move": {"cards": "picked", "to": "discard"}},
        {"set_var": {"name": "x", "value": 1}}]}


def test_an_icons_slot_counts_a_run_of_icons() -> None:
    """An `icons` slot reads icons of its word list written one after another, in any order, and
    gives how many of each value: several colours of one kind of icon in one phrase."""
    section = {"slots": [{"id": "gems", "kind": "icons", "words": {"[赤]": "red", "[青]": "blue"}},
                         {"id": "stars", "kind": "repeat", "token": "[星]"}],
               "phrases": [
                   {"id": "m", "rules": ["1"], "part": "marker", "text": "【速攻】", "gives": {"kind": "quick"}},
                   {"id": "gain", "rules": ["1"], "part": "clause", "text": "{g:gems}{s:stars}を得る。",
                    "gives": {"effect": [{"gain": {"gems": "{g}", "stars": "{s}"}}]}}]}
    g = Grammar(section, lambda path: ("ct.yaml", 1, 1))
    assert g.problems == []
    assert compile_ability_text(g, "【速攻】[赤][青][赤][星]を得る。").ability == {
        "kind": "quick", "effect": [{"gain": {"gems": {"red": 2, "blue": 1}, "stars": 1}}]}
    assert compile_ability_text(g, "【速攻】[星]を得る。").ability is None  # at least one icon
    # `times: -1`: a run of icons that lowers, e.g. a requirement reduced by the icons written
    section["slots"].append({"id": "fewer", "kind": "icons", "words": {"[赤]": "red"}, "times": -1})
    section["phrases"].append({"id": "lower", "rules": ["1"], "part": "clause", "text": "必要数を{f:fewer}減らす。",
                               "gives": {"effect": [{"lower": "{f}"}]}})
    g = Grammar(section, lambda path: ("ct.yaml", 1, 1))
    assert compile_ability_text(g, "【速攻】必要数を[赤][赤]減らす。").ability == {
        "kind": "quick", "effect": [{"lower": {"red": -2}}]}


def test_options_written_one_after_another_are_abilities_of_their_own() -> None:
    """An ability slot with `until` reads one option up to the next one's mark (or the end), and with
    `field: effect` gives the option's effect, so a modal choice lists its options' steps."""
    section = {"slots": [{"id": "number", "kind": "number"},
                         {"id": "option", "kind": "ability", "open": "・", "until": "・", "field": "effect"}],
               "phrases": [
                   {"id": "m", "rules": ["1"], "part": "marker", "text": "【速攻】", "gives": {"kind": "quick"}},
                   {"id": "x", "rules": ["1"], "part": "clause", "text": "記録を{n:number}にする。",
                    "gives": {"effect": [{"set_var": {"name": "x", "value": "{n}"}}]}},
                   {"id": "two", "rules": ["1"], "part": "options", "text": "{a:option}{b:option}",
                    "gives": [{"id": "first", "do": "{a}"}, {"id": "second", "do": "{b}"}]},
                   {"id": "modal", "rules": ["1"], "part": "clause", "text": "以下から1つを選ぶ。{o:options}",
                    "gives": {"effect": [{"choose_one": {"player": "you", "options": "{o}"}}]}}]}
    g = Grammar(section, lambda path: ("ct.yaml", 1, 1))
    assert g.problems == []
    c = compile_ability_text(g, "【速攻】以下から1つを選ぶ。・記録を1にする。・記録を2にする。")
    assert c.ability == {"kind": "quick", "effect": [{"choose_one": {"player": "you", "options": [
        {"id": "first", "do": [{"set_var": {"name": "x", "value": 1}}]},
        {"id": "second", "do": [{"set_var": {"name": "x", "value": 2}}]}]}}]}
    # an option that is more than an effect (here a marker) is no option
    text = "【速攻】以下から1つを選ぶ。・【速攻】記録を1にする。・記録を2にする。"
    assert compile_ability_text(g, text).ability is None


def test_a_line_that_goes_on_is_one_ability_with_the_next() -> None:
    """`continued_after`: a printed line ending with one of these tokens is one ability with the next
    non-empty line (a heading above what it governs); its text runs from the first to the end of the
    second as printed, and the line break is no part of what the phrases read."""
    rules = TextRules(continued_after=("使えない。",))
    src = "合図する。\n手札が2枚以下でなければ使えない。\n\n1枚引く。\n最後。"
    parts = split_abilities(src, rules)
    assert [p for _, p in parts] == ["合図する。", "手札が2枚以下でなければ使えない。\n\n1枚引く。", "最後。"]
    assert [src[s:s + len(p)] for s, p in parts] == [p for _, p in parts]
    assert normalize(parts[1][1], rules).text == "手札が2枚以下でなければ使えない。1枚引く。"
    # without the token every line is its own ability
    assert len(split_abilities(src, TextRules())) == 4
    # a heading on the last line stays an ability of its own
    assert [p for _, p in split_abilities("1枚引く。\n使えない。", rules)] == ["1枚引く。", "使えない。"]
    # a heading over a bulleted list takes every item; bullets elsewhere are lines of their own
    listed = TextRules(continued_after=("使えない。",), bullets=("■",))
    src = "■合図する。\n■引く。\n2枚以下でなければ使えない。\n■1枚引く。\n■2枚引く。\n最後。"
    assert [p for _, p in split_abilities(src, listed)] == [
        "■合図する。", "■引く。", "2枚以下でなければ使えない。\n■1枚引く。\n■2枚引く。", "最後。"]


def test_a_line_of_card_information_sets_fields_not_an_ability(rb, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A phrase that gives only `fields` reads a line that is card information (a notation the
    rulebook keeps as card fields): compiling writes the fields on the card and an entry holding them in
    the line's place, the game plays no ability for it, and a card whose field disagrees is an error."""
    c = compile_ability_text(rb.card_text, "このカードのパワーは５。")
    assert c.ability == {"fields": {"power": 5}}
    shutil.copytree(TOY, tmp_path / "books" / "toy")
    monkeypatch.setenv("SOGO_RULEBOOKS", str(tmp_path / "books"))
    path = tmp_path / "cards.yaml"
    path.write_text("game: toy\ncards:\n  - id: T-INFO\n    type: unit\n    name: Info\n    power: 1\n"
                    "    text: |\n      このカードのパワーは5。\n      【速攻】合図数を2にする。\n", encoding="utf-8")
    run("cards", "compile", str(TOY), str(path), "--write")
    card = yaml.safe_load(path.read_text(encoding="utf-8"))["cards"][0]
    assert card["power"] == 5
    assert card["abilities"][0] == {"text": "このカードのパワーは5。", "pin": card["abilities"][0]["pin"],
                                    "fields": {"power": 5}}
    pool = load_cards(rb, [path])
    assert len(pool["T-INFO"].abilities) == 1  # the information line is no ability
    assert run("cards", "compile", str(TOY), str(path), "--check")[0] == 0
    assert "Card information: power 5." in run("cards", "review", str(TOY), str(path))[1]
    path.write_text(path.read_text(encoding="utf-8").replace("\n    power: 5\n", "\n    power: 4\n"), encoding="utf-8")
    code, out, err = run("validate", str(path))
    assert code == 1 and "card T-INFO: its text states power: 5, the card has 4" in out + err


def test_a_key_of_a_slot_value_that_is_a_mapping() -> None:
    """`{x.key}` reads a key of what a smaller phrase gave (an action's step and whether it can be done),
    so one phrase builds a choice from both; a reading whose slot lacks the key is no reading."""
    section = {"slots": [{"id": "number", "kind": "number"}],
               "phrases": [
                   {"id": "m", "rules": ["1"], "part": "marker", "text": "【速攻】", "gives": {"kind": "quick"}},
                   {"id": "drop", "rules": ["1"], "part": "act", "text": "手札を{n:number}枚捨てれば",
                    "gives": {"step": {"discard": "{n}"}, "can": "count(hand) >= {n}"}},
                   {"id": "bare", "rules": ["1"], "part": "act", "text": "合図すれば", "gives": {"step": {"ping": 1}}},
                   {"id": "use", "rules": ["1"], "part": "clause", "text": "{a:act}使える。",
                    "gives": {"effect": [{"choose_one": {"options": [
                        {"id": "yes", "if": "{a.can}", "do": ["{a.step}"]}]}}]}}]}
    g = Grammar(section, lambda path: ("ct.yaml", 1, 1))
    assert g.problems == []
    assert compile_ability_text(g, "【速攻】手札を2枚捨てれば使える。").ability == {"kind": "quick", "effect": [
        {"choose_one": {"options": [{"id": "yes", "if": "count(hand) >= 2", "do": [{"discard": 2}]}]}}]}
    assert compile_ability_text(g, "【速攻】合図すれば使える。").ability is None  # `bare` gives no `can`
