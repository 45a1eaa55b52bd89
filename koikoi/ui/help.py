"""Rules and keys, in a window a player can keep open beside the table."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from koikoi.engine.cards import KIKU_SAKE_CUP, SAKURA_CURTAIN, SUSUKI_MOON
from koikoi.engine.match import STAKE
from koikoi.engine.yaku import Yaku
from koikoi.ui import names


class HelpDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("helpDialog")
        self.setWindowTitle(self.tr("Koi-Koi: rules and keys"))
        self.setAccessibleName(self.tr("Rules and keys"))
        self.resize(760, 680)
        lay = QVBoxLayout(self)
        self.text = QTextBrowser()
        self.text.setObjectName("helpText")
        self.text.setAccessibleName(self.tr("Rules and keys"))
        self.text.setOpenExternalLinks(False)
        self.text.document().setDefaultFont(self.font())
        self.text.setHtml(self.html())
        lay.addWidget(self.text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.on_calculator: Callable[[], None] = lambda: None
        self.calculator_button = QPushButton(self.tr("Score calculator"))
        self.calculator_button.clicked.connect(lambda: self.on_calculator())
        buttons.addButton(self.calculator_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.Close).setAccessibleName(self.tr("Close"))
        lay.addWidget(buttons)
        self.setWindowModality(Qt.WindowModality.NonModal)

    def html(self) -> str:
        t = self.tr
        quick = [
            t("Two players, 48 cards: 12 months of 4. Only the month matters for matching."),
            t("Each gets 8 cards; 8 lie face up on the field; 24 are the stock."),
            t(
                "On your turn play a hand card: a field card of the same month is taken with it; "
                "with none, your card stays on the field. You may play any card."
            ),
            t("Then the top stock card is turned and matched the same way."),
            t(
                "If your yaku total rose at the end of the turn, choose 「勝負」 shobu (end the "
                "round and score) or 「こいこい」 koikoi (play on for more)."
            ),
            t("If nobody calls shobu before both hands are empty, the round is a draw (nagare)."),
            t(
                "A match is 6 or 12 rounds. Both start with {0} points; the loser of a round pays "
                "its points to the winner, at most what they have left. At 0 you lose at once."
            ).format(STAKE),
        ]
        matching = [
            t("0 matches: the card stays on the field."),
            t("1 match: take both."),
            t("2 matches: choose which one to take; the other stays."),
            t("3 matches: take all four."),
            t(
                "A drawn card with one way to go resolves by itself after 5 seconds "
                "(click to go on sooner); with two matches you choose."
            ),
        ]

        def both(a: int, b: int) -> str:
            return t("{0} + {1}").format(names.card_name(a), names.card_name(b))

        conditions = {
            Yaku.GOKO: t("all 5 lights"),
            Yaku.SHIKO: t("4 lights without the rain man"),
            Yaku.AME_SHIKO: t("4 lights with the rain man"),
            Yaku.SANKO: t("3 lights without the rain man"),
            Yaku.HANAMI: both(SAKURA_CURTAIN, KIKU_SAKE_CUP),
            Yaku.TSUKIMI: both(SUSUKI_MOON, KIKU_SAKE_CUP),
            Yaku.INOSHIKACHO: t("boar, deer, butterflies; +1 per other tane"),
            Yaku.AKATAN: t("the 3 red poem ribbons; +1 per other ribbon"),
            Yaku.AOTAN: t("the 3 blue ribbons; +1 per other ribbon"),
            Yaku.AKATAN_AOTAN: t("all 6; replaces both; +1 per other ribbon"),
            Yaku.TANE: t("5 tane (sake cup counts); +1 per card beyond 5"),
            Yaku.TAN: t("5 ribbons; +1 per card beyond 5"),
            Yaku.KASU: t("10 plains (not the sake cup); +1 per card beyond 10"),
            Yaku.TESHI: t("dealt hand: all 4 cards of a month"),
            Yaku.KUTTSUKI: t("dealt hand: four pairs of months"),
        }
        points = {
            Yaku.GOKO: "10", Yaku.SHIKO: "8", Yaku.AME_SHIKO: "7", Yaku.SANKO: "5",
            Yaku.HANAMI: "5", Yaku.TSUKIMI: "5", Yaku.INOSHIKACHO: "5~", Yaku.AKATAN: "5~",
            Yaku.AOTAN: "5~", Yaku.AKATAN_AOTAN: "10~", Yaku.TANE: "1~", Yaku.TAN: "1~",
            Yaku.KASU: "1~", Yaku.TESHI: "6", Yaku.KUTTSUKI: "6",
        }  # fmt: skip
        rows = "".join(
            f"<tr><td><b>{escape(names.yaku_japanese(y))}</b></td>"
            f"<td>{escape(names.yaku_name(y))}</td><td align='right'>{points[y]}</td>"
            f"<td>{escape(conditions[y])}</td></tr>"
            for y in Yaku
        )
        scoring = [
            t("Only the highest light yaku counts; all other yaku add up."),
            t(
                "Round points: the yaku total; ×2 when it is 8 or more (a setting, on by "
                "default); × (koikoi calls this round by both players + 1)."
            ),
            t(
                "Shobu wins the round even if the opponent has yaku; after a koikoi you may "
                "call again only when your total rises. On the last turn only shobu is possible."
            ),
            t("Teyaku (a dealt hand of 4 of a month, or 4 pairs) wins 6 points at once."),
            t("Four cards of one month on the field: the cards are dealt again (not a round)."),
            t("The winner of a round is the next oya; after a nagare the oya stays."),
        ]
        keys = [
            (t("← →"), t("move between hand cards, or between the field cards you can take")),
            (t("↑ ↓"), t("go to the field cards the selected card can take, and back")),
            (
                t("Enter / Space"),
                t("select the focused hand card; again to play it; on a field card, take it"),
            ),
            (t("1 – 8"), t("select a hand card, counting from the left")),
            (t("Esc"), t("put the selection back")),
            (t("S / K"), t("「勝負」 shobu / 「こいこい」 koikoi")),
            (t("F1"), t("this help")),
        ]

        assist = t(
            "Assist display (a setting) makes cards that can capture glow; it never "
            "changes the rules."
        )

        def ul(items: list[str]) -> str:
            return "<ul>" + "".join(f"<li>{escape(i)}</li>" for i in items) + "</ul>"

        key_rows = "".join(
            f"<tr><td><b>{escape(k)}</b></td><td>{escape(v)}</td></tr>" for k, v in keys
        )
        return (
            f"<h2>{escape(t('Koi-Koi in short'))}</h2>{ul(quick)}"
            f"<h3>{escape(t('Matching'))}</h3>{ul(matching)}"
            f"<h3>{escape(t('Yaku (役)'))}</h3>"
            f"<p>{escape(t('~ : one more point for each extra card.'))}</p>"
            f"<table cellspacing='6'>{rows}</table>"
            f"<h3>{escape(t('Scoring'))}</h3>{ul(scoring)}"
            f"<h3>{escape(t('Keys'))}</h3><table cellspacing='6'>{key_rows}</table>"
            f"<p>{escape(assist)}</p>"
        )
