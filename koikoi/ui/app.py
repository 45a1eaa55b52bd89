"""Start the desktop app (``koikoi``), or check it offscreen (``koikoi --smoke-test``).

The smoke test starts the real window offscreen, with a throw-away data folder so that it
never touches a player's saved match or settings, presses "Practice" and plays a full round
against the computer by clicking cards and buttons exactly as a player would; it exits 0
when the round's result panel is up, 1 on any error or after a time limit.
``koikoi --smoke-test lan`` has two windows meet in their lobbies by mDNS on 127.0.0.1 and
play a round against each other by clicks (:mod:`koikoi.ui.smoke`).

SIGTERM and SIGINT quit the app as its Quit button does, from the event loop
(:mod:`koikoi.ui.quitting`): the match in progress is saved, the window closes (keeping its
settings) and the computer's helper process is stopped; the exit code is 0.

``KOIKOI_START=practice`` presses Practice as soon as the window is up: tests use it to have
the real app, in its own process, in a match against the computer.
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from koikoi.ui import syslibs

try:
    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from koikoi.ui.common.collect import collect_on_the_ui_thread
    from koikoi.ui.quitting import quit_on_signals
except ImportError as _exc:  # a system library Qt links against: one line naming its package
    if (_missing := syslibs.import_failure(_exc)) is None:
        raise
    raise SystemExit(_missing) from None

if TYPE_CHECKING:
    from typing import Any

    from koikoi.ui.main_window import MainWindow
    from koikoi.ui.replay.history import Replayed

logger = logging.getLogger(__name__)

SMOKE_TIME_LIMIT = 45.0


START_ENV = "KOIKOI_START"


def _install_translators(app: QApplication) -> None:
    """The language chosen in the settings, else the system's (LANG=ja_JP.UTF-8: Japanese)."""
    from koikoi.ui.common import names
    from koikoi.ui.common.settings import LANGUAGE, AppSettings

    try:
        names.install_translations(AppSettings().get(LANGUAGE) or names.system_language())
    except FileNotFoundError:  # no assets beside the code: the English sources only
        return


def make_app(argv: Sequence[str] | None = None) -> QApplication:
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    app = QApplication(list(argv) if argv is not None else sys.argv[:1])
    app.setApplicationName("koikoi")
    app.setOrganizationName("koikoi")
    app.setApplicationDisplayName("花札こいこい Koi-Koi")  # the window's, once translated
    app.setDesktopFileName("org.koikoi.Koikoi")  # packaging/linux/org.koikoi.Koikoi.desktop
    try:
        from koikoi.resources import asset

        app.setWindowIcon(QIcon(str(asset("icons/koikoi.svg"))))
    except FileNotFoundError:
        pass
    _install_translators(app)
    collect_on_the_ui_thread(app)  # never a Qt object destroyed in another thread
    return app


def run_app(smoke_test: bool | str = False, argv: Sequence[str] | None = None) -> int:
    """Show the window and run until it closes; the exit code for ``koikoi``.
    ``smoke_test``: True or ``"practice"`` (a round against the computer), ``"lan"``."""
    if smoke_test and not os.environ.get("QT_QPA_PLATFORM"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    if QApplication.instance() is None and (problem := syslibs.platform_problem()):
        print(problem, file=sys.stderr)  # rather than Qt's abort with its plugin list
        return 1
    app = make_app(argv)
    if smoke_test == "lan":
        from koikoi.ui.smoke import run_lan_smoke_test

        return run_lan_smoke_test(app)
    if smoke_test:
        return run_smoke_test(app)
    from koikoi.ui.match import ai_worker

    windows = MainWindows()
    window = windows.window
    window.show()
    if os.environ.get(START_ENV) == "practice":
        QTimer.singleShot(0, window.start.practice_button.click)
    try:
        with quit_on_signals(app, lambda: quit_app(app, windows.window)):
            code = app.exec()
    finally:
        ai_worker.stop_helper()
    return code


def run_view(data: dict[str, Any], replayed: Replayed, name: str, smoke_test: bool = False) -> int:
    """``koikoi view RECORD`` on a record already checked (:mod:`koikoi.ui.replay.viewer`)."""
    if smoke_test and not os.environ.get("QT_QPA_PLATFORM"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    if QApplication.instance() is None and (problem := syslibs.platform_problem()):
        print(problem, file=sys.stderr)
        return 1
    from koikoi.ui.replay.viewer import run_viewer

    return run_viewer(make_app(), data, replayed, name, smoke_test)


class MainWindows:
    """The app's main window, opened again at once in the language the player picks.

    The start screen's language choice saves the setting and calls :meth:`switch`: the new
    translation is installed, the window's match is saved, and a new window in the new
    language takes the old one's place and size (the start screen, where the choice is, has
    nothing else in flight). Every screen, dialog and name is then in the new language.
    """

    def __init__(self) -> None:
        from koikoi.ui.main_window import MainWindow

        self.window = MainWindow()
        self.window.start.on_language = self._switch_soon

    def _switch_soon(self) -> None:
        QTimer.singleShot(0, self.switch)  # not inside the old window's own signal

    def switch(self) -> None:
        from koikoi.ui.common import names
        from koikoi.ui.common.settings import LANGUAGE
        from koikoi.ui.main_window import MainWindow

        old = self.window
        names.install_translations(old.settings.get(LANGUAGE) or names.system_language())
        old.controller.save()
        new = MainWindow(old.settings, old.saves, old.timings)
        new.start.on_language = self._switch_soon
        new.restoreGeometry(old.saveGeometry())  # maximised or full screen as the old one
        self.window = new
        if old.isVisible():
            new.show()
            if not new.windowState() & (
                Qt.WindowState.WindowMaximized | Qt.WindowState.WindowFullScreen
            ):
                # exactly the old window's place: restoreGeometry moves and shrinks a window
                # whose saved frame does not fit the screen (1280×800 and a title bar)
                new.setGeometry(old.geometry())
            new.start.language.setFocus()
        old.close()
        old.deleteLater()


def quit_app(app: QApplication, window: MainWindow) -> None:
    """Quit as the Quit button does, the match in progress saved first."""
    window.controller.save()
    app.closeAllWindows()  # the main window's closeEvent stops the computer, keeps settings
    app.quit()


# -- the smoke test ------------------------------------------------------------------------------


class _ErrorCounter(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def run_smoke_test(app: QApplication) -> int:
    """Play one round through the real window, by clicks; 0 when it ends cleanly."""
    from PySide6.QtTest import QTest

    from koikoi.ui.common.settings import AI_LEVEL, AppSettings
    from koikoi.ui.main_window import MainWindow
    from koikoi.ui.match.matchview import Mode
    from koikoi.ui.match.saves import SaveStore
    from koikoi.ui.smoke import SmokeDriver, smoke_timings

    errors = _ErrorCounter()
    logging.getLogger("koikoi").addHandler(errors)
    failures: list[str] = []
    old_hook = sys.excepthook

    def hook(kind: type[BaseException], exc: BaseException, tb: object) -> None:
        failures.append(f"{kind.__name__}: {exc}")
        old_hook(kind, exc, tb)  # type: ignore[arg-type]
        app.exit(1)

    sys.excepthook = hook
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="koikoi-smoke-") as home:
        old_home = os.environ.get("KOIKOI_HOME")
        os.environ["KOIKOI_HOME"] = home
        try:
            settings = AppSettings()
            settings.set(AI_LEVEL, "easy")
            window = MainWindow(settings, SaveStore(), smoke_timings())
            window.resize(1280, 800)
            window.show()
            driver = SmokeDriver(window)
            QTest.mouseClick(window.start.practice_button, Qt.MouseButton.LeftButton)
            timer = QTimer()
            timer.timeout.connect(driver.step)
            timer.start(20)
            limit = QTimer()
            limit.setSingleShot(True)
            limit.timeout.connect(lambda: _fail(failures, "time limit", app))
            limit.start(int(SMOKE_TIME_LIMIT * 1000))
            driver.done = lambda: app.exit(0)
            code = app.exec()
            timer.stop()
            limit.stop()
            window.controller.shutdown()
            played = driver.clicks
            mode = window.controller.mode
            window.close()
            window.deleteLater()
        finally:
            if old_home is None:
                os.environ.pop("KOIKOI_HOME", None)
            else:
                os.environ["KOIKOI_HOME"] = old_home
            sys.excepthook = old_hook
    seconds = time.monotonic() - started
    if errors.messages:
        failures += errors.messages
    if code == 0 and mode is not Mode.ROUND_OVER:
        failures.append(f"stopped in {mode.value}")
    if failures:
        print(f"koikoi: smoke test failed: {failures[0]}", file=sys.stderr)
        return 1
    print(
        f"koikoi: smoke test passed: a round played by {played} clicks in {seconds:.1f} s",
        file=sys.stderr,
    )
    return 0


def _fail(failures: list[str], why: str, app: QApplication) -> None:
    failures.append(why)
    app.exit(1)
