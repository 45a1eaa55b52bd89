"""The main window: the start screen and the game screen, and what links them.

Starting a practice, resuming the saved match, going back to the start (the match stays
saved) and a rematch all pass through here; the rules stay in the engine and the pacing in
the controller. A new practice over a match in progress asks first (keep playing, or set it
aside: it joins the earlier matches listed on the start screen, whence it can be resumed).
A match with a person over the network is the window's other half,
:class:`~koikoi.ui.net.netmatch.NetMatchWindow`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import math
import time
from collections.abc import Callable
from typing import Final

from PySide6.QtCore import QByteArray, QMargins, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QFont, QGuiApplication, QIcon, QKeyEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QMessageBox,
    QStackedWidget,
    QWidget,
)

from koikoi.engine.match import Settings
from koikoi.resources import asset
from koikoi.stats.store import StatsStore
from koikoi.ui.common import names
from koikoi.ui.common.accessible import forget_current_while_hidden
from koikoi.ui.common.art import CardArt
from koikoi.ui.common.display import (
    DisplayDialog,
    platform_high_contrast,
    platform_reduced_motion,
    window_sheet,
)
from koikoi.ui.common.settings import (
    AI_LEVEL,
    ASSIST,
    PRACTICE_DOUBLING,
    WINDOW_GEOMETRY,
    AppSettings,
    DisplayOptions,
    load_display,
    save_display,
)
from koikoi.ui.common.style import apply_style, style_sheet
from koikoi.ui.learn.calculator import ScoreCalculator
from koikoi.ui.learn.help import HelpDialog
from koikoi.ui.lobby.lobby import Lobby, connect_match_ready
from koikoi.ui.match.controller import GameController
from koikoi.ui.match.matchview import Mode
from koikoi.ui.match.saves import (
    KeptMatch,
    SaveStore,
    kept_matches,
    take_back,
)
from koikoi.ui.match.timings import Timings
from koikoi.ui.net.netmatch import NetMatchWindow
from koikoi.ui.net.portmapping import wait_for_removals
from koikoi.ui.sound.controls import SoundControls
from koikoi.ui.sound.sounds import Sounds, open_sounds
from koikoi.ui.start_screen import StartScreen, resume_text
from koikoi.ui.stats.stats_page import StatsPage
from koikoi.ui.table.coach_control import CoachControl
from koikoi.ui.table.game_screen import GameScreen
from koikoi.ui.table.stamps import StampRow
from koikoi.ui.table.undo_control import UndoControl

logger = logging.getLogger(__name__)

KEPT_SHOWN = 20
"""How many earlier matches the start screen lists."""


class MainWindow(NetMatchWindow):
    def __init__(
        self,
        settings: AppSettings | None = None,
        saves: SaveStore | None = None,
        timings: Timings | None = None,
        parent: QWidget | None = None,
        sounds: Sounds | None = None,
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
        self.sounds = sounds if sounds is not None else open_sounds(self.settings)
        self.controller.cued.connect(self.sounds.play)
        self.game = GameScreen(self.controller, self.art)
        # a network match's stamps, in the table's score column (koikoi/ui/table/stamps.py)
        self.stamps = StampRow(self.game, self.game.side, self.controller)
        self.undo = UndoControl(self.game, self.game.side, self.controller)  # practice only
        self.coach = CoachControl(self.game, self.controller, self.undo.button)  # H: a hint
        self.game.set_anim_scale(self.timings.anim_scale)
        self.start = StartScreen(self.settings, self.art)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.start)
        self.stack.addWidget(self.game)
        self.lobby = Lobby(self.settings, self.art)
        self.stack.addWidget(self.lobby)
        self.stats_page = StatsPage(StatsStore(self.saves.directory))
        self.stack.addWidget(self.stats_page)
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
        self.start.on_stats = self.show_stats
        self.stats_page.on_back = self.back_from_stats
        self.start.on_learn = self.show_help
        self.start.on_display = self.show_display
        self.start.on_quit = lambda: None if self.close() else None
        self.game.on_home = self.home_requested
        self.game.on_rematch = self.rematch
        self.game.on_match_result = self.stamps.add_to_result
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
        from koikoi.ui.replay.viewer import ViewError, open_record

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

    # -- the screens ----------------------------------------------------------------------

    def show_lobby(self) -> None:
        """対戦: the lobby (its room list starts browsing as it is shown)."""
        self.stack.setCurrentWidget(self.lobby)
        self.lobby.nickname.setFocus()

    def show_stats(self) -> None:
        """The Statistics page, read afresh from its file."""
        self.stats_page.refresh()
        self.stack.setCurrentWidget(self.stats_page)
        self.stats_page.back_button.setFocus()

    def back_from_stats(self) -> None:
        self.stack.setCurrentWidget(self.start)
        self.start.stats_button.setFocus()

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
        self.release_mapping()  # nor is its port mapped on the router any longer
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
            controls = SoundControls(self.sounds)
            controls.on_changed = lambda sounds: sounds.save(self.settings)
            self._display_dialog = DisplayDialog(self.display, self, sound=controls)
            self._display_dialog.on_changed = self.apply_display
        self._display_dialog.set_options(self.display)
        if self._display_dialog.sound is not None:
            self._display_dialog.sound.refresh()
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
        self.stamps.muted = options.stamps_muted
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
        for link in (self.rematch_link, self.link):
            if link is not None and link.after_open:
                link.leave()  # after the match: the other table says this one left
        self.controller.shutdown()
        self.lobby.shutdown()
        self.release_mapping()
        wait_for_removals()  # this one's and those let go just before (Cancel, home)
        self.sounds.close()
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
