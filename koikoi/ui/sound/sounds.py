"""The table's sounds: :class:`Sounds`, which plays them (their names and clips:
:mod:`koikoi.ui.sound.clips`).

What is heard is decided where the narration is (:func:`koikoi.ui.match.narration.cue`: one
sound for an event the log and screen readers tell); the controller sends each name through
its ``cued`` signal to :meth:`Sounds.play`.

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
from collections.abc import Mapping
from typing import Protocol

from PySide6.QtGui import QGuiApplication

from koikoi.ui.common.settings import SOUND_ON, SOUND_VOLUME, AppSettings
from koikoi.ui.sound.clips import RATE, Clip, load_clips

logger = logging.getLogger(__name__)


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
