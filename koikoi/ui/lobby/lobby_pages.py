"""The lobby's pages as the player sees them (:class:`RoomsPage`, :class:`WaitingPage`), the
private room's password prompt and the lobby's style; :mod:`koikoi.ui.lobby.lobby` runs them (what
a join, a room and a failure do) and connects their buttons. Their strings are the lobby's
(the translation context ``Lobby``).
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from koikoi.engine.match import Settings
from koikoi.net.session.clock import CLOCK_CHOICES, DEFAULT_CLOCK, ClockSetting
from koikoi.net.transport.options import PeerOptions
from koikoi.ui.common.accessible import announce
from koikoi.ui.common.settings import JOIN_SEED, ROOM_INTERNET, ROOM_TITLE, AppSettings
from koikoi.ui.lobby.rooms import RoomListModel, clock_text, seed_notes, settings_text

MAX_PASSWORD: Final = 128

STYLE: Final = """
QLineEdit { background: #1a130f; color: #f3e9d2; border: 1px solid #b58e3e; border-radius: 4px;
  padding: 4px 6px; font-size: 15px; selection-background-color: #6b5324; }
QComboBox#roomClock { background: #1a130f; color: #f3e9d2; border: 1px solid #b58e3e;
  border-radius: 4px; padding: 4px 6px; font-size: 15px; }
QComboBox#roomClock QAbstractItemView { background: #1a130f; color: #f3e9d2;
  selection-background-color: #6b5324; selection-color: #fff3da; }
QLineEdit:focus, QTreeView:focus, QComboBox#roomClock:focus { border: 2px solid #7fd3ff; }
QLineEdit:disabled { background: #2a211c; color: #8a7f76; border-color: #5a4a3a; }
QTreeView#roomList { background: #1a130f; alternate-background-color: #211813; color: #f3e9d2;
  border: 1px solid #b58e3e; font-size: 15px; selection-background-color: #6b5324;
  selection-color: #fff3da; }
QTreeView#roomList::item { padding: 4px 2px; }
QHeaderView::section { background: #3a2a22; color: #ffe3a3; border: none; padding: 4px 6px;
  font-weight: 600; }
QLabel#roomAddresses { font-size: 18px; color: #ffe3a3; }
QLabel#joinCode { font-family: "DejaVu Sans Mono", "Noto Sans Mono", "Menlo", "Consolas",
  monospace; font-size: 26px; font-weight: 600; color: #fff3da; background: #1a130f;
  border: 1px solid #b58e3e; border-radius: 4px; padding: 6px 12px; }
QLabel#joinCode:focus { border: 2px solid #7fd3ff; }
QLabel#internetState, QLabel#passwordHint, QLabel#codeHead { font-size: 15px; }
QLabel#waitingState, QLabel#prematchWho { font-size: 16px; }
QLabel#prematchHeading { font-size: 22px; color: #ffe3a3; font-weight: 700; }
QPushButton#sameCards { background: #2b5a47; border-color: #d4a84b; font-weight: 600; }
QPushButton:disabled, QPushButton#sameCards:disabled { background: #2a211c; color: #9a8f86;
  border-color: #5a4a3a; }
"""


def _tr(text: str) -> str:
    return QCoreApplication.translate("Lobby", text)


class PasswordPrompt(QDialog):
    """Asks for a private room's password (window-modal, never blocking the loop)."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("passwordPrompt")
        self.setWindowTitle(_tr("Private room"))
        self.setAccessibleName(_tr("Password for the private room"))
        layout = QVBoxLayout(self)
        label = QLabel(_tr("「{0}」 is private. Its password:").format(title))
        label.setWordWrap(True)
        layout.addWidget(label)
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setMaxLength(MAX_PASSWORD)
        self.password.setAccessibleName(_tr("Room password"))
        label.setBuddy(self.password)
        layout.addWidget(self.password)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(_tr("Join"))
        ok.setAccessibleName(_tr("Join with this password"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setAccessibleName(_tr("Cancel"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setWindowModality(Qt.WindowModality.WindowModal)


class RoomColumns(QObject):
    """The room list's column widths. The host, settings and state columns get what their
    widest text needs in the list's own font (measured once its style sheet is applied: the
    font at construction is another one) and the title the rest; where the window is too
    narrow for all of it, the settings are cut short first (whole in their tooltip and to a
    screen reader), as the title keeps room for "Friday hanafuda". Fixed widths, worked out
    on a resize or a font change only: sizing to contents would measure every row each time a
    room comes in (a flood of rooms would make that quadratic)."""

    TITLE: Final = "Friday hanafuda"
    PAD: Final = 24  # a cell's margins and the header's sort arrow

    def __init__(self, view: QTreeView) -> None:
        super().__init__(view)
        self.view = view
        view.installEventFilter(self)  # its font and style
        view.viewport().installEventFilter(self)  # its width
        self.fit()

    def needs(self) -> tuple[int, int, int, int, int]:
        """The title's least width, then the host's (a nickname and the short fingerprint,
        "hana · ab3d"), the settings' with the widest clock offered (and with a room's note on
        joint-seed dealing) and the state's whole widths."""
        metrics = self.view.fontMetrics()
        clocks = (clock_text(clock) for clock in CLOCK_CHOICES)
        rules = settings_text(12, False) + " · " + max(clocks, key=metrics.horizontalAdvance)
        widest = (
            self.TITLE,
            "hanako · wwww",  # a longer nickname is cut short, whole in its tooltip
            rules,
            max((f"{rules} · {note}" for note in seed_notes()), key=metrics.horizontalAdvance),
            _tr("in play"),
        )
        title, host, rules_, noted, state = (
            metrics.horizontalAdvance(t) + self.PAD for t in widest
        )
        return title, host, rules_, noted, state

    def fit(self) -> None:
        title, host, rules, noted, state = self.needs()
        spare = self.view.viewport().width() - title - host - state
        rules = max(min(noted, spare), min(rules, spare), 60)  # cut short, never gone
        header = self.view.header()
        for column, width in ((1, host), (2, rules), (3, state)):
            header.resizeSection(column, width)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (
            QEvent.Type.Resize,
            QEvent.Type.FontChange,
            QEvent.Type.StyleChange,
            QEvent.Type.Polish,
        ):
            self.fit()
        return False


class RoomsPage(QWidget):
    """The lobby's first page: the rooms heard of on the LAN with the join buttons and the
    join-by-address form, and beside them the form that creates a room (with practice
    against the computer under it). The lobby connects its buttons."""

    def __init__(self, model: RoomListModel, settings: AppSettings) -> None:
        super().__init__()
        grid = QGridLayout(self)
        grid.setHorizontalSpacing(24)

        left = QVBoxLayout()
        head = QLabel(_tr("Rooms on the local network"))
        left.addWidget(head)
        self.room_list = QTreeView()
        self.room_list.setObjectName("roomList")
        self.room_list.setAccessibleName(_tr("Rooms on the local network"))
        self.room_list.setRootIsDecorated(False)
        self.room_list.setAlternatingRowColors(True)
        self.room_list.setUniformRowHeights(True)
        self.room_list.setAllColumnsShowFocus(True)
        self.room_list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.room_list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.room_list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.room_list.setModel(model)
        header = self.room_list.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        self.columns = RoomColumns(self.room_list)
        head.setBuddy(self.room_list)
        left.addWidget(self.room_list, 1)
        self.empty = QLabel("")
        self.empty.setObjectName("roomsEmpty")
        self.empty.setWordWrap(True)
        self.empty.setAccessibleName(_tr("About the room list"))
        left.addWidget(self.empty)
        self.join_button = QPushButton(_tr("Join the selected room"))
        self.join_button.setObjectName("joinRoom")
        self.join_button.setAccessibleName(_tr("Join the selected room"))
        left.addWidget(self.join_button)
        self.join_seed = QCheckBox(_tr("Allow joint-seed dealing when joining (for older koikoi)"))
        self.join_seed.setObjectName("joinSeed")
        self.join_seed.setAccessibleName(_tr("Allow joint-seed dealing when joining"))
        self.join_seed.setToolTip(seed_risk())
        self.join_seed.setChecked(settings.get(JOIN_SEED))
        self.join_seed.toggled.connect(lambda on: settings.set(JOIN_SEED, bool(on)))
        left.addWidget(self.join_seed)

        by_address = QFrame()
        by_address.setObjectName("settingsCard")
        form = QFormLayout(by_address)
        self.address = QLineEdit()
        self.address.setObjectName("joinAddress")
        self.address.setPlaceholderText(
            _tr("192.168.1.20:4000 · host:port · or a join code, 717MC-K273D-…")
        )
        self.address.setAccessibleName(_tr("Address to join, host:port, or a join code"))
        self.address.setToolTip(
            _tr(
                "An address as the host's screen shows it (HOST:PORT), or the join code it "
                "shows: the code also proves who the host is."
            )
        )
        form.addRow(_tr("Address or code:"), self.address)
        self.address_password = QLineEdit()
        self.address_password.setEchoMode(QLineEdit.EchoMode.Password)
        self.address_password.setMaxLength(MAX_PASSWORD)
        self.address_password.setPlaceholderText(_tr("only for a private room"))
        self.address_password.setAccessibleName(_tr("Password for the room at that address"))
        form.addRow(_tr("Password:"), self.address_password)
        self.address_button = QPushButton(_tr("Join by address or code"))
        self.address_button.setObjectName("joinByAddress")
        self.address_button.setAccessibleName(_tr("Join by address or join code"))
        form.addRow(self.address_button)
        left.addWidget(by_address)
        grid.addLayout(left, 0, 0)

        create = QFrame()
        create.setObjectName("settingsCard")
        form2 = QFormLayout(create)
        heading = QLabel(_tr("Create a room"))
        heading.setObjectName("cardHead")
        form2.addRow(heading)
        self.room_title = QLineEdit(settings.get(ROOM_TITLE))
        self.room_title.setObjectName("roomTitle")
        self.room_title.setMaxLength(48)
        self.room_title.setPlaceholderText(_tr("e.g. Friday hanafuda"))
        self.room_title.setAccessibleName(_tr("Room title"))
        form2.addRow(_tr("Title:"), self.room_title)
        rounds_row = QHBoxLayout()
        self.rounds = QButtonGroup(self)
        for n in (6, 12):
            button = QRadioButton(_tr("{0}回戦 · {0} rounds").format(n))
            button.setAccessibleName(_tr("{0} rounds").format(n))
            self.rounds.addButton(button, n)
            rounds_row.addWidget(button)
        self.rounds.button(6).setChecked(True)
        form2.addRow(_tr("Rounds:"), rounds_row)
        self.doubling = QCheckBox(_tr("Double at 8 points or more (8点以上×2)"))
        self.doubling.setAccessibleName(_tr("Double at 8 points or more"))
        self.doubling.setChecked(True)
        form2.addRow(self.doubling)
        self.clock_choice = QComboBox()
        self.clock_choice.setObjectName("roomClock")
        for clock in CLOCK_CHOICES:
            self.clock_choice.addItem(clock_text(clock, long=True))
        self.clock_choice.setCurrentIndex(CLOCK_CHOICES.index(DEFAULT_CLOCK))
        self.clock_choice.setAccessibleName(_tr("Move clock: seconds a move and a reserve"))
        self.clock_choice.setToolTip(
            _tr(
                "Each move has these seconds, then the reserve for the whole match is spent; "
                "when both run out, the table makes a safe move. A clock runs only while its "
                "player's table is ready: never during a result, the toss or an animation."
            )
        )
        form2.addRow(_tr("Clock:"), self.clock_choice)
        self.private = QCheckBox(_tr("Private: a password is needed to join"))
        self.private.setAccessibleName(_tr("Private room"))
        form2.addRow(self.private)
        self.room_password = QLineEdit()
        self.room_password.setEchoMode(QLineEdit.EchoMode.Password)
        self.room_password.setMaxLength(MAX_PASSWORD)
        self.room_password.setAccessibleName(_tr("Password of the new room"))
        self.room_password.setEnabled(False)
        self.private.toggled.connect(self.room_password.setEnabled)
        form2.addRow(_tr("Password:"), self.room_password)
        self.room_seed = QCheckBox(_tr("Allow joint-seed dealing (for older koikoi)"))
        self.room_seed.setObjectName("roomSeed")
        self.room_seed.setAccessibleName(_tr("Allow joint-seed dealing"))
        self.room_seed.setToolTip(seed_risk())
        form2.addRow(self.room_seed)
        self.internet = QCheckBox(_tr("Open to the internet (asks your router for a port)"))
        self.internet.setObjectName("roomInternet")
        self.internet.setAccessibleName(_tr("Open the room to the internet"))
        self.internet.setToolTip(
            _tr(
                "While the room is open, the app asks your home router (UPnP, PCP or NAT-PMP) "
                "to open its port, so that a friend elsewhere can join by the room's code. "
                "Anyone who finds the port can try to join: give the room a password."
            )
        )
        self.internet.setChecked(settings.get(ROOM_INTERNET))
        self.internet.toggled.connect(lambda on: settings.set(ROOM_INTERNET, bool(on)))
        form2.addRow(self.internet)
        self.create_button = QPushButton(_tr("Open the room"))
        self.create_button.setObjectName("createRoom")
        self.create_button.setAccessibleName(_tr("Open the room and wait for a player"))
        form2.addRow(self.create_button)
        self.practice_button = QPushButton(_tr("コンピューターと練習 · Practice vs the computer"))
        self.practice_button.setObjectName("secondaryButton")
        self.practice_button.setAccessibleName(_tr("Practice with the computer, these settings"))
        form2.addRow(self.practice_button)
        grid.addWidget(create, 0, 1, Qt.AlignmentFlag.AlignTop)
        grid.setColumnStretch(0, 3)
        grid.setColumnStretch(1, 2)

    def chosen_clock(self) -> ClockSetting:
        """The clock a room created now has (the form's choice)."""
        return CLOCK_CHOICES[max(0, self.clock_choice.currentIndex())]


class WaitingPage(QWidget):
    """The lobby's page while a room waits for a player or a join connects: the room, its
    state, the addresses to give a friend, who was turned away, and the button that stops
    (the lobby writes them and connects it)."""

    def __init__(self) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        self.waiting_title = QLabel("")
        self.waiting_title.setObjectName("subtitle")
        self.waiting_title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.waiting_title.setAccessibleName(_tr("Room"))
        self.waiting_title.setWordWrap(True)  # a long title with its settings, at 1024×640
        layout.addWidget(self.waiting_title)
        self.waiting_state = QLabel("")
        self.waiting_state.setObjectName("waitingState")
        self.waiting_state.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.waiting_state.setWordWrap(True)
        self.waiting_state.setAccessibleName(_tr("State"))
        layout.addWidget(self.waiting_state)
        self.addresses = QLabel("")
        self.addresses.setObjectName("roomAddresses")
        self.addresses.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.addresses.setWordWrap(True)
        self.addresses.setAccessibleName(_tr("Addresses to give a friend"))
        self.addresses.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.addresses)
        self.code_is_reply = False
        self.code_text = ""
        """The join code shown, as :func:`~koikoi.net.joincode.encode` wrote it ("": none)."""
        self.code = QLabel("")
        self.code.setObjectName("joinCode")
        self.code.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.code.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.code.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.copy_button = QPushButton(_tr("Copy"))
        self.copy_button.setObjectName("copyCode")
        self.copy_button.setAccessibleName(_tr("Copy the join code"))
        self.copy_button.clicked.connect(self.copy_code)
        code_row = QHBoxLayout()
        code_row.addStretch(1)
        code_row.addWidget(self.code)
        code_row.addWidget(self.copy_button)
        code_row.addStretch(1)
        self.code_head = QLabel(
            _tr("Or give a friend this join code (it also proves the room is yours):")
        )
        self.code_head.setObjectName("codeHead")
        self.code_head.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.code_head.setWordWrap(True)
        self.code_head.setBuddy(self.code)
        layout.addWidget(self.code_head)
        layout.addLayout(code_row)
        self.internet = QLabel("")
        self.internet.setObjectName("internetState")
        self.internet.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.internet.setWordWrap(True)
        self.internet.setAccessibleName(_tr("Open to the internet"))
        layout.addWidget(self.internet)
        self.password_hint = QLabel("")
        self.password_hint.setObjectName("passwordHint")
        self.password_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.password_hint.setWordWrap(True)
        self.password_hint.setAccessibleName(_tr("About a password"))
        layout.addWidget(self.password_hint)
        self._reply_row(layout)
        self.show_code("")
        self.turned_away = QLabel("")
        self.turned_away.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.turned_away.setWordWrap(True)
        self.turned_away.setAccessibleName(_tr("Turned away"))
        layout.addWidget(self.turned_away)
        row = QHBoxLayout()
        row.addStretch(1)
        self.cancel_button = QPushButton(_tr("Close the room"))
        self.cancel_button.setObjectName("cancelWaiting")
        self.cancel_button.setAccessibleName(_tr("Close the room"))
        row.addWidget(self.cancel_button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addStretch(2)

    def _reply_row(self, layout: QVBoxLayout) -> None:
        """An internet room's field for a joiner's reply code (docs/protocol.md, "Both
        sides dial"): typed in, the room dials that joiner back."""
        self.reply_head = QLabel(
            _tr(
                "If your friend's koikoi cannot reach this room, it shows them a reply code: "
                "type it here and both sides dial each other."
            )
        )
        self.reply_head.setObjectName("replyHead")
        self.reply_head.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.reply_head.setWordWrap(True)
        self.reply_code = QLineEdit()
        self.reply_code.setObjectName("replyCode")
        self.reply_code.setPlaceholderText(_tr("Reply code"))
        self.reply_code.setAccessibleName(_tr("Your friend's reply code"))
        self.reply_code.setMinimumWidth(360)
        self.reply_head.setBuddy(self.reply_code)
        self.dial_back_button = QPushButton(_tr("Dial back"))
        self.dial_back_button.setObjectName("dialBack")
        self.dial_back_button.setAccessibleName(_tr("Dial back your friend's reply code"))
        self.reply_code.returnPressed.connect(self.dial_back_button.click)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.reply_code)
        row.addWidget(self.dial_back_button)
        row.addStretch(1)
        self.reply_state = QLabel("")
        self.reply_state.setObjectName("replyState")
        self.reply_state.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.reply_state.setWordWrap(True)
        self.reply_state.setAccessibleName(_tr("Dialling back"))
        layout.addWidget(self.reply_head)
        layout.addLayout(row)
        layout.addWidget(self.reply_state)
        self.show_reply_field(False)

    def show_reply_field(self, shown: bool) -> None:
        """The reply-code field, for a room open to the internet (hidden otherwise)."""
        for widget in (self.reply_head, self.reply_code, self.dial_back_button):
            widget.setVisible(shown)
        self.reply_code.clear()
        self.reply_code.setEnabled(True)
        self.dial_back_button.setEnabled(True)
        self.show_reply_state("")

    def show_reply_state(self, text: str) -> None:
        """What dialling back does or did ("": nothing yet); said to a screen reader."""
        self.reply_state.setText(text)
        self.reply_state.setVisible(bool(text))
        if text:
            announce(self, text)

    def show_joining(self, address: str) -> None:
        """A join connecting to ``address``: the button stops it."""
        self.waiting_title.setText(_tr("Joining {0}").format(address))
        self.waiting_state.setText(_tr("Connecting to {0}…").format(address))
        self.addresses.setText("")
        self.show_code("")
        self.show_internet("")
        self.show_reply_field(False)
        self.turned_away.setText("")
        self.cancel_button.setText(_tr("Cancel"))
        self.cancel_button.setAccessibleName(_tr("Stop connecting"))

    def show_replying(self, host: str, port: int) -> None:
        """A joiner whose room did not answer listens on ``port`` and dials ``host``'s room
        from it, waiting for the room to dial back: its reply code comes with
        :meth:`show_code` (``reply``)."""
        self.show_joining(host)
        self.waiting_title.setText(_tr("Waiting for the room at {0} to dial you").format(host))
        self.addresses.setText(_tr("Listening on port {0}.").format(port))

    def show_room(
        self, title: str, options: PeerOptions, private: bool, port: int, shown: list[str]
    ) -> None:
        """A room just opened, announcing itself: its title, settings, clock and dealing,
        the addresses a friend elsewhere can join it by (``shown``, on ``port``); the
        button closes it."""
        dealings = options.dealings
        self.waiting_title.setText(
            title
            + "  ·  "
            + _settings_words(options.settings)
            + "  ·  "
            + clock_text(options.clock, long=True)
            + ("  ·  " + _tr("private") if private else "")
            + ("  ·  " + _tr("joint-seed dealing allowed") if "seed" in dealings else "")
        )
        self.waiting_state.setText(_tr("Waiting for a player… (announcing the room)"))
        self.addresses.setText(
            _tr("Port {0}. A friend elsewhere can join by address:\n{1}").format(
                port, "\n".join(shown)
            )
        )
        self.show_internet("")
        self.show_reply_field(False)
        self.turned_away.setText("")
        self.cancel_button.setText(_tr("Close the room"))
        self.cancel_button.setAccessibleName(_tr("Close the room"))

    def show_code(self, text: str, reply: bool = False) -> None:
        """The room's join code ``text`` (groups of five joined by ``-``), or none (""):
        a screen reader hears it symbol by symbol, a group at a time. ``reply``: a joiner's
        reply code, for the room's host."""
        self.code_text = text
        self.code_is_reply = reply
        self.code.setText(code_lines(text))
        spoken = ", ".join(" ".join(group) for group in text.split("-")) if text else ""
        name = _tr("Reply code: {0}") if reply else _tr("Join code: {0}")
        self.code.setAccessibleName(name.format(spoken) if text else "")
        if reply:
            about = _tr(
                "Read it out or paste it to the host: they type it under Reply code where "
                "their room waits."
            )
        else:
            about = _tr(
                "Read it out or paste it to your friend: they type it in the lobby's address field."
            )
        self.code.setAccessibleDescription(about if text else "")
        self.code_head.setText(
            _tr(
                "Your koikoi cannot reach the room. Give its host this reply code: when they "
                "type it where the room waits, both sides dial each other."
            )
            if reply
            else _tr("Or give a friend this join code (it also proves the room is yours):")
        )
        self.copy_button.setAccessibleName(
            _tr("Copy the reply code") if reply else _tr("Copy the join code")
        )
        self.copy_button.setText(_tr("Copy"))
        for widget in (self.code_head, self.code, self.copy_button):
            widget.setVisible(bool(text))

    def copy_code(self) -> None:
        """The Copy button: the code on the clipboard, and said so."""
        if not self.code_text:
            return
        QGuiApplication.clipboard().setText(self.code_text)
        self.copy_button.setText(_tr("Copied"))
        copied = _tr("The reply code is copied.") if self.code_is_reply else None
        announce(self, copied or _tr("The join code is copied."))

    def show_internet(self, text: str, password_hint: str = "") -> None:
        """What the router did for a room opened to the internet ("": a LAN room), and
        the suggestion of a password for a room without one."""
        self.internet.setText(text)
        self.internet.setVisible(bool(text))
        self.password_hint.setText(password_hint)
        self.password_hint.setVisible(bool(password_hint))


CODE_LINE: Final = 8
"""Groups of five on one line of the shown code at most: a mapped room's code (eight
groups) is one line; a longer one is cut into even lines (never one group left alone)."""


def code_lines(text: str) -> str:
    """A join code as the waiting page shows it: in even lines of at most
    :data:`CODE_LINE` groups.

    >>> code_lines("AAAAA-BBBBB-CCCCC-DDDDD-EEEEE-FFFFF-GGGGG-HHHHH-JJJJJ-KKKKK")
    'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE\\nFFFFF-GGGGG-HHHHH-JJJJJ-KKKKK'
    """
    groups = text.split("-")
    lines = -(-len(groups) // CODE_LINE)
    each = -(-len(groups) // lines)
    return "\n".join("-".join(groups[i : i + each]) for i in range(0, len(groups), each))


def seed_risk() -> str:
    """Why joint-seed dealing is off by default, for the options' tooltips."""
    return _tr(
        "Older koikoi (koikoi-net/2) deals from a seed both sides know: either program can "
        "then compute the other's hand and the stock. Off: only private dealing, and a player "
        "who offers only the joint seed is refused before any card is dealt."
    )


def _settings_words(settings: Settings) -> str:
    return settings_text(settings.rounds, settings.doubling)
