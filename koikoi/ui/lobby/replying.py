"""The lobby's both-sides-dial half (docs/protocol.md, "Both sides dial"), for two homes whose
routers let nothing in unasked.

- **The joiner**: a join by code that got no answer offers "Make a reply code". The lobby
  then listens on a port of its own (asking its router to map it, as a room does), shows the
  reply code (its addresses and this player's fingerprint) with a Copy button, and dials the
  room's addresses from that port for :data:`~koikoi.net.joincode.REPLY_WAIT` s while the
  host dials back (:class:`~koikoi.ui.net.netlink.bothways.QtBothWays`). The room's identity
  stays pinned by its code.
- **The host**: a room open to the internet has a "Reply code" field on its waiting page.
  A reply code typed there pins that joiner's identity on the room and dials its addresses
  from the room's port for 15 s (:class:`~koikoi.ui.net.netlink.bothways.QtDialBack`); when
  none answers, the page says what each answered and the pin is taken off again.

:class:`LobbyReplying` is that half of :class:`~koikoi.ui.lobby.lobby.Lobby`; its words are the
lobby's (the translation context ``Lobby``).
"""

from __future__ import annotations

import contextlib
import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLineEdit, QPushButton

from koikoi.net.address import format_address, parse_address
from koikoi.net.joincode import REPLY_WAIT, JoinCode, JoinCodeError, decode, encode, room_code
from koikoi.net.portmap import Mapping
from koikoi.net.transport.bothdial import listen_dual
from koikoi.ui.common.signals import drop_slots
from koikoi.ui.lobby.hosting import LobbyHosting
from koikoi.ui.net.netlink.base import LinkError, Timer
from koikoi.ui.net.netlink.bothways import DIAL_BACK_WINDOW, QtBothWays, QtDialBack
from koikoi.ui.net.netlink.room import local_addresses
from koikoi.ui.net.portmapping import RoomMapping

if TYPE_CHECKING:
    from koikoi.ui.net.netlink.join import QtJoin


def _tr(text: str) -> str:
    return QCoreApplication.translate("Lobby", text)


class LobbyReplying(LobbyHosting):
    """The lobby's both-sides-dial half (the lobby fills in what is declared here)."""

    _code: JoinCode | None
    reply_button: QPushButton
    address_password: QLineEdit
    both_ways: QtBothWays | None = None
    """The joiner listening and dialling after its code got no answer."""
    reply_mapping: RoomMapping | None = None
    """The router's mapping of that joiner's port, while it listens."""
    dial_back: QtDialBack | None = None
    """The room dialling a reply code's addresses."""
    reply_timeout: float = REPLY_WAIT
    """Seconds a joiner's reply waits for the room to dial back."""
    dial_back_window: float = DIAL_BACK_WINDOW
    """Seconds the room dials a reply code's addresses."""
    _reply_clock: Timer
    _reply_for: JoinCode | None = None
    """The room's code whose join got no answer (what a reply code answers)."""
    _reply_text = ""

    def _fail(self, failure: LinkError) -> None:
        raise NotImplementedError("the Lobby provides it")

    def _take_join(self, join: QtJoin) -> None:
        raise NotImplementedError("the Lobby provides it")

    # --- the joiner ----------------------------------------------------------------------

    def offer_reply(self, failure: LinkError) -> None:
        """After a failure: the "Make a reply code" button where a join by code got no
        answer (or a reply's wait ran out), else none."""
        code = self._code if failure.kind == "connect" else self._reply_for
        if failure.kind not in ("connect", "reply") or code is None:
            self._reply_for = None
            self.reply_button.hide()
            return
        self._reply_for = code
        self.reply_button.show()

    def make_reply_code(self) -> None:
        """Listen on a port of this side's, show its reply code, and dial the room from it
        while its host dials back."""
        code = self._reply_for
        if code is None or self.join is not None or self.room is not None:
            return
        if self.both_ways is not None:
            return
        options = self._options(self.form_settings(), self.address_password.text())
        if options is None:
            return
        options.expected_fingerprint = code.fingerprint
        try:
            both = QtBothWays(
                options,
                listen_dual(self.bind or "", 0),
                code,
                self.reply_timeout,
                self,
                now=self.now,
                timer=self.make_timer,
            )
        except OSError as error:
            self._show_message(
                _tr("No port can be opened for a reply here: {0}").format(error.strerror or error)
            )
            return
        self.reply_button.hide()
        self._show_message(None)
        both.joined.connect(self._on_both_joined)
        both.failed.connect(self._on_both_failed)
        self.both_ways = both
        self._code = code  # joined by its code: the handshake proves the room's identity
        host = format_address(code.ordered[0].host, code.ordered[0].port)
        self.waiting_page.show_replying(host, both.port)
        self._show_reply_code()
        self.pages.setCurrentWidget(self.waiting_page)
        self.cancel_button.setFocus()
        mapping = RoomMapping(self.mappers, self, timer=self.make_timer)
        mapping.opened.connect(self._on_reply_mapped)
        mapping.failed.connect(self._on_reply_not_mapped)
        self.reply_mapping = mapping
        mapping.start(both.port)
        both.start()
        self._tell_reply_progress()

    def _show_reply_code(self, mapping: Mapping | None = None) -> None:
        both = self.both_ways
        if both is None:
            return
        mapped = []
        if mapping is not None:
            mapped = [
                (mapping.external_host, mapping.external_port),
                (mapping.internal_host, mapping.internal_port),
            ]
        listening = [(self.bind, both.port)] if self.bind else []
        for text in [] if self.bind else local_addresses(both.port):
            with contextlib.suppress(ValueError):
                listening.append(parse_address(text))
        fingerprint = both.options.identity.fingerprint
        code = room_code(listening, fingerprint, mapped, reply=True)
        self._reply_text = "" if code is None else encode(code)
        self.waiting_page.show_code(self._reply_text, reply=True)

    def _on_reply_mapped(self, mapping: Mapping) -> None:
        if self.both_ways is None:
            return
        self._show_reply_code(mapping)  # the host may dial the mapping: the roles turn
        self.waiting_page.show_internet(
            _tr(
                "Your router opened port {0} for the reply: the code above names it first now "
                "(give the host this one)."
            ).format(mapping.external_port)
        )

    def _on_reply_not_mapped(self, reason: str) -> None:
        if self.both_ways is not None:
            self.waiting_page.show_internet(
                _tr(
                    "Your router opened no port for the reply ({0}): the room's host dials you "
                    "all the same, while your koikoi dials the room."
                ).format(reason)
            )

    def _tell_reply_progress(self) -> None:
        both = self.both_ways
        if both is None or both.winner is not None:
            return
        n = math.ceil(both.seconds_left())
        text = QCoreApplication.translate(
            "Lobby",
            "Dialling the room from port {0} while its host dials you: %n second(s) left.",
            None,
            n,
        )
        self.waiting_state.setText(text.format(both.port))
        self._reply_clock.start(1000)

    def _on_both_joined(self, join: QtJoin) -> None:
        self._reply_clock.stop()
        self._let_go_of_both_ways()
        self._take_join(join)

    def _on_both_failed(self, failure: LinkError) -> None:
        self._reply_clock.stop()
        self._let_go_of_both_ways()
        self._fail(failure)

    def _let_go_of_both_ways(self) -> None:
        both, self.both_ways = self.both_ways, None
        if both is not None:
            drop_slots(both.joined, both.failed)
            both.cancel()
            both.deleteLater()

    def stop_reply(self) -> None:
        """Stop listening and dialling for a reply, and let the router's mapping go."""
        self._reply_clock.stop()
        self._let_go_of_both_ways()
        mapping, self.reply_mapping = self.reply_mapping, None
        if mapping is not None:
            drop_slots(mapping.opened, mapping.failed)
            mapping.close()

    # --- the host ------------------------------------------------------------------------

    def dial_back_reply(self) -> None:
        """The reply code typed on an internet room's waiting page: dial it back."""
        room = self.room
        page = self.waiting_page
        if room is None or self.peer is not None:
            return
        text = " ".join(page.reply_code.text().split())
        try:
            code = decode(text)
        except JoinCodeError as error:
            page.show_reply_state(
                _tr("That is not a reply code ({0}): type it again.").format(error)
            )
            return
        if not code.reply:
            page.show_reply_state(
                _tr(
                    "That is a room's code, not a reply code: your friend's koikoi shows a "
                    "reply code when it cannot reach this room."
                )
            )
            return
        self._stop_dial_back()
        dial = QtDialBack(
            room, code, self, now=self.now, timer=self.make_timer, window=self.dial_back_window
        )
        dial.failed.connect(self._on_dial_back_failed)
        self.dial_back = dial
        page.reply_code.setEnabled(False)
        page.dial_back_button.setEnabled(False)
        where = ", ".join(format_address(*c) for c in dial.candidates)
        page.show_reply_state(
            _tr(
                "Dialling {0} for up to {1} s while your friend's koikoi dials this room; only "
                "{2} gets in."
            ).format(where, f"{dial.window:g}", code.fingerprint)
        )
        dial.start()

    def _on_dial_back_failed(self, tried: str) -> None:
        dial = self.dial_back
        self._stop_dial_back()
        page = self.waiting_page
        page.reply_code.setEnabled(True)
        page.dial_back_button.setEnabled(True)
        if dial is not None and dial.answered:
            page.show_reply_state(
                _tr(
                    "The reply code's koikoi answered, but no match came of it ({0}): the line "
                    "above says why. Type the reply code again to try again."
                ).format(tried)
            )
            return
        page.show_reply_state(
            _tr(
                "Your friend's koikoi did not answer within {0} s, both sides dialling ({1}). "
                "Are they still waiting? If it fails again, one of the two routers must let a "
                "port in: turn on UPnP (or NAT-PMP/PCP) in either, or forward a port by hand."
            ).format(f"{dial.window:g}" if dial is not None else "15", tried)
        )

    def _stop_dial_back(self) -> None:
        dial, self.dial_back = self.dial_back, None
        if dial is not None:
            drop_slots(dial.failed)
            dial.stop()
            dial.deleteLater()

    def _close_room(self) -> None:
        self._stop_dial_back()
        super()._close_room()
