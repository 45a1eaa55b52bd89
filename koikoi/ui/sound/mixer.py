"""The sound device: miniaudio's playback device, fed by a small mixer on its own thread.

:meth:`MiniaudioBackend.play` only hands the clip's samples and its gain to a queue and
returns; the device's thread takes them from there, scales them and adds up the clips that
sound together, a period at a time, so the UI thread never waits for the device (nor works
out a sample). The device is opened on a
thread of its own when the backend is made (opening one can take a moment); a device that
cannot be opened leaves the app silent with one line in the log, at info.
"""

from __future__ import annotations

import array
import ctypes
import ctypes.util
import logging
import threading
from collections import deque
from collections.abc import Callable, Generator
from typing import Any, Final

from koikoi.ui.sound.clips import Clip

logger = logging.getLogger(__name__)

PERIOD_MS: Final = 30
"""The device's buffer: a sound starts at most about this late."""
WAITING_MAX: Final = 16
"""Clips kept while the device is still opening (more are dropped)."""

Voice = list[Any]
"""A clip sounding: ``[samples (array of 'h'), next index, gain]``."""


def mix(voices: list[Voice], frames: int) -> array.array[int]:
    """The next ``frames`` samples of the voices, each at its gain, added up (clamped to 16
    bits); a voice played to its end leaves ``voices``. Only a period's samples are worked
    out at a time (some 660), on the device's thread.

    >>> voices = [[array.array("h", [2, 4, 6]), 0, 0.5], [array.array("h", [30000] * 2), 0, 1.0]]
    >>> list(mix(voices, 2)), len(voices)
    ([30001, 30002], 1)
    >>> list(mix(voices, 2)), voices
    ([3, 0], [])
    """
    out = array.array("h", bytes(2 * frames))
    if len(voices) == 1 and voices[0][2] == 1.0:
        samples, at, _gain = voices[0]
        part = samples[at : at + frames]
        out[: len(part)] = part
    else:
        acc = [0.0] * frames
        for samples, at, gain in voices:
            for i, v in enumerate(samples[at : at + frames]):
                acc[i] += v * gain
        for i, v in enumerate(acc):
            out[i] = max(-32767, min(32767, round(v)))
    for voice in voices:
        voice[1] += frames
    voices[:] = [v for v in voices if v[1] < len(v[0])]
    return out


_alsa_handler: Any = None
"""The error handler given to ALSA's library (kept: the library calls it), False when
there is no such library."""


def quiet_alsa() -> None:
    """ALSA's library writes its errors to stderr: with no sound server and no sound card,
    the device's backends tried in turn wrote a dozen "ALSA lib … cannot find card '0'"
    lines to the player's terminal. A handler that drops them is set, once; the failure is
    still told (one line in the log, :meth:`MiniaudioBackend._open`)."""
    global _alsa_handler
    if _alsa_handler is not None:
        return
    _alsa_handler = False
    name = ctypes.util.find_library("asound")
    if name is None:
        return
    try:
        library = ctypes.CDLL(name)
        handler = ctypes.CFUNCTYPE(
            None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p
        )(_drop_alsa_error)
        library.snd_lib_error_set_handler(handler)
    except (OSError, AttributeError) as exc:  # an odd library: its words stay on stderr
        logger.info("ALSA's errors cannot be silenced (%s)", exc)
        return
    _alsa_handler = handler


def _drop_alsa_error(*_: object) -> None:
    return None


class MiniaudioBackend:
    """Clips on miniaudio's default playback device, 16-bit mono at ``rate`` Hz."""

    def __init__(self, rate: int, device_factory: Callable[..., Any] | None = None) -> None:
        self.rate = rate
        self._factory = device_factory
        self._incoming: deque[tuple[array.array[int], float]] = deque()
        self._arrays: dict[str, array.array[int]] = {}
        self._device: Any = None
        self._closed = False
        self.failed: str | None = None
        """Why the device could not be opened (None: it is open, or opening)."""
        self.frames_out = 0
        """Samples the device has taken so far (silence included)."""
        self.sounding = 0
        """Clips sounding at the last period."""
        self.opened = threading.Event()
        """Set once the device is open, or has failed to open."""
        self._opener = threading.Thread(target=self._open, name="koikoi-sound", daemon=True)
        self._opener.start()

    def play(self, clip: Clip, gain: float) -> None:
        if self.failed is not None or self._closed or clip.rate != self.rate:
            return
        if self._device is None and len(self._incoming) >= WAITING_MAX:
            return
        self._incoming.append((self._samples(clip), gain))

    def close(self) -> None:
        self._closed = True
        self._opener.join(timeout=1)  # a device still opening: the thread is a daemon
        device, self._device = self._device, None
        if device is not None:
            device.close()

    def _samples(self, clip: Clip) -> array.array[int]:
        """The clip's samples as numbers (made once: a copy of its bytes, no loop)."""
        samples = self._arrays.get(clip.name)
        if samples is None:
            samples = self._arrays[clip.name] = array.array("h", clip.samples)
        return samples

    def _open(self) -> None:
        try:
            factory = self._factory
            if factory is None:
                import miniaudio

                quiet_alsa()

                def factory() -> Any:
                    return miniaudio.PlaybackDevice(
                        output_format=miniaudio.SampleFormat.SIGNED16,
                        nchannels=1,
                        sample_rate=self.rate,
                        buffersize_msec=PERIOD_MS,
                        app_name="koikoi",
                    )

            device = factory()
            feed = self._feed()
            next(feed)
            device.start(feed)
        except Exception as exc:  # no device, no driver, no library: the app goes on silent
            self.failed = str(exc) or type(exc).__name__
            self._incoming.clear()
            logger.info("no sound: the audio device cannot be opened (%s)", self.failed)
            self.opened.set()
            return
        if self._closed:
            device.close()
        else:
            self._device = device
            logger.info("sound: %s", getattr(device, "backend", "a device"))
        self.opened.set()

    def _feed(self) -> Generator[bytes | array.array[int], int, None]:
        """The device's thread asks it for ``frames`` samples each period."""
        voices: list[Voice] = []
        frames = yield b""
        while True:
            try:
                while self._incoming:
                    samples, gain = self._incoming.popleft()
                    voices.append([samples, 0, gain])
                out: bytes | array.array[int] = mix(voices, frames) if voices else bytes(2 * frames)
                self.sounding = len(voices)
            except Exception:  # never let the device's thread stop: drop what sounds
                logger.exception("sound mixer")
                voices.clear()
                out = bytes(2 * frames)
            self.frames_out += frames
            frames = yield out
