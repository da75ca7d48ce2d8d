"""Fuzzing the loaders: valid rulebook parts, card files, decks and scenarios, mutated at random
(lines dropped, doubled or swapped, values replaced by values of other types, text cut short,
odd characters put in), must load or be refused with located diagnostics: never a crash.

The hand-written corpus in tests/bad_input/ pins exact messages; this explores around it. It goes
through `validate_paths`, the code behind `sogo validate`, in the process (fast), and checks that
every problem names an existing file with a line and column inside it. Hypothesis is derandomized:
every run tries the same mutations, and a failure prints the one that broke the loader.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from interpreter.cli.validate import validate_paths

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = int(os.environ.get("SOGO_FUZZ_INPUT_EXAMPLES", "40"))
"""Mutated files tried per target."""

TARGETS = [
    # (what is copied into the case folder, the file mutated inside it, what is validated)
    ("rulebooks/lovelive", "templates.yaml", "."),
    ("rulebooks/lovelive", "turn.yaml", "."),
    ("rulebooks/lovelive", "rule_processing.yaml", "."),
    ("rulebooks/haikyu", "keywords.yaml", "."),
    ("cards/lovelive/sample.yaml", "sample.yaml", "sample.yaml"),
    ("cards/haikyu/sample.yaml", "sample.yaml", "sample.yaml"),
    ("cards/lovelive", "deck-a.yaml", "."),
    ("tests/scenarios/lovelive/baton_touch.yaml", "baton_touch.yaml", "baton_touch.yaml"),
]
VALUES = ["", "null", "1", "-1", "0", "2.5", "1e999", "99999999999999999999999", "true", "[]", "{}",
          "[1, [2, [3]]]", "'x'", '"7.4.1"', "&a x", "*a", "!!python/object:os.system x", "{a: 1, a: 2}",
          "é", "\t", "- - -", ": :", "'unterminated", "{{", "~", "turn", "you", "hand", "cards('nowhere', you)"]


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """`text` with one to three random edits, line-wise or character-wise."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["drop", "double", "swap", "value", "key", "cut", "insert"]))
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if not lines:
            lines = [draw(st.sampled_from(VALUES))]
        elif kind == "drop":
            del lines[i]
        elif kind == "double":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind in ("value", "key"):
            line = lines[i]
            if ":" in line:
                head, _, tail = line.partition(":")
                v = draw(st.sampled_from(VALUES))
                lines[i] = f"{head}: {v}" if kind == "value" else f"{head[: len(head) - len(head.lstrip())]}{v}:{tail}"
        elif kind == "cut":
            whole = "\n".join(lines)
            lines = whole[: draw(st.integers(0, len(whole)))].splitlines()
        else:
            at = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:at] + draw(st.sampled_from(["\x00", "\ufeff", "'", '"', "{", "]", "#", "\\", "%"])) \
                + lines[i][at:]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("source, target, validated", TARGETS, ids=[f"{s}:{t}" for s, t, _ in TARGETS])
def test_mutated_input_is_refused_cleanly(source: str, target: str, validated: str,
                                          tmp_path_factory: pytest.TempPathFactory) -> None:
    src = ROOT / source
    original = (src / target if src.is_dir() else src).read_text(encoding="utf-8")

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(text=mutated(original))
    def check(text: str) -> None:
        case = tmp_path_factory.mktemp("case")
        if src.is_dir():
            shutil.copytree(src, case, dirs_exist_ok=True)
        else:
            shutil.copy(src, case / target)
        (case / target).write_text(text, encoding="utf-8")
        note(f"{target} after mutation:\n{text}")
        problems, _ok = validate_paths([case / validated])  # must not raise
        for d in problems:
            path = Path(d.path)
            assert path.is_file(), f"a problem names no file: {d}"
            assert d.line >= 1 and d.col >= 1, f"a problem has no position: {d}"
            n = len(path.read_text(encoding="utf-8", errors="replace").splitlines())
            assert d.line <= max(1, n) + 1, f"a problem points past the end of its file: {d}"

    check()


@pytest.fixture(scope="module")
def replay_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    from cli_run import run

    path = tmp_path_factory.mktemp("replay") / "game.jsonl"
    code, _, _ = run("play", "haikyu", "--seed", "3", "--save-replay", str(path))
    assert code == 0
    return path.read_text(encoding="utf-8")


def test_mutated_replays_are_refused_cleanly(replay_text: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A damaged replay file is reproduced, or refused with a located error, or reported as
    diverging: `sogo replay` never crashes on it."""
    from cli_run import run

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(text=mutated(replay_text))
    def check(text: str) -> None:
        path = tmp_path_factory.mktemp("case") / "game.jsonl"
        path.write_text(text, encoding="utf-8")
        note(f"replay after mutation:\n{text}")
        code, _, err = run("replay", str(path), "--log", "none")  # an exception would propagate
        assert code in (0, 1, 2), (code, err)
        if code:
            assert err.strip(), "a refusal must say why"

    check()
