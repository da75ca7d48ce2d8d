"""Bad input: every malformed rulebook, card, deck and scenario file in tests/bad_input/ must be
refused with its exact located diagnostics, a non-zero exit and no traceback, and hostile input
(alias bombs, deep nesting, huge numbers and files) by the loader's own limits, which bound the work
it does: bytes parsed, nodes built, depth reached (tests/loader_work.py counts them). No test here
times the process against the machine's load: a generous CPU-time bound only guards against a
blow-up the work counts would not see.

Each case is `tests/bad_input/NAME.expect.yaml` (plus an optional `NAME/` folder of input files);
the format is described in tests/bad_input/README.md. A case is built in a temporary folder,
run through the `sogo` command with click's CliRunner (and, for cases marked `subprocess: true`,
through a real `python -m interpreter.cli.main` process), and its output is compared with the
expectation after the temporary folder's path is removed, so paths read relative to the case.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from loader_work import Parse, metered, problems

from interpreter import expr
from interpreter.cli.main import cli
from interpreter.expr import lexer
from interpreter.loader import yaml_safe

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).parent / "bad_input"
CPU_LIMIT = 20.0
"""CPU seconds one case may take in-process: far above any case's need (a tenth of a second or so),
so it fails only on a runaway (an exponential check, a loop), never on a busy machine."""
LIMITS = {
    "alias_bomb": [yaml_safe._ALIAS_MSG],
    "deep_nesting": [f"nesting is too deep (more than {yaml_safe.MAX_DEPTH} levels)",
                     f"expression is nested too deeply (more than {expr.MAX_DEPTH} levels)"],
    "huge_number": [f"is too large (more than {yaml_safe.MAX_INT_DIGITS} digits)",
                    f"integer literal is too large (more than {lexer.MAX_INT_DIGITS} digits)"],
}
"""The categories of input made to be slow, and the messages of the limits that must refuse them
(one of each list); a case with a file over MAX_FILE_BYTES must be refused by the size limit."""
MIN_CASES = 45
CATEGORIES = {
    "yaml_syntax", "yaml_tag", "duplicate_key", "alias", "alias_bomb", "deep_nesting", "huge_number", "empty_file",
    "encoding", "file", "wrong_type", "unknown_key", "rule_number", "unknown_verb", "unknown_zone",
    "unknown_field", "unknown_template", "unknown_keyword", "unknown_event", "event_never_raised", "unknown_name",
    "reserved_name",
    "expression", "unreachable_phase", "bad_transition", "recursive_template", "duplicate_id",
    "card", "deck_construction", "deck", "scenario", "misuse", "import_mapping",
}
"""Every category must have at least one case; README.md explains each."""
KEYS = {"category", "about", "copy", "files", "edits", "anchors", "args", "exit", "stderr", "stdout",
        "xfail", "xfail_clean", "strict", "subprocess"}
_PLACEHOLDER = re.compile(r"\{([LA])(\d*)([+-]\d+)?\}")


@dataclass
class Case:
    name: str
    spec: dict[str, Any]

    @property
    def inputs(self) -> Path:
        return CORPUS / self.name


@dataclass
class Run:
    exit_code: int
    stdout: list[str]
    stderr: list[str]
    crash: str | None  # an exception that escaped the command (a traceback for a real user)
    cpu_seconds: float
    parses: list[Parse]  # the YAML loader's work, parse by parse
    largest: int  # bytes of the case's largest input file
    anchors: dict[str, int]


def _load_cases() -> list[Case]:
    cases = []
    for path in sorted(CORPUS.glob("*.expect.yaml")):
        with path.open(encoding="utf-8") as fh:
            spec = yaml.safe_load(fh)
        cases.append(Case(path.name[: -len(".expect.yaml")], spec))
    return cases


CASES = _load_cases()


class CaseError(Exception):
    """The case itself cannot be built (e.g. an edit's old text is no longer in the rulebook)."""


def _content(value: Any) -> bytes:
    if isinstance(value, str):
        return value.encode("utf-8")
    if "repeat" in value:  # [[TEXT, TIMES], ...] concatenated: large or deep input without a large corpus
        return "".join(str(text) * int(times) for text, times in value["repeat"]).encode("utf-8")
    return value["text"].encode(value.get("encoding", "utf-8"))


def _line_of(text: str, needle: str, what: str) -> int:
    found = text.count(needle)
    if found != 1:
        raise CaseError(f"{what}: {needle!r} occurs {found} times (expected exactly once)")
    return text.count("\n", 0, text.index(needle)) + 1


def build(case: Case, dest: Path) -> dict[str, int]:
    """Make the case's files under `dest`; returns the line anchors its expectation may use."""
    spec = case.spec
    dest.mkdir(parents=True)
    for target, source in (spec.get("copy") or {}).items():
        src, dst = ROOT / source, dest / target
        if src.is_dir():
            shutil.copytree(src, dst, dirs_exist_ok=True)
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
    if case.inputs.is_dir():
        shutil.copytree(case.inputs, dest, dirs_exist_ok=True)
    for fname, value in (spec.get("files") or {}).items():
        (dest / fname).parent.mkdir(parents=True, exist_ok=True)
        (dest / fname).write_bytes(_content(value))
    anchors: dict[str, int] = {}
    for i, edit in enumerate(spec.get("edits") or []):
        path = dest / edit["file"]
        text = path.read_bytes().decode("utf-8")
        anchors[f"L{i}"] = _line_of(text, edit["old"], f"{case.name} edit {i} in {edit['file']}")
        path.write_bytes(text.replace(edit["old"], edit["new"], 1).encode("utf-8"))
    for i, anchor in enumerate(spec.get("anchors") or []):
        text = (dest / anchor["file"]).read_bytes().decode("utf-8")
        anchors[f"A{i}"] = _line_of(text, anchor["text"], f"{case.name} anchor {i} in {anchor['file']}")
    return anchors


def expand(line: str, anchors: dict[str, int]) -> str:
    """Replace {L}, {L1}, {A0+2}... with the line numbers of edits and anchors."""
    def sub(m: re.Match[str]) -> str:
        key = m.group(1) + (m.group(2) or "0")
        if key not in anchors:
            raise CaseError(f"placeholder {m.group(0)} names no edit or anchor")
        return str(anchors[key] + int(m.group(3) or 0))

    return _PLACEHOLDER.sub(sub, line)


def _normalise(text: str, dest: Path) -> list[str]:
    return text.replace(f"{dest}{os.sep}", "").replace(str(dest), ".").splitlines()


def _args(case: Case, dest: Path) -> list[str]:
    return [str(a).replace("{case}", str(dest)) for a in case.spec["args"]]


def run_in_process(case: Case, dest: Path) -> Run:
    anchors = build(case, dest)
    args = _args(case, dest)
    largest = max((p.stat().st_size for p in dest.rglob("*") if p.is_file()), default=0)
    with metered() as parses:
        start = time.process_time()
        result = CliRunner().invoke(cli, args)
        cpu_seconds = time.process_time() - start
    crash = None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        crash = f"{type(result.exception).__name__}: {result.exception}"
    return Run(result.exit_code, _normalise(result.stdout, dest), _normalise(result.stderr, dest), crash,
               cpu_seconds, parses, largest, anchors)


def _marks(case: Case, *keys: str) -> list[Any]:
    reasons = [case.spec[k] for k in keys if case.spec.get(k)]
    if not reasons:
        return []
    return [pytest.mark.xfail(reason="; ".join(reasons), strict=bool(case.spec.get("strict", True)))]


def _params(*keys: str, only: Any = None) -> list[Any]:
    return [pytest.param(c, id=c.name, marks=_marks(c, *keys)) for c in CASES if only is None or only(c)]


@pytest.fixture(scope="module")
def outcome(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Run each case once (the clean-failure and exact-output tests share the run)."""
    base = tmp_path_factory.mktemp("bad_input")
    runs: dict[str, Run] = {}

    def get(case: Case) -> Run:
        if case.name not in runs:
            runs[case.name] = run_in_process(case, base / case.name)
        return runs[case.name]

    return get


def test_corpus_is_complete():
    assert len(CASES) >= MIN_CASES, f"only {len(CASES)} bad-input cases"
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")
    seen = Counter(c.spec.get("category") for c in CASES)
    assert set(seen) <= CATEGORIES, f"unknown categories: {set(seen) - CATEGORIES}"
    assert CATEGORIES <= set(seen), f"categories with no case: {CATEGORIES - set(seen)}"
    for category in CATEGORIES:
        assert f"`{category}`" in readme, f"README.md does not explain category {category}"
    for c in CASES:
        assert set(c.spec) <= KEYS, f"{c.name}: unknown keys {set(c.spec) - KEYS}"
        assert c.spec.get("about") and c.spec.get("args"), f"{c.name}: needs 'about' and 'args'"
        assert isinstance(c.spec.get("exit"), int) and c.spec["exit"] != 0, f"{c.name}: exit must be non-zero"
        assert isinstance(c.spec.get("stderr"), list), f"{c.name}: stderr must be a list of lines"
    assert any(c.spec.get("subprocess") for c in CASES), "at least one case runs in a real process"


@pytest.mark.parametrize("case", _params("xfail_clean"))
def test_fails_cleanly(case: Case, outcome: Any):
    """Non-zero exit, no exception escaping the command, no traceback text, and the loader's work
    within its limits (CPU time only as a generous guard against a runaway)."""
    r = outcome(case)
    assert r.crash is None, f"uncaught {r.crash}"
    assert r.exit_code != 0, "bad input was accepted"
    assert not any("Traceback" in line for line in r.stdout + r.stderr)
    assert not problems(r.parses), problems(r.parses)
    assert r.cpu_seconds < CPU_LIMIT, f"took {r.cpu_seconds:.1f} s of CPU time"


def _hostile(case: Case) -> bool:
    """A case of a slow-input category, or one whose written files are over the size limit."""
    sizes = [len(_content(v)) for v in (case.spec.get("files") or {}).values()]
    return case.spec.get("category") in LIMITS or max(sizes, default=0) > yaml_safe.MAX_FILE_BYTES


@pytest.mark.parametrize("case", _params("xfail_clean", only=_hostile))
def test_hostile_input_is_refused_by_a_limit(case: Case, outcome: Any):
    """Input made to be slow is refused by a limit of the loader, which the error names: not by
    running out of time, memory or stack."""
    r = outcome(case)
    wanted = LIMITS.get(case.spec["category"], [])
    if r.largest > yaml_safe.MAX_FILE_BYTES:
        wanted = [f"limit is {yaml_safe.MAX_FILE_BYTES} bytes"]
    assert wanted, f"{case.name}: no file over {yaml_safe.MAX_FILE_BYTES} bytes and no limit for its category"
    assert any(w in line for line in r.stderr for w in wanted), "\n".join(["no limit named in:", *r.stderr])
    assert not problems(r.parses), problems(r.parses)


@pytest.mark.parametrize("case", _params("xfail"))
def test_exact_diagnostics(case: Case, outcome: Any):
    """The exit code and every diagnostic line, exactly (path:line:col: message)."""
    r = outcome(case)
    want = [expand(line, r.anchors) for line in case.spec["stderr"]]
    shown = "\n".join(["actual stderr:", *r.stderr, "actual stdout:", *r.stdout])
    assert r.crash is None, f"uncaught {r.crash}"
    assert sorted(r.stderr) == sorted(want), shown
    if "stdout" in case.spec:
        assert r.stdout == [expand(line, r.anchors) for line in case.spec["stdout"]], shown
    assert r.exit_code == case.spec["exit"], shown


@pytest.mark.parametrize("case", _params("xfail", "xfail_clean", only=lambda c: c.spec.get("subprocess")))
def test_real_process(case: Case, tmp_path: Path):
    """The installed command: what a user sees on the terminal, with no traceback."""
    dest = tmp_path / case.name
    anchors = build(case, dest)
    proc = subprocess.run([sys.executable, "-m", "interpreter.cli.main", *_args(case, dest)], cwd=ROOT,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    stderr, stdout = _normalise(proc.stderr, dest), _normalise(proc.stdout, dest)
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    assert proc.returncode == case.spec["exit"], proc.stderr
    assert sorted(stderr) == sorted(expand(line, anchors) for line in case.spec["stderr"]), proc.stderr
    if "stdout" in case.spec:
        assert stdout == [expand(line, anchors) for line in case.spec["stdout"]], proc.stdout
