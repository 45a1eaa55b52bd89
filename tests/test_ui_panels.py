"""The koikoi-or-shobu panel shows the cards the engine says make the yaku, and the pay the
engine's cap gives; a redeal's panel shows the cause the engine gives."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest
from PySide6.QtWidgets import QLabel

from koikoi.engine.cards import CARD_IDS, card_list, parse_card, to_set
from koikoi.engine.match import DealOutcome, payment
from koikoi.engine.outcome import Outcome
from koikoi.engine.round import Round
from koikoi.engine.yaku import Yaku, yaku_cards, yaku_of
from koikoi.net.fair import TossResult
from koikoi.net.hello import Dealing
from koikoi.ui.common import names
from koikoi.ui.match.controller import HUMAN
from koikoi.ui.match.matchview import DecisionInfo, RoundSummary
from koikoi.ui.table.overlay import CardPicture
from koikoi.ui.table.panels import DecisionPanel, RoundResultPanel, TossPanel
from tests.engine_support import make_deal
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


def test_a_redeals_panel_shows_the_four_cards_the_engine_names(qtbot) -> None:
    field = ["kiri_phoenix", "kiri_plain_yellow", "kiri_plain_1", "kiri_plain_2"]
    field += ["matsu_crane", "ume_warbler", "sakura_curtain", "fuji_cuckoo"]
    hands = [[CARD_IDS[4 * m + 2 + seat] for m in range(8)] for seat in (0, 1)]
    result = Round(make_deal(hands[0], hands[1], field)).result
    assert result is not None and result.outcome is Outcome.REDEAL
    summary = RoundSummary(  # the field is not given: the engine's result says the cause
        round_no=1,
        rounds=6,
        outcome=DealOutcome(result, scores=(25, 25)),
        scores_before=(25, 25),
        koikoi_calls=(0, 0),
        doubling=True,
        match_finished=False,
        match_winner=None,
    )
    window = open_window(qtbot)
    panel = RoundResultPanel(window.art, summary, lambda: None)
    qtbot.addWidget(panel)
    shown = [p.accessibleName() for p in panel.findChildren(CardPicture)]
    kiri = [parse_card(c) for c in field[:4]]
    assert shown == [names.card_accessible_name(c) for c in kiri]
    texts = [label.text() for label in panel.findChildren(QLabel)]
    assert "All four cards of December lay on the field." in texts
    assert panel.title_label.text() == "Redeal 配り直し"
    close_window(window)


SEED_NOTE = "The two numbers together also shuffle every deal of the match."
PRIVATE_NOTE = (
    "Each deal is shuffled by both apps together from new secrets each draws for that deal "
    "(mental poker), not from these numbers: neither app can see the other's hand or the stock."
)


@pytest.mark.parametrize(
    ("dealing", "note", "japanese"),
    [
        (
            Dealing.SEED,
            SEED_NOTE,
            "すべての配りで札を切るのにも",
        ),
        (Dealing.PRIVATE, PRIVATE_NOTE, "メンタルポーカー"),
    ],
    ids=["seed", "private"],
)
def test_the_toss_panel_says_how_the_deals_are_shuffled_for_each_dealing(
    qtbot, dealing: Dealing, note: str, japanese: str
) -> None:
    """Joint-seed deals come from the toss's numbers; private deals never do (each is dealt by
    mental poker from both sides' secrets of that deal, docs/protocol.md)."""
    result = TossResult(1, bytes(32), bytes(32), bytes(range(32)), bytes(32), ("", "", "", ""))
    toss = SimpleNamespace(result=result)
    window = open_window(qtbot)
    try:
        panel = TossPanel(toss, 0, "hana", lambda: None, animate=False, dealing=dealing)
        qtbot.addWidget(panel)
        texts = [label.text() for label in panel.findChildren(QLabel)]
        assert note in texts
        assert (SEED_NOTE in texts) == (dealing is Dealing.SEED)
        # the two numbers are for checking, not for reading: in the tooltip, not on the panel
        number = result.host_random.hex()[:16]
        assert not any(number in text for text in texts) and number in panel.toolTip()
        assert "shuffle" not in " ".join(texts).replace(note, "")  # said once, and only so
        assert names.install_translations("ja")
        panel = TossPanel(toss, 0, "hana", lambda: None, animate=False, dealing=dealing)
        qtbot.addWidget(panel)
        texts = [label.text() for label in panel.findChildren(QLabel)]
        assert any(japanese in text for text in texts), texts
        assert note not in texts
    finally:
        names.install_translations("en")
        close_window(window)
