"""The table's sounds: which there are, the clips, and :class:`Sounds`, which plays them.

What is heard is decided where the narration is (:func:`koikoi.ui.match.narration.cue`: one
sound for an event the log and screen readers tell); the controller sends each name through
its ``cued`` signal to :meth:`Sounds.play`. The clips are the WAV files that
``assets/sounds/make_sounds.py`` makes (16-bit mono at 22050 Hz), read once at start-up.

A backend (:class:`Backend`) puts clips on a device: the real one is miniaudio's
(:class:`koikoi.ui.sound.mixer.MiniaudioBackend`); with no sound wanted (the offscreen
platform of the tests, ``KOIKOI_SOUND=0``) or no miniaudio, it is :class:`SilentBackend`,
which opens nothing. ``KOIKOI_SOUND=1`` asks for the device even offscreen.

>>> class Heard:
...     def __init__(self): self.names = []
...     def play(self, clip, gain): self.names.append((clip.name, round(gain, 2)))
...     def close(self): pass
>>> heard = Heard()
>>> sounds = Sounds(heard, {"card": Clip("card", RATE, b"\\0\\0")}, volume=50)
>>> sounds.play("card"), sounds.play("yaku")
(True, False)
>>> sounds.on = False
>>> sounds.play("card")
False
>>> heard.names
[('card', 0.25)]
"""

from __future__ import annotations

import logging
import os
import wave
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

from PySide6.QtGui import QGuiApplication

from koikoi.resources import assets_dir
from koikoi.ui.common.settings import SOUND_ON, SOUND_VOLUME, AppSettings

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


class Backend(Protocol):
    """What puts a clip on the speakers: ``play`` returns at once (the device plays it on
    a thread of its own), ``gain`` from 0 to 1."""

    def play(self, clip: Clip, gain: float) -> None: ...

    def close(self) -> None: ...


class SilentBackend:
    """No device: every clip is dropped (``reason`` says why, for the log)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def play(self, clip: Clip, gain: float) -> None:
        pass

    def close(self) -> None:
        pass


def gain_of(volume: int) -> float:
    """The samples' factor for a volume from 0 to 100 (square: the ear hears loudness
    about so, and the slider's middle sounds like its middle).

    >>> gain_of(100), gain_of(50), gain_of(0)
    (1.0, 0.25, 0.0)
    """
    v = max(0, min(100, volume)) / 100
    return v * v


class Sounds:
    """The table's sounds: :meth:`play` a name of :data:`NAMES`, at ``volume`` (0–100),
    unless turned off (``on``)."""

    def __init__(
        self,
        backend: Backend,
        clips: Mapping[str, Clip] | None = None,
        volume: int = SOUND_VOLUME.default,
        on: bool = SOUND_ON.default,
    ) -> None:
        self.backend = backend
        self.clips: Mapping[str, Clip] = load_clips() if clips is None else clips
        self.volume = volume
        self.on = on

    @property
    def volume(self) -> int:
        return self._volume

    @volume.setter
    def volume(self, value: int) -> None:
        self._volume = max(0, min(100, int(value)))

    def play(self, name: str) -> bool:
        """Play a sound now, without waiting for it; False when nothing is heard (sound off,
        volume 0, or no such clip)."""
        clip = self.clips.get(name)
        if not self.on or self._volume == 0 or clip is None:
            return False
        self.backend.play(clip, gain_of(self._volume))
        return True

    def apply(self, settings: AppSettings) -> None:
        """Take the volume and mute as stored (a value that cannot be read: its default)."""
        self.on = settings.get(SOUND_ON)
        self.volume = settings.get(SOUND_VOLUME)

    def save(self, settings: AppSettings) -> None:
        settings.set(SOUND_ON, self.on)
        settings.set(SOUND_VOLUME, self.volume)
        settings.sync()

    def close(self) -> None:
        self.backend.close()


def why_silent() -> str | None:
    """Why no device is to be opened, or None when sound is wanted: ``KOIKOI_SOUND=0``, or
    the offscreen (or minimal) platform of tests and scripts, unless ``KOIKOI_SOUND=1``."""
    asked = os.environ.get("KOIKOI_SOUND", "").strip()
    if asked == "0":
        return "KOIKOI_SOUND=0"
    if asked == "1":
        return None
    platform = QGuiApplication.platformName() or os.environ.get("QT_QPA_PLATFORM", "")
    if platform.split(":")[0] in ("offscreen", "minimal"):
        return f"the {platform} platform plays no sound (KOIKOI_SOUND=1 asks for it)"
    return None


def open_backend() -> Backend:
    """The device's backend when sound is wanted and miniaudio is there; else silence
    (one line in the log at info, never an error)."""
    reason = why_silent()
    if reason is None:
        try:
            from koikoi.ui.sound.mixer import MiniaudioBackend
        except ImportError as exc:
            reason = f"miniaudio is not installed ({exc})"
        else:
            return MiniaudioBackend(RATE)
    logger.info("no sound: %s", reason)
    return SilentBackend(reason)


def open_sounds(settings: AppSettings, backend: Backend | None = None) -> Sounds:
    """The app's sounds, with the stored volume and mute."""
    sounds = Sounds(open_backend() if backend is None else backend)
    sounds.apply(settings)
    return sounds
