"""The main window: the start screen and the game screen, and what links them.

Starting a practice, resuming the saved match, going back to the start (the match stays
saved) and a rematch all pass through here; the rules stay in the engine and the pacing in
the controller.
"""

from __future__ import annotations

import contextlib
import logging

from PySide6.QtCore import QByteArray
from PySide6.QtGui import QCloseEvent, QIcon, QKeyEvent
from PySide6.QtWidgets import QMainWindow, QStackedWidget, QWidget

from koikoi.engine.match import Settings
from koikoi.resources import asset
from koikoi.ui.art import CardArt
from koikoi.ui.calculator import ScoreCalculator
from koikoi.ui.controller import GameController, Mode, Timings
from koikoi.ui.game_screen import GameScreen
from koikoi.ui.help import HelpDialog
from koikoi.ui.saves import SaveStore
from koikoi.ui.settings import ASSIST, PRACTICE_DOUBLING, WINDOW_GEOMETRY, AppSettings
from koikoi.ui.start_screen import StartScreen, resume_text
from koikoi.ui.style import apply_style

logger = logging.getLogger(__name__)


class MainWindow(QMainWindow):
    def __init__(
        self,
        settings: AppSettings | None = None,
        saves: SaveStore | None = None,
        timings: Timings | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
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
        self.setCentralWidget(self.stack)
        apply_style(self)
        self._help: HelpDialog | None = None
        self._calculator: ScoreCalculator | None = None
        self._last: tuple[Settings, str] | None = None

        self.start.on_practice = self.start_practice
        self.start.on_resume = self.resume
        self.start.on_help = self.show_help
        self.start.on_calculator = self.show_calculator
        self.start.on_quit = self.close
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
        self.settings.set(WINDOW_GEOMETRY, bytes(self.saveGeometry().data()))
        self.settings.sync()
        super().closeEvent(event)
