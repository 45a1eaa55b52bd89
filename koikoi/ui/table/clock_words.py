"""The move clock in words on the table: the local player's time (an action's seconds, then
the reserve), and what the other side's clock says while it is waited for (docs/protocol.md,
"Time")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

if TYPE_CHECKING:
    from koikoi.net.session.clock import MoveClock


def _tr(text: str) -> str:
    return QCoreApplication.translate("ClockWords", text)


def minutes(seconds: float) -> str:
    """A move clock as m:ss, counting whole seconds up (``42.1`` is ``0:43``).

    >>> minutes(42.1), minutes(60), minutes(0), minutes(185.0)
    ('0:43', '1:00', '0:00', '3:05')
    """
    whole = max(0, int(seconds + 0.999))
    return f"{whole // 60}:{whole % 60:02d}"


def time_left(clock: MoveClock) -> str:
    """What a clock has left: ``0:42 (+5:00)`` with a reserve, ``reserve 4:12`` once the
    action's seconds are spent, ``0:42`` with none; empty with no clock."""
    if not clock.timed:
        return ""
    if clock.left > 0 and clock.reserve > 0:
        return _tr("{0} (+{1})").format(minutes(clock.left), minutes(clock.reserve))
    if clock.left > 0 or clock.reserve <= 0:
        return minutes(clock.left)
    return _tr("reserve {0}").format(minutes(clock.reserve))


def your_move(clock: MoveClock) -> str:
    """The local player's clock before the prompt (empty with no clock)."""
    left = time_left(clock)
    return _tr("Your move — {0}").format(left) if left else ""


def waiting_for(name: str, clock: MoveClock) -> str:
    """While the other player's move is waited for: their time, or that their table still
    shows a result or the cards moving (their clock has not started: the wait is theirs to
    give, nobody's to lose)."""
    if not clock.ready:
        return _tr("Waiting for {0}: their table still shows the last play or a result").format(
            name
        )
    left = time_left(clock)
    if not left:
        return _tr("Waiting for {0}…").format(name)
    return _tr("Waiting for {0}… {1}").format(name, left)


def reconnecting(name: str) -> str:
    """While the connection is down and the table waits for the other player: no clock
    runs (the reconnecting count is the only one on the table)."""
    return _tr("Waiting for {0} to reconnect: no clock runs meanwhile.").format(name)
