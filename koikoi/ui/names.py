"""What the window calls cards, kinds, months and yaku, in words a player reads.

Every name goes through Qt's translation (context ``Cards`` or ``Yaku``), so the Japanese
translation of a later issue only adds a ``.qm``. A card is named in the current language
first, unambiguously (the plains of a month are numbered as their ids are); its Japanese
name (松に鶴) goes in its description and tooltip, beside, never instead.

Counts go through Qt's ``%n`` plurals. Qt substitutes ``%n`` without a translation but
picks a plural form only from one, so the English forms ship as a plurals-only English
translation (``assets/i18n/koikoi_en.qm``, from ``koikoi_en.ts`` by ``pyside6-lrelease``),
which :func:`install_translations` loads before any other.

>>> card_accessible_name(0)
'Pine crane, January light'
>>> card_name(46), card_japanese(46)
('Paulownia plain 1', '桐のカス 1')
>>> yaku_japanese(Yaku.HANAMI)
'花見で一杯'
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Final

from PySide6.QtCore import QCoreApplication, QTranslator

from koikoi.engine.cards import CARD_IDS, Card, Kind, kind_of, month_of
from koikoi.engine.yaku import Yaku
from koikoi.resources import assets_dir

logger = logging.getLogger(__name__)


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:  # the name lupdate looks for
    """Mark ``source`` for translation in ``context``; translated where it is shown.

    Qt's own returns ``object`` in PySide6's stubs; this one keeps the ``str``.
    """
    return source


_tr = QCoreApplication.translate
_installed: list[QTranslator] = []  # kept alive as long as the application uses them


def install_translations() -> bool:
    """Load the English plural forms into the running application, once; True when loaded.

    A later language's translator, installed after this one, is searched first.
    """
    app = QCoreApplication.instance()
    if app is None:
        return False
    if any(t.parent() is app for t in _installed):
        return True
    translator = QTranslator(app)
    folder = assets_dir() / "i18n"
    if not translator.load("koikoi_en.qm", str(folder)):
        logger.warning("the English plural forms are missing from %s", folder)
        return False
    QCoreApplication.installTranslator(translator)
    _installed.append(translator)
    return True


def points(n: int) -> str:
    """'1 point', '7 points'."""
    return QCoreApplication.translate("Cards", "%n point(s)", "", n)


def cards(n: int) -> str:
    """'1 card', '6 cards'."""
    return QCoreApplication.translate("Cards", "%n card(s)", "", n)


MONTHS: Final = (
    QT_TRANSLATE_NOOP("Cards", "January"),
    QT_TRANSLATE_NOOP("Cards", "February"),
    QT_TRANSLATE_NOOP("Cards", "March"),
    QT_TRANSLATE_NOOP("Cards", "April"),
    QT_TRANSLATE_NOOP("Cards", "May"),
    QT_TRANSLATE_NOOP("Cards", "June"),
    QT_TRANSLATE_NOOP("Cards", "July"),
    QT_TRANSLATE_NOOP("Cards", "August"),
    QT_TRANSLATE_NOOP("Cards", "September"),
    QT_TRANSLATE_NOOP("Cards", "October"),
    QT_TRANSLATE_NOOP("Cards", "November"),
    QT_TRANSLATE_NOOP("Cards", "December"),
)

KINDS: Final = {
    Kind.LIGHT: QT_TRANSLATE_NOOP("Cards", "light"),
    Kind.TANE: QT_TRANSLATE_NOOP("Cards", "tane"),
    Kind.RIBBON: QT_TRANSLATE_NOOP("Cards", "ribbon"),
    Kind.PLAIN: QT_TRANSLATE_NOOP("Cards", "plain"),
}
KIND_GROUPS: Final = {
    Kind.LIGHT: QT_TRANSLATE_NOOP("Cards", "Lights"),
    Kind.TANE: QT_TRANSLATE_NOOP("Cards", "Tane"),
    Kind.RIBBON: QT_TRANSLATE_NOOP("Cards", "Ribbons"),
    Kind.PLAIN: QT_TRANSLATE_NOOP("Cards", "Plains"),
}
KINDS_JA: Final = {Kind.LIGHT: "光", Kind.TANE: "タネ", Kind.RIBBON: "短冊", Kind.PLAIN: "カス"}

_CARD_NAMES: Final[dict[str, tuple[str, str]]] = {
    "matsu_crane": (QT_TRANSLATE_NOOP("Cards", "Pine crane"), "松に鶴"),
    "matsu_ribbon": (QT_TRANSLATE_NOOP("Cards", "Pine red poem ribbon"), "松に赤短"),
    "matsu_plain_1": (QT_TRANSLATE_NOOP("Cards", "Pine plain 1"), "松のカス 1"),
    "matsu_plain_2": (QT_TRANSLATE_NOOP("Cards", "Pine plain 2"), "松のカス 2"),
    "ume_warbler": (QT_TRANSLATE_NOOP("Cards", "Plum bush warbler"), "梅に鶯"),
    "ume_ribbon": (QT_TRANSLATE_NOOP("Cards", "Plum red poem ribbon"), "梅に赤短"),
    "ume_plain_1": (QT_TRANSLATE_NOOP("Cards", "Plum plain 1"), "梅のカス 1"),
    "ume_plain_2": (QT_TRANSLATE_NOOP("Cards", "Plum plain 2"), "梅のカス 2"),
    "sakura_curtain": (QT_TRANSLATE_NOOP("Cards", "Cherry curtain"), "桜に幕"),
    "sakura_ribbon": (QT_TRANSLATE_NOOP("Cards", "Cherry red poem ribbon"), "桜に赤短"),
    "sakura_plain_1": (QT_TRANSLATE_NOOP("Cards", "Cherry plain 1"), "桜のカス 1"),
    "sakura_plain_2": (QT_TRANSLATE_NOOP("Cards", "Cherry plain 2"), "桜のカス 2"),
    "fuji_cuckoo": (QT_TRANSLATE_NOOP("Cards", "Wisteria cuckoo"), "藤に不如帰"),
    "fuji_ribbon": (QT_TRANSLATE_NOOP("Cards", "Wisteria red ribbon"), "藤に短冊"),
    "fuji_plain_1": (QT_TRANSLATE_NOOP("Cards", "Wisteria plain 1"), "藤のカス 1"),
    "fuji_plain_2": (QT_TRANSLATE_NOOP("Cards", "Wisteria plain 2"), "藤のカス 2"),
    "ayame_bridge": (QT_TRANSLATE_NOOP("Cards", "Iris bridge"), "菖蒲に八橋"),
    "ayame_ribbon": (QT_TRANSLATE_NOOP("Cards", "Iris red ribbon"), "菖蒲に短冊"),
    "ayame_plain_1": (QT_TRANSLATE_NOOP("Cards", "Iris plain 1"), "菖蒲のカス 1"),
    "ayame_plain_2": (QT_TRANSLATE_NOOP("Cards", "Iris plain 2"), "菖蒲のカス 2"),
    "botan_butterfly": (QT_TRANSLATE_NOOP("Cards", "Peony butterflies"), "牡丹に蝶"),
    "botan_ribbon": (QT_TRANSLATE_NOOP("Cards", "Peony blue ribbon"), "牡丹に青短"),
    "botan_plain_1": (QT_TRANSLATE_NOOP("Cards", "Peony plain 1"), "牡丹のカス 1"),
    "botan_plain_2": (QT_TRANSLATE_NOOP("Cards", "Peony plain 2"), "牡丹のカス 2"),
    "hagi_boar": (QT_TRANSLATE_NOOP("Cards", "Bush clover boar"), "萩に猪"),
    "hagi_ribbon": (QT_TRANSLATE_NOOP("Cards", "Bush clover red ribbon"), "萩に短冊"),
    "hagi_plain_1": (QT_TRANSLATE_NOOP("Cards", "Bush clover plain 1"), "萩のカス 1"),
    "hagi_plain_2": (QT_TRANSLATE_NOOP("Cards", "Bush clover plain 2"), "萩のカス 2"),
    "susuki_moon": (QT_TRANSLATE_NOOP("Cards", "Pampas moon"), "芒に月"),
    "susuki_geese": (QT_TRANSLATE_NOOP("Cards", "Pampas geese"), "芒に雁"),
    "susuki_plain_1": (QT_TRANSLATE_NOOP("Cards", "Pampas plain 1"), "芒のカス 1"),
    "susuki_plain_2": (QT_TRANSLATE_NOOP("Cards", "Pampas plain 2"), "芒のカス 2"),
    "kiku_sake_cup": (QT_TRANSLATE_NOOP("Cards", "Chrysanthemum sake cup"), "菊に盃"),
    "kiku_ribbon": (QT_TRANSLATE_NOOP("Cards", "Chrysanthemum blue ribbon"), "菊に青短"),
    "kiku_plain_1": (QT_TRANSLATE_NOOP("Cards", "Chrysanthemum plain 1"), "菊のカス 1"),
    "kiku_plain_2": (QT_TRANSLATE_NOOP("Cards", "Chrysanthemum plain 2"), "菊のカス 2"),
    "momiji_deer": (QT_TRANSLATE_NOOP("Cards", "Maple deer"), "紅葉に鹿"),
    "momiji_ribbon": (QT_TRANSLATE_NOOP("Cards", "Maple blue ribbon"), "紅葉に青短"),
    "momiji_plain_1": (QT_TRANSLATE_NOOP("Cards", "Maple plain 1"), "紅葉のカス 1"),
    "momiji_plain_2": (QT_TRANSLATE_NOOP("Cards", "Maple plain 2"), "紅葉のカス 2"),
    "yanagi_rainman": (QT_TRANSLATE_NOOP("Cards", "Willow rain man"), "柳に小野道風"),
    "yanagi_swallow": (QT_TRANSLATE_NOOP("Cards", "Willow swallow"), "柳に燕"),
    "yanagi_ribbon": (QT_TRANSLATE_NOOP("Cards", "Willow red ribbon"), "柳に短冊"),
    "yanagi_lightning": (QT_TRANSLATE_NOOP("Cards", "Willow lightning"), "柳のカス"),
    "kiri_phoenix": (QT_TRANSLATE_NOOP("Cards", "Paulownia phoenix"), "桐に鳳凰"),
    "kiri_plain_yellow": (QT_TRANSLATE_NOOP("Cards", "Paulownia yellow plain"), "桐のカス（黄）"),
    "kiri_plain_1": (QT_TRANSLATE_NOOP("Cards", "Paulownia plain 1"), "桐のカス 1"),
    "kiri_plain_2": (QT_TRANSLATE_NOOP("Cards", "Paulownia plain 2"), "桐のカス 2"),
}
assert tuple(_CARD_NAMES) == CARD_IDS

_YAKU_NAMES: Final[dict[Yaku, tuple[str, str]]] = {
    Yaku.GOKO: (QT_TRANSLATE_NOOP("Yaku", "Five lights"), "五光"),
    Yaku.SHIKO: (QT_TRANSLATE_NOOP("Yaku", "Four lights"), "四光"),
    Yaku.AME_SHIKO: (QT_TRANSLATE_NOOP("Yaku", "Rainy four lights"), "雨四光"),
    Yaku.SANKO: (QT_TRANSLATE_NOOP("Yaku", "Three lights"), "三光"),
    Yaku.HANAMI: (QT_TRANSLATE_NOOP("Yaku", "Cherry-blossom viewing"), "花見で一杯"),
    Yaku.TSUKIMI: (QT_TRANSLATE_NOOP("Yaku", "Moon viewing"), "月見で一杯"),
    Yaku.INOSHIKACHO: (QT_TRANSLATE_NOOP("Yaku", "Boar, deer, butterflies"), "猪鹿蝶"),
    Yaku.AKATAN: (QT_TRANSLATE_NOOP("Yaku", "Red poem ribbons"), "赤短"),
    Yaku.AOTAN: (QT_TRANSLATE_NOOP("Yaku", "Blue ribbons"), "青短"),
    Yaku.AKATAN_AOTAN: (QT_TRANSLATE_NOOP("Yaku", "Red and blue ribbons"), "赤短・青短"),
    Yaku.TANE: (QT_TRANSLATE_NOOP("Yaku", "Five tane"), "タネ"),
    Yaku.TAN: (QT_TRANSLATE_NOOP("Yaku", "Five ribbons"), "タン"),
    Yaku.KASU: (QT_TRANSLATE_NOOP("Yaku", "Ten plains"), "カス"),
    Yaku.TESHI: (QT_TRANSLATE_NOOP("Yaku", "Four of a month in hand"), "手四"),
    Yaku.KUTTSUKI: (QT_TRANSLATE_NOOP("Yaku", "Four pairs in hand"), "くっつき"),
}


def month_name(month: int) -> str:
    """The month's name, 0 = January."""
    return _tr("Cards", MONTHS[month])


def kind_name(kind: Kind) -> str:
    return _tr("Cards", KINDS[kind])


def kind_group_name(kind: Kind) -> str:
    return _tr("Cards", KIND_GROUPS[kind])


def card_name(card: Card) -> str:
    """The card's name in the current language, e.g. 'Pine crane', 'Paulownia plain 1'."""
    return _tr("Cards", _CARD_NAMES[CARD_IDS[card]][0])


def card_japanese(card: Card) -> str:
    """The card's Japanese name, e.g. '松に鶴', '桐のカス 1'."""
    return _CARD_NAMES[CARD_IDS[card]][1]


def card_accessible_name(card: Card) -> str:
    """What a screen reader says for a card: 'Pine crane, January light'."""
    return _tr("Cards", "{name}, {month} {kind}").format(
        name=card_name(card), month=month_name(month_of(card)), kind=kind_name(kind_of(card))
    )


def card_description(card: Card) -> str:
    """The card's Japanese name, month and card points, for a tooltip or description:
    '松に鶴 · January · light, 20 points'."""
    kind = kind_of(card)
    return _tr("Cards", "{ja} · {month} · {kind}, {points}").format(
        points=points(kind.points),
        ja=card_japanese(card),
        month=month_name(month_of(card)),
        kind=kind_name(kind),
    )


def card_tooltip(card: Card) -> str:
    """'Pine crane, January light' over '松に鶴 · January · light, 20 points'."""
    return f"{card_accessible_name(card)}\n{card_description(card)}"


def cards_named(cards: Iterable[Card]) -> str:
    """Several cards in one phrase: 'Pine plain 1 and Pine plain 2'."""
    listed = [card_name(c) for c in cards]
    if len(listed) < 2:
        return "".join(listed)
    return _tr("Cards", "{0} and {1}").format(", ".join(listed[:-1]), listed[-1])


def yaku_name(yaku: Yaku) -> str:
    """The yaku's name in the current language: 'Cherry-blossom viewing'."""
    return _tr("Yaku", _YAKU_NAMES[yaku][0])


def yaku_japanese(yaku: Yaku) -> str:
    return _YAKU_NAMES[yaku][1]


def yaku_with_points(yaku: Yaku, n: int) -> str:
    """'Five tane (1 point)'."""
    return _tr("Yaku", "{0} ({1})").format(yaku_name(yaku), points(n))
