"""The main window's network match: its start, its signed record, its end.

:class:`NetMatchWindow` is the half of :class:`~koikoi.ui.main_window.MainWindow` that plays
a match with a person over the network (the screens are the other half): the table takes
the match at its toss (:meth:`NetMatchWindow.start_network_match`), the record is written
after every entry so that a crash loses nothing, a match cut off by a crash is restored from
it (:mod:`koikoi.net.restore`) and reconnected. The rematch is
:class:`~koikoi.ui.net.rematch.RematchWindow`'s, which this is built on. Its words are the
window's (context ``MainWindow``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QMessageBox,
    QStackedWidget,
    QWidget,
)

from koikoi.net.policy import RecordFailed
from koikoi.paths import games_dir, stamped_path
from koikoi.ui.common.settings import ASSIST
from koikoi.ui.match.matchview import Mode
from koikoi.ui.match.saves import RESUME_KEY, KeptMatch
from koikoi.ui.net.neterrors import (
    audit_outcome,
    audit_text,
    bye_detail,
    dropped_detail,
    ending_detail,
    error_detail,
    failure_detail,
    move_problem,
    protocol_detail,
    withheld_seed_text,
)
from koikoi.ui.net.prematch import ending_text as prematch_ending_text
from koikoi.ui.net.rematch import RematchWindow

if TYPE_CHECKING:
    from koikoi.net.recordfile import RecordFile
    from koikoi.net.session.core import Session
    from koikoi.net.session.endings import Ending
    from koikoi.net.session.events import TossDone
    from koikoi.net.transport.options import PeerOptions
    from koikoi.ui.common.settings import AppSettings
    from koikoi.ui.lobby.lobby import Lobby
    from koikoi.ui.lobby.rooms import RoomAnnouncer
    from koikoi.ui.match.controller import GameController
    from koikoi.ui.match.saves import SaveStore
    from koikoi.ui.net.netlink.base import LinkError, PeerInfo
    from koikoi.ui.net.netlink.join import QtJoin
    from koikoi.ui.net.netlink.peer import PeerLink
    from koikoi.ui.net.netlink.room import QtRoom
    from koikoi.ui.start_screen import StartScreen
    from koikoi.ui.table.game_screen import GameScreen

    NetLink = PeerLink | QtRoom
    """A network match's link: a ``QtJoin`` (a ``PeerLink``), a ``QtRoom``, or the lobby
    room's ``PeerLink`` of the match."""

logger = logging.getLogger(__name__)

RESUME_WINDOW = 180.0
"""Seconds a network match cut off by a crash can be resumed (``koikoi.net.resume``)."""


def _tr(text: str) -> str:
    return QCoreApplication.translate("MainWindow", text)


class NetMatchWindow(RematchWindow):
    """The network match's half of the main window (the screens are
    :class:`~koikoi.ui.main_window.MainWindow`'s, which fills in what is declared here)."""

    controller: GameController
    game: GameScreen
    start: StartScreen
    lobby: Lobby
    saves: SaveStore
    settings: AppSettings
    stack: QStackedWidget
    question: QMessageBox | None

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.link: NetLink | None = None
        """The network match's link (``QtRoom`` or ``QtJoin``), from its toss to its end."""
        self.peer: PeerInfo | None = None
        self.net_record: Path | None = None
        """Where the last network match's signed record was saved."""
        self.net_message: QMessageBox | None = None
        """The message that ended a network match, while it is up."""
        self.audit_message: QMessageBox | None = None
        """The note of a finished match whose last audit was refused or failed."""
        self._saved_link: NetLink | None = None
        self._records: dict[bytes, tuple[Path, NetLink]] = {}
        """Per session id: the file its record is written to (after every entry) and the
        link that plays it (what the record's resume key says comes from it)."""
        self._record_files: dict[Path, RecordFile] = {}
        """Per record file: its :class:`~koikoi.net.recordfile.RecordFile` (what it holds)."""
        self.resume_window = RESUME_WINDOW
        """Seconds a match cut off by a crash can still be resumed (docs/protocol.md)."""
        self.restored_link: QtJoin | QtRoom | None = None
        """The link of a match restored from its record, until it resumes or ends."""
        self._restored_room: tuple[QtRoom, RoomAnnouncer] | None = None
        """A restored host's room and its mDNS announcement (``RoomAnnouncer``), from the
        restore until the match ends."""
        self._password_checks: dict[bytes, dict[str, Any]] = {}
        """Per session id of a password room's host: the check of its password its record
        keeps (``koikoi.net.room.password_check``), made once per match."""
        self.resume_prompt: QDialog | None = None
        """The password prompt of a password room's match offered for resume, while open."""

    # The screens are MainWindow's, the one class built on this one: the network half calls
    # them, and a class that does not provide them fails at the first call, not silently.

    def go_home(self) -> None:
        """Back to the start screen (``MainWindow.go_home``)."""
        raise NotImplementedError("MainWindow provides the screens")

    def refresh_start(self) -> None:
        """The start screen's list of kept games again (``MainWindow.refresh_start``)."""
        raise NotImplementedError("MainWindow provides the screens")

    # -- a network match ---------------------------------------------------------------------

    def start_network_match(
        self, link: NetLink, peer: PeerInfo, toss: TossDone, restored: bool = False
    ) -> None:
        """Play the match of ``link`` (a ``QtRoom`` or ``QtJoin`` past the handshake, the
        four-card check and the toss) against ``peer`` (its ``PeerInfo``); ``toss`` is the
        ``TossDone``. Called from the slot of the link's ``tossed`` signal; ``restored``: the
        match was restored from its record (:meth:`reconnect_requested`)."""
        self.controller.shutdown()
        self.link, self.peer = link, peer
        self.net_record = None
        self.start.set_notice(None)
        self.game.set_assist(self.settings.get(ASSIST))
        self.stack.setCurrentWidget(self.game)
        self.game.setFocus()
        self.controller.start_network(link, peer.nickname, toss, restored)
        self.follow_after_the_match(link)
        # the record is kept even if the table has let go of the link (went home early)
        link.ended.connect(lambda _ending, link=link: self._keep_record(link))
        # and written after every entry, so that a crash loses nothing (docs/protocol.md)
        link.options.on_record = self._record_due
        link.options.on_record_failed = self._record_failed
        session = link.session
        if session is not None:
            self._records.setdefault(session.session_id, (self._record_target(session), link))
            self._write_record(session)

    def _record_due(self, session: Session) -> None:
        """``PeerOptions.on_record``: the record is written (:meth:`_save_record`); a write
        that fails raises, for the link to tell (:meth:`_record_failed`)."""
        self._save_record(session)

    def _keep_record(self, link: NetLink | None) -> None:
        if self._saved_link is not link:
            self._saved_link = link
            self.net_record = self._save_net_record(link)

    def home_requested(self) -> None:
        """The Menu button: in a network match, leave it (after asking); else go home."""
        remote = self.controller.remote
        if remote is None or remote.ended is not None or self.controller.mode is Mode.MATCH_OVER:
            self.go_home()
            return
        box = QMessageBox(self)
        box.setObjectName("leaveQuestion")
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(_tr("Leave the match?"))
        name = self.peer.nickname if self.peer is not None else ""
        box.setText(_tr("Leave the match with {0}?").format(name))
        box.setInformativeText(
            _tr(
                "The match ends unfinished and is not scored; {0} is told. "
                "The signed record is kept with your games."
            ).format(name)
        )
        stay = box.addButton(_tr("Keep playing"), QMessageBox.ButtonRole.RejectRole)
        stay.setObjectName("keepPlaying")
        leave = box.addButton(_tr("Leave"), QMessageBox.ButtonRole.AcceptRole)
        leave.setObjectName("leave")
        box.setDefaultButton(stay)
        box.setEscapeButton(stay)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def answered(button: QAbstractButton) -> None:
            self.question = None
            if button is leave and self.controller.remote is not None:
                self.controller.leave()  # the session ends: _network_ended follows

        box.buttonClicked.connect(answered)
        self.question = box
        box.open()

    def _network_ended(self, ending: Ending) -> None:
        """The session is over: keep its signed record; an unfinished match is explained
        in words and the start screen follows."""
        self._keep_record(self.link)
        if ending.finished:  # the match result panel came with the last move
            self._audit_notice(ending)
            return
        mine = ending.by is not None and ending.by.seat == self.controller.me
        text = ending_text(ending, self.peer.nickname if self.peer else "", mine)
        restored, self.restored_link = self.restored_link, None
        if restored is not None and restored is self.link and ending.how in ("dropped", "silent"):
            text = _tr("{0} did not answer: the match could not be resumed.").format(
                self.peer.nickname if self.peer else ""
            )
        if ending.how == "left" and mine:
            self.go_home()
            self.start.set_notice(self._saved_note(text))
            return
        box = QMessageBox(self)
        box.setObjectName("matchEnded")
        box.setIcon(
            QMessageBox.Icon.Warning if ending.how == "cheat" else QMessageBox.Icon.Information
        )
        box.setWindowTitle(_tr("The match is over"))
        box.setText(text)
        box.setInformativeText(self._saved_note(""))
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def done() -> None:
            self.net_message = None
            self.go_home()
            self.start.set_notice(text)

        box.finished.connect(done)
        self.net_message = box
        box.open()

    def _audit_notice(self, ending: Ending) -> None:
        """A finished match whose last deal's audit was refused or failed: the result
        stands (the panel shows it), and a note says who kept the audit from passing."""
        audit = getattr(ending, "audit", None)
        if audit is None or audit.result not in ("refused", "cheat"):
            return
        match = self.controller.match
        winner = match.winner if match is not None else None
        me = self.controller.me
        peer = audit.by is not None and audit.by.seat != me
        name = self.peer.nickname if self.peer else ""
        text = audit_text(audit.result, peer, name, audit_outcome(winner, me))
        logger.info("the last audit: %s (%s)", audit.result, audit.reason)
        box = QMessageBox(self)
        box.setObjectName("auditNotice")
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(_tr("The match is over"))
        box.setText(text)
        box.setInformativeText(self._saved_note(""))
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.audit_message = box
        box.open()

    def _saved_note(self, text: str) -> str:
        path = self.net_record
        saved = (
            _tr("The signed record is saved as {0}.").format(path.name)
            if path is not None
            else _tr("The signed record could not be saved.")
        )
        return f"{text} {saved}".strip()

    def _save_net_record(self, link: NetLink | None) -> Path | None:
        """The session's signed record into ``games/`` as ``net-<time>-seat<n>.json`` (the
        file it was written to during the match)."""
        session = link.session if link is not None else None
        if link is None or session is None:
            return None
        if session.session_id not in self._records:
            self._records[session.session_id] = (self._record_target(session), link)
        return self._write_record(session)

    def _record_target(self, session: Session) -> Path:
        """A new file in ``games/`` for the record of ``session``."""
        taken = {path for path, _link in self._records.values()}
        return stamped_path(
            games_dir(self.saves.directory), "net", f"-seat{session.seat}.json", taken=taken
        )

    def _write_record(self, session: Session) -> Path | None:
        """:meth:`_save_record`, a failure logged (None)."""
        try:
            return self._save_record(session)
        except (OSError, ValueError) as exc:
            logger.error("could not save the network record: %s", exc)
            return None

    def _record_failed(self, failed: RecordFailed) -> None:
        """``PeerOptions.on_record_failed``: the match goes on, the player is told that a
        crash would now lose it (once a match, :mod:`koikoi.net.policy`)."""
        self.game.side.add_line(
            _tr("Could not save the record ({0}): a crash would now lose the match.").format(
                failed.error
            )
        )

    def _save_record(self, session: Session) -> Path | None:
        """Write the session's record (atomically) to its file, with what it takes to resume
        the match after a crash (``saves.RESUME_KEY``): ``PeerOptions.on_record``, called
        after the toss, after every entry (before it is sent), privately dealt also after
        every dealing message taken or sent, and at the end. Raises when it cannot."""
        from koikoi.net.recordfile import RecordFile
        from koikoi.net.resume import restorable

        known = self._records.get(session.session_id)
        if known is None:
            return None
        target, link = known
        extra: dict[str, Any] = {}
        if session.ending is None and restorable(session):
            # what a restart needs to dial again or listen again (a privately dealt match's
            # seeds and journal go beside the record: its sidecar, docs/protocol.md)
            extra[RESUME_KEY] = self._resume_info(session, link)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            self._record_files.setdefault(target, RecordFile(target)).save(session, extra)
        except (OSError, ValueError) as exc:
            raise OSError(f"cannot save the record to {target}: {exc}") from exc
        return target

    def _resume_info(self, session: Session, link: NetLink) -> dict[str, Any]:
        from koikoi.net.roles import Role
        from koikoi.ui.net.netlink.join import QtJoin as QtJoinType

        info: dict[str, Any] = {"role": session.role.value}
        if link is not None and link.options.password:
            info["private"] = True  # no password is written: it is asked again
        if session.role is Role.HOST:
            if info.get("private") and self.lobby.room_title.text():
                info["title"] = self.lobby.room_title.text()
            if info.get("private"):
                info["check"] = self._password_check(session.session_id, link.options.password)
            announced = self._announced_room(link)
            if announced is not None:
                info["room"] = announced
            at = self._listening_at(link) if link is not None else None
            if at is not None:
                info["bind"], info["port"] = at
                if self._port_mapped(at[1]):
                    info["internet"] = True  # restored, it asks the router again
            return info
        address = link.address if isinstance(link, QtJoinType) else ""
        if address:
            info["address"] = address
        room = getattr(link, "room", None)
        if room is not None:
            info["room"] = {"name": room[0], "title": room[1], "fingerprint": room[2]}
        return info

    def _port_mapped(self, port: int) -> bool:
        """Whether the router maps ``port`` for this window (the lobby's internet room, or
        the port kept for the rematches or a restored room)."""
        return any(
            mapping is not None and mapping.port == port and mapping.state != "closed"
            for mapping in (self.lobby.mapping, self.kept_mapping)
        )

    def _map_restored(self, port: int) -> None:
        """A restored internet room asks the router for its port again (the old mapping
        lapsed with its lease, or is there still): the joiner dials the address it joined
        by. What the router answers is said in the table's log."""
        from koikoi.ui.common.signals import emit
        from koikoi.ui.net.portmapping import RoomMapping

        self.release_mapping()
        mapping = RoomMapping(self.lobby.mappers, self, timer=self.lobby.make_timer)

        def opened(done: object) -> None:
            external = getattr(done, "external_port", port)
            emit(
                self.controller.said,
                _tr("Your router opened port {0} for this match again.").format(external),
            )

        def failed(reason: str) -> None:
            emit(
                self.controller.said,
                _tr("Your router did not open the port again ({0}): {1}").format(
                    reason, _tr("a friend elsewhere may not reach you.")
                ),
            )

        mapping.opened.connect(opened)
        mapping.failed.connect(failed)
        self.kept_mapping = mapping
        mapping.start(port)

    def _announced_room(self, link: NetLink | None) -> dict[str, str] | None:
        """The mDNS service name and title of the host's room of ``link``, when it was
        announced (the lobby's room, or a restored room announced again); else None."""
        announcer = None
        if self._restored_room is not None and self._restored_room[0] is link:
            announcer = self._restored_room[1]
        elif link is not None and self.lobby.room is link:
            announcer = self.lobby.announcer
        if announcer is None:
            return None
        advertiser = announcer.advertiser
        return {"name": advertiser.name or advertiser.ad.instance, "title": advertiser.ad.title}

    def _announce_restored(
        self, room: QtRoom, info: Mapping[str, Any], options: PeerOptions
    ) -> None:
        """A restored host announces its room again by mDNS, as it was announced (the same
        service name and title, the port it listens on now), until the match ends: a joiner
        that found it by mDNS finds it again (docs/protocol.md, "A side that crashed")."""
        from koikoi.net.discovery.txt import (
            Advertisement,
            RoomStatus,
            announced_dealing,
            announced_version,
        )
        from koikoi.ui.lobby.rooms import RoomAnnouncer

        named = info.get("room")
        if not isinstance(named, dict) or not named.get("title"):
            return  # never announced (a rematch's room), or a record from before
        ad = Advertisement(
            str(named["title"]),
            options.nickname,
            room.port,
            rounds=options.settings.rounds,
            doubling=options.settings.doubling,
            private=bool(options.password),
            fingerprint=options.identity.fingerprint,
            status=RoomStatus.PLAYING,
            version=announced_version(options.dealings),
            dealing=announced_dealing(options.dealings),
            clock=options.clock,
            instance=str(named.get("name") or ""),
        )
        self._stop_announcing()
        announcer = RoomAnnouncer(ad, bind=self.lobby.bind, parent=self)
        self._restored_room = (room, announcer)
        room.ended.connect(lambda _ending, room=room: self._stop_announcing(room))
        room.closed.connect(lambda room=room: self._stop_announcing(room))
        announcer.publish()

    def _stop_announcing(self, room: QtRoom | None = None) -> None:
        """Withdraw the restored room's announcement (of ``room``, when given)."""
        restored = self._restored_room
        if restored is not None and (room is None or restored[0] is room):
            self._restored_room = None
            restored[1].withdraw()

    def _password_check(self, session_id: bytes, password: str) -> dict[str, Any]:
        """The check of a password room's password its host's record keeps, so that a host
        restarted after a crash tells its own typo at once (docs/protocol.md, "A side that
        crashed"): a failed call to its room is then always someone else's."""
        from koikoi.net.room import password_check

        check = self._password_checks.get(session_id)
        if check is None:
            check = self._password_checks[session_id] = password_check(password)
        return check

    # -- a network match cut off by a crash --------------------------------------------------

    def reconnect_requested(self, kept: KeptMatch, password: str | None = None) -> None:
        """Take up a network match this app was playing when it stopped (docs/protocol.md,
        "A side that crashed"): its session restored from the record, the joiner dials the
        peer (or its room) again, the host listens again where it did; the table opens at
        the restored position and shows "reconnecting…" until the peer is back. What cannot
        be done is said in one line on the start screen; the record stays. A password
        room's match asks for its password first (the lobby's prompt); a wrong one is said
        in one line and the offer stays."""
        if kept.private and password is None:
            self._ask_resume_password(kept)
            return
        try:
            link, peer, toss = self._restore(kept, password or "")
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:  # one line
            logger.warning("could not resume %s: %s", kept.path.name, exc)
            self.refresh_start()  # first: it says what it finds, and would clear this
            self.start.set_notice(_tr("That match could not be resumed: {0}").format(exc))
            return
        session = link.session
        assert session is not None  # restored: adopted, or resuming
        self._records[session.session_id] = (kept.path, link)
        self.restored_link = link
        link.resumed.connect(lambda _resent, link=link: self._restored_resumed(link))
        if kept.private:
            from koikoi.ui.net.netlink.join import QtJoin

            if isinstance(link, QtJoin):
                link.wrong_password.connect(lambda failure: self._resume_refused(link, failure))
            else:
                # The host's own password was checked against its record before it listened
                # (_restore): a call that fails on the password is someone else's, turned
                # away by the room; the match waits on for its peer.
                link.wrong_password.connect(
                    lambda _host, count, link=link: self._stranger_turned_away(link, count)
                )
        self.start_network_match(link, peer, toss, restored=True)
        self.game.show_reconnecting(self.resume_window)
        text = _tr("Reconnecting to {0}…").format(peer.nickname)
        self.game.side.add_line(text)

    def _ask_resume_password(self, kept: KeptMatch) -> None:
        """The lobby's password prompt for the match of a password room; Cancel keeps the
        offer."""
        from koikoi.ui.lobby.lobby_pages import PasswordPrompt

        prompt = PasswordPrompt(kept.title or kept.opponent, self)
        self.resume_prompt = prompt

        def answered(result: int) -> None:
            self.resume_prompt = None
            password = prompt.password.text()
            prompt.deleteLater()
            if result == QDialog.DialogCode.Accepted and password:
                self.reconnect_requested(kept, password)

        prompt.finished.connect(answered)
        prompt.open()

    def _resume_refused(self, link: QtJoin | QtRoom, failure: LinkError) -> None:
        """The password typed to resume a password room's match was not the room's: the
        restored match is let go of without a word (its record as it was, the peer still
        waits), the start screen says so in one line and offers the match again."""
        if self.restored_link is not link:
            return

        self.restored_link = None
        for key, (_path, held) in list(self._records.items()):
            if held is link:
                del self._records[key]
        if self.link is link:
            self.link = None
        link.forsake()
        self.go_home()
        detail = error_detail(failure.error, failure.text)
        self.start.set_notice(_tr("That match could not be resumed: {0}").format(detail))

    def _stranger_turned_away(self, link: NetLink, count: int) -> None:
        """A call with another password reached the restored host's room: said once."""
        if self.restored_link is link and count == 1:
            self.game.side.add_line(
                _tr("A call with another password was turned away; still waiting.")
            )

    def _restored_resumed(self, link: NetLink) -> None:
        if self.restored_link is link:
            self.restored_link = None
            self.game.side.add_line(
                _tr("{0} is back: the match goes on.").format(
                    self.peer.nickname if self.peer is not None else ""
                )
            )

    def _restore(
        self, kept: KeptMatch, password: str = ""
    ) -> tuple[QtJoin | QtRoom, PeerInfo, TossDone]:
        """The link (a ``QtJoin`` dialling, or a ``QtRoom`` listening), the peer's
        ``PeerInfo`` and a ``TossDone`` of the match in ``kept``; ValueError (one line)."""
        from koikoi.net import restore
        from koikoi.net.address import parse_address
        from koikoi.net.identity import KnownPeers, PinStatus, load_or_create_identity
        from koikoi.net.roles import Role
        from koikoi.net.transport.options import PeerOptions
        from koikoi.ui.net.netlink.base import APP_DEALINGS, PeerInfo
        from koikoi.ui.net.netlink.join import QtJoin
        from koikoi.ui.net.netlink.room import QtRoom
        from koikoi.ui.net.pins import write_later

        data = restore.read_strict(kept.path)
        try:
            again = restore.reconnect_of(data)
        except restore.NoReconnect:
            raise ValueError(_tr("the record does not say how to reconnect")) from None
        role, info, settings = again.role, again.info, again.settings
        nickname = again.nickname or self.lobby.nickname_text()
        identity = load_or_create_identity(self.lobby.home)
        # The app's offer; but a match agreed with the joint seed is resumed as it was agreed:
        # a joiner redials a koikoi-net/2 match with the joint seed only (its host may be a
        # released program, which refuses a private-dealing hello), and any other side of a
        # joint-seed match allows the seed, so that its peer's redial is not refused.
        options = PeerOptions(
            identity=identity,
            nickname=nickname,
            settings=settings,
            known_peers=KnownPeers.load(self.lobby.home, write_later),
            hold_for_confirmation=True,
            resume_window=self.resume_window,
            password=password,
            dealings=again.offer(APP_DEALINGS),
        )
        session = restore.restore(
            data, identity, nickname, role, settings, silence_timeout=options.silence_timeout
        )
        link: QtJoin | QtRoom
        if role is Role.JOINER:
            host, port = parse_address(str(info.get("address", "")))
            join = QtJoin(options, self)
            room = info.get("room")
            if isinstance(room, dict) and room.get("name"):
                fingerprint = room.get("fingerprint")
                join.follow_room(
                    str(room["name"]),
                    str(room.get("title", "")),
                    str(fingerprint) if fingerprint else None,
                    self.lobby.bind,
                )
            join.resume_restored(session, host, port, self.resume_window)
            link = join
        else:
            check = again.password_check()
            if check is not None and password:
                from koikoi.net.room import password_matches

                if not password_matches(password, check):  # nothing listens, nothing is sent
                    raise ValueError(_tr("the password is not the room's"))
                self._password_checks[session.session_id] = check
            listening = QtRoom(options, parent=self)
            try:  # where the peer dials again
                listening.listen(str(info.get("bind", "")), int(info.get("port", 0)))
            except ValueError:
                listening.deleteLater()
                raise
            listening.adopt(session, self.resume_window)
            self._announce_restored(listening, info, options)
            if info.get("internet"):
                self._map_restored(listening.port)
            link = listening
        toss = restore.first_toss(session)
        peer = PeerInfo(
            session.peer.nickname,
            session.peer.fingerprint,
            PinStatus.KNOWN,
            settings,
            False,
            str(info.get("address", "")),
        )
        return link, peer, toss


def ending_text(ending: Ending, name: str, mine: bool) -> str:
    """One line for how a network match ended (an ``Ending``), naming the peer. Every part
    of it is a translated phrase (koikoi.ui.net.neterrors); in another language than English
    the network's own English words go to the log, and an ending this app does not know is
    said in general words."""

    how, reason = ending.how, ending.reason
    if how == "left":
        if mine:
            return _tr("You left the match with {0}.").format(name)
        return _tr("{0} left the match.").format(name)
    if how == "dropped":
        detail = dropped_detail(reason)
        if not detail:
            return _tr("The connection to {0} was lost.").format(name)
        return _tr("The connection to {0} was lost: {1}.").format(name, detail)
    if how == "silent":
        return _tr("{0} stopped answering: nothing arrived for too long.").format(name)
    audit = getattr(ending, "audit", None)
    if how == "abandoned" and not mine and audit is not None and audit.result == "refused":
        return withheld_seed_text(name)
    if how == "abandoned":
        if mine:
            return _tr("You did not move for too long: {0} ended the match.").format(name)
        return _tr("{0} did not move for too long: you ended the match.").format(name)
    if how == "cheat":
        return _tr("The match was stopped: a move from {0} did not check ({1}).").format(
            name, move_problem(reason)
        )
    if how == "protocol":
        return _tr("The match was stopped: {0}'s app sent something malformed ({1}).").format(
            name, protocol_detail(reason)
        )
    if how == "stopped":
        return _tr("{0}'s app stopped the match: {1}.").format(name, bye_detail(reason))
    if how == "error":
        detail = failure_detail(reason)
        if not detail:
            return _tr("The match was stopped: this app failed.")
        return _tr("The match was stopped: this app failed ({0}).").format(detail)
    if how == "cards":
        return prematch_ending_text(ending)
    return _tr("The match with {0} ended: {1}.").format(name, ending_detail(how, reason))
