"""What the window calls cards, kinds, months and yaku, in words a player reads.

Every name goes through Qt's translation (context ``Cards`` or ``Yaku``), so the Japanese
translation of a later issue only adds a ``.qm``; the Japanese names (松に鶴, 花見で一杯) are
shown beside the English ones already, since players know the cards by them.

>>> card_accessible_name(0)
'Matsu crane, January light'
>>> yaku_japanese(Yaku.HANAMI)
'花見で一杯'
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from koikoi.engine.cards import CARD_IDS, Card, Kind, kind_of, month_of
from koikoi.engine.yaku import Yaku

_tr = QCoreApplication.translate

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

MONTH_PLANTS_JA: Final = (
    "松", "梅", "桜", "藤", "菖蒲", "牡丹", "萩", "芒", "菊", "紅葉", "柳", "桐",
)  # fmt: skip

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
    "matsu_crane": (QT_TRANSLATE_NOOP("Cards", "Matsu crane"), "松に鶴"),
    "matsu_ribbon": (QT_TRANSLATE_NOOP("Cards", "Matsu red poem ribbon"), "松に赤短"),
    "matsu_plain_1": (QT_TRANSLATE_NOOP("Cards", "Matsu plain 1"), "松のカス"),
    "matsu_plain_2": (QT_TRANSLATE_NOOP("Cards", "Matsu plain 2"), "松のカス"),
    "ume_warbler": (QT_TRANSLATE_NOOP("Cards", "Ume warbler"), "梅に鶯"),
    "ume_ribbon": (QT_TRANSLATE_NOOP("Cards", "Ume red poem ribbon"), "梅に赤短"),
    "ume_plain_1": (QT_TRANSLATE_NOOP("Cards", "Ume plain 1"), "梅のカス"),
    "ume_plain_2": (QT_TRANSLATE_NOOP("Cards", "Ume plain 2"), "梅のカス"),
    "sakura_curtain": (QT_TRANSLATE_NOOP("Cards", "Sakura curtain"), "桜に幕"),
    "sakura_ribbon": (QT_TRANSLATE_NOOP("Cards", "Sakura red poem ribbon"), "桜に赤短"),
    "sakura_plain_1": (QT_TRANSLATE_NOOP("Cards", "Sakura plain 1"), "桜のカス"),
    "sakura_plain_2": (QT_TRANSLATE_NOOP("Cards", "Sakura plain 2"), "桜のカス"),
    "fuji_cuckoo": (QT_TRANSLATE_NOOP("Cards", "Fuji cuckoo"), "藤に不如帰"),
    "fuji_ribbon": (QT_TRANSLATE_NOOP("Cards", "Fuji red ribbon"), "藤に短冊"),
    "fuji_plain_1": (QT_TRANSLATE_NOOP("Cards", "Fuji plain 1"), "藤のカス"),
    "fuji_plain_2": (QT_TRANSLATE_NOOP("Cards", "Fuji plain 2"), "藤のカス"),
    "ayame_bridge": (QT_TRANSLATE_NOOP("Cards", "Ayame bridge"), "菖蒲に八橋"),
    "ayame_ribbon": (QT_TRANSLATE_NOOP("Cards", "Ayame red ribbon"), "菖蒲に短冊"),
    "ayame_plain_1": (QT_TRANSLATE_NOOP("Cards", "Ayame plain 1"), "菖蒲のカス"),
    "ayame_plain_2": (QT_TRANSLATE_NOOP("Cards", "Ayame plain 2"), "菖蒲のカス"),
    "botan_butterfly": (QT_TRANSLATE_NOOP("Cards", "Botan butterflies"), "牡丹に蝶"),
    "botan_ribbon": (QT_TRANSLATE_NOOP("Cards", "Botan blue ribbon"), "牡丹に青短"),
    "botan_plain_1": (QT_TRANSLATE_NOOP("Cards", "Botan plain 1"), "牡丹のカス"),
    "botan_plain_2": (QT_TRANSLATE_NOOP("Cards", "Botan plain 2"), "牡丹のカス"),
    "hagi_boar": (QT_TRANSLATE_NOOP("Cards", "Hagi boar"), "萩に猪"),
    "hagi_ribbon": (QT_TRANSLATE_NOOP("Cards", "Hagi red ribbon"), "萩に短冊"),
    "hagi_plain_1": (QT_TRANSLATE_NOOP("Cards", "Hagi plain 1"), "萩のカス"),
    "hagi_plain_2": (QT_TRANSLATE_NOOP("Cards", "Hagi plain 2"), "萩のカス"),
    "susuki_moon": (QT_TRANSLATE_NOOP("Cards", "Susuki moon"), "芒に月"),
    "susuki_geese": (QT_TRANSLATE_NOOP("Cards", "Susuki geese"), "芒に雁"),
    "susuki_plain_1": (QT_TRANSLATE_NOOP("Cards", "Susuki plain 1"), "芒のカス"),
    "susuki_plain_2": (QT_TRANSLATE_NOOP("Cards", "Susuki plain 2"), "芒のカス"),
    "kiku_sake_cup": (QT_TRANSLATE_NOOP("Cards", "Kiku sake cup"), "菊に盃"),
    "kiku_ribbon": (QT_TRANSLATE_NOOP("Cards", "Kiku blue ribbon"), "菊に青短"),
    "kiku_plain_1": (QT_TRANSLATE_NOOP("Cards", "Kiku plain 1"), "菊のカス"),
    "kiku_plain_2": (QT_TRANSLATE_NOOP("Cards", "Kiku plain 2"), "菊のカス"),
    "momiji_deer": (QT_TRANSLATE_NOOP("Cards", "Momiji deer"), "紅葉に鹿"),
    "momiji_ribbon": (QT_TRANSLATE_NOOP("Cards", "Momiji blue ribbon"), "紅葉に青短"),
    "momiji_plain_1": (QT_TRANSLATE_NOOP("Cards", "Momiji plain 1"), "紅葉のカス"),
    "momiji_plain_2": (QT_TRANSLATE_NOOP("Cards", "Momiji plain 2"), "紅葉のカス"),
    "yanagi_rainman": (QT_TRANSLATE_NOOP("Cards", "Yanagi rain man"), "柳に小野道風"),
    "yanagi_swallow": (QT_TRANSLATE_NOOP("Cards", "Yanagi swallow"), "柳に燕"),
    "yanagi_ribbon": (QT_TRANSLATE_NOOP("Cards", "Yanagi red ribbon"), "柳に短冊"),
    "yanagi_lightning": (QT_TRANSLATE_NOOP("Cards", "Yanagi lightning"), "柳のカス"),
    "kiri_phoenix": (QT_TRANSLATE_NOOP("Cards", "Kiri phoenix"), "桐に鳳凰"),
    "kiri_plain_yellow": (QT_TRANSLATE_NOOP("Cards", "Kiri yellow plain"), "桐のカス"),
    "kiri_plain_1": (QT_TRANSLATE_NOOP("Cards", "Kiri plain 1"), "桐のカス"),
    "kiri_plain_2": (QT_TRANSLATE_NOOP("Cards", "Kiri plain 2"), "桐のカス"),
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
    """The card's English name, e.g. 'Matsu crane'."""
    return _tr("Cards", _CARD_NAMES[CARD_IDS[card]][0])


def card_japanese(card: Card) -> str:
    """The card's Japanese name, e.g. '松に鶴'."""
    return _CARD_NAMES[CARD_IDS[card]][1]


def card_accessible_name(card: Card) -> str:
    """What a screen reader says for a card: 'Matsu crane, January light'."""
    return _tr("Cards", "{name}, {month} {kind}").format(
        name=card_name(card), month=month_name(month_of(card)), kind=kind_name(kind_of(card))
    )


def card_description(card: Card) -> str:
    """The card's Japanese name, month and card points, for a tooltip or description."""
    kind = kind_of(card)
    return _tr("Cards", "{ja} · {month} · {kind}, {points} points").format(
        ja=card_japanese(card),
        month=month_name(month_of(card)),
        kind=kind_name(kind),
        points=kind.points,
    )


def card_label(card: Card) -> str:
    """A short label for text: '松に鶴 (Matsu crane)'."""
    return f"{card_japanese(card)} ({card_name(card)})"


def yaku_name(yaku: Yaku) -> str:
    return _tr("Yaku", _YAKU_NAMES[yaku][0])


def yaku_japanese(yaku: Yaku) -> str:
    return _YAKU_NAMES[yaku][1]


def yaku_label(yaku: Yaku) -> str:
    """'花見で一杯 Cherry-blossom viewing'."""
    return f"{yaku_japanese(yaku)}  {yaku_name(yaku)}"
