"""Two in-memory sessions that agreed on private dealing (koikoi-net/4) play whole matches:
each side's engine sees only what the rules show it, every move's hash agrees, each deal is
audited and replayed with every card at its end, and both records agree; a peer that cheats
at the dealing or in a move is named."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from koikoi.engine.record import replay
from koikoi.net.private import PrivateLockstep
from koikoi.net.roles import Role
from koikoi.net.session.events import DealLaidOut, MovePlayed, TossDone
from koikoi.net.session.messages import DEALING
from koikoi.net.session.private_dealing import PrivateDealing
from koikoi.net.wire import encode_message, unpack
from tests.net_support import Table, teyaku_seeds

BOTH = ("private", "seed")
PRIVATE = {role: BOTH for role in Role}


def private_table(**kwargs: object) -> Table:
    return Table(dealings=PRIVATE, **kwargs)  # type: ignore[arg-type]


def teyaku_table() -> Table:
    """A privately dealt table whose first deal gives a hand a teyaku (R8): the dealers'
    seeds are chosen for it."""
    table = private_table(seed=17)
    seeds = teyaku_seeds(table.host.session_id)
    table.host.dealer_seeds.append(seeds[Role.HOST])
    table.joiner.dealer_seeds.append(seeds[Role.JOINER])
    return table


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_match_dealt_privately(seed: int) -> None:
    table = private_table(seed=seed)
    table.run()
    host, joiner = table.host, table.joiner
    assert host.dealing == joiner.dealing == "private"
    assert host.ending is not None and joiner.ending is not None
    assert host.ending.finished and joiner.ending.finished, (host.ending, joiner.ending)
    assert host.result_json() == joiner.result_json()
    assert host.result_json()["finished"] is True
    h, j = host.record().to_json(), joiner.record().to_json()
    assert h["net"]["protocol"] == "koikoi-net/4" and h["net"]["dealing"] == "private"
    # Every deal in both records: the same cards as dealt (after its audit), its dealing
    # transcript with both seeds, and the same signed entries.
    assert len(h["deals"]) == len(j["deals"])
    for ours, theirs in zip(h["deals"], j["deals"], strict=True):
        for key in ("hands", "field", "stock"):
            assert ours[key] == theirs[key]
        assert [a["entry"] for a in ours["actions"]] == [a["entry"] for a in theirs["actions"]]
        assert set(ours["dealing"]["seeds"]) == {"host", "joiner"}
    assert replay(h) == host.result_json()
    moves = {
        role: [e.seq for e in table.events[role] if isinstance(e, MovePlayed)] for role in Role
    }
    assert moves[Role.HOST] == moves[Role.JOINER]
    deals = {
        role: sum(isinstance(e, TossDone | DealLaidOut) for e in table.events[role])
        for role in Role
    }
    assert deals[Role.HOST] == deals[Role.JOINER] == len(h["deals"])


def test_a_live_session_holds_only_what_the_rules_show() -> None:
    """Mid-deal, each side's engine knows its hand, the field and the cards opened, and the
    positions of the other hand and the stock stay unknown."""
    table = private_table(seed=4)
    _mid_deal(table, 2)
    for role in Role:
        lockstep = table.sessions[role].lockstep
        assert isinstance(lockstep, PrivateLockstep)
        dealer = table.sessions[role]._private.deal.dealer  # type: ignore[union-attr]
        opened = {p for p in range(48) if dealer.card_at(p) is not None}
        assert lockstep.known == opened
        assert len(opened) < 48


def _card_set(ids: list[str]) -> int:
    from koikoi.engine.cards import parse_card

    return sum(1 << parse_card(card) for card in ids)


@pytest.mark.parametrize("teyaku", [False, True], ids=["plain", "teyaku first deal"])
def test_the_deals_a_side_is_told_hold_no_card_it_may_not_know(teyaku: bool) -> None:
    """The ``Dealt`` of each deal a session hands its window (with the toss, then in each
    ``DealLaidOut``) holds this side's hand and the field, and of the other hand and the
    stock only their counts: compared with the audited record after the match, no card of
    the other hand or of the stock is in it (the engine's own ``Dealt`` holds stand-ins
    for them). With a teyaku first deal, the teyaku hand is shown by its result only."""
    from koikoi.engine.events import Dealt, RoundEnded
    from koikoi.net.private import SealedDealt

    for attempt in range(5):  # a match won in its first deal has no DealLaidOut: play another
        table = teyaku_table() if teyaku else private_table(seed=5 + attempt)
        table.run()
        if len(table.host.record().to_json()["deals"]) >= 2:
            break
    for role in Role:
        session = table.sessions[role]
        assert session.ending is not None and session.ending.finished
        me, other = session.seat, 1 - session.seat
        deals = session.record().to_json()["deals"]  # every deal audited: all its cards
        told = [
            event
            for laid in table.events[role]
            if isinstance(laid, TossDone | DealLaidOut)
            for event in laid.events
        ]
        dealt = [event for event in told if isinstance(event, Dealt)]
        assert len(dealt) == len(deals) >= 2
        for shown, deal in zip(dealt, deals, strict=True):
            assert isinstance(shown, SealedDealt) and shown.viewer == me
            sealed = _card_set(deal["hands"][other]) | _card_set(deal["stock"])
            assert (shown.hands[0] | shown.hands[1] | shown.field) & sealed == 0
            assert shown.hands[me] == _card_set(deal["hands"][me])
            assert shown.field == _card_set(deal["field"])
            assert shown.hands[other] == 0
            assert (shown.hand_size(me), shown.hand_size(other), shown.stock_size) == (8, 8, 24)
        if teyaku:  # whoever held it, its hand is shown with the deal's result
            first = session.lockstep.match.history[0].result  # type: ignore[union-attr]
            ended = next(e for e in told if isinstance(e, RoundEnded))
            assert ended.result.teyaku_hand == first.teyaku_hand != 0


# --- attacks: each ends the session with the culprit named ---------------------------------


def _kind(message: bytes) -> object:
    value = unpack(message)
    return value.get("t") if isinstance(value, dict) else None


class DealingTap:
    """Lets the match run, then changes the ``nth`` message of ``kind`` that ``cheater``
    sends (``change`` gets and returns its decoded map)."""

    def __init__(
        self,
        cheater: Role,
        kind: str,
        nth: int,
        change: Callable[[dict[str, Any]], dict[str, Any]],
    ) -> None:
        self.cheater, self.kind, self.nth, self.change = cheater, kind, nth, change
        self.count = 0

    def __call__(self, sender: Role, messages: list[bytes]) -> list[bytes]:
        if sender is not self.cheater:
            return messages
        out = []
        for message in messages:
            if _kind(message) == self.kind:
                if self.count == self.nth:
                    value = unpack(message)
                    assert isinstance(value, dict)
                    fields = dict(value)
                    kind = str(fields.pop("t"))
                    message = encode_message(kind, **self.change(fields))
                self.count += 1
            out.append(message)
        return out


def _cheat_caught(table: Table, victim: Role) -> str:
    ending = table.sessions[victim].ending
    assert ending is not None, "the cheat went unnoticed"
    assert not ending.finished and ending.how == "cheat", ending
    assert ending.by is victim.peer, ending
    assert table.sessions[victim.peer].closed  # told by the victim's bye
    return ending.reason


def _other_key(key: bytes) -> bytes:
    from koikoi.net.mental import multiply

    return multiply(key, (2).to_bytes(32, "little"))


@pytest.mark.parametrize("cheater", list(Role))
def test_a_wrong_key_for_a_played_card_is_named(cheater: Role) -> None:
    tap = DealingTap(cheater, "play", 2, lambda f: {**f, "k": _other_key(f["k"])})
    table = private_table(seed=5, tap=tap)
    table.run()
    reason = _cheat_caught(table, cheater.peer)
    assert f"the {cheater.value} sent a key of position" in reason
    assert "opens no card" in reason


@pytest.mark.parametrize("cheater", list(Role))
def test_a_wrong_key_for_a_drawn_card_is_named(cheater: Role) -> None:
    tap = DealingTap(cheater, "draw", 3, lambda f: {**f, "k": _other_key(f["k"])})
    table = private_table(seed=6, tap=tap)
    table.run()
    reason = _cheat_caught(table, cheater.peer)
    assert f"the {cheater.value} sent a key of position" in reason


def test_a_substituted_card_in_the_final_deck_is_named() -> None:
    """The joiner swaps two points of its locked deck (the host's hand): the host opens no
    card there and names the joiner."""

    def swap(fields: dict[str, bytes]) -> dict[str, bytes]:
        deck = fields["deck"]
        return {"deck": deck[32:64] + deck[0:32] + deck[64:]}

    table = private_table(seed=7, tap=DealingTap(Role.JOINER, "lock", 0, swap))
    table.run()
    reason = _cheat_caught(table, Role.HOST)
    assert (
        "the joiner sent a key of position" in reason
        or "the peer's sealed deck is not the one of the decks it sent" in reason
    ), reason


@pytest.mark.parametrize("cheater", list(Role))
def test_a_seed_that_is_not_the_committed_one_is_named(cheater: Role) -> None:
    tap = DealingTap(cheater, "seed", 0, lambda f: {"s": bytes(32)})
    table = private_table(seed=8, tap=tap)
    table.run()
    reason = _audit_cheat_caught(table, cheater.peer)
    assert f"the {cheater.value} revealed a seed that is not the one it committed to" in reason


def test_a_deck_its_seed_does_not_give_is_named_at_the_audit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The joiner commits to one seed and shuffles with another: everything opens, and the
    audit at the deal's end names it."""
    from koikoi.net import dealing

    table = private_table(seed=9)
    joiner = table.joiner
    real_start = PrivateDealing.start_deal

    def lying_start(self: PrivateDealing) -> None:
        real_start(self)
        if self._session is joiner:
            dealer = self.deal.dealer
            context = dealer.transcript.context
            dealer._keys = dealing._Keys(bytes(range(32)), context, Role.JOINER)

    monkeypatch.setattr(PrivateDealing, "start_deal", lying_start)
    table.run()
    reason = _audit_cheat_caught(table, Role.HOST)
    assert "the joiner sent a shuffled deck that its seed does not give" in reason


def _audit_cheat_caught(table: Table, victim: Role) -> str:
    """A cheat the audit of a deal names: mid-match it ends the match as a cheat; at the
    last deal (the match over by its signed moves) it is the ending's ``audit``, and the
    result stays the moves'."""
    ending = table.sessions[victim].ending
    assert ending is not None and ending.audit is not None, ending
    if not ending.finished:
        reason = _cheat_caught(table, victim)
    else:
        lockstep = table.sessions[victim].lockstep
        assert lockstep is not None and lockstep.match.finished
        reason = ending.audit.reason
    assert ending.audit.result == "cheat" and ending.audit.by is victim.peer, ending.audit
    return reason


def test_a_move_that_plays_another_card_than_the_one_opened_is_named() -> None:
    from koikoi.net.session.messages import MOVE
    from tests.net_support import resign

    table = private_table(seed=10)
    cheater = Role.JOINER

    def change(sender: Role, messages: list[bytes]) -> list[bytes]:
        if sender is not cheater or tap_state["done"]:
            return messages
        out = []
        for message in messages:
            value = unpack(message)
            if isinstance(value, dict) and value.get("t") == "move" and not tap_state["done"]:
                from koikoi.net.lockstep import decode_entry

                entry = decode_entry(value["entry"])  # type: ignore[arg-type]
                rnd = table.sessions[cheater].lockstep.match.round  # type: ignore[union-attr]
                hand = [c for c in range(48) if rnd.hands[cheater.seat] >> c & 1]  # type: ignore[union-attr]
                if entry.action < 48 and hand:
                    tap_state["done"] = True
                    message = resign(message, table.identities[cheater], action=hand[0])
            out.append(message)
        return out

    tap_state = {"done": False}
    assert MOVE is not None
    table.tap = change
    table.run()
    reason = _cheat_caught(table, Role.HOST)
    assert "but the peer's play opened card" in reason


def test_a_withheld_draw_key_runs_out_the_move_clock_of_the_withholder() -> None:
    """The joiner never answers the host's draw: the host's clock waits for the joiner, and
    after the abandon time the host ends the match as abandoned by the joiner."""
    from koikoi.net.session.events import PeerOverdue

    def withhold(sender: Role, messages: list[bytes]) -> list[bytes]:
        dealing = table.host._private
        private = None if dealing is None else dealing.deal
        if sender is Role.JOINER and private is not None and private.pending is not None:
            return [m for m in messages if _kind(m) != "draw"]  # the answer to the host's
        return messages

    table = private_table(seed=11)
    table.tap = withhold
    table.run()
    host = table.host
    assert host.ending is None
    clock = host.clock(table.now)
    assert clock is not None and not clock.local and clock.seat == Role.JOINER.seat
    table.now = 181.0
    host._clock.last_rx = table.now  # heartbeats kept coming
    events = host.tick(table.now)
    assert any(isinstance(e, PeerOverdue) for e in events), events
    host.abandon(table.now)
    assert host.ending is not None and host.ending.how == "abandoned"
    assert host.ending.by is Role.JOINER
    assert host.ending.reason.startswith("the peer sent no key of the draw at position ")
    assert ": it abandoned the match" in host.ending.reason


# --- the records verify, dealing included ---------------------------------------------------


def _finished_records(seed: int) -> list[dict[str, object]]:
    table = private_table(seed=seed)
    table.run()
    return [table.sessions[role].record().to_json() for role in Role]


@pytest.mark.parametrize("seed", [12, 13])
def test_both_records_of_a_private_match_verify_dealing_included(seed: int) -> None:
    from koikoi.net.verify import verify_record

    records = _finished_records(seed)
    reports = [verify_record(record) for record in records]
    assert reports[0].result == reports[1].result
    assert reports[0].result["finished"] is True
    deals = records[0]["deals"]
    assert isinstance(deals, list)
    assert reports[0].moves == sum(len(deal["actions"]) for deal in deals)


def _tampered(change: Callable[[dict[str, Any]], None]) -> str:
    import copy

    from koikoi.net.verify import VerificationFailed, verify_record

    record = copy.deepcopy(_finished_records(14)[0])
    change(record)
    with pytest.raises(VerificationFailed) as caught:
        verify_record(record)
    return str(caught.value)


def test_verify_names_a_seed_changed_in_the_record() -> None:
    def change(record: dict[str, Any]) -> None:
        record["deals"][0]["dealing"]["seeds"]["joiner"] = "A" * 43 + "="

    reason = _tampered(change)
    assert reason.startswith("deal 0 action -: the dealing")
    assert "the joiner revealed a seed that is not the one it committed to" in reason


def test_verify_names_a_card_changed_in_a_dealt_deal() -> None:
    def change(record: dict[str, Any]) -> None:
        deal = record["deals"][0]
        deal["stock"][0], deal["stock"][1] = deal["stock"][1], deal["stock"][0]

    assert "the cards are not the deal its dealing gives" in _tampered(change)


def test_verify_names_a_missing_dealing() -> None:
    def change(record: dict[str, Any]) -> None:
        del record["deals"][0]["dealing"]

    assert "deal 0 action -: the dealing is missing" in _tampered(change)


def test_verify_names_a_deck_changed_in_the_record() -> None:
    """A locked deck changed in the record: the audit charges it to its sender."""

    def change(record: dict[str, Any]) -> None:
        import base64

        locked = record["deals"][0]["dealing"]["locked"]
        deck = base64.b64decode(locked["host"])
        locked["host"] = base64.b64encode(deck[32:64] + deck[0:32] + deck[64:]).decode()

    assert "the host sent a locked deck that its seed does not give" in _tampered(change)


def test_the_records_of_a_match_cut_short_verify_up_to_the_cut() -> None:
    """A match that ends mid-deal (here a wrong key, caught): the last deal has no seeds, so
    verify replays its signed entries on the writer's view of its cards (marked ``sealed``),
    and the deals before it from their audits."""
    from koikoi.net.verify import verify_record

    tap = DealingTap(Role.JOINER, "draw", 9, lambda f: {**f, "k": _other_key(f["k"])})
    table = private_table(seed=15, tap=tap)
    table.run()
    _cheat_caught(table, Role.HOST)
    record = table.host.record().to_json()
    deals = record["deals"]
    assert deals[-1]["sealed"] is True and "seeds" in deals[-1]["dealing"]
    assert len(deals[-1]["dealing"]["seeds"]) < 2
    assert all("sealed" not in deal for deal in deals[:-1])
    report = verify_record(record)
    assert report.moves == table.host.lockstep.seq  # type: ignore[union-attr]
    assert report.result["finished"] is False


def test_a_record_saved_mid_deal_verifies_and_shows_only_what_its_side_knew() -> None:
    from koikoi.engine.cards import CARD_IDS
    from koikoi.net.verify import verify_record

    table = private_table(seed=16)
    _mid_deal(table, 3)
    joiner = table.joiner
    lockstep = joiner.lockstep
    assert isinstance(lockstep, PrivateLockstep) and not lockstep.deal_over
    record = joiner.record().to_json()
    deal = record["deals"][-1]
    assert deal["sealed"] is True
    # The positions this side knows are the true cards; verify replays the entries so far.
    from koikoi.net.dealing import hand_positions
    from koikoi.net.private import role_of

    positions = hand_positions(joiner.role, role_of(lockstep.match.oya))
    assert set(positions) <= lockstep.known
    assert sorted(deal["hands"][joiner.seat]) == sorted(
        CARD_IDS[lockstep.shadow[p]] for p in positions
    )
    assert verify_record(record).moves == lockstep.seq


def test_a_teyaku_is_declared_by_opening_the_hand_and_ends_the_deal_on_both_sides() -> None:
    """The first deal gives a hand a teyaku (the seeds chosen for it): its holder opens the
    hand with its keys and says so in ``hand``; both engines end the deal at once, the audit
    agrees, and the match plays on to its end with both records verifying."""
    from koikoi.net.verify import verify_record

    table = teyaku_table()
    table.run()
    for role in Role:
        session = table.sessions[role]
        assert session.ending is not None and session.ending.finished
        first = session.lockstep.match.history[0].result  # type: ignore[union-attr]
        assert first.outcome.name == "TEYAKU"
        record = session.record().to_json()
        assert record["deals"][0]["actions"] == []
        assert verify_record(record).result == session.result_json()
    assert table.host.result_json() == table.joiner.result_json()


@pytest.mark.parametrize("trial", range(20))
def test_a_flipped_bit_in_any_dealing_message_names_its_sender(trial: int) -> None:
    """One bit of one dealing message (a deck, a key, a seed, a hand) changed by its sender:
    the receiver ends the session naming that sender, and nothing raises."""
    import random

    rng = random.Random(trial)
    cheater = rng.choice(list(Role))
    target = rng.randrange(1, 60)
    seen = [0]
    after_the_end = [False]

    def flip(sender: Role, messages: list[bytes]) -> list[bytes]:
        if sender is not cheater:
            return messages
        out = []
        for message in messages:
            if _kind(message) in DEALING:
                seen[0] += 1
                if seen[0] == target:
                    lockstep = table.sessions[sender].lockstep
                    after_the_end[0] = lockstep is not None and lockstep.match.finished
                    changed = bytearray(message)
                    changed[rng.randrange(len(changed))] ^= 1 << rng.randrange(8)
                    message = bytes(changed)
            out.append(message)
        return out

    table = private_table(seed=100 + trial, tap=flip)
    table.run()
    ending = table.sessions[cheater.peer].ending
    assert ending is not None
    if seen[0] >= target and after_the_end[0]:  # the last seed: the moves decided already
        assert ending.finished and ending.audit is not None, ending
        assert ending.audit.result in ("cheat", "refused") and ending.audit.by is cheater
    elif seen[0] >= target and ending.how == "stopped":
        # A deck's point changed into another point of the group is no card the receiver can
        # tell from a real one: it locks it and sends it on. The changed card comes back to
        # its sender when the sender opens it (the receiver's key, on the sender's deck as it
        # really went), and the sender's own engine, which knows nothing of the change, ends
        # the match over a key that opens no card. The receiver is told, and its record names
        # the sender as the one who stopped the match.
        theirs = table.sessions[cheater].ending
        assert theirs is not None and theirs.how == "cheat" and theirs.by is cheater.peer
        assert "that opens no card" in theirs.reason, theirs
        assert not ending.finished and ending.by is cheater and ending.suspicious, ending
    elif seen[0] >= target:  # the match lasted long enough for the change
        assert not ending.finished and ending.by is cheater, ending
        assert ending.how in ("cheat", "protocol")


def test_verify_names_a_public_card_changed_in_a_deal_cut_short() -> None:
    """A deal without seeds still binds its public cards: a field card swapped with a sealed
    stock card in the record opens, by the keys both sides sent, to a card the record does
    not show there."""
    from koikoi.net.verify import VerificationFailed, verify_record

    table = private_table(seed=16)
    _mid_deal(table, 1)
    record = table.joiner.record().to_json()
    deal = record["deals"][-1]
    assert deal["sealed"] is True
    deal["field"][0], deal["stock"][-1] = deal["stock"][-1], deal["field"][0]
    with pytest.raises(
        VerificationFailed, match=r"the dealing: position (1[6-9]|2[0-3]) opens card"
    ):
        verify_record(record)


def _mid_deal(table: Table, draws: int) -> None:
    """Step the table until a deal is in play with at least ``draws`` cards drawn."""
    for _ in range(500):
        lockstep, dealing = table.joiner.lockstep, table.joiner._private
        private = None if dealing is None else dealing.deal
        if (
            isinstance(lockstep, PrivateLockstep)
            and private is not None
            and private.laid
            and not lockstep.deal_over
            and lockstep.match.round is not None
            and lockstep.match.round.stock_pos >= draws
        ):
            return
        table.step()
    raise AssertionError("no deal in play reached")
