"""The main window: the start screen and the game screen, and what links them.

Starting a practice, resuming the saved match, going back to the start (the match stays
saved) and a rematch all pass through here; the rules stay in the engine and the pacing in
the controller. A new practice over a match in progress asks first (keep playing, or set it
aside: it joins the earlier matches listed on the start screen, whence it can be resumed).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QCloseEvent, QIcon, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QWidget,
)

from koikoi.engine.match import Settings
from koikoi.resources import asset
from koikoi.ui import names
from koikoi.ui.art import CardArt
from koikoi.ui.calculator import ScoreCalculator
from koikoi.ui.controller import GameController, Mode, Timings
from koikoi.ui.game_screen import GameScreen
from koikoi.ui.help import HelpDialog
from koikoi.ui.lobby import Lobby, connect_match_ready
from koikoi.ui.saves import KeptMatch, SaveStore, kept_matches, take_back
from koikoi.ui.settings import AI_LEVEL, ASSIST, PRACTICE_DOUBLING, WINDOW_GEOMETRY, AppSettings
from koikoi.ui.start_screen import StartScreen, resume_text
from koikoi.ui.style import apply_style

logger = logging.getLogger(__name__)

KEPT_SHOWN = 20
"""How many earlier matches the start screen lists."""


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
        self.setWindowTitle(self.tr("花札こいこい Koi-Koi"))
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
        self._calculator: ScoreCalculator | None = None
        self._last: tuple[Settings, str] | None = None
        self.question: QMessageBox | None = None
        """The question asked before a match in progress is set aside, while it is up."""

        self.start.on_practice = self.practice_requested
        self.start.on_play_person = self.show_lobby
        self.lobby.back.connect(self.go_home)
        self.lobby.practice.connect(self._lobby_practice)
        connect_match_ready(self.lobby, self)  # the table's network match, where it exists
        self.start.on_take_back = self.take_back_requested
        self.start.on_resume = lambda: None if self.resume() else None
        self.start.on_help = self.show_help
        self.start.on_calculator = self.show_calculator
        self.start.on_quit = lambda: None if self.close() else None
        self.game.on_home = self.go_home
        self.game.on_rematch = self.rematch
        self.game.on_help = self.show_help
        self.game.on_assist_changed = self._assist_changed

        geometry = self.settings.get(WINDOW_GEOMETRY)
        if not geometry or not self.restoreGeometry(QByteArray(geometry)):
            self.resize(1280, 800)
        self.setMinimumSize(960, 640)
        self.refresh_start()

    # -- screens -------------------------------------------------------------------------

    def refresh_start(self) -> None:
        """Offer the saved match if there is one; report a save that was set aside."""
        loaded = self.saves.load()
        self.start.set_notice(loaded.problem)
        if loaded.saved is not None:
            m = loaded.saved.replay.match
            self.start.set_resume(resume_text(m.round_no, m.settings.rounds, m.scores))
        else:
            self.start.set_resume(None)
        self.start.set_kept(kept_matches(self.saves, KEPT_SHOWN))

    def practice_requested(self, settings: Settings, level: str, assist: bool) -> None:
        """The start screen's practice buttons: ask first when a match is in progress."""
        self._ask_before_setting_aside(
            self.tr("Set it aside and start a new one"),
            lambda: self.start_practice(settings, level, assist),
        )

    def take_back_requested(self, kept: KeptMatch) -> None:
        """Resume a match set aside earlier; the one in progress, if any, is set aside."""

        def resume_kept() -> None:
            try:
                take_back(self.saves, kept)
            except (OSError, ValueError) as exc:
                logger.warning("could not resume %s: %s", kept.path.name, exc)
                self.start.set_notice(self.tr("That match could not be resumed: {0}").format(exc))
                self.refresh_start()
                return
            self.resume()

        self._ask_before_setting_aside(self.tr("Set it aside and resume the other"), resume_kept)

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

    def show_lobby(self) -> None:
        """対戦: the lobby (its room list starts browsing as it is shown)."""
        self.stack.setCurrentWidget(self.lobby)
        self.lobby.nickname.setFocus()

    def _lobby_practice(self, settings: Settings) -> None:
        self.lobby.stop_browsing()
        self.practice_requested(settings, self.settings.get(AI_LEVEL), self.settings.get(ASSIST))

    def go_home(self) -> None:
        """Back to the start screen; the match in progress stays saved for resuming."""
        self.controller.shutdown()
        self.game.reset()
        self.controller.mode = Mode.IDLE
        self.stack.setCurrentWidget(self.start)
        self.refresh_start()

    def rematch(self) -> None:
        if self._last is None:
            self.go_home()
            return
        settings, level = self._last
        self.start_practice(settings, level, self.game.table.assist)

    def show_help(self) -> None:
        if self._help is None:
            self._help = HelpDialog(self)
            self._help.on_calculator = self.show_calculator
        self._help.show()
        self._help.raise_()
        self._help.activateWindow()

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

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # a key with no focused widget reaches the window: the table's keys still work
        if self.stack.currentWidget() is self.game and self.game.handle_key(event.key()):
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.controller.shutdown()
        self.lobby.shutdown()
        self.settings.set(WINDOW_GEOMETRY, bytes(self.saveGeometry().data()))
        self.settings.sync()
        super().closeEvent(event)
