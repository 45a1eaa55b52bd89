"""A finished practice match added to the statistics, and what went wrong said in words.

The controller calls :func:`count_finished` once the match has ended (before its save is
archived); the start screen's saves call it too for a finished save found on start-up (the
app stopped between the last round and the archive), which the entry's key keeps from being
counted twice. A failure never stops the game: it is logged and said in one line.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QCoreApplication

from koikoi.engine.record import RecordError
from koikoi.stats.store import Loaded, StatsError, StatsStore
from koikoi.stats.tally import NotCounted, entry_of_record

logger = logging.getLogger(__name__)


def _tr(text: str) -> str:
    return QCoreApplication.translate("Statistics", text)


def set_aside_text(loaded: Loaded) -> str | None:
    """The one line for a statistics file that could not be read and was set aside."""
    if loaded.moved is None:
        return None
    logger.warning("%s", loaded.problem)
    return _tr(
        "The statistics could not be read; the file was moved to {0} and they start afresh."
    ).format(loaded.moved)


def count_finished(data: Mapping[str, Any], store: StatsStore) -> str | None:
    """Add the finished practice record ``data`` to ``store``; a line for the player when
    the statistics file was damaged (set aside) or could not be written, else None."""
    try:
        entry = entry_of_record(data, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    except (NotCounted, RecordError) as exc:
        logger.warning("not counted in the statistics: %s", exc)
        return None
    try:
        loaded = store.add(entry)
    except (StatsError, OSError) as exc:
        logger.warning("could not save the statistics to %s: %s", store.path, exc)
        return _tr("This match could not be added to the statistics: {0}").format(
            exc.strerror or exc if isinstance(exc, OSError) else exc
        )
    return set_aside_text(loaded)
