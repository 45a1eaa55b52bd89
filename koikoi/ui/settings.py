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

logger = logging.getLogger(__name__)

T = TypeVar("T", bool, int, str, bytes)

AI_LEVELS: Final = ("easy", "normal", "hard")


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
