"""How long the window lets things take (the controller's pace); tests shrink all of it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Timings:
    """How long the window lets things take. Tests shrink all of it."""

    anim_scale: float = 1.0
    """Multiplies every animation's duration; 0 moves cards at once."""
    ai_delay_ms: tuple[int, int] = (650, 1200)
    """The computer waits a human-like moment (between these) before acting."""
    ai_cap_ms: int = 8000
    """Wall-clock cap on one computer decision."""
    auto_take_ms: int = 5000
    """R5.5: a drawn card with one way to resolve resolves by itself after this."""
    announce_ms: int = 1700
    """How long the other side's koikoi or shobu call holds play before it goes on."""
    banner_ms: int = 2600
    """How long a call's or a yaku's banner stays up to be read (:mod:`koikoi.ui.table.banner`);
    play goes on under it after ``announce_ms``. 0: no banner."""

    @classmethod
    def instant(cls, auto_take_ms: int = 40) -> Timings:
        return cls(0.0, (0, 0), 20000, auto_take_ms, 0, 0)
