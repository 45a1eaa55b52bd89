"""The main window: the start screen and the game screen, and what links them.

Starting a practice, resuming the saved match, going back to the start (the match stays
saved) and a rematch all pass through here; the rules stay in the engine and the pacing in
the controller. A new practice over a match in progress asks first (keep playing, or set it
aside: it joins the earlier matches listed on the start screen, whence it can be resumed).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from PySide6.QtCore import QByteArray, QCoreApplication, QMargins, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QFont, QGuiApplication, QIcon, QKeyEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QWidget,
)

from koikoi.engine.match import Settings
from koikoi.net.policy import REMATCH_CALL_EVERY, REMATCH_CALL_FOR, retry_call
from koikoi.paths import games_dir
from koikoi.resources import asset
from koikoi.ui import names
from koikoi.ui.accessible import forget_current_while_hidden
from koikoi.ui.art import CardArt
from koikoi.ui.calculator import ScoreCalculator
from koikoi.ui.controller import GameController, Mode, Timings
from koikoi.ui.display import (
    DisplayDialog,
    platform_high_contrast,
    platform_reduced_motion,
    window_sheet,
)
from koikoi.ui.game_screen import GameScreen
from koikoi.ui.help import HelpDialog
from koikoi.ui.lobby import Lobby, connect_match_ready
from koikoi.ui.neterrors import (
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
from koikoi.ui.prematch import ending_text as prematch_ending_text
from koikoi.ui.saves import (
    RESUME_KEY,
    KeptMatch,
    SaveStore,
    kept_matches,
    net_record_name,
    take_back,
)
from koikoi.ui.settings import (
    AI_LEVEL,
    ASSIST,
    PRACTICE_DOUBLING,
    WINDOW_GEOMETRY,
    AppSettings,
    DisplayOptions,
    load_display,
    save_display,
)
from koikoi.ui.start_screen import StartScreen, resume_text
from koikoi.ui.style import apply_style, style_sheet

logger = logging.getLogger(__name__)

KEPT_SHOWN = 20
"""How many earlier matches the start screen lists."""
RESUME_WINDOW = 180.0
"""Seconds a network match cut off by a crash can be resumed (``koikoi.net.resume``)."""


class MainWindow(QMainWindow):
    def __init__(
        self,
        settings: AppSettings | None = None,
        saves: SaveStore | None = None,
        timings: Timings | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        names.install_translations()  # before any widget says a count
        self.setObjectName("mainWindow")
        # the application's display name is the window's title in the language spoken: Qt
        # adds that name to any other title ("花札こいこい — 花札こいこい Koi-Koi")
        title = self.tr("花札こいこい Koi-Koi")
        QGuiApplication.setApplicationDisplayName(title)
        self.setWindowTitle(title)
        self.setAccessibleName(self.tr("Koi-Koi"))
        with contextlib.suppress(FileNotFoundError):
            self.setWindowIcon(QIcon(str(asset("icons/koikoi.svg"))))
        self.settings = settings if settings is not None else AppSettings()
        self.saves = saves if saves is not None else SaveStore()
        self.timings = timings if timings is not None else Timings()
        self.art = CardArt()
        self.controller = GameController(None, self.timings, self.saves, self)
        self.game = GameScreen(self.controller, self.art)
        self.game.set_anim_scale(self.timings.anim_scale)
        self.start = StartScreen(self.settings, self.art)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.start)
        self.stack.addWidget(self.game)
        self.lobby = Lobby(self.settings, self.art)
        self.stack.addWidget(self.lobby)
        self.setCentralWidget(self.stack)
        apply_style(self)
        self._help: HelpDialog | None = None
        self._display_dialog: DisplayDialog | None = None
        self.platform_reduced_motion = platform_reduced_motion()
        self.platform_high_contrast = platform_high_contrast()
        self.high_contrast: bool | None = None
        """High contrast is on (None until the display options are first applied)."""
        self.display = load_display(self.settings)
        self.apply_display(self.display, save=False)
        self._calculator: ScoreCalculator | None = None
        self._last: tuple[Settings, str] | None = None
        self.question: QMessageBox | None = None
        """The question asked before a match in progress is set aside, while it is up."""
        self.link: Any = None
        """The network match's link (``QtRoom`` or ``QtJoin``), from its toss to its end."""
        self.peer: Any = None
        self.net_record: Path | None = None
        """Where the last network match's signed record was saved."""
        self.net_message: QMessageBox | None = None
        """The message that ended a network match, while it is up."""
        self.audit_message: QMessageBox | None = None
        """The note of a finished match whose last audit was refused or failed."""
        self.rematch_link: Any = None
        """The link of a network rematch being set up (a new room, or a redial)."""
        self._saved_link: Any = None
        self._redial_until = 0.0
        self._room_at: tuple[str, int] | None = None
        """Where the host's room of the network match listened, for a rematch."""
        self._records: dict[bytes, tuple[Path, Any]] = {}
        """Per session id: the file its record is written to (after every entry) and the
        link that plays it (what the record's resume key says comes from it)."""
        self._record_files: dict[Path, Any] = {}
        """Per record file: its :class:`~koikoi.net.recordfile.RecordFile` (what it holds)."""
        self.resume_window = RESUME_WINDOW
        """Seconds a match cut off by a crash can still be resumed (docs/protocol.md)."""
        self.restored_link: Any = None
        """The link of a match restored from its record, until it resumes or ends."""
        self._restored_room: tuple[Any, Any] | None = None
        """A restored host's room and its mDNS announcement (``RoomAnnouncer``), from the
        restore until the match ends."""
        self._password_checks: dict[bytes, dict[str, Any]] = {}
        """Per session id of a password room's host: the check of its password its record
        keeps (``koikoi.net.room.password_check``), made once per match."""
        self.resume_prompt: QDialog | None = None
        """The password prompt of a password room's match offered for resume, while open."""
        self._offer_timer = QTimer(self)
        self._offer_timer.setSingleShot(True)
        self._offer_timer.timeout.connect(self._offer_expired)

        self.start.on_practice = self.practice_requested
        self.start.on_play_person = self.show_lobby
        self.lobby.back.connect(self.go_home)
        self.lobby.practice.connect(self._lobby_practice)
        connect_match_ready(self.lobby, self)  # the table's network match, where it exists
        self.start.on_take_back = self.take_back_requested
        self.start.on_reconnect = self.reconnect_requested
        self.start.on_view = self.view_kept
        self.start.on_resume = lambda: None if self.resume() else None
        self.start.on_help = self.show_help
        self.start.on_calculator = self.show_calculator
        self.start.on_learn = self.show_help
        self.start.on_display = self.show_display
        self.start.on_quit = lambda: None if self.close() else None
        self.game.on_home = self.home_requested
        self.game.on_rematch = self.rematch
        self.controller.network_ended.connect(self._network_ended)
        self.game.on_help = self.show_help
        self.game.on_assist_changed = self._assist_changed

        geometry = self.settings.get(WINDOW_GEOMETRY)
        self._first_size: QSize | None = None
        """The size given to a window with none saved, until it is first shown."""
        if not geometry or not self.restoreGeometry(QByteArray(geometry)):
            self._first_size = first_size(self.screen().availableGeometry())
            self.resize(self._first_size)
        self.setMinimumSize(960, 640)
        self.refresh_start()
        forget_current_while_hidden(self)  # no hidden list item says it is focused

    # -- screens -------------------------------------------------------------------------

    def refresh_start(self) -> None:
        """Offer the saved match if there is one; report a save that was set aside."""
        loaded = self.saves.load()
        notice = loaded.problem
        if loaded.moved is not None:
            # the reader's own (English) words are in the log, not on the screen
            notice = self.tr("The saved match could not be read; it was moved to {0}.").format(
                loaded.moved
            )
        self.start.set_notice(notice)
        if loaded.saved is not None:
            m = loaded.saved.replay.match
            self.start.set_resume(resume_text(m.round_no, m.settings.rounds, m.scores))
        else:
            self.start.set_resume(None)
        self.start.set_kept(kept_matches(self.saves, KEPT_SHOWN, self.resume_window))
        offered = self.start.reconnectable
        if offered is None:
            self._offer_timer.stop()
        else:  # the offer goes when the peer has stopped waiting
            left = offered.played + self.resume_window - time.time()
            self._offer_timer.start(max(0, math.ceil(left * 1000)))

    def _offer_expired(self) -> None:
        """The resume window of the match offered has passed: the start screen drops it."""
        if self.stack.currentWidget() is self.start:
            self.refresh_start()

    def practice_requested(self, settings: Settings, level: str, assist: bool) -> None:
        """The start screen's practice buttons: ask first when a match is in progress."""
        self._ask_before_setting_aside(
            self.tr("Set it aside and start a new one"),
            lambda: self.start_practice(settings, level, assist),
        )

    def take_back_requested(self, kept: KeptMatch) -> None:
        """Resume a match set aside earlier; the one in progress, if any, is set aside (a
        network match cut off by a crash is reconnected instead)."""
        if kept.network:
            self.reconnect_requested(kept)
            return

        def resume_kept() -> None:
            try:
                take_back(self.saves, kept)
            except (OSError, ValueError) as exc:
                logger.warning("could not resume %s: %s", kept.path.name, exc)
                self.refresh_start()  # first: it says what it finds, and would clear this
                self.start.set_notice(self.tr("That match could not be resumed: {0}").format(exc))
                return
            self.resume()

        self._ask_before_setting_aside(self.tr("Set it aside and resume the other"), resume_kept)

    def view_kept(self, kept: KeptMatch) -> None:
        """The replay viewer on an earlier match, in a window of its own; a record that
        cannot be shown is said in a message box (the file stays where it is)."""
        from koikoi.ui.viewer import ViewError, open_record

        try:
            viewer = open_record(kept.path, self.art, self, self.anim_scale())
        except ViewError as exc:
            logger.warning("could not view %s", exc)
            box = QMessageBox(self)
            box.setObjectName("viewFailed")
            box.setIcon(QMessageBox.Icon.Warning)
            box.setWindowTitle(self.tr("The match cannot be shown"))
            box.setText(self.tr("This match's record cannot be shown: {0}").format(exc))
            box.setStandardButtons(QMessageBox.StandardButton.Ok)
            box.setWindowModality(Qt.WindowModality.WindowModal)
            box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            box.finished.connect(lambda _result: self.refresh_start())
            box.open()
            return
        viewer.table.set_display(
            self.display.card_scale, self.display.reading_aids, bool(self.high_contrast)
        )
        viewer.resize(self.size())
        viewer.show()
        viewer.setFocus()

    def _ask_before_setting_aside(self, set_aside_text: str, go_on: Callable[[], None]) -> None:
        """Run ``go_on`` at once when no match is in progress; else ask, with "keep playing"
        (which resumes the match in progress) as the default and the Escape answer."""
        loaded = self.saves.load()
        if loaded.saved is None:
            self.start.set_notice(loaded.problem)
            go_on()
            return
        m = loaded.saved.replay.match
        box = QMessageBox(self)
        box.setObjectName("setAsideQuestion")
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(self.tr("A match is in progress"))
        box.setText(self.tr("Your match is not finished."))
        box.setInformativeText(
            self.tr(
                "Round {0} of {1}, you {2} : {3} computer. Setting it aside keeps it: "
                "it stays listed on the start screen and can be resumed from there."
            ).format(m.round_no, m.settings.rounds, m.scores[0], m.scores[1])
        )
        box.setStyleSheet("QMessageBox { background: #1c1411; } QLabel { font-size: 15px; }")
        keep = box.addButton(self.tr("Keep playing"), QMessageBox.ButtonRole.RejectRole)
        keep.setObjectName("keepPlaying")
        other = box.addButton(set_aside_text, QMessageBox.ButtonRole.AcceptRole)
        other.setObjectName("setAside")
        box.setDefaultButton(keep)
        box.setEscapeButton(keep)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def answered(button: QAbstractButton) -> None:
            self.question = None
            if button is other:
                go_on()
            else:
                self.resume()

        box.buttonClicked.connect(answered)
        self.question = box
        box.open()

    def start_practice(
        self, settings: Settings, level: str, assist: bool, seed: bytes | None = None
    ) -> None:
        """A new practice match (``seed`` makes its cards repeatable, for tests)."""
        self._last = (settings, level)
        self.start.set_notice(None)
        self.game.set_assist(assist)
        self.stack.setCurrentWidget(self.game)
        self.game.setFocus()
        self.controller.new_match(settings, level, seed)

    def resume(self) -> bool:
        loaded = self.saves.load()
        if loaded.saved is None:
            self.refresh_start()
            return False
        saved = loaded.saved
        self._last = (saved.replay.match.settings, str(saved.data.get("ai_level", "normal")))
        self.game.set_assist(self.settings.get(ASSIST))
        self.game.reset()
        self.stack.setCurrentWidget(self.game)
        self.game.setFocus()
        self.controller.resume(saved)
        return True

    # -- a network match ---------------------------------------------------------------------

    def start_network_match(self, link: Any, peer: Any, toss: Any, restored: bool = False) -> None:
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
        self._room_at = self._listening_at(link)
        # the record is kept even if the table has let go of the link (went home early)
        link.ended.connect(lambda _ending, link=link: self._keep_record(link))
        # and written after every entry, so that a crash loses nothing (docs/protocol.md)
        link.options.on_record = self._save_record
        link.options.on_record_failed = self._record_failed
        session = link.session
        if session is not None:
            self._records.setdefault(session.session_id, (self._record_target(session), link))
            self._write_record(session)

    def _keep_record(self, link: Any) -> None:
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
        box.setWindowTitle(self.tr("Leave the match?"))
        box.setText(self.tr("Leave the match with {0}?").format(self.peer.nickname))
        box.setInformativeText(
            self.tr(
                "The match ends unfinished and is not scored; {0} is told. "
                "The signed record is kept with your games."
            ).format(self.peer.nickname)
        )
        stay = box.addButton(self.tr("Keep playing"), QMessageBox.ButtonRole.RejectRole)
        stay.setObjectName("keepPlaying")
        leave = box.addButton(self.tr("Leave"), QMessageBox.ButtonRole.AcceptRole)
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

    def _network_ended(self, ending: Any) -> None:
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
            text = self.tr("{0} did not answer: the match could not be resumed.").format(
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
        box.setWindowTitle(self.tr("The match is over"))
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

    def _audit_notice(self, ending: Any) -> None:
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
        box.setWindowTitle(self.tr("The match is over"))
        box.setText(text)
        box.setInformativeText(self._saved_note(""))
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.audit_message = box
        box.open()

    def _saved_note(self, text: str) -> str:
        path = self.net_record
        saved = (
            self.tr("The signed record is saved as {0}.").format(path.name)
            if path is not None
            else self.tr("The signed record could not be saved.")
        )
        return f"{text} {saved}".strip()

    def _save_net_record(self, link: Any) -> Path | None:
        """The session's signed record into ``games/`` as ``net-<time>-seat<n>.json`` (the
        file it was written to during the match)."""
        session = link.session if link is not None else None
        if session is None:
            return None
        if session.session_id not in self._records:
            self._records[session.session_id] = (self._record_target(session), link)
        return self._write_record(session)

    def _record_target(self, session: Any) -> Path:
        """A new file in ``games/`` for the record of ``session``."""
        games = games_dir(self.saves.directory)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        n = 1
        target = games / net_record_name(stamp, session.seat)
        taken = {path for path, _link in self._records.values()}
        while target.exists() or target in taken:
            n += 1
            target = games / net_record_name(stamp, session.seat, n)
        return target

    def _write_record(self, session: Any) -> Path | None:
        """:meth:`_save_record`, a failure logged (None)."""
        try:
            return self._save_record(session)
        except (OSError, ValueError) as exc:
            logger.error("could not save the network record: %s", exc)
            return None

    def _record_failed(self, failed: Any) -> None:
        """``PeerOptions.on_record_failed``: the match goes on, the player is told that a
        crash would now lose it (once a match, :mod:`koikoi.net.policy`)."""
        self.game.side.add_line(
            self.tr("Could not save the record ({0}): a crash would now lose the match.").format(
                failed.error
            )
        )

    def _save_record(self, session: Any) -> Path | None:
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

    def _resume_info(self, session: Any, link: Any) -> dict[str, Any]:
        from koikoi.net.roles import Role
        from koikoi.ui.netlink import QtJoin as QtJoinType

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
            return info
        address = link.address if isinstance(link, QtJoinType) else ""
        if address:
            info["address"] = address
        room = getattr(link, "room", None)
        if room is not None:
            info["room"] = {"name": room[0], "title": room[1], "fingerprint": room[2]}
        return info

    def _announced_room(self, link: Any) -> dict[str, str] | None:
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

    def _announce_restored(self, room: Any, info: dict[str, Any], options: Any) -> None:
        """A restored host announces its room again by mDNS, as it was announced (the same
        service name and title, the port it listens on now), until the match ends: a joiner
        that found it by mDNS finds it again (docs/protocol.md, "A side that crashed")."""
        from koikoi.net.discovery import (
            Advertisement,
            RoomStatus,
            announced_dealing,
            announced_version,
        )
        from koikoi.ui.rooms import RoomAnnouncer

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
            instance=str(named.get("name") or ""),
        )
        self._stop_announcing()
        announcer = RoomAnnouncer(ad, bind=self.lobby.bind, parent=self)
        self._restored_room = (room, announcer)
        room.ended.connect(lambda _ending, room=room: self._stop_announcing(room))
        room.closed.connect(lambda room=room: self._stop_announcing(room))
        announcer.publish()

    def _stop_announcing(self, room: Any = None) -> None:
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
            self.start.set_notice(self.tr("That match could not be resumed: {0}").format(exc))
            return
        session = link.session
        self._records[session.session_id] = (kept.path, link)
        self.restored_link = link
        link.resumed.connect(lambda _resent, link=link: self._restored_resumed(link))
        if kept.private:
            from koikoi.ui.netlink import QtJoin

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
        text = self.tr("Reconnecting to {0}…").format(peer.nickname)
        self.game.side.add_line(text)

    def _ask_resume_password(self, kept: KeptMatch) -> None:
        """The lobby's password prompt for the match of a password room; Cancel keeps the
        offer."""
        from koikoi.ui.lobby import PasswordPrompt

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

    def _resume_refused(self, link: Any, failure: Any) -> None:
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
        self.start.set_notice(self.tr("That match could not be resumed: {0}").format(detail))

    def _stranger_turned_away(self, link: Any, count: int) -> None:
        """A call with another password reached the restored host's room: said once."""
        if self.restored_link is link and count == 1:
            self.game.side.add_line(
                self.tr("A call with another password was turned away; still waiting.")
            )

    def _restored_resumed(self, link: Any) -> None:
        if self.restored_link is link:
            self.restored_link = None
            self.game.side.add_line(
                self.tr("{0} is back: the match goes on.").format(
                    self.peer.nickname if self.peer is not None else ""
                )
            )

    def _restore(self, kept: KeptMatch, password: str = "") -> tuple[Any, Any, Any]:
        """The link (a ``QtJoin`` dialling, or a ``QtRoom`` listening), the peer's
        ``PeerInfo`` and a ``TossDone`` of the match in ``kept``; ValueError (one line)."""
        from koikoi.engine.record import RecordError, loads
        from koikoi.net.handshake import PROTOCOL_VERSION, protocol_name, resuming_offer
        from koikoi.net.identity import KnownPeers, PinStatus, load_or_create_identity
        from koikoi.net.lockstep import Lockstep
        from koikoi.net.recordfile import attach_local
        from koikoi.net.resume import restore_session
        from koikoi.net.roles import Role
        from koikoi.net.session import TossDone
        from koikoi.net.transport import PeerOptions
        from koikoi.ui.netlink import (
            APP_DEALINGS,
            PeerInfo,
            QtJoin,
            QtRoom,
            parse_address,
        )
        from koikoi.ui.pins import write_later

        try:
            text = kept.path.read_text(encoding="utf-8")
            data = attach_local(loads(text, unique_keys=True), kept.path)
        except (UnicodeDecodeError, RecordError) as exc:
            raise ValueError(str(exc)) from None
        info = data.get(RESUME_KEY)
        if not isinstance(info, dict) or info.get("role") not in ("host", "joiner"):
            raise ValueError(self.tr("the record does not say how to reconnect"))
        role = Role(info["role"])
        players = {p.get("role"): p for p in data.get("net", {}).get("players", [])}
        mine = players.get(role.value, {})
        nickname = str(mine.get("nick", "")) or self.lobby.nickname_text()
        raw = data.get("settings", {})
        settings = Settings(rounds=int(raw.get("rounds", 6)), doubling=bool(raw.get("doubling")))
        identity = load_or_create_identity(self.lobby.home)
        # The app's offer; but a match agreed with the joint seed is resumed as it was agreed:
        # a joiner redials a koikoi-net/2 match with the joint seed only (its host may be a
        # released program, which refuses a private-dealing hello), and any other side of a
        # joint-seed match allows the seed, so that its peer's redial is not refused.
        net = data.get("net", {})
        protocol = str(net.get("protocol", protocol_name(PROTOCOL_VERSION)))
        dealing = str(net.get("dealing", "seed"))
        offer = resuming_offer(APP_DEALINGS, protocol, dealing, role is Role.JOINER)
        options = PeerOptions(
            identity=identity,
            nickname=nickname,
            settings=settings,
            known_peers=KnownPeers.load(self.lobby.home, write_later),
            hold_for_confirmation=True,
            resume_window=self.resume_window,
            password=password,
            dealings=offer,
        )
        session = restore_session(
            data,
            identity,
            nickname,
            role,
            settings,
            now=time.monotonic(),
            silence_timeout=options.silence_timeout,
        )
        link: Any
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
            check = info.get("check")
            if isinstance(check, dict) and password:
                from koikoi.net.room import password_matches

                if not password_matches(password, check):  # nothing listens, nothing is sent
                    raise ValueError(self.tr("the password is not the room's"))
                self._password_checks[session.session_id] = check
            listening = QtRoom(options, parent=self)
            try:  # where the peer dials again
                listening.listen(str(info.get("bind", "")), int(info.get("port", 0)))
            except ValueError:
                listening.deleteLater()
                raise
            listening.adopt(session, self.resume_window)
            self._announce_restored(listening, info, options)
            link = listening
        lockstep = session.lockstep
        assert lockstep is not None and session.toss.result is not None
        result = session.toss.result
        first = Lockstep(settings, result.first_oya, result.seed, session.session_id)
        toss = TossDone(result, tuple(first.events))
        peer = PeerInfo(
            session.peer.nickname,
            session.peer.fingerprint,
            PinStatus.KNOWN,
            settings,
            False,
            str(info.get("address", "")),
        )
        return link, peer, toss

    # -- a network rematch -------------------------------------------------------------------

    def network_rematch(self) -> None:
        """Rematch: the host listens again on the same port, the joiner redials the same
        address until the host is back (30 s); a new handshake, a new session, a new toss.
        The peer must be the same key as in the match just played."""
        from koikoi.ui.netlink import QtRoom  # the network only when used

        old, peer = self.link, self.peer
        if old is None or peer is None or self.rematch_link is not None:
            return
        name = peer.nickname
        if self._room_at is not None:  # the host: its room opens again where it was
            bind, port = self._room_at

            def listen_again() -> None:
                if self.link is not old or self.rematch_link is not None:
                    return  # gone home meanwhile, or already listening
                room = QtRoom(old.options, parent=self)
                try:
                    room.listen(bind, port)
                except ValueError as exc:
                    self._rematch_failed(str(exc))
                    return
                self.rematch_link = room
                room.established.connect(lambda info: self._rematch_established(room, info))
                room.tossed.connect(lambda toss: self._rematch_tossed(room, toss))

            old.leave()
            if getattr(old, "done", True):
                listen_again()
            else:  # a lobby's room still holds the port until the match's link closes
                old.closed.connect(listen_again)
            text = self.tr("Rematch: waiting for {0} to click Rematch too…").format(name)
        else:
            self._redial_until = time.monotonic() + REMATCH_CALL_FOR
            self._redial(old)
            text = self.tr("Rematch: calling {0} again…").format(name)
        self.game.side.add_line(text)
        self.game.prompt.setText(text)
        self.game.prompt.show()
        button = self.game.overlay.findChild(QPushButton, "default")
        if button is not None:
            button.setEnabled(False)

    def _listening_at(self, link: Any) -> tuple[str, int] | None:
        """Where the host's room listened (bind address, port), for a rematch; None for the
        joiner. ``link`` is a ``QtRoom``, or the lobby room's ``PeerLink`` of the match."""
        from koikoi.net.roles import Role
        from koikoi.ui.netlink import QtRoom, parse_address

        if isinstance(link, QtRoom):
            addresses = link.addresses()
            bind = parse_address(addresses[0])[0] if len(addresses) == 1 else ""
            return bind, link.port
        sock = getattr(link, "socket", None)
        if getattr(link, "role", None) is Role.HOST and sock is not None:
            return self.lobby.bind or "", int(sock.localPort())
        return None

    def _redial(self, old: Any) -> None:
        from koikoi.ui.netlink import QtJoin

        join = QtJoin(old.options, parent=self)
        self.rematch_link = join
        join.established.connect(lambda info: self._rematch_established(join, info))
        join.tossed.connect(lambda toss: self._rematch_tossed(join, toss))

        def failed(failure: Any) -> None:
            if self.rematch_link is not join:
                return
            # the host is not back yet: its port is closed, or its old room (its match over,
            # or closing) says busy; nothing else is retried (a room never hangs up on a call)
            error = failure.error
            code = getattr(error, "error_code", "")
            closed_port = failure.kind == "connect" and code == "connect.refused"
            refusal = getattr(error, "code", None) if failure.kind == "refused" else None
            again = retry_call(closed_port=closed_port, refusal=refusal)
            if again and time.monotonic() < self._redial_until:
                QTimer.singleShot(round(REMATCH_CALL_EVERY * 1000), lambda: self._redial(old))
                return
            self.rematch_link = None
            self._rematch_failed(failure.text)

        join.failed.connect(failed)
        join.connect_to_address(old.address)

    def _rematch_established(self, link: Any, info: Any) -> None:
        """A rematch skips the four cards, which were compared before the first match: the
        same key is the same player. Anyone else is turned away before the toss."""
        if self.rematch_link is not link:
            return
        same = self.peer is not None and info.fingerprint == self.peer.fingerprint
        if same:
            link.confirm_sas(True)  # a no-op where the options do not hold the toss
        else:
            link.leave("not the same player")
            self.rematch_link = None
            self._rematch_failed(self.tr("someone else answered"))

    def _rematch_tossed(self, link: Any, toss: Any) -> None:
        if self.rematch_link is not link:
            return
        self.rematch_link = None
        match = getattr(link, "match", link)  # a room's match link, or the joiner itself
        new_peer = match.peer if match is not None else None
        if new_peer is None or self.peer is None or new_peer.fingerprint != self.peer.fingerprint:
            link.leave("not the same player")
            self._rematch_failed(self.tr("someone else answered"))
            return
        self.start_network_match(link, new_peer, toss)

    def _rematch_failed(self, why: str) -> None:
        name = self.peer.nickname if self.peer is not None else ""
        text = self.tr("No rematch with {0}: {1}").format(name, why)
        self.game.side.add_line(text)
        self.game.prompt.setText(text)
        button = self.game.overlay.findChild(QPushButton, "default")
        if button is not None:
            button.setEnabled(True)

    def show_lobby(self) -> None:
        """対戦: the lobby (its room list starts browsing as it is shown)."""
        self.stack.setCurrentWidget(self.lobby)
        self.lobby.nickname.setFocus()

    def _lobby_practice(self, settings: Settings) -> None:
        self.lobby.stop_browsing()
        self.practice_requested(settings, self.settings.get(AI_LEVEL), self.settings.get(ASSIST))

    def go_home(self) -> None:
        """Back to the start screen; the match in progress stays saved for resuming."""
        rematch, self.rematch_link = self.rematch_link, None
        if rematch is not None:  # a rematch being set up is called off
            rematch.leave("the player went back")
        link, self.link = self.link, None
        if link is not None:  # no rematch: the room stops listening
            link.leave()
        self.controller.shutdown()
        self.game.reset()
        self.controller.mode = Mode.IDLE
        self.stack.setCurrentWidget(self.start)
        self.refresh_start()

    def rematch(self) -> None:
        if self.controller.remote is not None:
            self.network_rematch()
            return
        if self._last is None:
            self.go_home()
            return
        settings, level = self._last
        self.start_practice(settings, level, self.game.table.assist)

    def show_help(self, page: str = "short") -> None:
        """The help window at one of its pages: the rules in short and the keys ("short"),
        the rules with pictures ("rules"), the card gallery ("cards"), the glossary."""
        if self._help is None:
            display = self.display
            self._help = HelpDialog(self, self.art, display.reading_aids, display.card_scale)
            self._help.on_calculator = self.show_calculator
            self._help.on_display = self.show_display
        self._help.show()
        self._help.raise_()
        self._help.activateWindow()
        self._help.show_page(page)

    def show_display(self) -> None:
        """The display options; each applies at once, to the table too."""
        if self._display_dialog is None:
            self._display_dialog = DisplayDialog(self.display, self)
            self._display_dialog.on_changed = self.apply_display
        self._display_dialog.set_options(self.display)
        self._display_dialog.show()
        self._display_dialog.raise_()
        self._display_dialog.activateWindow()

    def anim_scale(self) -> float:
        """The table's animation scale: the timings' times the display options' speed (0
        with reduced motion)."""
        return self.timings.anim_scale * self.display.animation_factor(self.platform_reduced_motion)

    def _restyle(self, high_contrast: bool) -> None:
        """The window's style sheet with the display options' part. It is taken off first and
        the window's font set anew: a second style sheet over polished widgets would leave
        them in the application's font instead of the window's."""
        font = self.font()
        self.setStyleSheet("")
        self.setFont(QFont())
        self.setFont(font)
        self.setStyleSheet(style_sheet() + window_sheet(high_contrast))

    def apply_display(self, options: DisplayOptions, save: bool = True) -> None:
        """Use (and keep) display options: the table, the learning pages, the palette."""
        self.display = options
        if save:
            save_display(self.settings, options)
        high = options.contrast_high(self.platform_high_contrast)
        self.art.show_aids = options.reading_aids  # the panels, the calculator, the start
        self.game.table.set_display(options.card_scale, options.reading_aids, high)
        self.game.set_anim_scale(self.anim_scale())
        # the toss panel's spin asks the controller's timings whether things move
        # and the drawn card's pace (R5.5) is the display options' too
        self.controller.timings = dataclasses.replace(
            self.timings,
            anim_scale=self.anim_scale(),
            auto_take_ms=options.draw_wait_ms(self.timings.auto_take_ms),
        )
        if self._help is not None:
            self._help.set_aids(options.reading_aids)
            self._help.set_card_scale(options.card_scale)
        if high != self.high_contrast:
            self.high_contrast = high
            self._restyle(high)
            self.start.high_contrast = high
            self.start.update()

    def show_calculator(self) -> None:
        """The score calculator, doubling set as the practice settings have it."""
        if self._calculator is None:
            self._calculator = ScoreCalculator(self, self.art, self.settings.get(PRACTICE_DOUBLING))
        self._calculator.show()
        self._calculator.raise_()
        self._calculator.activateWindow()

    def _assist_changed(self, on: bool) -> None:
        self.settings.set(ASSIST, on)
        self.start.assist.setChecked(on)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._first_size == self.size():  # the frame is known once shown: made to fit
            QTimer.singleShot(0, self._fit_frame)
        self._first_size = None  # (a window sized by its caller is left as it is)

    def _fit_frame(self) -> None:
        """Shrink a first window whose frame (the title bar) takes it past the screen's
        available room, and bring it inside that room."""
        room = self.screen().availableGeometry()
        frame = self.frameGeometry()
        extra_w = frame.width() - self.width()
        extra_h = frame.height() - self.height()
        if extra_w <= 0 and extra_h <= 0:  # no frame (offscreen, no window manager)
            return
        width = max(self.minimumWidth(), min(self.width(), room.width() - extra_w))
        height = max(self.minimumHeight(), min(self.height(), room.height() - extra_h))
        if (width, height) != (self.width(), self.height()):
            self.resize(width, height)
        if not room.contains(self.frameGeometry()):
            self.move(
                max(room.left(), min(frame.left(), room.right() + 1 - width - extra_w)),
                max(room.top(), min(frame.top(), room.bottom() + 1 - height - extra_h)),
            )

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # a key with no focused widget reaches the window: the table's keys still work
        if self.stack.currentWidget() is self.game and self.game.handle_key(event.key()):
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        remote = self.controller.remote
        if remote is not None and remote.ended is None:
            self.controller.leave()  # the peer is told, and the record kept
        self.controller.shutdown()
        self.lobby.shutdown()
        self.settings.set(WINDOW_GEOMETRY, bytes(self.saveGeometry().data()))
        self.settings.sync()
        super().closeEvent(event)


FRAME_ALLOWANCE: Final = QMargins(4, 36, 4, 4)
"""Room left for the window manager's frame (a title bar, borders) before the window is
shown and its frame is known."""


def first_size(room: QRect) -> QSize:
    """A first window's size: 1280×800 where the screen's available room has that and the
    frame too, else what the room leaves (never under the 960×640 minimum)."""
    a = FRAME_ALLOWANCE
    width = min(1280, room.width() - a.left() - a.right())
    height = min(800, room.height() - a.top() - a.bottom())
    return QSize(max(960, width), max(640, height))


def ending_text(ending: Any, name: str, mine: bool) -> str:
    """One line for how a network match ended (an ``Ending``), naming the peer. Every part
    of it is a translated phrase (koikoi.ui.neterrors); in another language than English
    the network's own English words go to the log, and an ending this app does not know is
    said in general words."""

    def tr(text: str) -> str:
        return QCoreApplication.translate("MainWindow", text)

    how, reason = ending.how, ending.reason
    if how == "left":
        if mine:
            return tr("You left the match with {0}.").format(name)
        return tr("{0} left the match.").format(name)
    if how == "dropped":
        detail = dropped_detail(reason)
        if not detail:
            return tr("The connection to {0} was lost.").format(name)
        return tr("The connection to {0} was lost: {1}.").format(name, detail)
    if how == "silent":
        return tr("{0} stopped answering: nothing arrived for too long.").format(name)
    audit = getattr(ending, "audit", None)
    if how == "abandoned" and not mine and audit is not None and audit.result == "refused":
        return withheld_seed_text(name)
    if how == "abandoned":
        if mine:
            return tr("You did not move for too long: {0} ended the match.").format(name)
        return tr("{0} did not move for too long: you ended the match.").format(name)
    if how == "cheat":
        return tr("The match was stopped: a move from {0} did not check ({1}).").format(
            name, move_problem(reason)
        )
    if how == "protocol":
        return tr("The match was stopped: {0}'s app sent something malformed ({1}).").format(
            name, protocol_detail(reason)
        )
    if how == "stopped":
        return tr("{0}'s app stopped the match: {1}.").format(name, bye_detail(reason))
    if how == "error":
        detail = failure_detail(reason)
        if not detail:
            return tr("The match was stopped: this app failed.")
        return tr("The match was stopped: this app failed ({0}).").format(detail)
    if how == "cards":
        return prematch_ending_text(ending)
    return tr("The match with {0} ended: {1}.").format(name, ending_detail(how, reason))
