"""The panels laid over the table: first oya, koikoi or shobu, a round's result, the match's.

Each panel shows numbers the controller took from the engine (a :class:`DecisionInfo`, a
:class:`RoundSummary`, a :class:`MatchSummary`) and explains them in words; none computes a
rule of its own. Buttons are ordinary ``QPushButton``\\ s with accessible names, so the
keyboard and a screen reader reach them as they reach any dialog. The overlay that holds them
and the parts they are made of are in :mod:`koikoi.ui.table.overlay`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from PySide6.QtCore import QCoreApplication, QSize, Qt, QTimer
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from koikoi.engine.cards import (
    CARD_KINDS,
    Card,
    CardSet,
    card_list,
    month_of,
)
from koikoi.engine.match import DealOutcome, FirstOya, first_oya_of
from koikoi.engine.outcome import Outcome, RoundResult
from koikoi.engine.yaku import Yaku, yaku_cards
from koikoi.net.hello import Dealing
from koikoi.ui.common import names
from koikoi.ui.common.art import CardArt
from koikoi.ui.match.matchview import DecisionInfo, MatchSummary, RoundSummary
from koikoi.ui.table.overlay import (
    CardPicture,
    Panel,
    calc_rows,
    card_row,
    they,
    yaku_grid,
)
from koikoi.ui.table.table_model import HUMAN

# -- first oya (R3.1) ------------------------------------------------------------------------


class FirstOyaPanel(Panel):
    def __init__(self, art: CardArt, first: FirstOya, on_deal: Callable[[], None]) -> None:
        super().__init__(
            self.tr("Who deals first? 親決め"),
            self.tr(
                "Each player turns one card. The earlier month is oya (親) and plays first; "
                "in the same month the higher card wins; two plain cards of one month are "
                "turned again."
            ),
        )
        for n, (mine, theirs) in enumerate(first.turns):
            row = QWidget()
            lay = QHBoxLayout(row)
            lay.setContentsMargins(0, 0, 0, 0)
            lay.setSpacing(22)
            lay.addStretch(1)
            for who, card in ((self.tr("You"), mine), (self.tr("Computer"), theirs)):
                col = QVBoxLayout()
                col.setSpacing(4)
                w = QLabel(who)
                w.setObjectName("seatLabel")
                w.setAlignment(Qt.AlignmentFlag.AlignCenter)
                col.addWidget(w)
                col.addWidget(CardPicture(art, card, 74), 0, Qt.AlignmentFlag.AlignCenter)
                m = QLabel(f"{names.month_name(month_of(card))} · {names.card_name(card)}")
                m.setObjectName("cardCaption")
                m.setAlignment(Qt.AlignmentFlag.AlignCenter)
                col.addWidget(m)
                lay.addLayout(col)
            lay.addStretch(1)
            self.body.addWidget(row)
            self.text(self.explain(mine, theirs), "panelText")
            if n < len(first.turns) - 1:
                self.text(self.tr("Turned again:"), "panelSubtitle")
        oya = (
            self.tr("You are oya (親): you play first.")
            if first.oya == HUMAN
            else self.tr("The computer is oya (親) and plays first.")
        )
        self.text(oya, "panelStrong")
        self.text(
            self.tr("The turned cards go back and the deck is shuffled before the deal."),
            "panelNote",
        )
        self.button(self.tr("Deal the cards"), on_deal, default=True)
        self.finish()

    def explain(self, mine: Card, theirs: Card) -> str:
        who = first_oya_of(mine, theirs)
        mm, tm = month_of(mine), month_of(theirs)
        if who is None:
            return self.tr("Both are plain cards of {0}: nobody wins, so both turn again.").format(
                names.month_name(mm)
            )
        if mm != tm:
            early, late = (mm, tm) if who == HUMAN else (tm, mm)
            text = (
                self.tr("{0} comes before {1}: you are oya.")
                if who == HUMAN
                else self.tr("{0} comes before {1}: the computer is oya.")
            )
            return text.format(names.month_name(early), names.month_name(late))
        hi, lo = (mine, theirs) if who == HUMAN else (theirs, mine)
        text = (
            self.tr("Both {0}: {1} ({2}) beats {3} ({4}): you are oya.")
            if who == HUMAN
            else self.tr("Both {0}: {1} ({2}) beats {3} ({4}): the computer is oya.")
        )
        return text.format(
            names.month_name(mm),
            names.card_name(hi),
            names.points(CARD_KINDS[hi].points),
            names.card_name(lo),
            names.points(CARD_KINDS[lo].points),
        )


# -- the network match's coin toss -----------------------------------------------------------


class TossPanel(Panel):
    """The commit–reveal coin toss of a network match: who won the first oya, and why."""

    def __init__(
        self,
        toss: Any,
        me: int,
        name: str,
        on_deal: Callable[[], None],
        animate: bool = True,
        *,
        dealing: str,
    ) -> None:
        """``dealing``: how the match deals (:class:`~koikoi.net.hello.Dealing`)."""
        super().__init__(
            self.tr("Coin toss 親決め"),
            self.tr(
                "Both apps drew a secret random number. The host committed to its number "
                "first, the joiner answered with its own, then the host revealed: neither "
                "side could steer the result."
            ),
        )
        self.setAccessibleName(self.tr("Coin toss"))
        result = toss.result
        host, joiner = (self.tr("you"), name) if me == 0 else (name, self.tr("you"))
        # the numbers themselves are for checking, not reading: a tooltip (and the record)
        self.setToolTip(
            self.tr("Host ({0}): {1}\nJoiner ({2}): {3}").format(
                host, result.host_random.hex()[:16], joiner, result.joiner_random.hex()[:16]
            )
        )
        self.coin = QLabel("")
        self.coin.setObjectName("tossCoin")
        self.coin.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.coin.setStyleSheet("font-size: 44px; font-weight: 700; color: #ffe3a3;")
        self.body.addWidget(self.coin)
        won = result.first_oya == me
        self.outcome = (
            self.tr("The toss makes you oya (親): you play first.")
            if won
            else self.tr("The toss makes {0} oya (親): {0} plays first.").format(name)
        )
        self.result_label = self.text("", "panelStrong")
        if dealing == Dealing.PRIVATE:  # docs/protocol.md, "Private dealing"
            how = self.tr(
                "Each deal is shuffled by both apps together from new secrets each draws for "
                "that deal (mental poker), not from these numbers: neither app can see the "
                "other's hand or the stock."
            )
        else:  # the joint seed
            how = self.tr("The two numbers together also shuffle every deal of the match.")
        self.text(how, "panelNote")
        self.deal_button = self.button(self.tr("Deal the cards"), on_deal, default=True)
        self.finish()
        self._faces = [self.tr("you"), name]
        self._spins = 0
        self._timer = QTimer(self)
        self._timer.setInterval(90)
        self._timer.timeout.connect(self._spin)
        if animate:
            self._timer.start()
        else:
            self._land()

    def _spin(self) -> None:
        """The coin flips between the two players a few times, then lands."""
        self._spins += 1
        if self._spins >= 12:
            self._land()
            return
        self.coin.setText("親 " + self._faces[self._spins % 2])

    def _land(self) -> None:
        self._timer.stop()
        self.coin.setText("親")
        self.result_label.setText(self.outcome)
        self.result_label.setAccessibleName(self.outcome)


# -- koikoi or shobu (R7) --------------------------------------------------------------------


def multiplier_rows(base: int, doubled: bool, koikoi: int, points: int) -> list[tuple[str, str]]:
    rows = [(QCoreApplication.translate("Panels", "Yaku total (base points)"), str(base))]
    if doubled:
        rows.append((QCoreApplication.translate("Panels", "8 or more: doubled"), "× 2"))
    rows.append(
        (
            QCoreApplication.translate("Panels", "Koikoi calls this round: {0}").format(koikoi),
            f"× {koikoi + 1}",
        )
    )
    rows.append((QCoreApplication.translate("Panels", "Round points"), str(points)))
    return rows


class DecisionPanel(Panel):
    """Koikoi or shobu: the yaku, the total and what shobu pays now."""

    def __init__(
        self,
        art: CardArt,
        info: DecisionInfo,
        pile: CardSet,
        on_shobu: Callable[[], object],
        on_koikoi: Callable[[], object],
        name: str | None = None,
    ) -> None:
        title = (
            self.tr("You made a yaku! 役ができました")
            if info.baseline == 0
            else self.tr("Your total rose! 点が上がりました")
        )
        super().__init__(title)
        self.setAccessibleName(self.tr("Koikoi or shobu"))
        self.info = info
        yaku_cards = card_list(yaku_cards_of(pile))
        if yaku_cards:
            self.body.addWidget(card_row(art, yaku_cards, 40 if len(yaku_cards) < 14 else 30))
        self.body.addWidget(yaku_grid(info.yaku, info.new_yaku))
        rows = multiplier_rows(info.total, info.doubled, info.koikoi_count, info.points)
        self.body.addWidget(calc_rows(rows))
        if info.capped:
            pay = they(
                name,
                self.tr(
                    "Shobu now wins {0}; the computer has only {1} left, so you would "
                    "receive {2} and win the match."
                ),
                self.tr(
                    "Shobu now wins {0}; {name} has only {1} left, so you would "
                    "receive {2} and win the match."
                ),
            ).format(names.points(info.points), info.opponent_stake, info.pay, name=name)
        else:
            pay = they(
                name,
                self.tr("Shobu now: the computer pays you {0} (it has {1})."),
                self.tr("Shobu now: {name} pays you {0} (they have {1})."),
            ).format(info.pay, info.opponent_stake, name=name)
        self.pay_label = self.text(pay, "panelStrong")
        shobu = self.button(
            self.tr("「勝負」 Shobu\ntake {0} now  (S)").format(info.pay),
            on_shobu,
            "shobu",
            self.tr("Shobu: end the round and take {0}").format(names.points(info.pay)),
            default=True,
        )
        shobu.setObjectName("default")
        shobu.setProperty("role", "shobu")
        self.shobu_button = shobu
        self.koikoi_button: QPushButton | None = None
        if info.can_koikoi:
            nxt = info.koikoi_count + 2
            self.text(
                they(
                    name,
                    self.tr(
                        "Koikoi plays on for more: the multiplier becomes ×{0} for whoever "
                        "wins, and if the computer calls shobu first you get nothing."
                    ),
                    self.tr(
                        "Koikoi plays on for more: the multiplier becomes ×{0} for whoever "
                        "wins, and if {name} calls shobu first you get nothing."
                    ),
                ).format(nxt, name=name),
                "panelNote",
            )
            self.koikoi_button = self.button(
                self.tr("「こいこい」 Koikoi\nplay on  (K)"),
                on_koikoi,
                "koikoi",
                self.tr("Koikoi: play on, multiplier ×{0}").format(nxt),
            )
        else:
            self.text(
                self.tr("Both hands are empty: this is the last turn, so only shobu is possible."),
                "panelNote",
            )
        self.finish()
        self.hint: QLabel | None = None
        """The coach's word on the decision, once asked (H in practice)."""

    def show_hint(self, text: str) -> None:
        """The coach's hint above the buttons (the log it also goes to is under this panel)."""
        if self.hint is None:
            self.hint = QLabel()
            self.hint.setObjectName("coachHint")
            self.hint.setWordWrap(True)
            self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self.hint.setTextFormat(Qt.TextFormat.PlainText)
            self.add_above_buttons(self.hint)
        self.hint.setText(text)
        self.hint.setAccessibleName(text)


# -- a round's result (R7, R8, R9, R4.2) -----------------------------------------------------


class RoundResultPanel(Panel):
    def __init__(
        self,
        art: CardArt,
        summary: RoundSummary,
        on_next: Callable[[], None],
        me: int = HUMAN,
        name: str | None = None,
    ) -> None:
        self.me, self.name = me, name
        o = summary.outcome
        r = o.result
        n = summary.round_no
        if r.outcome is Outcome.WIN:
            title = (
                self.tr("You win round {0}! 勝ち").format(n)
                if r.winner == me
                else they(
                    name,
                    self.tr("The computer wins round {0}"),
                    self.tr("{name} wins round {0}"),
                ).format(n, name=name)
            )
            if r.winner == me:
                sub = self.tr("You called 「勝負」 (shobu).")
            elif summary.loser_yaku:
                sub = they(
                    name,
                    self.tr("The computer called 「勝負」 (shobu); your yaku count for nothing."),
                    self.tr("{name} called 「勝負」 (shobu); your yaku count for nothing."),
                ).format(name=name)
            else:
                sub = they(
                    name,
                    self.tr("The computer called 「勝負」 (shobu)."),
                    self.tr("{name} called 「勝負」 (shobu)."),
                ).format(name=name)
        elif r.outcome is Outcome.TEYAKU:
            title = self.tr("Teyaku! 手役 — round {0}").format(n)
            sub = (
                self.tr("Your dealt hand is a yaku: the round ends before anyone plays.")
                if r.winner == me
                else they(
                    name,
                    self.tr(
                        "The computer's dealt hand is a yaku: the round ends before anyone plays."
                    ),
                    self.tr("{name}'s dealt hand is a yaku: the round ends before anyone plays."),
                ).format(name=name)
            )
        elif r.outcome is Outcome.NAGARE:
            title = self.tr("Round {0}: nagare 流れ").format(n)
            sub = self.tr(
                "Both hands are empty and nobody called shobu: the round is drawn and "
                "nobody scores."
            )
        else:
            title = self.tr("Redeal 配り直し")
            sub = self.tr(
                "All four cards of one month were dealt to the field, so the cards are "
                "shuffled and dealt again by the same oya. A redeal is not a round."
            )
        super().__init__(title, sub)
        self.setAccessibleName(title)
        if r.outcome in (Outcome.WIN, Outcome.TEYAKU):
            if r.outcome is Outcome.TEYAKU:
                self.body.addWidget(card_row(art, card_list(r.teyaku_hand), 50))
                teyaku = r.yaku[0][0] if r.yaku else None
                if teyaku is Yaku.TESHI:
                    self.text(
                        self.tr("手四 Teshi: all four cards of one month in the dealt hand."),
                        "panelNote",
                    )
                elif teyaku is Yaku.KUTTSUKI:
                    self.text(
                        self.tr("くっつき Kuttsuki: four pairs of months in the dealt hand."),
                        "panelNote",
                    )
            self.body.addWidget(yaku_grid(r.yaku))
            rows = multiplier_rows(r.base, r.doubled, r.koikoi, r.points)
            loser = 1 - (r.winner or 0)
            pay_what = (
                they(name, self.tr("The computer pays you"), self.tr("{name} pays you"))
                if r.winner == me
                else they(name, self.tr("You pay the computer"), self.tr("You pay {name}"))
            ).format(name=name)
            rows.append((pay_what, str(o.paid)))
            self.body.addWidget(calc_rows(rows))
            if o.capped:
                had = summary.scores_before[loser]
                self.text(
                    self.tr("Capped: only %n point(s) left to pay.", "", had),
                    "panelNote",
                )
        elif r.outcome is Outcome.NAGARE:
            oya = (
                self.tr("You stay oya (親).")
                if o.next_oya == me
                else they(
                    name, self.tr("The computer stays oya (親)."), self.tr("{name} stays oya (親).")
                ).format(name=name)
            )
            self.text(oya, "panelText")
        if r.outcome is Outcome.REDEAL:
            four = r.redeal_cards  # the engine's cause: each month of four on the field
            if four:
                self.body.addWidget(card_row(art, card_list(four), 56))
                month = names.month_name(card_list(four)[0] >> 2)
                self.text(
                    self.tr("All four cards of {0} lay on the field.").format(month),
                    "panelNote",
                )
        else:
            self.body.addWidget(self._stakes(summary))
        if summary.match_finished:
            label = self.tr("See the match result")
        elif r.outcome is Outcome.REDEAL:
            label = self.tr("Deal again")
        else:
            label = self.tr("Next round ({0} of {1})").format(
                min(n + 1, summary.rounds), summary.rounds
            )
        self.button(label, on_next, default=True)
        self.finish()

    def _stakes(self, summary: RoundSummary) -> QWidget:
        box = QWidget()
        grid = QGridLayout(box)
        grid.setContentsMargins(0, 4, 0, 0)
        grid.setHorizontalSpacing(20)
        after = summary.outcome.scores
        other = self.tr("Computer") if self.name is None else self.name
        seats = ((self.tr("You"), self.me), (other, 1 - self.me))
        for i, (who, seat) in enumerate(seats):
            before = summary.scores_before[seat]
            delta = after[seat] - before
            name = QLabel(who)
            name.setObjectName("seatLabel")
            value = QLabel(f"{before} → {after[seat]}")
            value.setObjectName("stakeValue")
            d = QLabel(f"{delta:+d}" if delta else "±0")
            d.setObjectName("stakeUp" if delta > 0 else "stakeDown" if delta < 0 else "stakeSame")
            for w in (name, value, d):
                w.setAccessibleName(
                    self.tr("{0}: stakes {1} to {2}").format(who, before, after[seat])
                )
            grid.addWidget(name, 0, i * 3)
            grid.addWidget(value, 0, i * 3 + 1)
            grid.addWidget(d, 0, i * 3 + 2)
        grid.setColumnStretch(2, 1)
        return box


# -- the match's result (R2.3, R2.4) ---------------------------------------------------------


class RoundsTable(QTableWidget):
    """The match result's rounds: as tall as its rows where the window has room (up to
    :attr:`MOST` pixels), else at least three rows, and it scrolls. The height is measured
    as it is laid out, with the style sheet's header and frame: measured when the table was
    made, it came out a few pixels short, and 3 to 6 rounds showed a scroll bar."""

    ROW: Final = 30
    MOST: Final = 420

    def __init__(self, rows: int, columns: int) -> None:
        super().__init__(rows, columns)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Maximum)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def _height(self, rows: int) -> int:
        header = self.horizontalHeader()
        header_h = 0 if header.isHidden() else max(header.height(), header.sizeHint().height())
        return rows * self.ROW + header_h + 2 * self.frameWidth()

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), min(self.MOST, self._height(self.rowCount())))

    def minimumSizeHint(self) -> QSize:
        return QSize(super().minimumSizeHint().width(), self._height(min(3, self.rowCount())))


class MatchResultPanel(Panel):
    def __init__(
        self,
        summary: MatchSummary,
        on_rematch: Callable[[], None],
        on_home: Callable[[], None],
        me: int = HUMAN,
        name: str | None = None,
    ) -> None:
        them = 1 - me
        if summary.winner is None:
            title = self.tr("A draw! 引き分け")
        elif summary.winner == me:
            title = self.tr("You win the match! 勝利")
        else:
            title = they(
                name, self.tr("The computer wins the match"), self.tr("{name} wins the match")
            ).format(name=name)
        s = summary.scores
        sub = they(
            name,
            self.tr("Final stakes: you {0}, the computer {1}."),
            self.tr("Final stakes: you {0}, {name} {1}."),
        ).format(s[me], s[them], name=name)
        if 0 in s:
            sub += " " + self.tr("A player with no points left loses at once.")
        super().__init__(title, sub)
        self.setMinimumWidth(820)
        table = RoundsTable(len(summary.rows), 6)
        table.setObjectName("roundsTable")
        table.setAccessibleName(self.tr("Rounds of the match"))
        table.setHorizontalHeaderLabels(
            [
                self.tr("Round"),
                self.tr("Result"),
                self.tr("Yaku"),
                self.tr("Points"),
                self.tr("You"),
                self.tr("Computer") if name is None else name,
            ]
        )
        table.verticalHeader().hide()
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for i, (round_no, o) in enumerate(summary.rows):
            r = o.result
            if r.outcome is Outcome.WIN:
                result = (
                    self.tr("You won")
                    if r.winner == me
                    else they(name, self.tr("Computer won"), self.tr("{name} won"))
                ).format(name=name)
            elif r.outcome is Outcome.TEYAKU:
                result = (
                    self.tr("Your teyaku")
                    if r.winner == me
                    else they(name, self.tr("Computer's teyaku"), self.tr("{name}'s teyaku"))
                ).format(name=name)
            elif r.outcome is Outcome.NAGARE:
                result = self.tr("Nagare")
            else:
                result = self.tr("Redeal")
            yaku = " · ".join(names.yaku_name(y) for y, _ in r.yaku)
            yaku_ja = "・".join(names.yaku_japanese(y) for y, _ in r.yaku)
            pts = ""
            if r.winner is not None:
                pts = str(o.paid) + (self.tr(" (of {0})").format(r.points) if o.capped else "")
            cells = [str(round_no), result, yaku, pts]
            if r.outcome is Outcome.REDEAL:
                cells += ["", ""]
            else:
                cells += [str(o.scores[me]), str(o.scores[them])]
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(
                    Qt.AlignmentFlag.AlignCenter
                    if j != 2
                    else Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
                )
                if j == 2 and yaku_ja:
                    item.setToolTip(yaku_ja)
                    item.setData(Qt.ItemDataRole.AccessibleDescriptionRole, yaku_ja)
                table.setItem(i, j, item)
        header = table.horizontalHeader()
        for j in range(6):
            mode = (
                QHeaderView.ResizeMode.Stretch
                if j == 2
                else QHeaderView.ResizeMode.ResizeToContents
            )
            header.setSectionResizeMode(j, mode)
        table.verticalHeader().setDefaultSectionSize(RoundsTable.ROW)
        table.setMinimumWidth(740)
        self.body.addWidget(table)
        self.status = self.text("", "resultStatus")
        """What the other table says after a network match ("Ben wants a rematch")."""
        self.status.hide()
        self.button(self.tr("Rematch"), on_rematch, default=True)
        self.button(self.tr("Back to the start"), on_home, "home")
        self.finish()


def yaku_cards_of(pile: CardSet) -> CardSet:
    """The cards of a pile that make its yaku (the engine says which), to show beside the list."""
    cards = 0
    for _, made, _ in yaku_cards(pile):
        cards |= made
    return cards


_built_ahead = False


def panels_ahead(art: CardArt) -> list[Callable[[], object]]:
    """Work for the app's idle turns (the table's :meth:`~koikoi.ui.table.table.TableView.prewarm`):
    build one koikoi panel, one round's result and one match result, thrown away unseen. The
    first panel of a kind built in a process costs about half as much again as the next (its
    code's first run, Qt's first styling and text layout of its kinds of labels); this way
    the ones a player sees are never the first. Once per process; no card pictures (those are
    drawn ahead with the table's)."""
    global _built_ahead
    if _built_ahead:
        return []
    _built_ahead = True
    result = RoundResult(Outcome.WIN, 1, ((Yaku.AKATAN, 6), (Yaku.TANE, 1)), 7, True, 1, 14)
    outcome = DealOutcome(result, 14, True, (44, 16), 1)
    info = DecisionInfo(
        seat=HUMAN,
        yaku=result.yaku,
        new_yaku=frozenset({Yaku.TANE}),
        total=7,
        baseline=6,
        koikoi_count=1,
        doubling=True,
        doubled=False,
        points=14,
        opponent_stake=16,
        pay=14,
        can_koikoi=True,
    )
    summary = RoundSummary(1, 6, outcome, (30, 30), (0, 1), True, False, None)
    match = MatchSummary((44, 16), 1, 6, ((1, outcome),))

    built: list[QWidget] = []

    def lay_out() -> None:  # a turn of its own: each half takes a few milliseconds
        panel = built.pop()
        panel.ensurePolished()
        panel.sizeHint()  # its layout, as the overlay asks for it
        panel.deleteLater()

    return [
        lambda: built.append(DecisionPanel(art, info, 0, lambda: None, lambda: None, "-")),
        lay_out,
        lambda: built.append(RoundResultPanel(art, summary, lambda: None, HUMAN, "-")),
        lay_out,
        lambda: built.append(MatchResultPanel(match, lambda: None, lambda: None, HUMAN, "-")),
        lay_out,
    ]
