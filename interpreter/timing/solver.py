"""Exact feasibility of paying several symbol requirements from one shared pool.

The pool holds specific symbols, wildcards (each pays any one specific symbol) and symbols that
do not count. The requirements are summed because every requirement must be met at once from the
same pool: a specific demand needs that symbol or a wildcard; a generic demand takes anything
usable. This is a transportation problem whose optimum has a closed form: wildcards first cover
the per-symbol deficits (only they can), then every remaining usable symbol can pay generics.
A greedy pass over the requirements one at a time can fail a satisfiable set; this cannot.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def can_cover(pool: Mapping[str, int], requirements: Iterable[Mapping[str, int]], symbols: Iterable[str],
              wildcard: str | None, generic: str | None) -> bool:
    specific = set(symbols)
    demand: dict[str, int] = {}
    generic_demand = 0
    for req in requirements:
        for sym, n in (req or {}).items():
            if n <= 0:
                continue
            if sym == generic:
                generic_demand += n
            else:
                demand[sym] = demand.get(sym, 0) + n
    have = {s: max(0, pool.get(s, 0)) for s in specific}
    wild = max(0, pool.get(wildcard, 0)) if wildcard else 0
    deficit = 0
    for sym, n in demand.items():
        if sym not in specific:
            return False  # a demand for a symbol no pool can ever hold
        deficit += max(0, n - have[sym])
    if deficit > wild:
        return False
    return sum(have.values()) + wild >= sum(demand.values()) + generic_demand
