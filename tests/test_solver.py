"""The requirement solver is exact: it agrees with brute force over every allocation."""

from __future__ import annotations

import itertools
import random

from interpreter.timing.solver import can_cover

COLORS = ["pink", "red", "yellow"]


def brute(pool: dict[str, int], reqs: list[dict[str, int]]) -> bool:
    """Try every way to spend each wildcard on a colour, then pay generics with what is left."""
    wild = pool.get("all", 0)
    for assign in itertools.product(COLORS, repeat=wild):
        have = {c: pool.get(c, 0) for c in COLORS}
        for c in assign:
            have[c] += 1
        ok = True
        generic = 0
        for r in reqs:
            for sym, n in r.items():
                if sym == "colorless":
                    generic += n
                else:
                    have[sym] -= n
                    if have[sym] < 0:
                        ok = False
        if ok and sum(have.values()) >= generic:
            return True
    return False


def test_matches_brute_force_on_random_cases():
    rng = random.Random(7)
    for _ in range(3000):
        pool = {c: rng.randint(0, 3) for c in COLORS}
        pool["all"] = rng.randint(0, 3)
        pool["draw"] = rng.randint(0, 2)
        reqs = [{s: rng.randint(0, 2) for s in COLORS + ["colorless"]} for _ in range(rng.randint(1, 3))]
        assert can_cover(pool, reqs, COLORS, "all", "colorless") == brute(pool, reqs), (pool, reqs)


def test_greedy_order_would_fail_but_solver_succeeds():
    # Paying the first card's colourless note with the only red would starve the second card.
    pool = {"red": 1, "pink": 1}
    reqs = [{"colorless": 1}, {"red": 1}]
    assert can_cover(pool, reqs, COLORS, "all", "colorless")


def test_non_heart_symbols_do_not_pay():
    assert not can_cover({"draw": 3, "score": 2}, [{"colorless": 1}], COLORS, "all", "colorless")


def test_wildcard_pays_any_colour_and_generic():
    assert can_cover({"all": 2}, [{"pink": 1, "colorless": 1}], COLORS, "all", "colorless")
    assert not can_cover({"all": 1}, [{"pink": 1, "red": 1}], COLORS, "all", "colorless")
