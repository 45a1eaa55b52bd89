"""The Japanese of the screens, word by word (issue 22's list from two play sessions): one
name in the title, 第3回戦（全6回戦）, natural phrases, one word for one feature, the same
spelling everywhere, full-width colons, 点 after a total, and no parser English on the start
screen."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from koikoi.engine.cards import parse_card
from koikoi.paths import koikoi_home
from koikoi.ui.common import names
from koikoi.ui.learn.calculator import ScoreCalculator
from koikoi.ui.start_screen import resume_text
from tests.ui_driver import close_window, open_window

REPO = Path(__file__).resolve().parent.parent
TS = REPO / "assets" / "i18n" / "koikoi_ja.ts"


def _translations() -> list[str]:
    return re.findall(r"<(?:translation|numerusform)>([^<]*)<", TS.read_text(encoding="utf-8"))


def test_the_window_title_is_the_display_name_so_qt_does_not_add_it_again(
    qtbot: QtBot, japanese: None
) -> None:
    QGuiApplication.setApplicationDisplayName("花札こいこい Koi-Koi")  # as make_app sets it
    window = open_window(qtbot)
    assert window.windowTitle() == "花札こいこい"
    assert QGuiApplication.applicationDisplayName() == window.windowTitle()
    close_window(window)


def test_the_round_of_a_match_reads_dai_3_kaisen_of_6(japanese: None) -> None:
    text = resume_text(3, 6, (10, 4))
    assert "第3回戦（全6回戦）" in text
    assert not any("回戦／" in t for t in _translations())


@pytest.mark.parametrize(
    ("wrong", "right"),
    [
        ("に合う札", "同じ月の札"),  # 「菖蒲に短冊に合う札」: two に in a row
        ("1回戦に数えません", "回戦数に数えません"),  # a redeal is not one round
        ("勝った方の倍率は", "勝った方の得点が"),  # the multiplier applies to the points
        ("勝った方の得点が×", "勝った方の得点が{0}倍"),  # 得点が3倍になる, not 得点が×3になる
        ("ヒント", "アシスト表示"),  # the feature's one name (Assist)
    ],
)
def test_no_catalogue_phrase_is_the_awkward_one(wrong: str, right: str) -> None:
    texts = _translations()
    assert not [t for t in texts if wrong in t]
    assert any(right in t for t in texts)


def test_the_computer_is_spelt_one_way_in_the_app_and_the_desktop_file() -> None:
    texts = _translations()
    assert not [t for t in texts if re.search("コンピュータ(?!ー)", t)]
    desktop = (REPO / "packaging" / "linux" / "org.koikoi.Koikoi.desktop").read_text("utf-8")
    assert "コンピューター" in desktop and not re.search("コンピュータ(?!ー)", desktop)
    glossary = (REPO / "koikoi" / "ui" / "learn" / "glossary.py").read_text("utf-8")
    assert '"化け札"' in glossary and '"化札"' not in glossary


def test_the_yaku_total_at_the_table_says_its_points(japanese: None) -> None:
    said = QCoreApplication.translate("SeatBox", "Total {0}").format(2)
    assert said == "合計2点"


def test_the_calculator_uses_one_colon_full_width_in_japanese(qtbot: QtBot, japanese: None) -> None:
    calc = ScoreCalculator(None, None, True)
    qtbot.addWidget(calc)
    for name in ("sakura_curtain", "matsu_crane", "susuki_moon"):
        calc.cards[parse_card(name)].setChecked(True)
    text = calc.score_label.text()
    assert "三光" in text
    assert "：" in text and ":" not in re.sub(r"<[^>]*>", "", text)


def test_a_damaged_save_is_said_in_japanese_and_its_detail_is_logged(
    qtbot: QtBot, japanese: None, caplog: pytest.LogCaptureFixture
) -> None:
    path = koikoi_home() / "practice.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json", encoding="utf-8")
    window = open_window(qtbot)
    notice = window.start.notice.text()
    assert notice.startswith("保存した対戦を読み込めませんでした")
    (aside,) = koikoi_home().glob("practice.corrupt-*.json")
    assert str(aside) in notice
    assert not re.search("[A-Za-z]{3,}", notice.replace(str(aside), ""))  # no parser English
    assert any("Expecting" in r.getMessage() for r in caplog.records)  # the parser's words
    close_window(window)


# -- the match settings in each language ------------------------------------------------------


def _listed(rounds: int, doubling: bool) -> tuple[str, str]:
    from koikoi.net.discovery.txt import Room, RoomStatus
    from koikoi.ui.lobby.rooms import RoomListModel

    room = Room(
        name="r1", title="Aiko's room", addresses=("127.0.0.1:4000",), rounds=rounds,
        doubling=doubling, private=False, status=RoomStatus.OPEN, version=4, host="Aiko",
        dealing="private",
    )  # fmt: skip
    model = RoomListModel()
    model.put(room)
    cell = model.index(0, 2).data()
    spoken = model.index(0, 0).data(Qt.ItemDataRole.AccessibleTextRole)
    return cell, spoken


def test_the_settings_read_in_english_on_english_screens() -> None:
    assert names.current_language() == "en"
    cell, spoken = _listed(6, True)
    assert cell == "6 rounds · doubling at 8+ · 60 s a move"
    assert "6 rounds · doubling at 8+" in spoken and "60 s a move" in spoken
    assert _listed(12, False)[0] == "12 rounds · no doubling · 60 s a move"
    assert not re.search("[\u3040-\u30ff\u4e00-\u9fff]", cell + spoken)


def test_the_settings_stay_in_the_seeds_japanese_in_japanese(japanese: None) -> None:
    assert _listed(6, True)[0] == "6回戦 · 「8点以上×2」 · 1手60秒"
    assert _listed(12, False)[0] == "12回戦 · 「8点で倍なし」 · 1手60秒"


def test_the_tables_assist_switch_is_whole_in_a_small_window_in_japanese(
    qtbot: QtBot, japanese: None
) -> None:
    window = open_window(qtbot, size=(960, 640))
    window.stack.setCurrentWidget(window.game)
    qtbot.wait(20)
    side = window.game.side
    assert side.assist.text() == "アシスト"  # the start screen's アシスト表示, in short
    for widget in (side.menu_button, side.help_button, side.assist):
        assert widget.width() >= widget.sizeHint().width(), widget.text()
    close_window(window)


def _table_prompts_with_click() -> list[str]:
    found = []
    for module in ("game_screen.py", "spoken.py"):  # the prompts, and what a reader hears
        source = (REPO / "koikoi" / "ui" / "table" / module).read_text("utf-8")
        found += re.findall(r'(?:self\.tr|_tr)\(\s*"([^"\n]*click[^"\n]*)"', source)
    assert len(found) >= 6, found  # play, the two-match pick, the drawn-card waits (twice)
    return found


def test_every_table_prompt_that_says_click_names_the_key_too(japanese: None) -> None:
    for text in _table_prompts_with_click():
        assert "Enter" in text, text
        said = QCoreApplication.translate("GameScreen", text)
        assert said != text and "クリック" in said and "Enter" in said, said


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_other_windows_titles_leave_the_app_name_to_qt(qtbot: QtBot, lang: str) -> None:
    """Qt adds " — " and the display name to every window's title on Linux and Windows: a
    title that starts with the game's name said it twice
    (「こいこい：ルールと操作 — 花札こいこい」)."""
    from koikoi.ui.common.display import DisplayDialog
    from koikoi.ui.learn.help import HelpDialog

    assert names.install_translations(lang)
    try:
        window = open_window(qtbot)
        QTest.keyClick(window.start.practice_button, Qt.Key.Key_F1)  # the rules
        window.start.calculator_button.click()
        window.start.display_button.click()
        titles = {}
        for kind in (HelpDialog, ScoreCalculator, DisplayDialog):
            shown = window.findChild(kind)
            assert shown is not None and shown.isVisible(), kind
            titles[kind.__name__] = shown.windowTitle()
            shown.close()
        close_window(window)
    finally:
        names.install_translations("en")
    expected = {
        "ja": {
            "HelpDialog": "ルールと操作",
            "ScoreCalculator": "点数計算",
            "DisplayDialog": "表示設定",
        },
        "en": {
            "HelpDialog": "Rules and keys",
            "ScoreCalculator": "Score calculator",
            "DisplayDialog": "Display options",
        },
    }
    assert titles == expected[lang]
