"""The table's sounds: made by their script, byte for byte, and fit to play (levels checked
by numbers, as nobody listens here)."""

from __future__ import annotations

import array
import importlib.util
import math
import sys
import wave
from pathlib import Path
from types import ModuleType

import pytest

from koikoi.ui.sound.clips import NAMES

SOUNDS = Path(__file__).resolve().parent.parent / "assets" / "sounds"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_sounds", SOUNDS / "make_sounds.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_sounds"] = module  # dataclasses and annotations look the module up
    spec.loader.exec_module(module)
    return module


def _samples(path: Path) -> tuple[wave.Wave_read, array.array[int]]:
    with wave.open(str(path), "rb") as w:
        data = array.array("h", w.readframes(w.getnframes()))
    return w, data


def test_the_script_makes_the_committed_files_byte_for_byte():
    made = _script().made()
    assert sorted(made) == sorted(f"{name}.wav" for name in NAMES)
    for name, data in made.items():
        assert (SOUNDS / name).read_bytes() == data, f"{name}: run assets/sounds/make_sounds.py"


def test_the_check_mode_finds_a_changed_file(tmp_path, monkeypatch, capsys):
    script = _script()
    for name, data in script.made().items():
        (tmp_path / name).write_bytes(data)
    monkeypatch.setattr(script, "HERE", tmp_path)
    assert script.main(["--check"]) == 0
    (tmp_path / "card.wav").write_bytes(b"RIFF")
    assert script.main(["--check"]) == 1
    assert "card.wav" in capsys.readouterr().err


def test_the_sounds_are_small():
    total = sum((SOUNDS / f"{name}.wav").stat().st_size for name in NAMES)
    assert total < 300_000  # well under 1 MB: 16-bit mono at 22050 Hz


@pytest.mark.parametrize("name", NAMES)
def test_levels(name):
    w, data = _samples(SOUNDS / f"{name}.wav")
    assert (w.getnchannels(), w.getsampwidth()) == (1, 2)
    assert w.getframerate() in (22050, 44100)
    seconds = len(data) / w.getframerate()
    assert 0.05 < seconds <= 1.5
    peak = max(abs(v) for v in data)
    assert 20 * math.log10(peak / 32768) < -1.0, "a peak within 1 dB of full scale"
    assert 20 * math.log10(peak / 32768) > -20.0, "too quiet to hear beside the others"
    assert 32767 not in data and -32768 not in data and -32767 not in data, "clipped"
    mean = sum(data) / len(data)
    assert abs(mean) / 32768 < 0.001, "a DC offset"
    edge = w.getframerate() // 500  # 2 ms
    assert abs(data[0]) < 100 and abs(data[-1]) < 100, "starts or stops with a step (a click)"
    assert max(abs(v) for v in data[-edge:]) < 0.1 * 32768, "no fade-out"
    rise = [abs(v) for v in data[: edge // 4]]  # the first half millisecond
    assert max(rise) < 0.5 * peak, "no fade-in"
