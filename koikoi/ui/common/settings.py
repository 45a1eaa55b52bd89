"""Every option the app keeps, typed, with its default, in one place (as Picard's options).

Values live in QSettings: the platform's usual place, or ``$KOIKOI_HOME/settings.ini`` when
that is set (tests, and two copies side by side). A stored value that cannot be read as its
option's type falls back to the default with one line in the log; it never stops the app.

>>> store = AppSettings(QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
...                               "koikoi-doctest", "x"))
>>> store.get(AI_LEVEL) in AI_LEVELS
True
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Generic, TypeVar

from PySide6.QtCore import QByteArray, QSettings

from koikoi.ai import LEVELS

logger = logging.getLogger(__name__)

T = TypeVar("T", bool, int, str, bytes)

AI_LEVELS: Final = LEVELS
"""The computer's levels the player chooses from (koikoi/ai's :data:`~koikoi.ai.LEVELS`)."""


@dataclass(frozen=True)
class Option(Generic[T]):
    """One setting: its QSettings key, its type (that of its default) and allowed values."""

    key: str
    default: T
    choices: Sequence[T] | None = None
    doc: str = ""

    @property
    def type(self) -> type:
        return type(self.default)

    def convert(self, raw: Any) -> T:
        """The stored value as this option's type; ValueError when it cannot be one."""
        kind = self.type
        value: Any
        if kind is bool:
            if isinstance(raw, bool):
                value = raw
            elif isinstance(raw, str) and raw.lower() in ("true", "false"):
                value = raw.lower() == "true"
            else:
                raise ValueError(f"not true or false: {raw!r}")
        elif kind is int:
            if isinstance(raw, bool):
                raise ValueError(f"not a number: {raw!r}")
            if isinstance(raw, int):
                value = raw
            elif isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
                value = int(raw)
            else:
                raise ValueError(f"not a number: {raw!r}")
        elif kind is bytes:
            if isinstance(raw, QByteArray):
                value = raw.data()
            elif isinstance(raw, bytes):
                value = raw
            else:
                raise ValueError(f"not bytes: {raw!r}")
        else:
            if not isinstance(raw, str):
                raise ValueError(f"not text: {raw!r}")
            value = raw
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise ValueError(f"{value!r} is not one of {allowed}")
        return value  # type: ignore[no-any-return]


OPTIONS: dict[str, Option[Any]] = {}


def _option(key: str, default: T, choices: Sequence[T] | None = None, doc: str = "") -> Option[T]:
    option = Option(key, default, choices, doc)
    OPTIONS[key] = option
    return option


PRACTICE_ROUNDS: Final = _option(
    "practice/rounds", 6, (6, 12), "rounds of a practice started from the settings form (R2.1)"
)
PRACTICE_DOUBLING: Final = _option(
    "practice/doubling", True, doc='"double at 8 or more" for practice (R2.6, R2.7)'
)
ASSIST: Final = _option(
    "practice/assist", True, doc="assist display: highlight captures (R2.6: never the rules)"
)
AI_LEVEL: Final = _option("practice/ai_level", "normal", AI_LEVELS, doc="the computer's level")
NICKNAME: Final = _option(
    "net/nickname", "", doc="the name other players see in the lobby and at the table"
)
ROOM_TITLE: Final = _option("net/room_title", "", doc="the title of the last room created")
JOIN_SEED: Final = _option(
    "net/join_seed",
    False,
    doc="joins allow joint-seed dealing, for older koikoi (off: private dealing only)",
)
ROOM_INTERNET: Final = _option(
    "net/room_internet",
    False,
    doc="rooms are opened to the internet: the app asks the router to map their port",
)
LANGUAGE: Final = _option(
    "ui/language", "", ("", "en", "ja"), doc="the app's language; empty follows the system"
)
WINDOW_GEOMETRY: Final = _option("window/geometry", b"", doc="the main window's last geometry")


def settings_path() -> Path | None:
    """The settings file under ``$KOIKOI_HOME``, or None for the platform's usual place."""
    home = os.environ.get("KOIKOI_HOME")
    return Path(home) / "settings.ini" if home else None


def open_qsettings() -> QSettings:
    path = settings_path()
    if path is not None:
        return QSettings(str(path), QSettings.Format.IniFormat)
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "koikoi", "koikoi")


class AppSettings:
    """Typed access to the options of this module over one QSettings."""

    def __init__(self, store: QSettings | None = None) -> None:
        self.store = store if store is not None else open_qsettings()
        self._warned: set[str] = set()
        if self.store.status() == QSettings.Status.FormatError:
            logger.warning(
                "settings file %s is damaged: what can be read is used, the rest is default",
                self.store.fileName(),
            )

    def get(self, option: Option[T]) -> T:
        raw = self.store.value(option.key)
        if raw is None:
            return option.default
        try:
            return option.convert(raw)
        except ValueError as exc:
            if option.key not in self._warned:
                self._warned.add(option.key)
                logger.warning(
                    "setting %s: %s; using the default %r", option.key, exc, option.default
                )
            return option.default

    def set(self, option: Option[T], value: T) -> None:
        option.convert(value)  # refuse a wrong type or value here, not when read back
        self.store.setValue(option.key, QByteArray(value) if isinstance(value, bytes) else value)
        self._warned.discard(option.key)

    def sync(self) -> None:
        self.store.sync()


# -- display options (how the table looks and moves; never the rules) ---------------------

CARD_SIZES: Final = ("small", "normal", "large")
ANIMATION_SPEEDS: Final = ("slow", "normal", "fast")
FOLLOW: Final = ("system", "on", "off")
"""Reduced motion and high contrast: follow the platform's setting, or always on or off."""
DRAW_PACES: Final = ("instant", "1s", "5s")
"""How long the player's drawn card waits before it resolves by itself (R5.5: 5 s)."""

READING_AIDS: Final = _option(
    "display/reading_aids", True, doc="the cards' reading aids: month numeral and kind mark"
)
CARD_SIZE: Final = _option("display/card_size", "normal", CARD_SIZES, doc="the table's cards")
ANIMATION_SPEED: Final = _option(
    "display/animation_speed", "normal", ANIMATION_SPEEDS, doc="how fast cards fly"
)
REDUCED_MOTION: Final = _option(
    "display/reduced_motion", "system", FOLLOW, doc="cards move at once, without flying"
)
HIGH_CONTRAST: Final = _option(
    "display/high_contrast", "system", FOLLOW, doc="black and white, text at 7:1 or more"
)
DRAW_PACE: Final = _option(
    "display/draw_pace", "5s", DRAW_PACES, doc="a drawn card resolves by itself after this"
)
STAMPS_MUTED: Final = _option(
    "display/stamps_muted", False, doc="the other player's stamps are neither shown nor spoken"
)

CARD_SCALES: Final = {"small": 0.82, "normal": 1.0, "large": 1.18}
"""The table's card width against its usual one (the table keeps what does not fit)."""
ANIMATION_FACTORS: Final = {"slow": 1.6, "normal": 1.0, "fast": 0.55}
"""Multiplies every animation's duration."""
DRAW_PACE_MS: Final = {"instant": 0, "1s": 1000}
"""The quicker paces' waits; "5s" is R5.5's own, the window's timings (tests shrink it)."""


@dataclass(frozen=True)
class DisplayOptions:
    """What the display options ask of the table and the windows, in one value.

    >>> DisplayOptions(card_size="large", animation_speed="fast").card_scale
    1.18
    >>> DisplayOptions(reduced_motion="on").animation_factor(platform_reduced=False)
    0.0
    """

    reading_aids: bool = True
    card_size: str = "normal"
    animation_speed: str = "normal"
    reduced_motion: str = "system"
    high_contrast: str = "system"
    draw_pace: str = "5s"
    stamps_muted: bool = False
    """A network match's table neither shows nor speaks the other player's stamps."""

    @property
    def card_scale(self) -> float:
        return CARD_SCALES.get(self.card_size, 1.0)

    def motion_reduced(self, platform_reduced: bool) -> bool:
        """No flying cards: chosen, or the platform asks for it and nothing else was chosen."""
        return self.reduced_motion == "on" or (self.reduced_motion == "system" and platform_reduced)

    def animation_factor(self, platform_reduced: bool) -> float:
        """Multiplies the table's animation durations; 0 moves cards at once."""
        if self.motion_reduced(platform_reduced):
            return 0.0
        return ANIMATION_FACTORS.get(self.animation_speed, 1.0)

    def contrast_high(self, platform_high: bool) -> bool:
        return self.high_contrast == "on" or (self.high_contrast == "system" and platform_high)

    def draw_wait_ms(self, rules_ms: int) -> int:
        """How long a drawn card waits before it resolves by itself: ``rules_ms`` (R5.5's
        5 s as the window's timings have it) at the default pace, else the quicker pace's.

        >>> DisplayOptions(draw_pace="1s").draw_wait_ms(5000), DisplayOptions().draw_wait_ms(5000)
        (1000, 5000)
        """
        return min(rules_ms, DRAW_PACE_MS.get(self.draw_pace, rules_ms))


def load_display(settings: AppSettings) -> DisplayOptions:
    """The display options as stored (a value that cannot be read is its default)."""
    return DisplayOptions(
        settings.get(READING_AIDS),
        settings.get(CARD_SIZE),
        settings.get(ANIMATION_SPEED),
        settings.get(REDUCED_MOTION),
        settings.get(HIGH_CONTRAST),
        settings.get(DRAW_PACE),
        settings.get(STAMPS_MUTED),
    )


def save_display(settings: AppSettings, options: DisplayOptions) -> None:
    settings.set(READING_AIDS, options.reading_aids)
    settings.set(CARD_SIZE, options.card_size)
    settings.set(ANIMATION_SPEED, options.animation_speed)
    settings.set(REDUCED_MOTION, options.reduced_motion)
    settings.set(HIGH_CONTRAST, options.high_contrast)
    settings.set(DRAW_PACE, options.draw_pace)
    settings.set(STAMPS_MUTED, options.stamps_muted)
    settings.sync()


# -- sound (koikoi.ui.sound: on from the first launch, at a moderate volume) ---------------

SOUND_ON: Final = _option("sound/on", True, doc="the table's sounds are heard")
SOUND_VOLUME: Final = _option(
    "sound/volume", 70, tuple(range(101)), doc="the sounds' volume, from 0 to 100"
)
