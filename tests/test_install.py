"""A real install: the wheel carries the rulebooks, schemas and sample cards, and an installed Sogo
plays, validates and simulates from any directory, with users' own rulebooks on its search path.

Builds the wheel from this checkout and installs it into a fresh virtual environment (its
dependencies come from the package index, as a user's would), then runs the `sogo` it installed
from a temporary directory that holds no part of the checkout."""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.xdist_group("install")
"""Under pytest-xdist (`--dist loadgroup`) these tests run on one worker, so they
build and install the wheel once."""


def _sources(dst: Path) -> Path:
    """What the wheel is built from (setup.py and pyproject.toml name nothing else), copied: a
    build writes build/ and *.egg-info into its source tree, which must not be the checkout other
    tests (and other test workers) are reading."""
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "compiled.json")
    for name in ("interpreter", "rulebooks", "schemas", "cards"):
        shutil.copytree(ROOT / name, dst / name, ignore=ignore)
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dst / name)
    return dst


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The `sogo` command of a fresh virtual environment with the wheel installed."""
    base = tmp_path_factory.mktemp("install")
    wheels = base / "wheels"
    source = _sources(base / "source")  # pip builds in the source tree: a copy keeps the checkout untouched
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(wheels)],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    (wheel,) = wheels.glob("sogo-*.whl")
    env_dir = base / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    inst = subprocess.run([str(py), "-m", "pip", "install", "-q", str(wheel)], capture_output=True, text=True)
    assert inst.returncode == 0, inst.stderr
    return env_dir / "bin" / "sogo", py


def run(cmd, cwd, *args):
    return subprocess.run([str(cmd), *args], cwd=cwd, capture_output=True, text=True, timeout=600,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(cwd)})


def test_the_installed_package_is_the_wheel_not_the_checkout(installed, tmp_path):
    _, py = installed
    out = subprocess.run([str(py), "-c", "import interpreter, interpreter.locations as l; "
                                         "print(interpreter.__file__); print(l.shipped('rulebooks'))"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    module, shipped = out.stdout.split()
    assert "site-packages" in module and not module.startswith(str(ROOT))
    assert shipped.endswith("interpreter/data/rulebooks") and "site-packages" in shipped


def test_play_validate_simulate_from_another_directory(installed, tmp_path):
    sogo, _ = installed
    played = run(sogo, tmp_path, "play", "lovelive", "--seed", "1")
    assert played.returncode == 0, played.stderr
    assert "result:" in played.stdout
    sim = run(sogo, tmp_path, "simulate", "haikyu", "-n", "5")
    assert sim.returncode == 0, sim.stderr
    assert "completed: 5 of 5, 0 error(s)" in sim.stdout
    shutil.copy(ROOT / "cards" / "haikyu" / "deck-a.yaml", tmp_path / "deck-mine.yaml")
    checked = run(sogo, tmp_path, "validate", "deck-mine.yaml")
    assert checked.returncode == 0, checked.stderr
    shutil.copy(ROOT / "tests" / "scenarios" / "lovelive" / "baton_touch.yaml", tmp_path / "scenario.yaml")
    scen = run(sogo, tmp_path, "scenario", "run", "scenario.yaml")
    assert scen.returncode == 0 and "1 passed, 0 failed" in scen.stdout, scen.stdout + scen.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: haikyu\ncards:\n  - {id: X-1, type: nosuchtype}\n", encoding="utf-8")
    failed = run(sogo, tmp_path, "validate", "bad.yaml")
    assert failed.returncode == 1 and "bad.yaml:3:" in failed.stderr and "Traceback" not in failed.stderr


def test_users_rulebooks_and_cards_on_the_search_path(installed, tmp_path):
    sogo, _ = installed
    mine = tmp_path / "mine"
    shutil.copytree(ROOT / "rulebooks" / "haikyu", mine / "rulebooks" / "myhaikyu")
    played = run(sogo, tmp_path, "--rulebooks", str(mine / "rulebooks"), "play", "myhaikyu", "--seed", "2")
    assert played.returncode == 0, played.stderr
    # The working directory's rulebooks/ and cards/ are searched too.
    shutil.copytree(ROOT / "rulebooks" / "haikyu", tmp_path / "rulebooks" / "ownhaikyu")
    shutil.copytree(ROOT / "cards" / "haikyu", tmp_path / "cards" / "haikyu")
    played = run(sogo, tmp_path, "play", "ownhaikyu", "--seed", "3")
    assert played.returncode == 0, played.stderr
    missing = run(sogo, tmp_path, "play", "nosuchgame")
    assert missing.returncode != 0 and "Traceback" not in missing.stderr
    assert "known: " in missing.stderr and "haikyu" in missing.stderr
    assert "looked in: rulebooks, " in missing.stderr and "site-packages/interpreter/data/rulebooks" in missing.stderr


def test_serve_ships_its_page_and_says_which_extra_it_needs(installed, tmp_path):
    """The wheel carries `sogo serve`'s page (interpreter/serve/assets); installed without the `serve`
    extra, the command says how to install it instead of failing with a traceback."""
    sogo, py = installed
    out = subprocess.run([str(py), "-c", "from importlib import resources as r; a = r.files('interpreter.serve')"
                                         ".joinpath('assets'); print(sorted(p.name for p in a.iterdir()))"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert all(name in out.stdout for name in ("play.html", "play.js", "play.css"))
    has_extra = subprocess.run([str(py), "-c", "import starlette, uvicorn"], capture_output=True).returncode == 0
    if not has_extra:
        served = run(sogo, tmp_path, "serve", "haikyu")
        assert served.returncode == 2 and "sogo[serve]" in served.stderr and "Traceback" not in served.stderr
