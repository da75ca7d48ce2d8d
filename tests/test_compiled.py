"""The engine compiled by mypyc (setup.py, SOGO_COMPILE=1) plays the same games as plain Python.

The build goes into a copy of the package in a temporary directory, once per run (about a minute
and a half on two cores). The copy and this checkout then play the same seeded games of each title
in subprocesses, with full logs and a fork at every decision of one game, and must print the same
transcript hashes. The last checks edit a compiled module's source, or take one compiled module
away: importing the package must then stop with a message instead of running old or mismatched
compiled code. Skipped where mypyc, a C compiler or
the Python headers are missing.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.xdist_group("compiled")
"""Under pytest-xdist (`--dist loadgroup`) these tests run on one worker, so they
build the engine once (a minute or two of one core)."""

PROBE = r"""
import hashlib, random
import interpreter
from interpreter.cli.setup import load_game_env
from interpreter.engine.game import Game
from interpreter.sim import play_one

print("compiled", interpreter.compiled())
for title in ("lovelive", "haikyu", "rebirth"):
    rb, cards, decks = load_game_env(title, None)
    h = hashlib.sha256()
    for seed in range(1, 9):
        g = play_one(rb, cards, decks, seed, log=True)
        h.update((g.state.fingerprint() + str(g.state.decisions)).encode())
        h.update("\n".join(e.text for e in g.entries).encode())
    print(title, "games", h.hexdigest())
    g = Game(rb, cards, decks, seed=3, log=True)
    rng = random.Random(3)
    forks = same = 0
    while (d := g.advance()) is not None:
        answer = rng.sample(d.ids(), rng.randint(d.min, d.max))
        f = g.fork()
        f.answer(answer)
        g.answer(answer)
        forks += 1
        same += f.state.fingerprint() == g.state.fingerprint() and f.entries == g.entries
    print(title, "forks", forks, "same", same, g.state.fingerprint())
    if title == "haikyu":  # a search agent's game: imagined worlds (a Love Live one takes seconds)
        g = play_one(rb, cards, decks, 4, log=True, agents=("mc:2", "random"))
        text = "\n".join(e.text for e in g.entries)
        print(title, "searched", g.state.fingerprint(), hashlib.sha256(text.encode()).hexdigest())
"""


def _can_compile() -> str | None:
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (it comes with mypy, in the test extras)"
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        return "no C compiler"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers"
    return None


def _copy(dst: Path) -> Path:
    """The package and what a build needs, as plain Python; the data directories are found beside
    the package, as in a checkout."""
    dst.mkdir(parents=True)
    shutil.copytree(ROOT / "interpreter", dst / "interpreter",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "compiled.json"))
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dst / name)
    for name in ("rulebooks", "schemas", "cards"):
        (dst / name).symlink_to(ROOT / name, target_is_directory=True)
    return dst


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(a compiled copy, a plain copy) of this checkout's package."""
    why = _can_compile()
    if why:
        pytest.skip(why)
    base = tmp_path_factory.mktemp("compiled")
    plain = _copy(base / "plain")
    src = _copy(base / "compiled")
    build = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=src,
                           env={**os.environ, "SOGO_COMPILE": "1"}, capture_output=True, text=True)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    assert (src / "interpreter" / "compiled.json").is_file()
    return src, plain


def _probe(path: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k != "SOGO_RULEBOOKS"}
    env["PYTHONPATH"] = str(path)
    run = subprocess.run([sys.executable, "-c", PROBE], cwd=path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    return run.stdout


def _import_package(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "import interpreter"], cwd=path,
                          env={**os.environ, "PYTHONPATH": str(path)}, capture_output=True, text=True)


def test_the_compiled_engine_plays_the_same_games(copies: tuple[Path, Path]) -> None:
    compiled = _probe(copies[0]).splitlines()
    plain = _probe(copies[1]).splitlines()
    assert compiled[0] == "compiled True" and plain[0] == "compiled False"
    assert compiled[1:] == plain[1:]
    for line in compiled:
        if " forks " in line:
            _, _, forks, _, same, _ = line.split()
            assert int(forks) > 5 and same == forks  # every fork went on exactly like its game


def test_the_compiled_engine_gives_the_same_reference(copies: tuple[Path, Path]) -> None:
    """A compiled function has no docstring: `sogo reference` reads them from the sources, so a
    compiled build prints the same page, every entry with its summary and example."""
    script = ("from interpreter.reference import problems, render\n"
              "assert not problems(), problems()\nprint(render(), end='')")
    pages = []
    for path in copies:
        run = subprocess.run([sys.executable, "-c", script], cwd=path, env={**os.environ, "PYTHONPATH": str(path)},
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr[-3000:]
        pages.append(run.stdout)
    assert pages[0] == pages[1]
    assert "### `cards(zone, player)`" in pages[0]


def test_an_edited_source_stops_the_compiled_engine(copies: tuple[Path, Path]) -> None:
    compiled_copy = copies[0]
    watch = compiled_copy / "interpreter" / "table" / "reads.py"
    text = watch.read_text(encoding="utf-8")
    try:
        watch.write_text(text + "\n# edited after the build\n", encoding="utf-8")
        run = _import_package(compiled_copy)
    finally:
        watch.write_text(text, encoding="utf-8")
    assert run.returncode != 0
    assert "compiled engine does not match its sources (interpreter/table/reads.py changed since the build)" \
        in run.stderr
    assert "Traceback" not in run.stderr


def test_a_module_no_longer_compiled_stops_the_compiled_engine(copies: tuple[Path, Path]) -> None:
    compiled_copy = copies[0]
    (built,) = (compiled_copy / "interpreter" / "verbs").glob("flow.*.so")
    aside = built.with_name("aside")
    built.rename(aside)
    try:
        run = _import_package(compiled_copy)
    finally:
        aside.rename(built)
    assert run.returncode != 0
    assert "interpreter/verbs/flow.py is no longer compiled" in run.stderr
    assert "Traceback" not in run.stderr
