"""The first screen: practice at once, resume, play a person (the lobby), the practice
settings, help, the score calculator, the statistics (Ctrl+T) and quit.

"Practice" is the rules page's quick-practice button (R2.7): 6 rounds, with the doubling and
assist settings last used for practice on this machine (both on until changed) and the last
computer level. The settings card is the room form's 「コンピューターと練習」: its rounds too.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QDateTime, QLocale, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QRadialGradient,
    QShortcut,
)
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from koikoi.engine.match import Settings
from koikoi.ui.common import names
from koikoi.ui.common.accessible import ListedComboBox
from koikoi.ui.common.art import CardArt
from koikoi.ui.common.enter import enter_presses_buttons
from koikoi.ui.common.settings import (
    AI_LEVEL,
    AI_LEVELS,
    ASSIST,
    LANGUAGE,
    PRACTICE_DOUBLING,
    PRACTICE_ROUNDS,
    AppSettings,
)
from koikoi.ui.match.saves import KeptMatch


def _tr(text: str) -> str:
    """Translate in the start screen's context, outside the widget."""
    return QCoreApplication.translate("StartScreen", text)


KEPT_ROWS_SHOWN = 4
"""The list of earlier matches shows this many rows and scrolls beyond."""
_FAN = ("matsu_crane", "sakura_curtain", "susuki_moon", "yanagi_rainman", "kiri_phoenix")


class StartScreen(QWidget):
    """Buttons and the settings card over a felt with a fan of the five lights."""

    def __init__(self, settings: AppSettings, art: CardArt | None = None) -> None:
        super().__init__()
        self.setObjectName("startScreen")
        self.settings = settings
        self.art = art if art is not None else CardArt()
        self.on_practice: Callable[[Settings, str, bool], None] = lambda s, level, assist: None
        self.on_play_person: Callable[[], None] = lambda: None
        self.on_resume: Callable[[], None] = lambda: None
        self.on_help: Callable[[], None] = lambda: None
        self.on_calculator: Callable[[], None] = lambda: None
        self.on_stats: Callable[[], None] = lambda: None
        """The Statistics page (its button, Ctrl+T)."""
        self.on_learn: Callable[[str], None] = lambda page: None
        self.on_display: Callable[[], None] = lambda: None
        self.high_contrast = False
        """Paint a plain black ground, without the fan of cards (a display option)."""
        self.on_quit: Callable[[], None] = lambda: None
        self.on_language: Callable[[], None] = lambda: None
        """The language was chosen (saved in the settings already): the app speaks it now."""
        self.on_take_back: Callable[[KeptMatch], None] = lambda kept: None
        self.on_view: Callable[[KeptMatch], None] = lambda kept: None
        self.on_reconnect: Callable[[KeptMatch], None] = lambda kept: None
        """The player chose to resume a network match this app was cut off from."""
        self.kept: list[KeptMatch] = []
        self.reconnectable: KeptMatch | None = None
        """The network match offered by :attr:`reconnect_button`."""

        outer = QVBoxLayout(self)
        outer.setContentsMargins(40, 12, 40, 12)  # 1024×640 with the earlier matches
        outer.addStretch(3)
        title = QLabel("花札こいこい")
        title.setObjectName("title")
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title.setAccessibleName("花札こいこい Koi-Koi")
        outer.addWidget(title)
        sub = QLabel(self.tr("Koi-Koi · the hanafuda game for two"))
        sub.setObjectName("subtitle")
        sub.setAlignment(Qt.AlignmentFlag.AlignCenter)
        outer.addWidget(sub)
        outer.addSpacing(14)

        self.notice = QLabel("")
        self.notice.setObjectName("notice")
        self.notice.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.notice.setWordWrap(True)
        self.notice.setFixedWidth(760)
        self.notice.setAccessibleName(self.tr("Notice"))
        self.notice.hide()
        notice_row = QHBoxLayout()
        notice_row.addStretch(1)
        notice_row.addWidget(self.notice)
        notice_row.addStretch(1)
        outer.addLayout(notice_row)
        outer.addSpacing(10)

        row = QHBoxLayout()
        row.setSpacing(28)
        row.addStretch(1)

        left = QVBoxLayout()
        left.setSpacing(8)
        self.resume_button = QPushButton("")
        self.resume_button.setObjectName("resumeButton")
        self.resume_button.setAccessibleName(self.tr("Resume the saved match"))
        self.resume_button.clicked.connect(lambda: self.on_resume())
        self.resume_button.hide()
        left.addWidget(self.resume_button)
        self.reconnect_button = QPushButton("")
        self.reconnect_button.setObjectName("reconnectButton")
        self.reconnect_button.setAccessibleName(self.tr("Resume the network match"))
        self.reconnect_button.clicked.connect(self._reconnect)
        self.reconnect_button.hide()
        left.addWidget(self.reconnect_button)
        self.practice_button = QPushButton(self.tr("練習  Practice\n6 rounds against the computer"))
        self.practice_button.setObjectName("practiceButton")
        self.practice_button.setAccessibleName(self.tr("Practice: 6 rounds against the computer"))
        self.practice_button.clicked.connect(self._quick_practice)
        left.addWidget(self.practice_button)
        self.play_person_button = QPushButton(
            self.tr("対戦  Play a person\non the local network or by address")
        )
        self.play_person_button.setObjectName("playPersonButton")
        self.play_person_button.setAccessibleName(self.tr("Play a person: the lobby"))
        self.play_person_button.clicked.connect(lambda: self.on_play_person())
        left.addWidget(self.play_person_button)
        small = QHBoxLayout()
        self.help_button = QPushButton(self.tr("Rules and keys"))
        self.help_button.setObjectName("secondaryButton")
        self.help_button.clicked.connect(lambda: self.on_help())
        self.calculator_button = QPushButton(self.tr("Score calculator"))
        self.calculator_button.setObjectName("secondaryButton")
        self.calculator_button.clicked.connect(lambda: self.on_calculator())
        self.stats_button = QPushButton(self.tr("Statistics"))
        self.stats_button.setObjectName("secondaryButton")
        self.stats_button.setToolTip(self.tr("Statistics of practice matches (Ctrl+T)"))
        self.stats_button.setAccessibleName(self.tr("Statistics of practice matches (Ctrl+T)"))
        self.stats_button.clicked.connect(lambda: self.on_stats())
        stats_key = QShortcut(QKeySequence("Ctrl+T"), self)
        stats_key.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        stats_key.activated.connect(lambda: self.on_stats())
        self.quit_button = QPushButton(self.tr("Quit"))
        self.quit_button.setObjectName("secondaryButton")
        self.quit_button.clicked.connect(lambda: self.on_quit())
        small.addWidget(self.help_button)
        small.addWidget(self.calculator_button)
        small.addWidget(self.quit_button)
        left.addLayout(small)
        left.addLayout(self._learn_row())
        self.language = ListedComboBox()  # its closed list says no item is showing
        self.language.setObjectName("languageChoice")  # its look: the window's style sheet
        self.language.setAccessibleName(self.tr("Language of the app"))
        self.language.addItem(self.tr("System language"), "")
        self.language.addItem("English", "en")
        self.language.addItem("日本語", "ja")
        self.language.setCurrentIndex(max(0, self.language.findData(settings.get(LANGUAGE))))
        self.language.currentIndexChanged.connect(self._language_chosen)
        left.addStretch(1)
        row.addLayout(left)

        right = QVBoxLayout()  # the language under the settings: the left column is the tallest
        right.setSpacing(12)
        right.addWidget(self._settings_card())
        beside = QHBoxLayout()  # the statistics beside the language: the left column is full
        beside.setSpacing(12)
        beside.addWidget(self.language, 1)
        beside.addWidget(self.stats_button)
        right.addLayout(beside)
        right.addStretch(1)
        row.addLayout(right)
        row.addStretch(1)
        outer.addLayout(row)
        outer.addSpacing(10)
        kept_row = QHBoxLayout()
        kept_row.addStretch(1)
        kept_row.addWidget(self._kept_card())
        kept_row.addStretch(1)
        outer.addLayout(kept_row)
        outer.addStretch(4)
        self.load_settings()
        enter_presses_buttons(self)  # as Space does

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_F1:  # as at the table
            self.on_help()
            return
        super().keyPressEvent(event)

    def _learn_row(self) -> QHBoxLayout:
        """The rules with pictures, the card gallery, the glossary and the display options."""
        row = QHBoxLayout()
        self.learn_buttons: dict[str, QPushButton] = {}
        for page, text, name in (
            ("rules", self.tr("Yaku"), self.tr("The rules with card pictures")),
            ("cards", self.tr("Cards"), self.tr("The 48 cards by month")),
            ("glossary", self.tr("Glossary"), self.tr("Glossary of Japanese terms")),
        ):
            button = QPushButton(text)
            button.setObjectName("secondaryButton")
            button.setAccessibleName(name)
            button.clicked.connect(lambda _=False, page=page: self.on_learn(page))
            self.learn_buttons[page] = button
            row.addWidget(button)
        self.display_button = QPushButton(self.tr("Display"))
        self.display_button.setObjectName("secondaryButton")
        self.display_button.setAccessibleName(self.tr("Display options"))
        self.display_button.clicked.connect(lambda: self.on_display())
        row.addWidget(self.display_button)
        return row

    def _settings_card(self) -> QFrame:
        card = QFrame()
        card.setObjectName("settingsCard")
        card.setAccessibleName(self.tr("Practice settings"))
        card.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        grid = QGridLayout(card)
        grid.setContentsMargins(22, 12, 22, 12)  # the levels' second row: 640 pixels high
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(6)
        head = QLabel(self.tr("コンピューターと練習 · Practice settings"))
        head.setObjectName("cardHead")
        grid.addWidget(head, 0, 0, 1, 3)

        grid.addWidget(QLabel(self.tr("Rounds")), 1, 0)
        self.rounds = QButtonGroup(self)
        for i, n in enumerate((6, 12)):
            b = QRadioButton(self.tr("{0} rounds").format(n))
            b.setAccessibleName(self.tr("Rounds: {0}").format(n))
            self.rounds.addButton(b, n)
            grid.addWidget(b, 1, 1 + i)

        grid.addWidget(QLabel(self.tr("Computer")), 2, 0)
        self.level = QButtonGroup(self)
        described = self._level_descriptions()
        for i, name in enumerate(AI_LEVELS):  # two a row, under the rounds' two
            label = names.level_name(name)
            b = QRadioButton(label)
            b.setAccessibleName(self.tr("Computer level: {0}").format(label))
            b.setToolTip(f"<p>{html.escape(described[name])}</p>")  # rich text: it wraps
            b.setAccessibleDescription(described[name])
            b.setProperty("level", name)
            self.level.addButton(b, i)
            grid.addWidget(b, 2 + i // 2, 1 + i % 2)
        below = 2 + (len(AI_LEVELS) + 1) // 2

        self.doubling = QCheckBox(self.tr("Double at 8 points or more (8点以上で2倍)"))
        self.doubling.setAccessibleName(self.tr("Double the round's points at 8 or more"))
        grid.addWidget(self.doubling, below, 0, 1, 3)
        self.assist = QCheckBox(self.tr("Assist display: cards that can capture glow"))
        self.assist.setAccessibleName(self.tr("Assist display"))
        grid.addWidget(self.assist, below + 1, 0, 1, 3)
        self.start_button = QPushButton(self.tr("Start a match with these settings"))
        self.start_button.setObjectName("startButton")
        self.start_button.clicked.connect(self._custom_practice)
        grid.addWidget(self.start_button, below + 2, 0, 1, 3)
        return card

    def _level_descriptions(self) -> dict[str, str]:
        """How each computer level plays, in a line (its tooltip, and what a screen reader
        says after its name): koikoi/ai's players, measured in docs/benchmarks.md."""
        return {
            "easy": self.tr(
                "A beginner: takes what it can, likes lights and animals, sees no yaku coming "
                "and often says koikoi."
            ),
            "normal": self.tr(
                "A club player: builds towards yaku, blocks yours and counts the cards in view; "
                "answers at once."
            ),
            "hard": self.tr(
                "Plays each choice out on hundreds of deals you could hold, weighing the match "
                "score and the stakes."
            ),
            "expert": self.tr(
                "Hard's search, with your hand read from every card you played this round; "
                "thinks up to a third of a second."
            ),
        }

    def _kept_card(self) -> QFrame:
        """Earlier matches: the finished ones, and those set aside (which can be resumed)."""
        card = QFrame()
        card.setObjectName("settingsCard")
        card.setAccessibleName(self.tr("Earlier matches"))
        card.setFixedWidth(760)
        lay = QVBoxLayout(card)
        lay.setContentsMargins(22, 14, 22, 14)
        lay.setSpacing(8)
        head = QLabel(self.tr("これまでの対局 · Earlier matches"))
        head.setObjectName("cardHead")
        lay.addWidget(head)
        self.kept_list = QListWidget()
        self.kept_list.setObjectName("keptMatches")
        self.kept_list.setAccessibleName(self.tr("Earlier matches"))
        self.kept_list.setStyleSheet(
            "QListWidget { background: transparent; border: none; }"
            "QListWidget::item { padding: 3px 4px; }"
            "QListWidget::item:selected { background: rgba(212, 168, 75, 0.35); }"
            "QListWidget:focus { border: 1px solid #7fd3ff; }"
        )
        font = self.kept_list.font()
        font.setPixelSize(15)
        self.kept_list.setFont(font)
        self.kept_list.setSizeAdjustPolicy(QListWidget.SizeAdjustPolicy.AdjustIgnored)
        self.kept_list.currentRowChanged.connect(self._kept_selected)
        self.kept_list.itemActivated.connect(lambda item: self._view())  # double-click, Enter
        lay.addWidget(self.kept_list)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.view_button = QPushButton(self.tr("View the selected match"))
        self.view_button.setObjectName("secondaryButton")
        self.view_button.setAccessibleName(self.tr("View the selected match move by move"))
        self.view_button.setEnabled(False)
        self.view_button.clicked.connect(self._view)
        buttons.addWidget(self.view_button)
        self.take_back_button = QPushButton(self.tr("Resume the selected match"))
        self.take_back_button.setObjectName("secondaryButton")
        self.take_back_button.setEnabled(False)
        self.take_back_button.clicked.connect(self._take_back)
        buttons.addWidget(self.take_back_button)
        lay.addLayout(buttons)
        self.kept_card = card
        card.hide()
        return card

    def set_kept(self, kept: list[KeptMatch]) -> None:
        """List the kept matches, newest first; hide the list when there are none."""
        self.kept = list(kept)
        self.kept_list.clear()
        for entry in self.kept:
            item = QListWidgetItem(kept_title(entry))
            item.setData(Qt.ItemDataRole.AccessibleTextRole, kept_title(entry))
            if entry.reconnect:
                item.setToolTip(self.tr("Cut off mid-match: select it and resume it"))
            elif entry.resumable:
                item.setToolTip(self.tr("Set aside: select it and resume it"))
            self.kept_list.addItem(item)
        rows = max(1, min(len(self.kept), KEPT_ROWS_SHOWN))
        self.kept_list.setFixedHeight(rows * self.kept_list.sizeHintForRow(0) + 8)
        self.take_back_button.setVisible(any(k.resumable for k in self.kept))
        self.kept_card.setVisible(bool(self.kept))
        self._kept_selected(self.kept_list.currentRow())
        self.reconnectable = next((k for k in self.kept if k.reconnect), None)
        if self.reconnectable is not None:
            text = reconnect_text(self.reconnectable)
            self.reconnect_button.setText(text)
            self.reconnect_button.setAccessibleName(text.replace("\n", " "))
        self.reconnect_button.setVisible(self.reconnectable is not None)

    def _reconnect(self) -> None:
        if self.reconnectable is not None:
            self.on_reconnect(self.reconnectable)

    def _kept_selected(self, row: int) -> None:
        ok = 0 <= row < len(self.kept) and self.kept[row].resumable
        self.take_back_button.setEnabled(ok)
        self.view_button.setEnabled(0 <= row < len(self.kept))

    def _view(self) -> None:
        row = self.kept_list.currentRow()
        if 0 <= row < len(self.kept):
            self.on_view(self.kept[row])

    def _take_back(self) -> None:
        row = self.kept_list.currentRow()
        if 0 <= row < len(self.kept) and self.kept[row].resumable:
            self.on_take_back(self.kept[row])

    # -- settings in and out ----------------------------------------------------------------

    def load_settings(self) -> None:
        s = self.settings
        self.rounds.button(s.get(PRACTICE_ROUNDS)).setChecked(True)
        self.level.button(AI_LEVELS.index(s.get(AI_LEVEL))).setChecked(True)
        self.doubling.setChecked(s.get(PRACTICE_DOUBLING))
        self.assist.setChecked(s.get(ASSIST))

    def _language_chosen(self) -> None:
        self.settings.set(LANGUAGE, str(self.language.currentData()))
        self.settings.sync()
        self.on_language()

    def chosen_level(self) -> str:
        b = self.level.checkedButton()
        return str(b.property("level")) if b is not None else AI_LEVEL.default

    def _remember(self, rounds: int | None) -> None:
        s = self.settings
        if rounds is not None:
            s.set(PRACTICE_ROUNDS, rounds)
        s.set(PRACTICE_DOUBLING, self.doubling.isChecked())
        s.set(ASSIST, self.assist.isChecked())
        s.set(AI_LEVEL, self.chosen_level())
        s.sync()

    def _quick_practice(self) -> None:
        self._remember(None)
        self.on_practice(
            Settings(6, self.doubling.isChecked()), self.chosen_level(), self.assist.isChecked()
        )

    def _custom_practice(self) -> None:
        rounds = self.rounds.checkedId() if self.rounds.checkedId() in (6, 12) else 6
        self._remember(rounds)
        self.on_practice(
            Settings(rounds, self.doubling.isChecked()),
            self.chosen_level(),
            self.assist.isChecked(),
        )

    def set_resume(self, text: str | None) -> None:
        """Offer a saved match (``text`` describes it), or hide the button."""
        if text:
            self.resume_button.setText(text)
            self.resume_button.setAccessibleName(text.replace("\n", " "))
            self.resume_button.show()
        else:
            self.resume_button.hide()

    def set_notice(self, text: str | None) -> None:
        self.notice.setText(text or "")
        self.notice.setVisible(bool(text))

    # -- the felt and the fan ---------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        w, h = self.width(), self.height()
        if self.high_contrast:
            p.fillRect(self.rect(), QColor(0, 0, 0))
            p.end()
            return
        g = QRadialGradient(QPointF(w / 2, h * 0.42), max(w, h) * 0.8)
        g.setColorAt(0.0, QColor(40, 98, 74))
        g.setColorAt(0.6, QColor(22, 62, 48))
        g.setColorAt(1.0, QColor(10, 32, 26))
        p.fillRect(self.rect(), QBrush(g))
        # a fan of the five lights behind the title, and a few cards at the corners
        cw = min(w, h) * 0.11
        ch = cw * 1.6
        cx, cy = w / 2, h * 0.23 + ch * 0.9
        size = QSize(int(cw * self.devicePixelRatioF()), int(ch * self.devicePixelRatioF()))
        p.setOpacity(0.22)
        for i, name in enumerate(_FAN):
            angle = (i - 2) * 13
            p.save()
            p.translate(cx, cy)
            p.rotate(angle)
            p.translate(0, -ch * 0.55)
            pix = self.art.pixmap(name, size, True, 1.0)
            p.drawPixmap(QRectF(-cw / 2, -ch * 0.8, cw, ch), pix, QRectF(pix.rect()))
            p.restore()
        p.setOpacity(0.16)
        corners = (
            ("ume_warbler", 0.08, 0.78, -18),
            ("momiji_deer", 0.9, 0.72, 16),
            ("hagi_boar", 0.12, 0.2, 12),
            ("botan_butterfly", 0.88, 0.18, -10),
        )
        for name, fx, fy, angle in corners:
            p.save()
            p.translate(w * fx, h * fy)
            p.rotate(angle)
            pix = self.art.pixmap(name, size, True, 1.0)
            p.drawPixmap(QRectF(-cw / 2, -ch / 2, cw, ch), pix, QRectF(pix.rect()))
            p.restore()
        p.setOpacity(1.0)
        p.end()


def resume_text(round_no: int, rounds: int, scores: tuple[int, int]) -> str:
    return _tr("続きから  Resume the match\nround {0} of {1} · you {2} : {3} computer").format(
        round_no, rounds, scores[0], scores[1]
    )


def reconnect_text(kept: KeptMatch) -> str:
    """The offer of a network match this app was cut off from (it crashed, was killed)."""
    return _tr(
        "続きから  Resume the match with {0} — reconnect\nround {1} of {2} · you {3} : {4}"
    ).format(kept.opponent, kept.round_no, kept.rounds, kept.scores[0], kept.scores[1])


def kept_title(kept: KeptMatch) -> str:
    """'Practice vs hard · 3 Dec 2026 · 32–18 · finished' (the player's points first)."""
    day = QDateTime.fromSecsSinceEpoch(int(kept.played)).date()
    when = QLocale(names.current_language()).toString(day, _tr("d MMM yyyy"))
    state = (
        _tr("finished")
        if kept.finished
        else _tr("set aside in round {0} of {1}").format(kept.round_no, kept.rounds)
    )
    if kept.network:
        state = (
            _tr("finished")
            if kept.finished
            else _tr("cut off: can be resumed")
            if kept.reconnect
            else _tr("ended early")
        )
        return _tr("Network game vs {0} · {1} · {2}–{3} · {4}").format(
            kept.opponent, when, kept.scores[0], kept.scores[1], state
        )
    return _tr("Practice vs {0} · {1} · {2}–{3} · {4}").format(
        names.level_name(kept.level, True), when, kept.scores[0], kept.scores[1], state
    )
