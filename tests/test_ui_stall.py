"""The UI thread's stalls in a network game, one window per process (``tests/app_player.py``'s
monitor), and the work moved out of the way of the first deal."""

from __future__ import annotations

import gc
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from koikoi.engine.cards import CARD_IDS, card_id, iter_cards, parse_card, to_set
from koikoi.engine.yaku import Yaku, yaku_of
from koikoi.ui.match.controller import HUMAN
from koikoi.ui.match.matchview import DecisionInfo, Mode
from koikoi.ui.table.card_widget import PANEL_WIDTH, CardWidget, SpriteCache
from koikoi.ui.table.overlay import CardPicture
from tests.test_ui_lan_processes import (  # noqa: F401  (the fixture: two lobbies, a match)
    LobbyPair,
    lobby_pair,
    start_player,
)
from tests.ui_driver import (
    click,
    close_window,
    open_window,
    panel_button,
    play_by_clicks,
    start_practice,
    wait_for_input,
)


def test_the_first_deals_pictures_are_drawn_first_while_the_toss_is_read(
    lobby_pair: LobbyPair,  # noqa: F811
) -> None:
    """The session has dealt before the toss is shown: the table draws the pictures of the
    player's hand and the field (and the backs) at the hand's size before all the others, so
    pressing "Deal the cards" soon paints no SVG (it cost a single window 60-100 ms)."""
    pair = lobby_pair
    for window in pair.windows:
        c = window.controller
        assert c.match is not None and c.match.round is not None
        deal = c.match.round
        shown = [card_id(card) for card in iter_cards(deal.hands[c.me] | deal.field)]
        assert len(shown) == 16
        sprites = window.game.table.sprites

        def drawn(ids: list[str] = shown, s: SpriteCache = sprites) -> bool:
            return all(s.ready(i, s.large) for i in (*ids, "back"))

        pair.qtbot.waitUntil(drawn, timeout=10_000)
        # ...first: most of the other pictures wait their turn
        waiting = [i for i in CARD_IDS if not sprites.ready(i, sprites.small)]
        assert len(waiting) > 24, f"only {len(waiting)} small pictures still to draw"


def test_the_player_process_reports_its_stalls_phase_by_phase_in_a_private_room(
    tmp_path: Path,
) -> None:
    """``app_player.py``'s monitor: each side of a private room's whole match, played by two
    processes, reports each phase's longest stall, wall clock and the UI thread's own time."""
    title = "Stall check"
    host = start_player(
        tmp_path / "hana", "--role", "host", "--room", title, "--password", "kaze", "--think", "20"
    )
    try:
        joiner = start_player(
            tmp_path / "taro", "--role", "join", "--room", title, "--password", "kaze",
            "--think", "20",
        )  # fmt: skip
        try:
            codes = joiner.wait(150), host.wait(150)
        finally:
            joiner.kill()
    finally:
        host.kill()
    assert codes == (0, 0), f"host:\n{host.stderr[-3000:]}\njoiner:\n{joiner.stderr[-3000:]}"
    phases = {
        "host": {"lobby", "create", "join", "confirm", "toss", "deal", "play"},
        "join": {"lobby", "listing", "password", "join", "confirm", "toss", "deal", "play"},
    }
    for player in (host, joiner):
        result = json.loads(player.stdout)
        stalls = result["stalls"]
        assert phases[result["role"]] <= set(stalls), stalls
        for figures in stalls.values():
            assert 0 < figures["busy_ms"] <= figures["gap_ms"] + 5, stalls


def test_the_koikoi_panels_card_pictures_are_drawn_ahead_with_the_tables(qtbot: QtBot) -> None:
    """The koikoi-or-shobu panel comes up in the middle of play with the pile's yaku cards:
    drawing them from their SVGs there cost a single window up to 90 ms in a network match.
    Once the table has drawn its pictures ahead (as while the first-oya panel is read), the
    panel's pictures cost no SVG either."""
    window = open_window(qtbot)
    start_practice(window, seed=b"stall-panel-pictures-000000000001")
    table = window.game.table
    qtbot.waitUntil(lambda: not table.warming, timeout=20_000)
    art = window.game.art
    drawn = len(art._images)
    pictures = [CardPicture(art, card, PANEL_WIDTH) for card in range(48)]
    assert len(art._images) == drawn, f"{len(art._images) - drawn} SVG pictures drawn"
    assert len(pictures) == 48
    close_window(window)


def test_a_new_deal_builds_no_card_widget_and_draws_no_background(qtbot: QtBot) -> None:
    """A deal lays out 24 cards at once (with the tests' instant timings, in one turn of the
    loop): building their widgets and drawing the table's felt for the new round cost a
    single window 25-35 ms there. The widgets of the last round (and spares built while the
    app was idle) take the new cards, and the felt is kept for the table's size."""
    window = open_window(qtbot)
    start_practice(window, seed=b"stall-deal-widgets-00000000000001")
    c = window.controller
    play_by_clicks(qtbot, window, random.Random(11), until=lambda w: c.mode is Mode.ROUND_OVER)
    table = window.game.table
    qtbot.waitUntil(lambda: not table.warming, timeout=20_000)
    kept = table.findChildren(CardWidget)  # alive, so no new widget can take an old id
    drawn: list[object] = []
    render = table._render_background

    def counted(*args: Any) -> Any:
        drawn.append(args)
        return render(*args)

    table._render_background = counted  # type: ignore[method-assign,assignment]
    click(qtbot, panel_button(window))  # the next round
    wait_for_input(qtbot, window)
    table.repaint()  # the new round's first paint
    shown = [w for w in table.findChildren(CardWidget) if w.isVisible()]
    assert len(shown) >= 24, len(shown)
    new = [w for w in shown if all(w is not old for old in kept)]
    assert not new, f"{len(new)} card widgets built for the deal"
    assert not drawn, "the felt was drawn again for the new round"
    close_window(window)


def test_the_work_done_ahead_comes_in_short_turns(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table draws every card picture ahead (about 170, and the panels', 0.25 s of the
    UI thread's time), builds spare card widgets and the panels once: a few milliseconds in
    each turn of the event loop, never at once. Each turn of that work, while a new
    practice table does all of it, takes under 35 ms of the UI thread's processor time (one
    is 4-10 ms: the slice's 4 ms and the picture that crosses it; the margin is for a
    loaded machine), and there are many turns, not a few (counted from the first).

    What is measured is the work ahead's own turns (``SpriteCache._warm_some``), the
    collector off: the app's gap meter (``GapMeter``) over the same time also counts the new
    table's first paints and the collector's runs over whatever earlier tests left in the
    worker, and a suite's run under load once saw a 38 ms gap that was neither."""
    turns: list[float] = []
    warm_some = SpriteCache._warm_some

    def timed(cache: SpriteCache) -> None:
        start = time.thread_time()
        warm_some(cache)
        turns.append(time.thread_time() - start)

    monkeypatch.setattr(SpriteCache, "_warm_some", timed)
    gc.collect()
    gc.disable()
    try:
        window = open_window(qtbot)
        start_practice(window, seed=b"stall-warm-slices-000000000000001")
        table = window.game.table
        qtbot.waitUntil(lambda: table.warming, timeout=5_000)
        qtbot.waitUntil(lambda: not table.warming, timeout=20_000)
        # every turn counted from the first (the wait above polls: some pass before it
        # returns); about 0.25 s of work in 4 ms slices is some 60 turns, fewer on a fast
        # machine, and all at once would be one
        assert len(turns) > 20, f"the work ahead came in only {len(turns)} turns"
        longest = max(turns)
        assert longest < 0.035, f"a turn took {longest * 1000:.0f} ms"
        close_window(window)
    finally:
        gc.enable()


def test_the_koikoi_panels_narrower_table_has_its_pictures_and_felt_ready(
    qtbot: QtBot,
) -> None:
    """The koikoi panel's column narrows the table: its felt was drawn for the new size in
    the turn the panel came up (5-10 ms), and in a small window, where the cards get smaller
    too, every card on it was drawn again from its SVG (17-30 pictures, 40-75 ms), and again
    once the panel had gone. The felt and the pictures of the narrower table are drawn
    ahead, and those of both sizes kept."""
    window = open_window(qtbot, size=(1024, 700))
    start_practice(window, seed=b"stall-small-window-0000000000001")
    click(qtbot, panel_button(window))  # the first oya's panel: deal
    wait_for_input(qtbot, window)
    table = window.game.table
    qtbot.waitUntil(lambda: not table.warming, timeout=30_000)
    widths = table.sprites.large
    pile = to_set(parse_card(c) for c in ("matsu_ribbon", "ume_ribbon", "sakura_ribbon"))
    info = DecisionInfo(
        seat=HUMAN, yaku=tuple(yaku_of(pile)), new_yaku=frozenset({Yaku.AKATAN}), total=5,
        baseline=0, koikoi_count=0, doubling=True, doubled=False, points=5, opponent_stake=30,
        pay=5, can_koikoi=True,
    )  # fmt: skip
    art = window.game.art
    felt: list[object] = []
    render = table._render_background

    def counted(*args: Any) -> Any:
        felt.append(args)
        return render(*args)

    table._render_background = counted  # type: ignore[method-assign,assignment]
    for _ in range(2):
        drawn = len(art._images)
        window.game._show_decision(info)  # as the controller's decision_needed signal does
        window.grab()  # painted now
        assert table.sprites.large != widths, "the table's cards did not get smaller"
        window.game._clear_overlay()
        window.grab()
        assert len(art._images) == drawn, f"{len(art._images) - drawn} SVG pictures drawn"
        assert not felt, f"the felt was drawn {len(felt)} times"
    close_window(window)
