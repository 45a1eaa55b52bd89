"""What a screen reader hears of a prompt whose words tick each second: the same instruction
without the count (issue 22: the drawn card's prompt was heard only as 「案内」 · "Prompt").

A name that changed every second would be said every second, so the count is left out; the
words change only when the moment does.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from koikoi.ui.common import names
from koikoi.ui.match.controller import GameController
from koikoi.ui.match.matchview import Mode


def _tr(text: str) -> str:
    return QCoreApplication.translate("GameScreen", text)


def ticking_prompt_spoken(c: GameController) -> str:
    """The words of a ticking prompt (the drawn card's wait, the wait for the peer) without
    its count; '' when the prompt does not tick."""
    wait = c.draw_wait
    if c.mode is Mode.DRAW_WAIT and wait is not None:
        if wait.taken:
            return _tr("You turned {0}: it takes {1} — by itself soon, or click or Enter.").format(
                names.card_name(wait.card), names.cards_named(wait.taken)
            )
        return _tr(
            "You turned {0}: no match, it stays on the field — soon, or click or Enter."
        ).format(names.card_name(wait.card))
    if c.mode is Mode.BUSY and c.waiting_since is not None:
        return _tr("Waiting for {0}…").format(c.opponent_name)
    return ""
