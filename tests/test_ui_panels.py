"""The koikoi-or-shobu panel shows the cards the engine says make the yaku, and the pay the
engine's cap gives."""

from __future__ import annotations

from dataclasses import replace

from koikoi.engine.cards import card_list, parse_card, to_set
from koikoi.engine.match import payment
from koikoi.engine.yaku import Yaku, yaku_cards, yaku_of
from koikoi.ui import names
from koikoi.ui.controller import HUMAN
from koikoi.ui.matchview import DecisionInfo
from koikoi.ui.panels import CardPicture, DecisionPanel
from tests.ui_driver import close_window, open_window


def test_the_decision_panel_shows_the_cards_that_make_the_yaku(qtbot) -> None:
    pile = to_set(
        parse_card(c)
        for c in (
            "matsu_ribbon", "ume_ribbon", "sakura_ribbon", "fuji_ribbon",
            "matsu_plain_1", "kiri_plain_1", "susuki_geese",
        )
    )  # fmt: skip
    yaku = tuple(yaku_of(pile))
    assert yaku == ((Yaku.AKATAN, 6),)
    info = DecisionInfo(
        seat=HUMAN,
        yaku=yaku,
        new_yaku=frozenset({Yaku.AKATAN}),
        total=6,
        baseline=0,
        koikoi_count=0,
        doubling=True,
        doubled=False,
        points=6,
        opponent_stake=4,
        pay=payment(6, 4),
        can_koikoi=True,
    )
    window = open_window(qtbot)
    panel = DecisionPanel(window.art, info, pile, lambda: None, lambda: None)
    qtbot.addWidget(panel)
    shown = [p.accessibleName() for p in panel.findChildren(CardPicture)]
    ((_, made, _),) = yaku_cards(pile)
    assert shown == [names.card_accessible_name(c) for c in card_list(made)]
    assert len(shown) == 4  # the three red ribbons and the one that adds a point
    assert "receive 4" in panel.pay_label.text() and "wins 6 points" in panel.pay_label.text()
    assert panel.shobu_button.accessibleName() == "Shobu: end the round and take 4 points"
    last_point = replace(info, opponent_stake=1, pay=payment(6, 1))
    panel = DecisionPanel(window.art, last_point, pile, lambda: None, lambda: None)
    qtbot.addWidget(panel)
    assert panel.shobu_button.accessibleName() == "Shobu: end the round and take 1 point"
    close_window(window)
