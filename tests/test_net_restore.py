"""koikoi.net.restore: a match in play taken up again from its record, the one way the CLI
(``--record FILE``) and the window (a match offered on the start screen) both use."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from koikoi.command import UsageError
from koikoi.engine.match import Settings
from koikoi.net import cli, restore
from koikoi.net.hello import SEED_ONLY, WITH_SEED
from koikoi.net.identity import KnownPeers
from koikoi.net.roles import Role
from koikoi.net.transport.options import PeerOptions
from koikoi.ui.match import saves
from tests.test_net_recordfile import WrittenMatch, written_and_cut


def _options(match: WrittenMatch, role: Role, tmp_path: Path) -> PeerOptions:
    side = match.sides[role]
    return PeerOptions(side.identity, role.value, Settings(), KnownPeers(tmp_path / "peers"))


def _repeated_key(path: Path) -> None:
    """The record with its ``settings`` key written twice: a lenient reader takes it."""
    text = path.read_text(encoding="utf-8")
    settings = json.dumps(json.loads(text)["settings"])
    path.write_text('{"settings": ' + settings + ", " + text.lstrip()[1:], encoding="utf-8")


def test_a_match_in_play_is_restored_as_it_stood(tmp_path: Path) -> None:
    match = written_and_cut(tmp_path)
    for role in Role:
        path, side, before = match.files[role].path, match.sides[role], match.session[role]
        data = restore.unfinished_in(path)
        assert data is not None and "local" in data  # the sidecar attached
        session = restore.restore(data, side.identity, role.value, role, Settings(), now=match.now)
        assert session.record().to_json()["deals"] == before.record().to_json()["deals"]
        assert before.lockstep is not None
        assert restore.moves(session) == before.lockstep.seq > 0
        toss = restore.first_toss(session)
        assert toss.result == before.toss.result and toss.events


def test_no_file_no_record_and_a_finished_match_are_nothing_to_restore(tmp_path: Path) -> None:
    assert restore.unfinished_in(tmp_path / "absent.json") is None
    junk = tmp_path / "junk.json"
    junk.write_text("not a record\n")
    assert restore.unfinished_in(junk) is None
    match = written_and_cut(tmp_path)
    path = match.files[Role.HOST].path
    data = json.loads(path.read_text(encoding="utf-8"))
    data["end"] = {"how": "left"}
    path.write_text(json.dumps(data), encoding="utf-8")
    assert restore.unfinished_in(path) is None


def test_a_match_in_play_with_a_repeated_key_cannot_be_read(tmp_path: Path) -> None:
    match = written_and_cut(tmp_path)
    path = match.files[Role.JOINER].path
    _repeated_key(path)
    with pytest.raises(restore.RestoreError) as caught:
        restore.unfinished_in(path)
    assert caught.value.unreadable and "\n" not in str(caught.value)
    with pytest.raises(restore.RestoreError) as strictly:
        restore.read_strict(path)
    assert str(strictly.value) == str(caught.value)
    with pytest.raises(UsageError) as said:
        cli._restored(_options(match, Role.JOINER, tmp_path), Role.JOINER, str(path))
    assert str(said.value) == (
        f"--record {path} holds a match in play that cannot be read: {caught.value}"
    )


def test_a_broken_sidecar_cannot_go_on(tmp_path: Path) -> None:
    match = written_and_cut(tmp_path)
    files = match.files[Role.JOINER]
    lines = files.sidecar.read_bytes().split(b"\n")
    lines[2] = lines[2][:-5]
    files.sidecar.write_bytes(b"\n".join(lines))
    with pytest.raises(restore.RestoreError) as caught:
        restore.unfinished_in(files.path)
    assert str(caught.value) == "its local file's line 3 is not JSON"
    assert not caught.value.unreadable


def test_a_sidecar_of_the_other_side_cannot_go_on(tmp_path: Path) -> None:
    match = written_and_cut(tmp_path)
    files = match.files
    files[Role.JOINER].sidecar.write_bytes(files[Role.HOST].sidecar.read_bytes())
    path, side = files[Role.JOINER].path, match.sides[Role.JOINER]
    data = restore.read_strict(path)  # it reads: what it holds does not fit
    with pytest.raises(restore.RestoreError) as caught:
        restore.restore(data, side.identity, "joiner", Role.JOINER, Settings(), now=match.now)
    assert not caught.value.unreadable
    assert str(caught.value) == "its local file is of the host's side, not this one"
    with pytest.raises(UsageError) as said:
        cli._restored(_options(match, Role.JOINER, tmp_path), Role.JOINER, str(path))
    assert str(said.value) == (
        f"--record {path} holds a match in play that cannot go on: "
        "its local file is of the host's side, not this one"
    )


def test_another_identity_cannot_go_on(tmp_path: Path) -> None:
    match = written_and_cut(tmp_path)
    data = restore.read_strict(match.files[Role.JOINER].path)
    host = match.sides[Role.HOST].identity
    with pytest.raises(restore.RestoreError) as caught:
        restore.restore(data, host, "x", Role.JOINER, Settings(), now=match.now)
    assert str(caught.value) == "this identity is not its joiner"
    assert not caught.value.unreadable


def test_the_cli_says_which_match_it_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = written_and_cut(tmp_path)
    path = match.files[Role.HOST].path
    session = cli._restored(_options(match, Role.HOST, tmp_path), Role.HOST, str(path))
    assert session is not None
    peer = match.sides[Role.JOINER]
    assert session.peer.fingerprint == peer.identity.fingerprint
    err = capsys.readouterr().err
    assert f"resuming the match in {path} with 'joiner' after {restore.moves(session)} moves" in err


def test_how_to_reconnect_is_read_from_the_resume_key(tmp_path: Path) -> None:
    match = written_and_cut(tmp_path)
    files = match.files[Role.JOINER]
    data = restore.read_strict(files.path)
    with pytest.raises(restore.NoReconnect) as caught:
        restore.reconnect_of(data)
    assert str(caught.value) == "the record does not say how to reconnect"
    info = {"role": "joiner", "address": "127.0.0.1:4000"}
    files.save(match.session[Role.JOINER], {restore.RESUME_KEY: info})
    again = restore.reconnect_of(restore.read_strict(files.path))
    assert again.role is Role.JOINER and again.nickname == "joiner"
    assert again.settings == Settings() and again.info == info
    assert again.dealing == "private" and again.password_check() is None
    assert again.offer(("private",)) == ("private",)  # dealt privately: the offer as it is
    seed = restore.Reconnect(Role.JOINER, "", Settings(), "koikoi-net/2", "seed", info)
    assert seed.offer(("private",)) == SEED_ONLY
    host = restore.Reconnect(Role.HOST, "", Settings(), "koikoi-net/2", "seed", {"check": {}})
    assert host.offer(("private",)) == WITH_SEED and host.password_check() == {}


def test_a_resume_key_without_a_role_says_so(tmp_path: Path) -> None:
    for info in ({}, {"role": "spectator"}, "joiner"):
        with pytest.raises(restore.NoReconnect):
            restore.reconnect_of({restore.RESUME_KEY: info, "net": {}})


def test_the_start_screen_reads_the_same_resume_key() -> None:
    """``koikoi.ui.match.saves`` names the key without loading the network for the start screen."""
    assert saves.RESUME_KEY == restore.RESUME_KEY
