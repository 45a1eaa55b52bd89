"""The moments before a match with a person: who the peer is, the four cards, in words.

:class:`PrematchPanel` shows the peer's nickname and fingerprint, whether this is a first
meeting ("new player") or a known one (the pinned name), how many coin tosses a known peer
abandoned after seeing the result, and the settings both signed; then the four SAS cards
with their names (:meth:`PrematchPanel.show_cards`), without saying who deals first: in
protocol version 4 nobody knows yet, the coin is tossed once both players confirmed the
cards, so "They differ" counts against nobody. The player confirms they see the same four on
both screens, or says they differ; the outcome and the first deal follow (the table shows
who deals first). A version-2 session (a released koikoi-net/2 peer) tosses first: the panel
then says the outcome with the cards, as before. :func:`failure_text` and
:func:`ending_text` turn the network's typed failures (``LinkError.kind``, an ``Ending``) into
sentences, through ``tr()``.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QCoreApplication, QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from koikoi.engine.cards import CARD_IDS
from koikoi.net.errors import DealingRefused, IdentityChanged, PeerRefused, SettingsMismatch
from koikoi.net.identity import PinStatus, fingerprint
from koikoi.net.session.endings import Ending
from koikoi.net.session.events import CardsShown
from koikoi.ui.common import names
from koikoi.ui.common.accessible import announce
from koikoi.ui.common.art import CardArt, card_size
from koikoi.ui.lobby.rooms import settings_text
from koikoi.ui.net.neterrors import ending_detail, error_detail
from koikoi.ui.net.netlink.base import LinkError, PeerInfo
from koikoi.ui.net.netlink.peer import PeerLink

CARD_WIDTH: Final = 96


def _tr(text: str) -> str:
    return QCoreApplication.translate("Prematch", text)


def failure_text(failure: LinkError) -> str:
    """Why there is no match, as a sentence for the player (never a traceback)."""
    kind, error = failure.kind, failure.error
    where = failure.address
    if kind == "address":
        return _tr(
            "That is not an address. Write HOST:PORT, for example 192.168.1.20:4000, "
            "[2001:db8::20]:4000 or hana.local:4000."
        )
    if kind == "connect":
        if "no answer within" in failure.text:
            return _tr("Nobody answered at {0} in time: is the room still open?").format(where)
        return _tr(
            "Could not reach {0}: is the room still open, and is the address right? ({1})"
        ).format(where, _detail(failure))
    if kind == "auth":
        return _tr(
            "Wrong password: the room did not accept it (or someone changed the messages "
            "on the way)."
        )
    if kind == "settings":
        differs = error.differs if isinstance(error, SettingsMismatch) else ()
        words = {"rounds": _tr("the number of rounds"), "doubling": _tr("the 8-point doubling")}
        named = ", ".join(words.get(d, d) for d in differs) or _tr("the match settings")
        return _tr("The room plays other settings than yours ({0}): choose the same.").format(named)
    if kind == "room":
        return _tr(
            "The password does not fit the room: a private room needs its password, "
            "an open room takes none."
        )
    if kind == "identity":
        name = error.name if isinstance(error, IdentityChanged) else ""
        old = fingerprint(error.old_key) if isinstance(error, IdentityChanged) else "?"
        new = fingerprint(error.new_key) if isinstance(error, IdentityChanged) else "?"
        return _tr(
            "WARNING: {0} now has another key! Pinned: {1}. Now: {2}. Someone may be posing "
            "as them. The connection was refused. Accept the new key only if {0} told you "
            "they reinstalled or moved to another computer."
        ).format(name, old, new)
    if kind == "code":
        return _tr(
            "That join code does not check out: {0}. Compare it with your friend's, symbol "
            "by symbol; nothing was dialled."
        ).format(failure.text)
    if kind == "reply_code":
        return _tr(
            "That is a reply code: a friend's koikoi shows one when it cannot reach the room, "
            "for the room's host to type. To join, type the code of the room; nothing was "
            "dialled."
        )
    if kind == "reply":
        return _tr(
            "The room did not dial back in time, both sides dialling ({0}). Did its host type "
            "your reply code? If it still fails, one of the two routers must let a port in: "
            "turn on UPnP (or NAT-PMP/PCP) in either router, or forward a port by hand."
        ).format(failure.address)
    if kind == "code_identity":
        params = getattr(error, "params", {})
        return _tr(
            "The room at {0} is not the one the join code names: its host's identity is {1}, "
            "the code's is {2}. Another program answered there; the room was not joined."
        ).format(where, params.get("found", "?"), params.get("expected", "?"))
    if kind == "signature":
        return _tr("The peer's signature does not verify: the connection was refused.")
    if kind == "version":
        return _tr("The peer runs another version of the game's protocol: update both.")
    if kind == "dealing":
        return dealing_refused_text(error.why if isinstance(error, DealingRefused) else "seed")
    if kind == "refused":
        if isinstance(error, PeerRefused) and error.code == "busy":
            return _tr("The room is already playing with someone else.")
        return _tr("The room refused the connection: {0}").format(_detail(failure))
    if kind in ("busy", "dropped"):
        return _tr("Turned away {0}: {1}").format(where, _detail(failure))
    if kind == "left":
        return _tr("You stopped connecting.")
    if kind == "protocol" and getattr(error, "error_code", "") == "timeout":
        return _tr("The handshake with {0} timed out: the peer stopped answering.").format(where)
    if kind == "protocol":
        return _tr("The peer sent something the game does not understand: {0}").format(
            _detail(failure)
        )
    return _tr("Something went wrong here: {0}").format(_detail(failure))


def dealing_refused_text(why: str) -> str:
    """The refusal of a dealing (``LinkError`` ``dealing``), as the app says it: ``seed`` when
    the other side offers only joint-seed dealing and this one deals privately only,
    ``private`` when the other deals privately only and this one offered only the seed (to a
    room announced as an older koikoi)."""
    if why == "private":
        return _tr(
            "Refused: the other side deals privately only and refuses joint-seed dealing, the "
            "only dealing offered from here (the room was announced as an older koikoi)."
        )
    return _tr(
        "Refused: the other side offers only joint-seed dealing, from which either program "
        "can compute the other's hand and the stock. This side deals privately only; to "
        "allow it, tick “Allow joint-seed dealing” (for older koikoi)."
    )


def _detail(failure: LinkError) -> str:
    return error_detail(failure.error, failure.text)


def ending_text(ending: Ending, counted: int | None = None, peer_name: str = "") -> str:
    """Why a match ended before it started (in the lobby).

    ``counted``: the peer abandoned the coin toss after seeing the result, and this is its
    count now (``Connection.toss_aborts``); None when nothing was counted.
    """
    text = _ending_reason(ending)
    if counted is not None:
        text += " " + QCoreApplication.translate(
            "Prematch",
            "That counts as abandoning the coin toss after seeing the result: "
            "{0} has done so %n time(s).",
            "",
            counted,
        ).format(peer_name or _tr("the other player"))
    return text


def _ending_reason(ending: Ending) -> str:
    if ending.how == "cards":
        if ending.by is None:
            return _tr("You said the four cards differ: the match did not start.")
        return _tr(
            "The other player saw different cards: someone may be between you. "
            "The match did not start."
        )
    if ending.how == "left":
        return _tr("The other player left before the match started.")
    if ending.how in ("silent", "dropped"):
        return _tr("The connection was lost before the match started.")
    return _tr("The match did not start: {0}").format(ending_detail(ending.how, ending.reason))


def dealing_text(dealing: str) -> str:
    """How the match the hellos agreed on deals (``PeerInfo.dealing``), in one short line."""
    if dealing == "private":
        return _tr("Private dealing: neither side can see the other's hand or the stock")
    return _tr("Deals from a joint seed")


def toss_text(event: CardsShown, local_seat: int, peer_name: str) -> str:
    """What the panel says of the coin toss with the four cards: in version 2 its outcome;
    in version 4 nothing (it is tossed once both confirmed, and the table shows it once)."""
    if event.result is None:
        return ""
    if event.result.first_oya == local_seat:
        return _tr("The coin is tossed: you are the first dealer (oya).")
    return _tr("The coin is tossed: {0} is the first dealer (oya).").format(peer_name)


def code_proof_text(peer: PeerInfo) -> str:
    """What joining by code proved (docs/protocol.md, "Join code"): the host's key is the
    one the code names."""
    return _tr("Proven by the join code: {0}'s key {1} is the one the code names.").format(
        peer.nickname, peer.fingerprint
    )


def pin_text(peer: PeerInfo) -> str:
    if peer.pin is PinStatus.KNOWN:
        return _tr("Known player: {0}, the key you met before.").format(peer.nickname)
    return _tr("New player: your first meeting. Compare the four cards with {0}.").format(
        peer.nickname
    )


class PrematchPanel(QFrame):
    """The peer, the settings, the four cards; "the same" or "they differ" (then the coin
    toss)."""

    confirmed = Signal()
    differ = Signal()
    cancelled = Signal()

    def __init__(self, art: CardArt, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("prematch")
        self.art = art
        self.peer: PeerInfo | None = None
        self.cards: tuple[str, str, str, str] | None = None
        """The four cards shown (None until they are drawn)."""
        self.tossed = False
        """The toss's outcome came with the cards (version 2) and was said with them."""
        self.by_code = False
        """Joined by a join code: the host proved it holds the identity the code names."""
        self._followed: PeerLink | None = None
        self._to_paint: list[tuple[int, str]] = []
        layout = QVBoxLayout(self)
        layout.setSpacing(12)
        self.heading = QLabel("")
        self.heading.setObjectName("prematchHeading")
        self.heading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.heading.setAccessibleName(_tr("Opponent"))
        layout.addWidget(self.heading)
        self.who = QLabel("")
        self.who.setObjectName("prematchWho")
        self.who.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.who.setWordWrap(True)
        self.who.setAccessibleName(_tr("Opponent's identity"))
        self.who.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.who)
        self.settings = QLabel("")
        self.settings.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.settings.setAccessibleName(_tr("The settings both signed"))
        layout.addWidget(self.settings)
        self.dealing = QLabel("")
        self.dealing.setObjectName("prematchDealing")
        self.dealing.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.dealing.setWordWrap(True)
        layout.addWidget(self.dealing)
        self.warning = QLabel("")
        self.warning.setObjectName("prematchWarning")
        self.warning.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.warning.setWordWrap(True)
        self.warning.setAccessibleName(_tr("Warning about this player"))
        bold = self.warning.font()
        bold.setBold(True)
        self.warning.setFont(bold)
        self.warning.hide()
        layout.addWidget(self.warning)
        self.proof = QLabel("")
        self.proof.setObjectName("prematchProof")
        self.proof.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.proof.setWordWrap(True)
        self.proof.setAccessibleName(_tr("Proven by the join code"))
        self.proof.hide()
        layout.addWidget(self.proof)
        self.toss = QLabel("")
        self.toss.setObjectName("prematchToss")
        self.toss.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.toss.setWordWrap(True)
        self.toss.setAccessibleName(_tr("The coin toss"))
        layout.addWidget(self.toss)
        self.ask = QLabel(
            _tr("Do you both see these four cards, in this order? Ask the other player.")
        )
        self.ask.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.ask.setWordWrap(True)
        layout.addWidget(self.ask)
        row = QHBoxLayout()
        row.addStretch(1)
        self.card_labels: list[QLabel] = []
        self.card_names: list[QLabel] = []
        grid = QGridLayout()
        grid.setHorizontalSpacing(18)
        for i in range(4):
            picture = QLabel()
            picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
            picture.setMinimumSize(card_size(CARD_WIDTH))
            name = QLabel("")
            name.setAlignment(Qt.AlignmentFlag.AlignCenter)
            # two whole lines, the name and its Japanese: a width of its own, never wrapped
            # ("Chrysanthemum plain" above a lone "2")
            name.setMinimumWidth(CARD_WIDTH + 40)
            grid.addWidget(picture, 0, i)
            grid.addWidget(name, 1, i)
            self.card_labels.append(picture)
            self.card_names.append(name)
        row.addLayout(grid)
        row.addStretch(1)
        layout.addLayout(row)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.same_button = QPushButton(_tr("同じ · The same four cards"))
        self.same_button.setObjectName("sameCards")
        self.same_button.setAccessibleName(_tr("We see the same four cards"))
        self.same_button.clicked.connect(self._same)
        self.differ_button = QPushButton(_tr("They differ"))
        self.differ_button.setObjectName("differentCards")
        self.differ_button.setAccessibleName(_tr("The four cards differ"))
        self.differ_button.clicked.connect(self._differ)
        self.cancel_button = QPushButton(_tr("Leave"))
        self.cancel_button.setObjectName("secondaryButton")
        self.cancel_button.setAccessibleName(_tr("Leave before the match"))
        self.cancel_button.clicked.connect(self.cancelled.emit)
        for button in (self.same_button, self.differ_button, self.cancel_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.status = QLabel("")
        self.status.setObjectName("prematchStatus")
        self.status.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.status.setWordWrap(True)
        self.status.setAccessibleName(_tr("Status"))
        layout.addWidget(self.status)
        layout.addStretch(1)

    def show_peer(self, peer: PeerInfo, by_code: bool = False) -> None:
        """The handshake is done: who the peer is; the four cards are being drawn.
        ``by_code``: joined by a join code, whose fingerprint the host's identity matched
        (the handshake refuses any other)."""
        self.peer = peer
        self.by_code = by_code
        proof = code_proof_text(peer) if by_code else ""
        self.proof.setText(proof)
        self.proof.setVisible(bool(proof))
        self.cards = None
        self.heading.setText(_tr("Before the match with {0}").format(peer.nickname))
        known = pin_text(peer)
        if by_code and peer.pin is not PinStatus.KNOWN:  # no cards to compare: the code did
            known = _tr("New player: your first meeting.")
        self.who.setText(
            _tr("{0} · key {1}").format(known, peer.fingerprint)
            + ("  ·  " + _tr("private room") if peer.private else "")
        )
        self.settings.setText(
            _tr("Signed by both: {0}").format(
                settings_text(peer.settings.rounds, peer.settings.doubling)
            )
        )
        self.dealing.setText(dealing_text(peer.dealing))
        self.dealing.setAccessibleName(self.dealing.text())
        warning = self.toss_aborts_text(peer)
        self.warning.setText(warning)
        self.warning.setVisible(bool(warning))
        self.toss.setText(_tr("Drawing the four cards to compare…"))
        self.toss.show()
        self.ask.hide()
        self._to_paint = []
        for picture, name in zip(self.card_labels, self.card_names, strict=True):
            picture.clear()
            picture.setAccessibleName("")
            picture.setToolTip("")
            name.setText("")
        self.same_button.setEnabled(False)
        self.differ_button.setEnabled(False)
        self.status.setText("")
        self.cancel_button.setFocus()

    def toss_aborts_text(self, peer: PeerInfo) -> str:
        """A warning for a peer that abandoned coin tosses after seeing the result, or ""."""
        if peer.toss_aborts <= 0:
            return ""
        text = self.tr(
            "Careful: {0} abandoned %n toss(es) after seeing the result.", "", peer.toss_aborts
        )
        return text.format(peer.nickname)

    def clear(self) -> None:
        """Nobody to show (the lobby went back to its rooms): no peer, no cards."""
        self.peer = None
        self.cards = None
        self._to_paint = []

    def show_cards(self, event: CardsShown, local_seat: int) -> None:
        """The four cards to compare (and, in version 2 only, the toss's outcome)."""
        peer_name = self.peer.nickname if self.peer is not None else ""
        self.cards = event.cards
        self.tossed = event.result is not None
        said = toss_text(event, local_seat, peer_name)
        self.toss.setText(said)
        self.toss.setVisible(bool(said))
        self.ask.setText(
            _tr(
                "If the code came to you through a channel you trust (a call, a chat you "
                "know), nobody sits between you: the four-card check is already passed. "
                "Confirm to go on."
            )
            if self.by_code
            else _tr("Do you both see these four cards, in this order? Ask the other player.")
        )
        self.ask.show()
        for picture, name, card_id in zip(
            self.card_labels, self.card_names, event.cards, strict=True
        ):
            card = CARD_IDS.index(card_id)
            picture.clear()
            picture.setAccessibleName(names.card_accessible_name(card))
            picture.setToolTip(names.card_tooltip(card))
            name.setText(f"{names.card_name(card)}\n{names.card_japanese(card)}")
        # One picture per turn of the event loop: rendering a card's SVG takes several ms,
        # and the peer's messages are being answered meanwhile.
        self._to_paint = list(enumerate(event.cards))
        QTimer.singleShot(0, self._paint_next)
        self.same_button.setEnabled(True)
        self.differ_button.setEnabled(True)
        self.status.setText("")
        self.same_button.setFocus()

    def _paint_next(self) -> None:
        if not self._to_paint or self.cards is None:
            return
        i, card_id = self._to_paint.pop(0)
        size = card_size(CARD_WIDTH)
        self.card_labels[i].setPixmap(
            self.art.pixmap(card_id, QSize(size), dpr=self.devicePixelRatioF())
        )
        if self._to_paint:
            QTimer.singleShot(0, self._paint_next)

    @property
    def painted(self) -> bool:
        """The four cards are drawn and all four pictures are on the screen."""
        return self.peer is not None and self.cards is not None and not self._to_paint

    def card_ids(self) -> tuple[str, ...]:
        """The four cards shown, () before they are drawn."""
        return () if self.cards is None else self.cards

    def follow(self, link: PeerLink) -> None:
        """Say on this page when the peer behind ``link`` confirmed the four cards."""
        if link is not self._followed:
            self._followed = link
            link.peer_confirmed.connect(self._peer_confirmed)

    def _peer_confirmed(self) -> None:
        """The peer confirmed the cards: said while the local player still compares them
        (once both confirmed, the toss goes on at once)."""
        if self.cards is None or not self.same_button.isEnabled():
            return
        name = self.peer.nickname if self.peer is not None else ""
        text = _tr("{0} confirmed the four cards. Do you see the same four?").format(name)
        self.status.setText(text)
        announce(self, text)

    def _same(self) -> None:
        self.same_button.setEnabled(False)
        self.differ_button.setEnabled(False)
        name = self.peer.nickname if self.peer is not None else ""
        if self.tossed:  # version 2: the outcome is known already
            text = _tr("Waiting for {0} to confirm the four cards…")
        else:
            text = _tr("Waiting for {0} to confirm the four cards; then the coin is tossed…")
        self.status.setText(text.format(name))
        self.confirmed.emit()

    def _differ(self) -> None:
        self.same_button.setEnabled(False)
        self.differ_button.setEnabled(False)
        self.differ.emit()


__all__ = [
    "PrematchPanel",
    "code_proof_text",
    "dealing_text",
    "ending_text",
    "failure_text",
    "pin_text",
    "toss_text",
]
