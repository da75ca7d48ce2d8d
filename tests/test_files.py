"""Files Sogo writes (replays, reports, golden transcripts, graph pictures) are never half-written:
an interrupted write leaves the old file as it was and no stray temporary file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from interpreter.files import write_text_atomic


def test_writes_the_whole_text(tmp_path: Path):
    p = tmp_path / "out.txt"
    assert write_text_atomic(p, "one\ntwo\n") == p
    assert p.read_text(encoding="utf-8") == "one\ntwo\n"
    write_text_atomic(p, "three\n")
    assert p.read_text(encoding="utf-8") == "three\n"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["out.txt"]


@pytest.mark.parametrize("fail", ["fsync", "replace"])
def test_an_interrupted_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail: str):
    p = tmp_path / "game.jsonl"
    p.write_text("the old replay\n", encoding="utf-8")

    def boom(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, fail, boom)
    with pytest.raises(OSError):
        write_text_atomic(p, "a new replay that never lands\n")
    assert p.read_text(encoding="utf-8") == "the old replay\n"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["game.jsonl"]


def test_replays_are_saved_through_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from interpreter.replay import Replay

    p = tmp_path / "r.jsonl"
    Replay({"replay": "sogo", "format": 1}).save(p)
    before = p.read_text(encoding="utf-8")
    monkeypatch.setattr(os, "replace", lambda *a, **k: (_ for _ in ()).throw(OSError("interrupted")))
    with pytest.raises(OSError):
        Replay({"replay": "sogo", "format": 1}, [{"answer": ["x"]}]).save(p)
    assert p.read_text(encoding="utf-8") == before
