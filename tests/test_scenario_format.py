"""The scenario format's starting players (counters, statuses), preset pending abilities, the pending
list expectation and scripted concessions: they work, and bad ones are located errors."""

from __future__ import annotations

from pathlib import Path

import yaml

from interpreter.scenarios.runner import run_scenario

ROOT = Path(__file__).resolve().parents[1]

BASE = {
    "id": "fmt", "title": "format check", "rulebook": "haikyu", "rules": ["5-4-2"],
    "cards": [str(ROOT / "cards" / "haikyu"), str(ROOT / "tests" / "data" / "haikyu")],
    "setup": {"start_at": "serve_free_step", "roles": {"server": "P1", "current": "P1", "waiting": "P2"},
              "vars": {"sets_played": 1, "serve_turn": True},
              "zones": {"P1": {"serve_area": ["SGH-021"], "block_center": ["PRB-022"]},
                        "P2": {"block_center": ["PRB-022"]}}},
}


class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data):
        return True  # Sogo refuses YAML aliases: write repeated values out in full


def run(tmp_path, **changes):
    sc = yaml.safe_load(yaml.safe_dump(BASE))
    for key, value in changes.items():
        if key.startswith("setup_"):
            sc["setup"][key[len("setup_"):]] = value
        else:
            sc[key] = value
    path = tmp_path / "fmt.yaml"
    path.write_text(yaml.dump(sc, Dumper=_NoAliases, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return run_scenario(path)


def messages(outcome):
    return [d.message for d in outcome.diagnostics]


def test_pending_list_expectation(tmp_path):
    pending = [{"player": "P1", "zone": "block_center", "card": "PRB-022", "ability": 1},
               {"player": "P2", "zone": "block_center", "card": "PRB-022", "ability": 2}]
    ok = run(tmp_path, setup_pending=pending, stop={"at": "serve_free_step"},
             expect={"pending": pending})
    assert ok.passed, messages(ok)
    wrong = run(tmp_path, setup_pending=pending, stop={"at": "serve_free_step"},
                expect={"pending": list(reversed(pending))})
    assert not wrong.passed and "expected pending" in messages(wrong)[0]


def test_counters_and_statuses_start_and_are_checked(tmp_path):
    players = {"P1": {"counters": {"tokens": 3}, "statuses": ["probe_mark"]}}
    ok = run(tmp_path, setup_players=players, stop={"at": "serve_free_step"},
             expect={"players": {"P1": {"counters": {"tokens": 3}, "statuses": ["probe_mark"]},
                                 "P2": {"counters": {"tokens": 0}, "statuses": []}}})
    assert ok.passed, messages(ok)
    wrong = run(tmp_path, setup_players=players, stop={"at": "serve_free_step"},
                expect={"players": {"P1": {"counters": {"tokens": 2}, "statuses": []}}})
    assert sorted(messages(wrong)) == ["P1: expected counter tokens = 2, got 3",
                                       "P1: expected statuses [], got ['probe_mark']"]


def test_concession_ends_the_game(tmp_path):
    out = run(tmp_path, answers=[{"concede": "P1"}], expect={"result": "P2"})
    assert out.passed, messages(out)


def test_bad_players_pending_and_concessions_are_located(tmp_path):
    out = run(tmp_path, setup_players={"P3": {"counters": {"x": 1}}},
              setup_pending=[{"player": "P1", "zone": "block_center", "card": "PRB-022", "ability": 5},
                             {"player": "P1", "zone": "hand", "card": "PRB-022", "ability": 1}],
              answers=[{"concede": "P4"}])
    text = "\n".join(str(d) for d in out.diagnostics)
    assert not out.passed
    assert "setup.players: no player P3 (this game has P1 and P2)" in text
    assert "setup.pending: PRB-022 has no triggered ability 5 (its triggered abilities: 1, 2)" in text
    assert "setup.pending: no PRB-022 is placed in P1 hand (setup.zones)" in text
    assert "answer 1: no player P4" in text
    assert all(":" in str(d).split(" ")[0] for d in out.diagnostics)  # file:line:col first
