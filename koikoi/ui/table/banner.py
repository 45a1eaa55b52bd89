"""The banner laid over the table when a side calls or scores (issue 22, "say what the other
side does"): a koikoi or shobu call, a new yaku, a teyaku — with the cards that make it and
its points, so that what the other player did cannot be missed.

The banner says who ("Ben: Koi-koi!", or "Koi-koi!" for the local player's own call), the yaku
with their points (the engine's: :func:`koikoi.engine.yaku.yaku_cards`, the event's numbers)
and draws the yaku's cards. It stays up ``Timings.banner_ms`` (the controller's pace, so tests
set it), lets every click through to the table under it, and is not announced by itself: the
same moment's narration line (:mod:`koikoi.ui.match.narration`) is what a screen reader says,
once; the banner's accessible name holds the same words for a reader that looks.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QRect, Qt, QTimer
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from koikoi.engine.cards import CardSet, card_list
from koikoi.engine.events import Event, KoikoiDeclared, RoundEnded, YakuFormed
from koikoi.engine.outcome import Outcome
from koikoi.engine.yaku import Yaku, yaku_of
from koikoi.ui.common import names
from koikoi.ui.common.art import CardArt
from koikoi.ui.match.controller import GameController
from koikoi.ui.table.overlay import card_row
from koikoi.ui.table.panels import yaku_cards_of
from koikoi.ui.table.table import TableView
from koikoi.ui.table.table_model import TableModel

KOIKOI = "koikoi"
SHOBU = "shobu"
YAKU = "yaku"
TEYAKU = "teyaku"


def _tr(text: str, disambiguation: str = "", n: int = -1) -> str:
    return QCoreApplication.translate("CallBanner", text, disambiguation, n)


@dataclass(frozen=True)
class Call:
    """What a banner shows: a call or a score of ``seat``."""

    kind: str
    """:data:`KOIKOI`, :data:`SHOBU`, :data:`YAKU` or :data:`TEYAKU`."""
    seat: int
    mine: bool
    """The local player's own call."""
    title: str
    """"Ben: Koi-koi!", "Koi-koi!"."""
    line: str
    """What it means: the round goes on at ×2, 7 points …"""
    yaku: tuple[tuple[Yaku, int], ...]
    cards: CardSet

    @property
    def yaku_text(self) -> str:
        return ", ".join(names.yaku_with_points(y, p) for y, p in self.yaku)

    @property
    def spoken(self) -> str:
        return " ".join(part for part in (self.title, self.yaku_text, self.line) if part)


def _title(kind: str, mine: bool, name: str | None) -> str:
    who = name if name is not None else _tr("The computer")
    if kind == KOIKOI:
        return _tr("Koi-koi!") if mine else _tr("{0}: Koi-koi!").format(who)
    if kind == SHOBU:
        return _tr("Shobu!") if mine else _tr("{0}: Shobu!").format(who)
    if kind == TEYAKU:
        return _tr("Teyaku!") if mine else _tr("{0}: Teyaku!").format(who)
    return _tr("{0}: a new yaku!").format(who)


def call_of(event: Event, c: GameController, model: TableModel) -> Call | None:
    """The call or score ``event`` shows, as the local player of ``c`` sees it (``model``: the
    table after the event); None: the event has no banner. The local player's own new yaku has
    none: the koikoi-or-shobu panel that follows shows them."""
    name = c.opponent_name
    if isinstance(event, KoikoiDeclared):
        mine = event.seat == c.me
        pile = model.captured_set(event.seat)
        line = _tr("The round goes on at ×{0}.").format(event.koikoi_count + 1)
        yaku = tuple(yaku_of(pile))
        return Call(
            KOIKOI, event.seat, mine, _title(KOIKOI, mine, name), line, yaku, yaku_cards_of(pile)
        )
    if isinstance(event, YakuFormed) and event.seat != c.me:
        pile = model.captured_set(event.seat)
        line = _tr("%n point(s) in all.", "", event.total)
        return Call(
            YAKU,
            event.seat,
            False,
            _title(YAKU, False, name),
            line,
            event.yaku,
            yaku_cards_of(pile),
        )
    if isinstance(event, RoundEnded) and event.result.winner is not None:
        r = event.result
        winner: int = event.result.winner
        mine = winner == c.me
        if r.outcome is Outcome.WIN:
            cards = yaku_cards_of(model.captured_set(winner))
            kind = SHOBU
        elif r.outcome is Outcome.TEYAKU:
            cards, kind = r.teyaku_hand, TEYAKU
        else:
            return None
        line = (
            _tr("You win the round: %n point(s).", "", r.points)
            if mine
            else _tr("{0} wins the round: %n point(s).", "", r.points).format(
                name if name is not None else _tr("The computer")
            )
        )
        return Call(kind, winner, mine, _title(kind, mine, name), line, r.yaku, cards)
    return None


def hold_ms(call: Call, announce_ms: int) -> int:
    """How long play waits under a banner: the other side's call long enough to be seen,
    one's own call a moment, a new yaku not at all (the call that follows shows it)."""
    if call.kind == YAKU:
        return 0
    return announce_ms // 2 if call.mine else announce_ms


class CallBanner(QFrame):
    """The banner itself: a title, the yaku and their points, the cards, what it means."""

    def __init__(self, art: CardArt, parent: QWidget, table: TableView) -> None:
        super().__init__(parent)
        self.table = table
        """The table the banner lies over (its field, above the prompt line)."""
        self.setObjectName("banner")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)  # never in the way
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.art = art
        self.call: Call | None = None
        """What the banner shows (or showed last)."""
        self._lay = QVBoxLayout(self)
        self._lay.setContentsMargins(26, 14, 26, 14)
        self._lay.setSpacing(6)
        self.title = self._label("bannerTitle")
        self.yaku = self._label("bannerYaku")
        self.cards: QWidget = QWidget()
        self._lay.addWidget(self.cards)
        self.line = self._label("bannerLine")
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.hide)
        self.hide()

    def _label(self, name: str) -> QLabel:
        label = QLabel()
        label.setObjectName(name)
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        label.setWordWrap(True)
        self._lay.addWidget(label)
        return label

    @property
    def duration_ms(self) -> int:
        """How long the banner stays up once shown; 0 while it is down."""
        return self._timer.interval() if self._timer.isActive() else 0

    def present(self, event: Event, c: GameController) -> int:
        """Show the banner ``event`` calls for (if any and if banners are on) over the table
        (which has shown the event); how long play should wait under it (ms)."""
        call = call_of(event, c, self.table.model)
        if call is None or c.timings.banner_ms <= 0:
            return 0
        self.show_call(call, c.timings.banner_ms)
        return hold_ms(call, c.timings.announce_ms)

    def show_call(self, call: Call, ms: int) -> None:
        self.call = call
        self.title.setText(call.title)
        self.yaku.setText(call.yaku_text)
        self.yaku.setVisible(bool(call.yaku))
        self.line.setText(call.line)
        old = self.cards
        cards = card_list(call.cards)
        width = 54 if len(cards) <= 8 else 40
        self.cards = card_row(self.art, cards, width, per_row=10)
        self._lay.replaceWidget(old, self.cards)
        old.deleteLater()
        self.cards.setVisible(bool(cards))
        self.setAccessibleName(call.spoken)
        self.place()
        self.show()
        self.raise_()
        self._timer.start(ms)

    def place(self) -> None:
        """In the middle of the table, never wider than it, and above the prompt line (which
        says whose turn it is: never hidden by the banner)."""
        table = self.table.geometry()
        self.setMaximumWidth(max(200, table.width() - 40))
        self.adjustSize()
        w = min(max(self.sizeHint().width(), 440), table.width() - 40)
        h = self.heightForWidth(w) if self.hasHeightForWidth() else self.sizeHint().height()
        rect = QRect(0, 0, w, max(h, self.sizeHint().height()))
        rect.moveCenter(table.center())
        prompt_top = table.top() + round(self.table.layout_.prompt_rect.top()) - 6
        if rect.bottom() > prompt_top:
            rect.moveBottom(max(prompt_top, table.top() + rect.height() + 4))
        self.setGeometry(rect)

    def hideEvent(self, event: object) -> None:
        self._timer.stop()
        super().hideEvent(event)  # type: ignore[arg-type]
