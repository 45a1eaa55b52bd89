"""The card gallery: the 48 cards by month (1月 松 … 12月 桐) with their names, kinds and
card points, and what each reading-aid mark on a card means (ART.md)."""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QCoreApplication, QRect, QSize, Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from koikoi.engine.cards import CARD_IDS, MONTH_MASKS, iter_cards, kind_of, parse_card
from koikoi.ui.common import names
from koikoi.ui.common.art import CARD_WIDTH, CardArt, card_size
from koikoi.ui.learn.learn_page import CardPicture, LearnPage

MONTH_PLANTS: Final = (
    ("松", "まつ"), ("梅", "うめ"), ("桜", "さくら"), ("藤", "ふじ"), ("菖蒲", "あやめ"),
    ("牡丹", "ぼたん"), ("萩", "はぎ"), ("芒", "すすき"), ("菊", "きく"), ("紅葉", "もみじ"),
    ("柳", "やなぎ"), ("桐", "きり"),
)  # fmt: skip
"""Each month's plant in Japanese, with its reading."""

GALLERY_WIDTH: Final = 64
"""The width of a card in the gallery (logical pixels)."""

AIDS_BOX: Final = (15, 15, 58, 112)
"""Where the reading aids sit on a card, in the SVG's units (``assets/cards/draw.py``)."""


def _tr(text: str) -> str:
    return QCoreApplication.translate("Gallery", text)


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:  # the name lupdate looks for
    return source


PLANTS: Final = (
    QT_TRANSLATE_NOOP("Gallery", "pine"),
    QT_TRANSLATE_NOOP("Gallery", "plum"),
    QT_TRANSLATE_NOOP("Gallery", "cherry"),
    QT_TRANSLATE_NOOP("Gallery", "wisteria"),
    QT_TRANSLATE_NOOP("Gallery", "iris"),
    QT_TRANSLATE_NOOP("Gallery", "peony"),
    QT_TRANSLATE_NOOP("Gallery", "bush clover"),
    QT_TRANSLATE_NOOP("Gallery", "pampas grass"),
    QT_TRANSLATE_NOOP("Gallery", "chrysanthemum"),
    QT_TRANSLATE_NOOP("Gallery", "maple"),
    QT_TRANSLATE_NOOP("Gallery", "willow"),
    QT_TRANSLATE_NOOP("Gallery", "paulownia"),
)


def month_title(month: int) -> str:
    """'January, pine · 1月 松 (まつ)'."""
    plant, reading = MONTH_PLANTS[month]
    return _tr("{month}, {plant_name} · {n}月 {plant} ({reading})").format(
        month=names.month_name(month),
        plant_name=_tr(PLANTS[month]),
        n=month + 1,
        plant=plant,
        reading=reading,
    )


def aids_picture(art: CardArt, card_id: str, dpr: float, height: int = 72) -> QPixmap:
    """The reading-aid corner of a card, cut from its picture (month numeral and mark)."""
    x, y, w, h = AIDS_BOX
    scale = height / (h + 8)
    width = round(CARD_WIDTH * scale)
    size = card_size(width)
    shown, art.show_aids = art.show_aids, True  # the legend shows the marks it explains
    try:
        image = art.image(card_id, QSize(round(size.width() * dpr), round(size.height() * dpr)))
    finally:
        art.show_aids = shown
    k = scale * dpr
    crop = QRect(round((x - 2) * k), round((y - 2) * k), round((w + 4) * k), round((h + 4) * k))
    pixmap = QPixmap.fromImage(image.copy(crop))
    pixmap.setDevicePixelRatio(dpr)
    return pixmap


class CardGallery(LearnPage):
    """The reading aids explained, then each month's four cards with names, kinds and
    points."""

    def __init__(self, art: CardArt, aids: bool = True, card_scale: float = 1.0) -> None:
        super().__init__(art, aids, "cardGallery")
        self.card_scale = card_scale
        """The card-size display option's scale (``DisplayOptions.card_scale``)."""
        self.cells: dict[int, QLabel] = {}
        self.add_section(self.tr("What the marks on a card mean"), self._aids_legend())
        for month in range(12):
            self._month_row(month)
        self.finish()

    @property
    def card_width(self) -> int:
        return round(GALLERY_WIDTH * self.card_scale)

    def set_card_scale(self, scale: float) -> None:
        """The cards follow the card-size display option."""
        self.card_scale = scale
        for picture in self.pictures:
            if isinstance(picture, CardPicture):
                picture.set_width(self.card_width)

    def _aids_legend(self) -> QWidget:
        box = QWidget()
        grid = QGridLayout(box)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(14)
        t = self.tr
        marks = [
            (
                "matsu_crane",
                t(
                    "The number at the top: the card's month, 1 to 12 (here January). "
                    "Under it, a red sun with rays: a light (光), 20 points."
                ),
            ),
            ("ume_warbler", t("A black diamond: a tane (タネ, animals and things), 10 points.")),
            (
                "matsu_ribbon",
                t("A red slip with a black line: a red poem ribbon (赤短), 5 points."),
            ),
            (
                "botan_ribbon",
                t("A blue slip with two light bands: a blue ribbon (青短), 5 points."),
            ),
            ("fuji_ribbon", t("A plain red slip: one of the other ribbons (短冊), 5 points.")),
            ("matsu_plain_1", t("A ring: a plain (カス), 1 point.")),
        ]
        dpr = self.devicePixelRatioF()
        for row, (card_id, text) in enumerate(marks):
            picture = QLabel()
            picture.setObjectName("aidsMark")
            picture.setProperty("card", card_id)
            picture.setPixmap(aids_picture(self.art, card_id, dpr))
            picture.setAccessibleName(
                self.tr("The marks of {0}").format(names.card_name(parse_card(card_id)))
            )
            label = QLabel(text)
            label.setWordWrap(True)
            grid.addWidget(picture, row // 2, 2 * (row % 2))
            grid.addWidget(label, row // 2, 2 * (row % 2) + 1)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)
        note = QLabel(
            self.tr(
                "The marks differ in shape as well as colour. They are reading aids only: "
                "Display options can hide them. Card points (20, 10, 5, 1) only rank cards "
                "when the first oya is chosen; yaku make the score."
            )
        )
        note.setObjectName("learnNote")
        note.setWordWrap(True)
        outer = QWidget()
        lay = QVBoxLayout(outer)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(box)
        lay.addWidget(note)
        return outer

    def _month_row(self, month: int) -> None:
        box = QWidget()
        grid = QGridLayout(box)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(12)
        spoken = []
        for i, card in enumerate(iter_cards(MONTH_MASKS[month])):
            picture = CardPicture(self.art, card, self.card_width, self.aids)
            self.pictures.append(picture)
            grid.addWidget(picture, 0, i, Qt.AlignmentFlag.AlignHCenter)
            kind = kind_of(card)
            what = self.tr("{kind} {ja} · {points}").format(
                ja=names.KINDS_JA[kind],
                kind=names.kind_name(kind),
                points=names.points(kind.points),
            )
            # one label for the three lines: English (the current language) first
            text = QLabel("\n".join((names.card_name(card), names.card_japanese(card), what)))
            text.setObjectName("galleryCard")
            text.setProperty("card", CARD_IDS[card])
            text.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
            text.setWordWrap(True)
            grid.addWidget(text, 1, i)
            grid.setColumnStretch(i, 1)
            self.cells[card] = text
            spoken.append(f"{names.card_name(card)} {names.card_japanese(card)}, {what}")
        section = self.add_section(month_title(month), box)
        section.setObjectName("monthRow")
        section.setAccessibleDescription("; ".join(spoken))
