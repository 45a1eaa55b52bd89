"""Two in-memory sessions that agreed on private dealing (koikoi-net/3) play whole matches:
each side's engine sees only what the rules show it, every move's hash agrees, each deal is
audited and replayed with every card at its end, and both records agree; a peer that cheats
at the dealing or in a move is named."""

from __future__ import annotations

import pytest

from koikoi.engine.record import replay
from koikoi.net.private import PrivateLockstep
from koikoi.net.roles import Role
from koikoi.net.session import DealLaidOut, MovePlayed, TossDone
from tests.net_support import Table

BOTH = ("private", "seed")
PRIVATE = {role: BOTH for role in Role}


def private_table(**kwargs: object) -> Table:
    return Table(dealings=PRIVATE, **kwargs)  # type: ignore[arg-type]


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
    assert h["net"]["protocol"] == "koikoi-net/3" and h["net"]["dealing"] == "private"
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
    for _ in range(12):
        table.step()
    for role in Role:
        lockstep = table.sessions[role].lockstep
        assert isinstance(lockstep, PrivateLockstep)
        dealer = table.sessions[role]._private.dealer  # type: ignore[union-attr]
        opened = {p for p in range(48) if dealer.card_at(p) is not None}
        assert lockstep.known == opened
        assert len(opened) < 48
