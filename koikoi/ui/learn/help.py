"""Rules and keys, in a window a player can keep open beside the table.

Its pages: the rules in short with the keys; the rules with pictures (each yaku with its
cards, the differences from Nintendo's rules); the card gallery; the glossary. Esc closes it;
Ctrl+Tab and Ctrl+Shift+Tab go from page to page."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QPushButton,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from koikoi.engine.match import STAKE
from koikoi.engine.yaku import Yaku
from koikoi.ui.common import names
from koikoi.ui.common.art import CardArt
from koikoi.ui.learn.gallery import CardGallery
from koikoi.ui.learn.glossary import Glossary
from koikoi.ui.learn.rules_window import YAKU_POINTS, RulesPage, yaku_condition

PAGES: Final = ("short", "rules", "cards", "glossary")
"""The help window's pages, in tab order."""


class HelpDialog(QDialog):
    def __init__(
        self,
        parent: QWidget | None = None,
        art: CardArt | None = None,
        aids: bool = True,
        card_scale: float = 1.0,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("helpDialog")
        self.setWindowTitle(self.tr("Rules and keys"))  # Qt adds " — " and the app name
        self.setAccessibleName(self.tr("Rules and keys"))
        self.resize(900, 680)
        art = art if art is not None else CardArt()
        lay = QVBoxLayout(self)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("helpTabs")
        self.tabs.setAccessibleName(self.tr("Help pages"))
        self.text = QTextBrowser()
        self.text.setObjectName("helpText")
        self.text.setAccessibleName(self.tr("Rules and keys"))
        self.text.setOpenExternalLinks(False)
        self.text.document().setDefaultFont(self.font())
        self.text.setHtml(self.html())
        self.art = art
        self.aids = aids
        self.card_scale = card_scale
        self._rules: RulesPage | None = None
        self._gallery: CardGallery | None = None
        self._glossary: Glossary | None = None
        self.tabs.addTab(self.text, self.tr("In short · keys"))
        self.holders: list[QWidget] = []
        for title in (self.tr("Rules with pictures"), self.tr("Cards"), self.tr("Glossary")):
            holder = QWidget()  # the page is made when it is first shown (its pictures cost)
            holder.setObjectName("helpPageHolder")
            QVBoxLayout(holder).setContentsMargins(0, 0, 0, 0)
            self.holders.append(holder)
            self.tabs.addTab(holder, title)
        self.tabs.currentChanged.connect(self._page_shown)
        lay.addWidget(self.tabs)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.on_calculator: Callable[[], None] = lambda: None
        self.on_display: Callable[[], None] = lambda: None
        self.calculator_button = QPushButton(self.tr("Score calculator"))
        self.calculator_button.clicked.connect(lambda: self.on_calculator())
        buttons.addButton(self.calculator_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.display_button = QPushButton(self.tr("Display options"))
        self.display_button.clicked.connect(lambda: self.on_display())
        buttons.addButton(self.display_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.Close).setAccessibleName(self.tr("Close"))
        lay.addWidget(buttons)
        self.setWindowModality(Qt.WindowModality.NonModal)

    @property
    def rules(self) -> RulesPage:
        if self._rules is None:
            self._rules = RulesPage(self.art, self.aids)
            self._hold(0, self._rules)
        return self._rules

    @property
    def gallery(self) -> CardGallery:
        if self._gallery is None:
            self._gallery = CardGallery(self.art, self.aids, self.card_scale)
            self._hold(1, self._gallery)
        return self._gallery

    @property
    def glossary(self) -> Glossary:
        if self._glossary is None:
            self._glossary = Glossary()
            self._hold(2, self._glossary)
        return self._glossary

    def _hold(self, index: int, page: QWidget) -> None:
        layout = self.holders[index].layout()
        assert layout is not None
        layout.addWidget(page)
        page.show()  # a widget added to a shown one stays hidden until told

    def _page_shown(self, index: int) -> None:
        self.page_widget(index)

    def page_widget(self, index: int) -> QWidget:
        """The page at a tab (made now if it was not yet)."""
        pages: list[Callable[[], QWidget]] = [
            lambda: self.text, lambda: self.rules, lambda: self.gallery, lambda: self.glossary
        ]  # fmt: skip
        return pages[index]()

    def current_page(self) -> QWidget:
        return self.page_widget(self.tabs.currentIndex())

    def show_page(self, page: str) -> None:
        """Turn to one of :data:`PAGES` and put the keyboard on it."""
        self.tabs.setCurrentIndex(PAGES.index(page))
        current = self.current_page()
        if isinstance(current, RulesPage | CardGallery):
            current.contents.setFocus(Qt.FocusReason.OtherFocusReason)
        elif isinstance(current, Glossary):
            current.table.setFocus(Qt.FocusReason.OtherFocusReason)
        else:
            self.text.setFocus(Qt.FocusReason.OtherFocusReason)

    def set_card_scale(self, scale: float) -> None:
        """The card gallery follows the card-size display option."""
        self.card_scale = scale
        if self._gallery is not None:
            self._gallery.set_card_scale(scale)

    def set_aids(self, aids: bool) -> None:
        """The pictures follow the reading-aids display option."""
        self.aids = aids
        for page in (self._rules, self._gallery):
            if page is not None:
                page.set_aids(aids)

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

        rows = "".join(
            f"<tr><td><b>{escape(names.yaku_name(y))}</b></td>"
            f"<td>{escape(names.yaku_japanese(y))}</td><td align='right'>{YAKU_POINTS[y]}</td>"
            f"<td>{escape(yaku_condition(y))}</td></tr>"
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
            (t("Ctrl+Z"), t("practice: take back your last turn (the match is counted apart)")),
            (t("F1"), t("this help")),
            (t("Ctrl+T"), t("the start screen: the statistics of your practice matches")),
            (t("Alt+1 – Alt+5"), t("a network match: send a stamp (its row, left to right)")),
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
