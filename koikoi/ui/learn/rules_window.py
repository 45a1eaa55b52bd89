"""The rules with pictures: each yaku with its cards, the R6 table, teyaku, redeals, koikoi
and shobu, doubling, and how these rules differ from Nintendo's (seed 004's table).

The cards shown for a yaku and its points come from the engine's rule of it
(``koikoi.engine.yaku.YAKU_RULES``): the cards it needs, the pool it takes some of, the cards
that add a point. The engine's tests hold those to ``yaku_of`` / ``teyaku_of``, and the
window's tests what it shows.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel, QWidget

from koikoi.engine.cards import KIKU_SAKE_CUP, SAKURA_CURTAIN, SUSUKI_MOON
from koikoi.engine.match import STAKE
from koikoi.engine.yaku import DOUBLING_THRESHOLD, TEYAKU_POINTS, YAKU_RULES, Yaku
from koikoi.ui.common import names
from koikoi.ui.common.art import CardArt
from koikoi.ui.learn.learn_page import CardStrip, LearnPage, Section, noted_table, rich_label, ul


def _tr(text: str) -> str:
    return QCoreApplication.translate("Rules", text)


# -- each yaku's words (its cards and points are the engine's: YAKU_RULES) -------------------

YAKU_READINGS: Final = {
    Yaku.GOKO: "ごこう",
    Yaku.SHIKO: "しこう",
    Yaku.AME_SHIKO: "あめしこう",
    Yaku.SANKO: "さんこう",
    Yaku.HANAMI: "はなみでいっぱい",
    Yaku.TSUKIMI: "つきみでいっぱい",
    Yaku.INOSHIKACHO: "いのしかちょう",
    Yaku.AKATAN: "あかたん",
    Yaku.AOTAN: "あおたん",
    Yaku.AKATAN_AOTAN: "あかたん・あおたん",
    Yaku.TANE: "たね",
    Yaku.TAN: "たん",
    Yaku.KASU: "かす",
    Yaku.TESHI: "てし",
    Yaku.KUTTSUKI: "くっつき",
}

YAKU_POINTS: Final = {
    yaku: f"{rule.points}~" if rule.per_card else str(rule.points)
    for yaku, rule in YAKU_RULES.items()
}
"""R6's points column ("~": one more point for each extra card)."""


def yaku_condition(yaku: Yaku) -> str:
    """R6's condition column, in words of the current language."""

    def both(a: int, b: int) -> str:
        return _tr("{0} + {1}").format(names.card_name(a), names.card_name(b))

    conditions = {
        Yaku.GOKO: _tr("all 5 lights"),
        Yaku.SHIKO: _tr("4 lights without the rain man"),
        Yaku.AME_SHIKO: _tr("4 lights with the rain man"),
        Yaku.SANKO: _tr("3 lights without the rain man (rain man + 2 lights is nothing)"),
        Yaku.HANAMI: both(SAKURA_CURTAIN, KIKU_SAKE_CUP),
        Yaku.TSUKIMI: both(SUSUKI_MOON, KIKU_SAKE_CUP),
        Yaku.INOSHIKACHO: _tr("boar, deer, butterflies; +1 per other tane"),
        Yaku.AKATAN: _tr("the 3 red poem ribbons; +1 per other ribbon"),
        Yaku.AOTAN: _tr("the 3 blue ribbons; +1 per other ribbon"),
        Yaku.AKATAN_AOTAN: _tr("all 6; replaces both; +1 per other ribbon"),
        Yaku.TANE: _tr("5 tane (the sake cup counts); +1 per card beyond 5"),
        Yaku.TAN: _tr("5 ribbons; +1 per card beyond 5"),
        Yaku.KASU: _tr("10 plains (not the sake cup); +1 per card beyond 10"),
        Yaku.TESHI: _tr("dealt hand: all 4 cards of a month"),
        Yaku.KUTTSUKI: _tr("dealt hand: four pairs of months"),
    }
    return conditions[yaku]


def yaku_points_text(yaku: Yaku) -> str:
    """'10 points', '5 points or more'."""
    rule = YAKU_RULES[yaku]
    text = names.points(rule.points)
    return _tr("{0} or more").format(text) if rule.per_card else text


class RulesPage(LearnPage):
    """Each yaku with its cards, the R6 table, teyaku, redeals, koikoi and shobu, doubling,
    and the differences from Nintendo's rules."""

    def __init__(self, art: CardArt, aids: bool = True) -> None:
        super().__init__(art, aids, "rulesPage")
        self.yaku_rows: dict[Yaku, Section] = {}
        self.add_section(self.tr("The yaku table (役, R6)"), self._r6_table())
        for yaku in Yaku:
            if yaku in (Yaku.TESHI, Yaku.KUTTSUKI):
                continue
            self._yaku_row(yaku)
        self.add_section(self.tr("Teyaku (手役): a dealt hand"), self._teyaku_text())
        for yaku in (Yaku.TESHI, Yaku.KUTTSUKI):
            self._yaku_row(yaku)
        self.add_section(self.tr("Redeals (配り直し)"), self._redeal_text())
        self.add_section(self.tr("Koikoi or shobu (こいこい・勝負)"), self._koikoi_text())
        self.add_section(self.tr("Round points and doubling"), self._points_text())
        self.add_section(self.tr("How these rules differ from Nintendo's"), self._nintendo())
        self.finish()

    def _r6_table(self) -> QWidget:
        rows = [
            [
                names.yaku_name(y),
                names.yaku_japanese(y),
                YAKU_READINGS[y],
                YAKU_POINTS[y],
                yaku_condition(y),
            ]
            for y in Yaku
            if y not in (Yaku.TESHI, Yaku.KUTTSUKI)
        ]
        head = [self.tr("Yaku"), self.tr("役"), self.tr("Reading"), self.tr("Points")]
        head.append(self.tr("Condition"))
        if names.current_language() == "ja":  # the name is the Japanese itself: 役, 読み
            rows = [[row[0], row[2], *row[3:]] for row in rows]
            head = [head[1], head[2], *head[3:]]
        note = self.tr(
            "~ : one more point for each extra card. Only the highest light yaku counts; "
            "all other yaku add up (a card may count in several)."
        )
        return noted_table(note, head, rows, self.tr("The yaku table"), "r6Table", len(head) - 1)

    def _yaku_row(self, yaku: Yaku) -> None:
        spec = YAKU_RULES[yaku]  # which cards make it, what it scores
        title = self.tr("{name} · {ja} ({reading}) · {points}").format(
            ja=names.yaku_japanese(yaku),
            reading=YAKU_READINGS[yaku],
            name=names.yaku_name(yaku),
            points=yaku_points_text(yaku),
        )
        parts: list[QWidget] = []
        condition = QLabel(yaku_condition(yaku))
        condition.setWordWrap(True)
        parts.append(condition)
        shown: list[int] = []
        needed = spec.example if spec.teyaku else spec.needed
        if needed:
            text = self.tr("For example:") if spec.teyaku else self.tr("All of these:")
            parts.append(QLabel(text))
            strip = CardStrip(self.art, needed, self.aids, "needed")
            parts.append(strip)
            self.pictures.append(strip)
            shown += strip.cards
        if spec.pool:
            if spec.needed:
                text = self.tr("and any {0} of these:").format(spec.more)  # 3 or more
            else:
                text = self.tr("Any {0} of these:").format(spec.more)  # 3 or more
            count = QLabel(text)
            count.setObjectName("poolCount")
            count.setProperty("more", spec.more)
            parts.append(count)
            strip = CardStrip(self.art, spec.pool, self.aids, "pool")
            parts.append(strip)
            self.pictures.append(strip)
            shown += strip.cards
        if spec.bonus:
            parts.append(QLabel(self.tr("One more point for each of these with them:")))
            strip = CardStrip(self.art, spec.bonus, self.aids, "bonus", width=30)
            parts.append(strip)
            self.pictures.append(strip)
        section = self.add_section(title, *parts, contents=False)
        section.setObjectName("yakuRow")
        section.setProperty("yaku", yaku.value)
        section.setAccessibleDescription(
            self.tr("{condition}: {cards}").format(
                condition=yaku_condition(yaku), cards=names.cards_named(shown)
            )
        )
        self.sections.append(section)
        self.contents.addItem(f"{names.yaku_name(yaku)} {names.yaku_japanese(yaku)}")
        self.yaku_rows[yaku] = section

    def _teyaku_text(self) -> QLabel:
        return rich_label(
            ul(
                [
                    self.tr(
                        "Checked right after the deal, before anyone plays: a hand of all 4 "
                        "cards of a month (teshi) or of four pairs of months (kuttsuki) wins "
                        "{0} points at once and ends the round."
                    ).format(TEYAKU_POINTS),
                    self.tr(
                        "A hand with 4 of a month and two more pairs is teshi. A hand scores "
                        "one teyaku at most."
                    ),
                    self.tr("When both hands have teyaku, the oya's counts."),
                    self.tr(
                        "The points go through the usual calculation: 6 is below 8 and no "
                        "koikoi has been called, so they stay 6. The holder is the next oya."
                    ),
                ]
            )
        )

    def _redeal_text(self) -> QLabel:
        return rich_label(
            ul(
                [
                    self.tr(
                        "All 4 cards of one month on the field: nobody could take them, so "
                        "the cards are shuffled and dealt again by the same oya. A redeal is "
                        "not a round."
                    ),
                    self.tr("Four pairs on the field, or three of a month: play goes on."),
                    self.tr(
                        "A deal that must be dealt again never scores a teyaku (the field "
                        "is checked first)."
                    ),
                ]
            )
        )

    def _koikoi_text(self) -> QLabel:
        return rich_label(
            ul(
                [
                    self.tr(
                        "When your yaku total rose at the end of your turn, choose: shobu "
                        "(勝負) ends the round and you win it; koikoi (こいこい) plays on for "
                        "more."
                    ),
                    self.tr("Shobu wins even if the opponent has yaku: they score nothing."),
                    self.tr(
                        "Both players may call koikoi any number of times. After a koikoi "
                        "you are asked again only when your total rises (a new yaku or one "
                        "more card in a ~ yaku)."
                    ),
                    self.tr("On the last turn, with both hands empty, only shobu is possible."),
                    self.tr(
                        "If nobody calls shobu before both hands are empty, the round is a "
                        "nagare (流れ): no points, and the oya stays."
                    ),
                ]
            )
        )

    def _points_text(self) -> QLabel:
        items = [
            self.tr("Base: the sum of the winner's yaku."),
            self.tr(
                "×2 when the base is {0} or more and 「8点以上で2倍」 (double at 8 or more) "
                "is on (a setting of the room, on by default)."
            ).format(DOUBLING_THRESHOLD),
            self.tr(
                "× (koikoi calls this round by both players + 1): the multiplier is shared "
                "and counts for whoever wins, also for the player who called; it is back to "
                "×1 next round."
            ),
            self.tr(
                "The loser pays the points, at most what they have left. Both start with {0}; "
                "at 0 the match ends at once; else after the last of 6 or 12 rounds the one "
                "with more points wins."
            ).format(STAKE),
            self.tr(
                "Examples: moon viewing, koikoi, then cherry-blossom viewing, shobu: "
                "10 → ×2 (8 or more) → ×2 (one koikoi) = 40. Three lights, koikoi, then four "
                "lights: 8 × 2 × 2 = 32 (16 with doubling off). Rainy four lights alone: 7."
            ),
        ]
        return rich_label(ul(items))

    def _nintendo(self) -> QWidget:
        t = self.tr
        fixed = t("fixed")
        rows = [
            [
                t("Doubling high scores"),
                t("×2 at 7 points or more"),
                t("×2 at 7 is usual; some play without"),
                t("×2 at 8 points or more"),
                t("yes: on or off (on by default; 8 is fixed)"),
            ],
            [
                t("The koikoi multiplier"),
                t("if the other player wins after your koikoi, their points ×2"),
                t("×2 once; ×2 for each koikoi (2, 4, 8); calls + 1"),
                t("koikoi calls of both players + 1, for the round's winner"),
                fixed,
            ],
            [
                t("How many koikoi"),
                t("after a koikoi the round ends at the next yaku of either player"),
                t("most let both call any number of times; some only once"),
                t("both, any number of times"),
                fixed,
            ],
            [
                t("The sake cup (菊に盃) as a plain"),
                t("counts (tane and plain)"),
                t("both; either one; tane only"),
                t("does not count (tane only)"),
                fixed,
            ],
            [
                t("Cherry-blossom and moon viewing"),
                t("5 points each"),
                t("5 or 3; not played; only with another yaku; void by rain (雨流れ)"),
                t("5 points each, always"),
                fixed,
            ],
            [
                t("Boar-deer-butterflies and tane; red/blue ribbons and ribbons"),
                t("tane void with 猪鹿蝶; ribbons void with 赤短 or 青短"),
                t("void, or both count"),
                t("both count (with their extra-card points)"),
                fixed,
            ],
            [
                t("Teyaku (teshi, kuttsuki)"),
                t("6 points, the round ends"),
                t("the same; or no teyaku and a redeal"),
                t("6 points, the round ends"),
                fixed,
            ],
            [
                t("Both players have teyaku"),
                t("not stated"),
                t("nobody scores"),
                t("the oya's teyaku counts"),
                fixed,
            ],
            [
                t("Four of a month on the field"),
                t("redeal"),
                t("redeal; the oya takes the four; the oya wins 6"),
                t("redeal"),
                fixed,
            ],
            [
                t("Four pairs on the field"),
                t("redeal when the cards are lopsided (only four of a month is given)"),
                t("redeal; or play on"),
                t("play on"),
                fixed,
            ],
            [
                t("Playing a card that matches nothing when you could capture"),
                t("not stated"),
                t("allowed; in English guides often not"),
                t("allowed (a matching card always captures)"),
                fixed,
            ],
            [
                t("The first oya"),
                t("each turns a card: the earlier month"),
                t("the same; same month: the higher card"),
                t("earlier month; same month: the higher card (online: a coin toss)"),
                fixed,
            ],
            [
                t("The next oya"),
                t("the round's winner"),
                t("the winner, or in turn"),
                t("the round's winner"),
                fixed,
            ],
            [
                t("A round without yaku"),
                t("no game; the oya changes"),
                t("no points (the oya stays or changes); oya-ken; tsukazu"),
                t("no points; the oya stays"),
                fixed,
            ],
            [
                t("Rounds"),
                t("12"),
                t("12 (a year), 6 (han-don), 3 (a season), or to a target score"),
                t("6 or 12"),
                t("yes: 6 (by default) or 12"),
            ],
            [
                t("Keeping score"),
                t("add up each round; after 12 rounds the higher total wins"),
                t("add up; or the winner's points taken from the loser"),
                t("25 points each; the loser pays (at most what is left); at 0 the match ends"),
                fixed,
            ],
            [
                t("Yaku points"),
                t("five lights 10, four lights 8, rainy four lights 7, three lights 5 …"),
                t("five lights 15, three lights 6 …"),
                t("as Nintendo's"),
                fixed,
            ],
        ]
        head = [t("Rule"), t("Nintendo"), t("Local rules"), t("This game")]
        head.append(t("Room setting"))
        note = t(
            "Koi-Koi has no official rules; Nintendo's are the ones most often cited. "
            "In this game only the rounds and 「8点以上で2倍」 can be chosen, and both "
            "players of a network match always play by the same settings."
        )
        return noted_table(note, head, rows, t("The rules compared"), "nintendoTable")
