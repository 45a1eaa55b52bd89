"""The table's sounds by name, and their clips: the WAV files that
``assets/sounds/make_sounds.py`` makes (16-bit mono at 22050 Hz), read once at start-up."""

from __future__ import annotations

import logging
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from koikoi.resources import assets_dir

logger = logging.getLogger(__name__)

CARD: Final = "card"
"""A card played from a hand."""
CAPTURE: Final = "capture"
"""Cards taken from the field."""
DRAW: Final = "draw"
"""A card turned from the stock."""
YAKU: Final = "yaku"
KOIKOI: Final = "koikoi"
"""Koikoi called (by either player)."""
TURN: Final = "turn"
"""The local player's turn begins."""
CLOCK: Final = "clock"
"""The local player's move clock is running low (a network match, 10 s left)."""
MATCH_END: Final = "match_end"

NAMES: Final = (CARD, CAPTURE, DRAW, YAKU, KOIKOI, TURN, CLOCK, MATCH_END)
"""Every sound, by the stem of its file in ``assets/sounds``."""

RATE: Final = 22050
"""The clips' sample rate (and the device's)."""


@dataclass(frozen=True)
class Clip:
    """One sound's samples: 16-bit signed, mono, little-endian, at ``rate`` Hz."""

    name: str
    rate: int
    samples: bytes

    @property
    def seconds(self) -> float:
        return len(self.samples) / 2 / self.rate


def load_clips(folder: Path | None = None) -> dict[str, Clip]:
    """The clips of :data:`NAMES` from ``folder`` (the shipped ``sounds/``); a file missing
    or not 16-bit mono at :data:`RATE` is left out, with one line in the log."""
    if folder is None:
        folder = assets_dir() / "sounds"
    clips = {}
    for name in NAMES:
        path = folder / f"{name}.wav"
        try:
            with wave.open(str(path), "rb") as w:
                shape = (w.getnchannels(), w.getsampwidth(), w.getframerate())
                if shape != (1, 2, RATE):
                    raise ValueError(f"{shape} is not 16-bit mono at {RATE} Hz")
                clips[name] = Clip(name, RATE, w.readframes(w.getnframes()))
        except (OSError, EOFError, ValueError, wave.Error) as exc:
            logger.info("sound %s left out: %s", path.name, exc)
    return clips
