"""Make the table's sounds: ``python assets/sounds/make_sounds.py`` from the repo.

Every sound is synthesised here from numbers written in this script (the standard library
only: ``wave``, ``math``, ``struct``, ``random`` with fixed seeds), so the same script makes
the same bytes each time (``tests/test_sound_assets.py`` checks the committed files against
it) and the sounds are the project's own work, under the art's licence (``assets/LICENSE.md``).

The files are 16-bit mono WAV at 22050 Hz, each at most 1.5 s long: every sound starts and ends
in a short fade (no click), has its mean taken out (no DC offset) and peaks below full scale.

``--check`` writes nothing and exits 1 when a committed file differs from what it would write.
"""

from __future__ import annotations

import argparse
import io
import math
import random
import struct
import sys
import wave
from collections.abc import Callable
from pathlib import Path

RATE = 22050
HERE = Path(__file__).resolve().parent

Samples = list[float]


def _silence(seconds: float) -> Samples:
    return [0.0] * int(seconds * RATE)


def _resonator(signal: Samples, freq: float, q: float) -> Samples:
    """A two-pole band-pass filter (the "wood" of a clack): rings at ``freq``."""
    r = math.exp(-math.pi * freq / (q * RATE))
    c1 = 2 * r * math.cos(2 * math.pi * freq / RATE)
    c2 = -r * r
    gain = 1 - r
    y1 = y2 = 0.0
    out = []
    for x in signal:
        y = gain * x + c1 * y1 + c2 * y2
        out.append(y)
        y2, y1 = y1, y
    return out


def _noise_burst(seed: int, seconds: float, decay: float) -> Samples:
    rng = random.Random(seed)
    n = int(seconds * RATE)
    return [rng.uniform(-1, 1) * math.exp(-i / (decay * RATE)) for i in range(n)]


def _mix(*parts: tuple[float, float, Samples]) -> Samples:
    """``(start seconds, gain, samples)`` laid over one another."""
    end = max(int(start * RATE) + len(s) for start, _gain, s in parts)
    out = [0.0] * end
    for start, gain, s in parts:
        at = int(start * RATE)
        for i, v in enumerate(s):
            out[at + i] += gain * v
    return out


def _tone(
    freq: float, seconds: float, decay: float, partials: tuple[tuple[float, float], ...]
) -> Samples:
    """A struck tone: partials ``(ratio, amplitude)``, each decaying faster the higher it is."""
    n = int(seconds * RATE)
    out = []
    for i in range(n):
        t = i / RATE
        v = 0.0
        for ratio, amp in partials:
            v += amp * math.sin(2 * math.pi * freq * ratio * t) * math.exp(-t * ratio / decay)
        out.append(v)
    return out


def _pluck(seed: int, freq: float, seconds: float, damping: float = 0.996) -> Samples:
    """A plucked string (Karplus-Strong), as a koto's: a seeded noise loop, averaged."""
    rng = random.Random(seed)
    period = max(2, round(RATE / freq))
    loop = [rng.uniform(-1, 1) for _ in range(period)]
    mean = sum(loop) / period
    loop = [v - mean for v in loop]  # the averaging keeps a loop's mean: none, no DC
    out = []
    for i in range(int(seconds * RATE)):
        k = i % period
        v = loop[k]
        out.append(v)
        loop[k] = damping * 0.5 * (v + loop[(k + 1) % period])
    return out


def _finish(
    signal: Samples, peak_db: float, fade_in: float = 0.002, fade_out: float = 0.03
) -> Samples:
    """Mean out, faded in and out (raised cosine), scaled to ``peak_db`` dBFS."""
    mean = sum(signal) / len(signal)
    out = [v - mean for v in signal]
    n_in = max(1, int(fade_in * RATE))
    n_out = max(1, int(fade_out * RATE))
    for i in range(min(n_in, len(out))):
        out[i] *= 0.5 - 0.5 * math.cos(math.pi * i / n_in)
    for i in range(min(n_out, len(out))):
        out[-1 - i] *= 0.5 - 0.5 * math.cos(math.pi * i / n_out)
    peak = max(abs(v) for v in out) or 1.0
    scale = 10 ** (peak_db / 20) / peak
    return [v * scale for v in out]


def card() -> Samples:
    """A card laid down: a wooden clack (a noise burst through two short resonances)."""
    burst = _noise_burst(1, 0.12, 0.006)
    body = _mix((0, 1.0, _resonator(burst, 1900, 7)), (0, 0.7, _resonator(burst, 620, 5)))
    return _finish(body, -4.0, fade_out=0.04)


def capture() -> Samples:
    """Cards taken: two clacks close together, the second lower (card onto card)."""
    first = _noise_burst(2, 0.12, 0.006)
    second = _noise_burst(3, 0.14, 0.008)
    body = _mix(
        (0, 0.8, _resonator(first, 2100, 7)),
        (0.07, 1.0, _resonator(second, 1500, 6)),
        (0.07, 0.8, _resonator(second, 480, 5)),
    )
    return _finish(body, -4.0, fade_out=0.05)


def draw() -> Samples:
    """A card turned from the stock: a soft slide (noise, swelling and fading)."""
    rng = random.Random(4)
    n = int(0.16 * RATE)
    swell = [
        rng.uniform(-1, 1) * math.sin(math.pi * i / n) ** 2 * (1 - 0.5 * i / n) for i in range(n)
    ]
    body = _mix((0, 1.0, _resonator(swell, 3200, 1.5)), (0.12, 0.5, card()))
    return _finish(body, -9.0, fade_out=0.04)


def yaku() -> Samples:
    """A yaku made: a soft bell (inharmonic partials, a long decay)."""
    bell = ((1.0, 1.0), (2.76, 0.45), (5.4, 0.2), (8.93, 0.08))
    body = _mix(
        (0, 1.0, _tone(1046.5, 1.3, 0.9, bell)),
        (0.09, 0.7, _tone(1568.0, 1.2, 0.8, bell)),
    )
    return _finish(body, -6.0, fade_in=0.004, fade_out=0.25)


def koikoi() -> Samples:
    """Koikoi called: two plucked notes, rising a fourth (こい、こい)."""
    body = _mix(
        (0, 1.0, _pluck(5, 587.3, 0.45)),
        (0.2, 1.0, _pluck(6, 784.0, 0.5)),
    )
    return _finish(body, -5.0, fade_out=0.12)


def turn() -> Samples:
    """Your turn: one soft wooden note (a marimba-like tone)."""
    body = _tone(659.3, 0.35, 0.12, ((1.0, 1.0), (4.0, 0.18), (9.2, 0.05)))
    return _finish(body, -14.0, fade_in=0.003, fade_out=0.1)


def clock() -> Samples:
    """The move clock running low: a gentle tick-tock."""
    tick = _resonator(_noise_burst(7, 0.05, 0.002), 2600, 12)
    tock = _resonator(_noise_burst(8, 0.05, 0.002), 2000, 12)
    body = _mix((0, 1.0, tick), (0.25, 0.9, tock), (0.3, 0.0, _silence(0.05)))
    return _finish(body, -10.0, fade_out=0.02)


def match_end() -> Samples:
    """The match over: a short koto phrase on the miyako-bushi scale, falling to rest."""
    notes = ((0.0, 659.3), (0.18, 587.3), (0.36, 493.9), (0.54, 440.0), (0.8, 329.6))
    parts = [(at, 1.0, _pluck(10 + i, f, 1.5 - at)) for i, (at, f) in enumerate(notes)]
    return _finish(_mix(*parts), -5.0, fade_out=0.3)


SOUNDS: dict[str, Callable[[], Samples]] = {
    "card": card,
    "capture": capture,
    "draw": draw,
    "yaku": yaku,
    "koikoi": koikoi,
    "turn": turn,
    "clock": clock,
    "match_end": match_end,
}
"""Each sound's file stem and its maker (koikoi.ui.sound.clips.NAMES names the same)."""


def wav_bytes(samples: Samples) -> bytes:
    frames = b"".join(struct.pack("<h", max(-32767, min(32767, round(v * 32767)))) for v in samples)
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(frames)
    return buffer.getvalue()


def made() -> dict[str, bytes]:
    """Every sound's file name and the bytes this script writes for it."""
    return {f"{name}.wav": wav_bytes(make()) for name, make in SOUNDS.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    stale = []
    for name, data in made().items():
        path = HERE / name
        if args.check:
            if not path.is_file() or path.read_bytes() != data:
                stale.append(name)
        else:
            path.write_bytes(data)
    if stale:
        print(f"make_sounds: out of date: {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
