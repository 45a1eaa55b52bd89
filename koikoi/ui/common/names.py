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
('Paulownia plain\xa01', '桐のカス\xa01')
>>> yaku_japanese(Yaku.HANAMI)
'花見で一杯'
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Final

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from koikoi.engine.cards import CARD_IDS, Card, Kind, kind_of, month_of
from koikoi.engine.yaku import Yaku
from koikoi.resources import assets_dir

logger = logging.getLogger(__name__)


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:  # the name lupdate looks for
    """Mark ``source`` for translation in ``context``; translated where it is shown.

    Qt's own returns ``object`` in PySide6's stubs; this one keeps the ``str``.
    """
    return source


_translate = QCoreApplication.translate  # for a source held in a variable (lupdate skips it)
_installed: list[QTranslator] = []  # kept alive as long as the application uses them


LANGUAGES: Final = ("en", "ja")
"""The languages the app speaks; English is the source, Japanese a translation."""

_language = "en"


def system_language() -> str:
    """The language the system's locale asks for, among :data:`LANGUAGES` (else English)."""
    code = QLocale.system().name().split("_")[0]
    return code if code in LANGUAGES else "en"


def current_language() -> str:
    """'ja' while the Japanese translation is installed, else 'en'."""
    return _language


def install_translations(language: str | None = None) -> bool:
    """Load the app's translation into the running application; True when loaded.

    ``language`` is 'en' or 'ja'; None keeps the one installed, or English the first time
    (the app passes the language of its settings or of the system's locale). The English
    plural forms load first and stay; a Japanese translation (Qt's own ``qtbase_ja`` with
    it) loads after them, so it is searched first.
    Switching installs and removes translators, so every widget receives a
    ``QEvent.LanguageChange``.
    """
    global _language
    app = QCoreApplication.instance()
    if app is None:
        return False
    mine = [t for t in _installed if t.parent() is app]
    if language is None:
        if mine:
            return True
        language = "en"
    if language not in LANGUAGES:
        language = "en"
    folder = assets_dir() / "i18n"
    if not mine:
        translator = QTranslator(app)
        if not translator.load("koikoi_en.qm", str(folder)):
            logger.warning("the English plural forms are missing from %s", folder)
            return False
        QCoreApplication.installTranslator(translator)
        _installed[:] = [translator]
    for extra in _installed[1:]:
        QCoreApplication.removeTranslator(extra)
    del _installed[1:]
    _language = "en"
    if language == "en":
        return True
    qt = QTranslator(app)
    qt_folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if qt.load(f"qtbase_{language}", qt_folder):
        QCoreApplication.installTranslator(qt)
        _installed.append(qt)
    ours = QTranslator(app)
    if not ours.load(f"koikoi_{language}.qm", str(folder)):
        logger.warning("the %s translation is missing from %s", language, folder)
        return False
    QCoreApplication.installTranslator(ours)
    _installed.append(ours)
    _language = language
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

_MONTH_READINGS: Final = (
    "まつ", "うめ", "さくら", "ふじ", "あやめ", "ぼたん",
    "はぎ", "すすき", "きく", "もみじ", "やなぎ", "きり",
)  # fmt: skip
_SUBJECT_READINGS: Final = {
    "crane": "つる", "warbler": "うぐいす", "curtain": "まく", "cuckoo": "ほととぎす",
    "bridge": "やつはし", "butterfly": "ちょう", "boar": "いのしし", "moon": "つき",
    "geese": "かり", "sake_cup": "さかずき", "deer": "しか", "rainman": "おののとうふう",
    "swallow": "つばめ", "phoenix": "ほうおう",
}  # fmt: skip
_YAKU_READINGS: Final = {
    Yaku.GOKO: "ごこう", Yaku.SHIKO: "しこう", Yaku.AME_SHIKO: "あめしこう",
    Yaku.SANKO: "さんこう", Yaku.HANAMI: "はなみでいっぱい", Yaku.TSUKIMI: "つきみでいっぱい",
    Yaku.INOSHIKACHO: "いのしかちょう", Yaku.AKATAN: "あかたん", Yaku.AOTAN: "あおたん",
    Yaku.AKATAN_AOTAN: "あかたん・あおたん", Yaku.TANE: "たね", Yaku.TAN: "たん",
    Yaku.KASU: "かす", Yaku.TESHI: "てし", Yaku.KUTTSUKI: "くっつき",
}  # fmt: skip


def card_reading(card: Card) -> str:
    """The card's Japanese name in kana, e.g. 'まつにつる', 'きりのかす 1'."""
    ident = CARD_IDS[card]
    month = _MONTH_READINGS[month_of(card)]
    subject = ident.split("_", 1)[1]
    if subject in _SUBJECT_READINGS:
        return f"{month}に{_SUBJECT_READINGS[subject]}"
    if subject == "ribbon":
        ribbon = _CARD_NAMES[ident][1].rsplit("に", 1)[1]
        return month + {"赤短": "にあかたん", "青短": "にあおたん"}.get(ribbon, "にたんざく")
    if subject == "plain_yellow":
        return f"{month}のかす（き）"
    number = subject.removeprefix("plain").replace("_", " ")
    return f"{month}のかす{number}" if subject != "lightning" else f"{month}のかす"


def yaku_reading(yaku: Yaku) -> str:
    """The yaku's name in kana: 'いのしかちょう'."""
    return _YAKU_READINGS[yaku]


LEVELS: Final = {
    "easy": (QT_TRANSLATE_NOOP("Levels", "Easy"), QT_TRANSLATE_NOOP("Levels", "easy")),
    "normal": (QT_TRANSLATE_NOOP("Levels", "Normal"), QT_TRANSLATE_NOOP("Levels", "normal")),
    "hard": (QT_TRANSLATE_NOOP("Levels", "Hard"), QT_TRANSLATE_NOOP("Levels", "hard")),
    "expert": (QT_TRANSLATE_NOOP("Levels", "Expert"), QT_TRANSLATE_NOOP("Levels", "expert")),
}
"""The computer's levels: (as a choice, within a sentence)."""


def level_name(level: str, in_a_sentence: bool = False) -> str:
    """A computer level's name (``Hard``; ``hard`` in a sentence); an unknown one as it is
    (a record of another koikoi)."""
    names = LEVELS.get(level)
    if names is None:
        return level
    return _translate("Levels", names[1] if in_a_sentence else names[0])


def month_name(month: int) -> str:
    """The month's name, 0 = January."""
    return _translate("Cards", MONTHS[month])


def kind_name(kind: Kind) -> str:
    return _translate("Cards", KINDS[kind])


def kind_group_name(kind: Kind) -> str:
    return _translate("Cards", KIND_GROUPS[kind])


def kind_label(kind: Kind) -> str:
    """A capture tray's heading: '光 Lights' in English, '光札' in Japanese."""
    if _language == "ja":
        return kind_group_name(kind)
    return f"{KINDS_JA[kind]} {kind_group_name(kind)}"


def _whole(name: str) -> str:
    """A plain's number bound to its word by a no-break space, so that no label, log or
    prompt wraps "Chrysanthemum plain" above a lone "2" (issue 22); the other spaces break.

    >>> _whole("Chrysanthemum plain 2").split(" "), _whole("菊のカス 2")
    (['Chrysanthemum', 'plain\xa02'], '菊のカス\xa02')
    """
    head, space, tail = name.rpartition(" ")
    return f"{head}\u00a0{tail}" if space and tail.isdigit() else name


def card_name(card: Card) -> str:
    """The card's name in the current language, e.g. 'Pine crane', 'Paulownia plain 1' (its
    number bound to the word before it: :func:`_whole`)."""
    return _whole(_translate("Cards", _CARD_NAMES[CARD_IDS[card]][0]))


def card_japanese(card: Card) -> str:
    """The card's Japanese name, e.g. '松に鶴', '桐のカス 1', shown beside its name.

    In Japanese, where the name already is '松に鶴', this is its reading, 'まつにつる'.
    """
    if _language == "ja":
        return _whole(card_reading(card))
    return _whole(_CARD_NAMES[CARD_IDS[card]][1])


def card_accessible_name(card: Card) -> str:
    """What a screen reader says for a card: 'Pine crane, January light'."""
    return QCoreApplication.translate("Cards", "{name}, {month} {kind}").format(
        name=card_name(card), month=month_name(month_of(card)), kind=kind_name(kind_of(card))
    )


def card_description(card: Card) -> str:
    """The card's Japanese name, month and card points, for a tooltip or description:
    '松に鶴 · January · light, 20 points'."""
    kind = kind_of(card)
    return QCoreApplication.translate("Cards", "{ja} · {month} · {kind}, {points}").format(
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
    return QCoreApplication.translate("Cards", "{0} and {1}").format(
        ", ".join(listed[:-1]), listed[-1]
    )


def yaku_name(yaku: Yaku) -> str:
    """The yaku's name in the current language: 'Cherry-blossom viewing'."""
    return _translate("Yaku", _YAKU_NAMES[yaku][0])


def yaku_japanese(yaku: Yaku) -> str:
    """The yaku's Japanese name, '猪鹿蝶', shown beside its name; in Japanese its reading."""
    if _language == "ja":
        return yaku_reading(yaku)
    return _YAKU_NAMES[yaku][1]


def yaku_with_points(yaku: Yaku, n: int) -> str:
    """'Five tane (1 point)'."""
    return QCoreApplication.translate("Yaku", "{0} ({1})").format(yaku_name(yaku), points(n))
