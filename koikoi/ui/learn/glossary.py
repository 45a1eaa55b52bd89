"""A short glossary: the Japanese words of the game, their reading and meaning."""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:  # the name lupdate looks for
    return source


GLOSSARY: Final[tuple[tuple[str, str, str, str], ...]] = (
    (
        "花札",
        "はなふだ",
        "hanafuda",
        QT_TRANSLATE_NOOP("Glossary", "flower cards: the 48-card deck, 12 months of 4"),
    ),
    (
        "こいこい",
        "こいこい",
        "koikoi",
        QT_TRANSLATE_NOOP("Glossary", "the game; also the call to play on for more points"),
    ),
    (
        "勝負",
        "しょうぶ",
        "shobu",
        QT_TRANSLATE_NOOP("Glossary", "the call that ends the round and wins it"),
    ),
    (
        "親",
        "おや",
        "oya",
        QT_TRANSLATE_NOOP(
            "Glossary", "the dealer, who plays first in a round; the last round's winner"
        ),
    ),
    ("子", "こ", "ko", QT_TRANSLATE_NOOP("Glossary", "the other player, who plays second")),
    ("役", "やく", "yaku", QT_TRANSLATE_NOOP("Glossary", "a scoring set of captured cards")),
    (
        "手役",
        "てやく",
        "teyaku",
        QT_TRANSLATE_NOOP(
            "Glossary", "a scoring dealt hand: teshi (4 of a month) or kuttsuki (4 pairs)"
        ),
    ),
    (
        "場",
        "ば",
        "ba",
        QT_TRANSLATE_NOOP("Glossary", "the field: the face-up cards between the players"),
    ),
    (
        "山札",
        "やまふだ",
        "yamafuda",
        QT_TRANSLATE_NOOP("Glossary", "the stock: the face-down cards turned one a turn"),
    ),
    ("手札", "てふだ", "tefuda", QT_TRANSLATE_NOOP("Glossary", "the cards in your hand")),
    (
        "取り札",
        "とりふだ",
        "torifuda",
        QT_TRANSLATE_NOOP("Glossary", "the cards you have captured"),
    ),
    ("光", "ひかり", "hikari", QT_TRANSLATE_NOOP("Glossary", "a light: the five 20-point cards")),
    (
        "タネ",
        "たね",
        "tane",
        QT_TRANSLATE_NOOP("Glossary", "a 10-point card with an animal or a thing (also 種)"),
    ),
    (
        "短冊",
        "たんざく",
        "tanzaku",
        QT_TRANSLATE_NOOP("Glossary", "a ribbon card, 5 points; tan (タン) is the yaku of five"),
    ),
    (
        "カス",
        "かす",
        "kasu",
        QT_TRANSLATE_NOOP("Glossary", "a plain card, 1 point; also the yaku of ten"),
    ),
    (
        "赤短",
        "あかたん",
        "akatan",
        QT_TRANSLATE_NOOP("Glossary", "the three red ribbons with poems (pine, plum, cherry)"),
    ),
    (
        "青短",
        "あおたん",
        "aotan",
        QT_TRANSLATE_NOOP("Glossary", "the three blue ribbons (peony, chrysanthemum, maple)"),
    ),
    (
        "猪鹿蝶",
        "いのしかちょう",
        "inoshikacho",
        QT_TRANSLATE_NOOP("Glossary", "boar, deer and butterflies: a yaku"),
    ),
    (
        "化け札",
        "ばけふだ",
        "bake-fuda",
        QT_TRANSLATE_NOOP(
            "Glossary",
            "a card that stands for another (elsewhere the sake cup; not in this game)",
        ),
    ),
    (
        "菊に盃",
        "きくにさかずき",
        "kiku ni sakazuki",
        QT_TRANSLATE_NOOP("Glossary", "the sake cup: a tane, and in both viewing yaku"),
    ),
    (
        "流れ",
        "ながれ",
        "nagare",
        QT_TRANSLATE_NOOP("Glossary", "a round that ends with no shobu: no points, the oya stays"),
    ),
    (
        "配り直し",
        "くばりなおし",
        "kubari-naoshi",
        QT_TRANSLATE_NOOP("Glossary", "a redeal: four of a month on the field"),
    ),
    (
        "持ち点",
        "もちてん",
        "mochiten",
        QT_TRANSLATE_NOOP("Glossary", "the points each player has left (25 at the start)"),
    ),
    ("回戦", "かいせん", "kaisen", QT_TRANSLATE_NOOP("Glossary", "a round of the match (6 or 12)")),
)
"""(Japanese, reading, romaji, meaning): the meaning is translated through the glossary's
context when shown."""


def _tr(text: str) -> str:
    return QCoreApplication.translate("Glossary", text)


def _meaning(text: str) -> str:
    """The meaning in the current language (the table above, translated)."""
    return QCoreApplication.translate("Glossary", text)


class Glossary(QWidget):
    """A table of terms: arrows move between cells, and a screen reader reads each."""

    COLUMNS: Final = 4

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("glossary")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        lay = QVBoxLayout(self)
        head = QLabel(self.tr("用語集 · Glossary"))
        head.setObjectName("learnHead")
        lay.addWidget(head)
        self.table = QTableWidget(len(GLOSSARY), self.COLUMNS)
        self.table.setObjectName("glossaryTable")
        self.table.setAccessibleName(self.tr("Glossary"))
        self.table.setHorizontalHeaderLabels(
            [self.tr("Word"), self.tr("Japanese"), self.tr("Reading"), self.tr("Meaning")]
        )
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(True)
        self.table.verticalHeader().hide()
        self.table.setTabKeyNavigation(False)
        for row, (japanese, kana, romaji, meaning) in enumerate(GLOSSARY):
            for col, text in enumerate((romaji, japanese, kana, _meaning(meaning))):
                item = QTableWidgetItem(text)
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                self.table.setItem(row, col, item)
        header = self.table.horizontalHeader()
        for col in range(3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.table.resizeRowsToContents()
        self.table.setCurrentCell(0, 0)
        lay.addWidget(self.table)
