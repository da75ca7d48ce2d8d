"""Sogo builds as plain Python. With SOGO_COMPILE=1 the engine's hot modules are compiled to C by
mypyc, in place beside their sources (about 1.7x the games per second; the same games, byte for byte):

    python3 -m pip install mypy "setuptools>=70.1"
    SOGO_COMPILE=1 python3 -m pip install --no-build-isolation -e .

Back to plain Python: `git clean -fX -- interpreter '*__mypyc*'` (the compiled files are git-ignored).
The build records a hash of each compiled module's source (interpreter/compiled.json); importing
`interpreter` stops with a message when a source has changed since (Python would otherwise go on
running the old compiled code) or when some of the modules are no longer compiled. Everything
else is configured in pyproject.toml.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import find_packages, setup

# The engine's hot path, layer by layer (docs/architecture.md, "Layers"): the state and the rulebook's
# compiled records, expressions, the table and its functions, the derived values, the procedures,
# the verbs and the driver with its walker. What stays plain Python calls into it, so any module may
# be left out, except that the game's three classes (table/table.py, derive/play.py, engine/game.py)
# go together: a compiled class cannot extend one left out.
COMPILED = [
    "interpreter/derive/abilities.py",
    "interpreter/derive/changes.py",
    "interpreter/derive/continuous.py",
    "interpreter/derive/effects.py",
    "interpreter/derive/play.py",
    "interpreter/derive/triggers.py",
    "interpreter/engine/game.py",
    "interpreter/engine/walker.py",
    "interpreter/expr/compiler.py",
    "interpreter/loader/graph.py",
    "interpreter/loader/sections.py",
    "interpreter/model/rulebook.py",
    "interpreter/model/vocabulary.py",
    "interpreter/state/decisions.py",
    "interpreter/state/log.py",
    "interpreter/state/multiset.py",
    "interpreter/state/objects.py",
    "interpreter/table/attributes.py",
    "interpreter/table/context.py",
    "interpreter/table/derived.py",
    "interpreter/table/functions.py",
    "interpreter/table/log.py",
    "interpreter/table/reads.py",
    "interpreter/table/rulebook_functions.py",
    "interpreter/table/table.py",
    "interpreter/table/views.py",
    "interpreter/timing/abilities.py",
    "interpreter/timing/check_timing.py",
    "interpreter/timing/effects.py",
    "interpreter/timing/events.py",
    "interpreter/timing/moves.py",
    "interpreter/timing/outcomes.py",
    "interpreter/timing/play_timing.py",
    "interpreter/timing/replacement.py",
    "interpreter/timing/rule_processing.py",
    "interpreter/timing/runner.py",
    "interpreter/verbs/cards.py",
    "interpreter/verbs/choice.py",
    "interpreter/verbs/control.py",
    "interpreter/verbs/effects.py",
    "interpreter/verbs/flow.py",
    "interpreter/verbs/procedures.py",
    "interpreter/verbs/registry.py",
]


def _ext_modules() -> list:
    if os.environ.get("SOGO_COMPILE") != "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        sys.exit("SOGO_COMPILE=1 needs mypy (which brings mypyc) in the build environment: "
                 "`python3 -m pip install mypy \"setuptools>=70.1\"`, then install with --no-build-isolation")
    manifest = {src: hashlib.sha256(Path(src).read_bytes()).hexdigest() for src in COMPILED}
    Path("interpreter/compiled.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return mypycify(COMPILED, opt_level="3")


# The rulebooks, schemas and sample cards stay top-level folders of the checkout; a wheel carries them
# as package data of interpreter.data (found with importlib.resources, interpreter/locations.py).
DATA = ("rulebooks", "schemas", "cards")


def _packages() -> list[str]:
    return find_packages(include=["interpreter", "interpreter.*"]) + [f"interpreter.data.{d}" for d in DATA]


setup(
    ext_modules=_ext_modules(),
    packages=_packages(),
    package_dir={f"interpreter.data.{d}": d for d in DATA},
    package_data={**{f"interpreter.data.{d}": ["**/*.yaml", "**/*.json", "**/*.md"] for d in DATA},
                  # The play mat's script and styles, inlined into the pages the viewers write.
                  "interpreter.viewer": ["assets/*.js", "assets/*.css"],
                  "interpreter.serve": ["assets/*.js", "assets/*.css", "assets/*.html"]},
)
