"""The card art: one SVG per card, all rendering cleanly through QtSvg, drawn by a script that
gives the same files every time, shipped in the wheel, and the app icon."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import hashlib
import importlib.util
import subprocess
import sys
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from PySide6.QtCore import QByteArray, QRect, QRectF, QSize, QtMsgType, qInstallMessageHandler
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

from koikoi.devtools.sheet import layout, parse_size, render_sheet
from koikoi.engine import compiled
from koikoi.engine.cards import CARD_IDS
from koikoi.resources import asset, assets_dir
from koikoi.ui.common.art import ART_IDS, BACK, CardArt, card_size, card_svg

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "assets" / "cards"
ICONS = ROOT / "assets" / "icons"
ICON_SIZES = (16, 32, 48, 64, 128, 256, 512)


@pytest.fixture(scope="module")
def app() -> QGuiApplication:
    instance = QGuiApplication.instance()
    return instance if isinstance(instance, QGuiApplication) else QGuiApplication([])


@pytest.fixture
def qt_messages() -> Iterator[list[str]]:
    """Every message Qt logs while the test runs (QtSvg reports what it cannot render)."""
    messages: list[str] = []

    def handler(kind: QtMsgType, context: object, text: str) -> None:
        messages.append(f"{kind.name}: {text}")

    previous = qInstallMessageHandler(handler)
    yield messages
    qInstallMessageHandler(previous)


def load_draw() -> ModuleType:
    spec = importlib.util.spec_from_file_location("koikoi_draw", CARDS / "draw.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def render(svg: bytes, width: int, height: int, offset: int = 0) -> QImage:
    """Renders into a transparent image with ``offset`` pixels of margin round the card."""
    image = QImage(width + 2 * offset, height + 2 * offset, QImage.Format.Format_ARGB32)
    image.fill(QColor(0, 0, 0, 0))
    renderer = QSvgRenderer(QByteArray(svg))
    assert renderer.isValid()
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(offset, offset, width, height))
    painter.end()
    return image


def digest(image: QImage) -> str:
    return hashlib.sha256(bytes(image.constBits())).hexdigest()


def is_clear(image: QImage, rect: QRect) -> bool:
    part = image.copy(rect).convertToFormat(QImage.Format.Format_ARGB32)
    return all(b == 0 for b in bytes(part.constBits()))


# R1.1: the 48 ids, month by month; plus the back.
def test_every_card_has_exactly_one_file() -> None:
    files = sorted(p.name for p in CARDS.glob("*.svg"))
    assert files == sorted(f"{card_id}.svg" for card_id in (*CARD_IDS, BACK))
    assert (*CARD_IDS, BACK) == ART_IDS


def test_draw_script_follows_the_rules_card_order() -> None:
    draw = load_draw()
    assert tuple(card.id for card in draw.CARDS) == CARD_IDS
    months = [card.month for card in draw.CARDS]
    assert months == [i // 4 + 1 for i in range(48)]


@pytest.mark.parametrize("size", [(60, 96), (600, 960)], ids=["60x96", "600x960"])
def test_every_svg_renders_without_qt_warnings(
    app: QGuiApplication, qt_messages: list[str], size: tuple[int, int]
) -> None:
    for card_id in ART_IDS:
        image = render(card_svg(card_id), *size)
        # a card, not an empty page: the centre pixel is opaque
        assert image.pixelColor(size[0] // 2, size[1] // 2).alpha() == 255, card_id
    assert qt_messages == []


def test_the_art_stays_inside_the_card(app: QGuiApplication) -> None:
    """Nothing is drawn outside the card's rounded outline (QtSvg does not clip to the view)."""
    w, h, m = 160, 256, 12
    corner = 2  # px: outside the 9 px corner radius at this size, antialiasing included
    outside = [
        QRect(0, 0, w + 2 * m, m),
        QRect(0, h + m, w + 2 * m, m),
        QRect(0, 0, m, h + 2 * m),
        QRect(w + m, 0, m, h + 2 * m),
        QRect(m, m, corner, corner),
        QRect(m + w - corner, m, corner, corner),
        QRect(m, m + h - corner, corner, corner),
        QRect(m + w - corner, m + h - corner, corner, corner),
    ]
    spills = [
        card_id
        for card_id in ART_IDS
        if not all(is_clear(render(card_svg(card_id), w, h, m), r) for r in outside)
    ]
    assert spills == []


def test_no_two_cards_look_the_same(app: QGuiApplication) -> None:
    """Without the reading aids, at hand size: even the plain cards of a month differ."""
    seen: dict[str, str] = {}
    for card_id in ART_IDS:
        key = digest(render(card_svg(card_id, aids=False), 60, 96))
        assert key not in seen, f"{card_id} looks like {seen.get(key)}"
        seen[key] = card_id


def test_the_whole_set_is_small() -> None:
    total = sum(p.stat().st_size for p in CARDS.glob("*.svg"))
    assert total < 1_000_000


def test_the_svgs_avoid_what_older_qtsvg_cannot_draw() -> None:
    """Tiny 1.2 only: QtSvg ignores clip paths (and before 6.7 masks and filters); no fonts."""
    for path in CARDS.glob("*.svg"):
        text = path.read_text(encoding="utf-8")
        for feature in ("<clipPath", "<mask", "<filter", "<text", "<pattern", "<image"):
            assert feature not in text, (path.name, feature)


def test_draw_script_is_deterministic(tmp_path: Path) -> None:
    """Running draw.py again gives byte-identical files: the committed art is its output."""
    result = subprocess.run(
        [
            sys.executable,
            str(CARDS / "draw.py"),
            str(tmp_path),
            "--icon",
            str(tmp_path / "koikoi.svg"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    made = sorted(p.name for p in tmp_path.glob("*.svg"))
    assert made == sorted([*(f"{i}.svg" for i in ART_IDS), "koikoi.svg"])
    for name in made:
        committed = (ICONS if name == "koikoi.svg" else CARDS) / name
        assert (tmp_path / name).read_bytes() == committed.read_bytes(), name


def test_every_face_has_its_reading_aids_in_one_group() -> None:
    for card_id in CARD_IDS:
        assert card_svg(card_id).count(b'<g id="aids"') == 1, card_id
        assert b'display="none"' in card_svg(card_id, aids=False)
    with pytest.raises(KeyError):
        card_svg("matsu_sun")


def test_aids_toggle_changes_the_picture(app: QGuiApplication) -> None:
    art = CardArt()
    size = card_size(60)
    assert (size.width(), size.height()) == (60, 96)
    for card_id in ("matsu_crane", "kiku_ribbon", "kiri_plain_1"):
        with_aids = art.image(card_id, size, aids=True)
        without = art.image(card_id, size, aids=False)
        assert digest(with_aids) != digest(without), card_id
        # the aids sit top left; the bottom half of the card is the same either way
        bottom = QRect(0, 48, 60, 48)
        assert digest(with_aids.copy(bottom)) == digest(without.copy(bottom)), card_id
    back = art.image(BACK, size, aids=True)
    assert digest(back) == digest(art.image(BACK, size, aids=False))


def test_card_art_caches_by_id_size_aids_and_ratio(app: QGuiApplication) -> None:
    art = CardArt(max_images=3)
    size = QSize(120, 192)
    first = art.pixmap("susuki_moon", size, dpr=2.0)
    assert art.pixmap("susuki_moon", size, dpr=2.0) is first
    assert first.devicePixelRatio() == 2.0
    assert (first.width(), first.height()) == (120, 192)
    assert art.pixmap("susuki_moon", size, dpr=1.0) is not first
    assert art.image("susuki_moon", size) is art.image("susuki_moon", size)
    for card_id in CARD_IDS[:5]:
        art.image(card_id, size)
    assert len(art._images) == 3  # bounded


def test_card_art_keeps_the_proportion_in_an_odd_box(app: QGuiApplication) -> None:
    image = CardArt().image("yanagi_rainman", QSize(200, 192))
    assert image.pixelColor(2, 96).alpha() == 0  # the card is centred, not stretched
    assert image.pixelColor(100, 96).alpha() == 255


def test_contact_sheet(app: QGuiApplication, tmp_path: Path) -> None:
    card = parse_size("60x96")
    size, places = layout(card, 8)
    assert len(places) == 49
    sheet = render_sheet(card, aids=False, gap=8)
    assert (sheet.width(), sheet.height()) == (size.width(), size.height())
    out = tmp_path / "sheet.png"
    result = subprocess.run(
        [sys.executable, "-m", "koikoi.devtools.sheet", str(out), "--card", "30x48", "--no-aids"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert image.width() == 4 + 13 * (30 + 4)


def test_icon_pngs_exist_at_every_size(app: QGuiApplication, qt_messages: list[str]) -> None:
    renderer = QSvgRenderer(str(ICONS / "koikoi.svg"))
    assert renderer.isValid()
    for size in ICON_SIZES:
        image = QImage(str(ICONS / f"koikoi-{size}.png"))
        assert (image.width(), image.height()) == (size, size)
        assert image.hasAlphaChannel()
        assert image.pixelColor(size // 2, size // 2).alpha() == 255
    assert qt_messages == []


def test_assets_resolve_from_this_checkout() -> None:
    assert asset("cards/matsu_crane.svg").read_bytes().startswith(b"<svg")
    assert (assets_dir() / "icons" / "koikoi.svg").is_file()


def _build_wheel(out: Path) -> Path:
    isolation = [] if importlib.util.find_spec("hatchling") is None else ["--no-build-isolation"]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            *isolation,
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    (wheel,) = out.glob("koikoi-*.whl")
    return wheel


@pytest.mark.timeout(420)  # the build may take its 300 s, then a venv is made
def test_the_wheel_carries_the_art_and_an_installed_copy_finds_it(tmp_path: Path) -> None:
    """Build the wheel, look inside, install it into a fresh venv and load a card from there."""
    wheel = _build_wheel(tmp_path / "dist")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    for card_id in ART_IDS:
        assert f"koikoi/assets/cards/{card_id}.svg" in names
    assert "koikoi/assets/icons/koikoi-64.png" in names
    assert "koikoi/ui/smoke.py" in names  # the smoke test ships; the developers' tools do not
    assert not [name for name in names if name.startswith("koikoi/devtools/")]
    # the engine's compiled core, where this checkout has it (tests/test_engine_compiled.py
    # fails where .ci/setup did not build it): the very files, under their names
    engine = ROOT / "koikoi" / "engine"
    built = compiled.built(engine) and compiled.current(engine)
    ours = {f"koikoi/engine/{p.name}" for p in engine.iterdir() if p.suffix in (".so", ".pyd")}
    assert {n for n in names if n.endswith((".so", ".pyd"))} == (ours if built else set())
    assert ("cp3" in wheel.name) is built  # tagged for this interpreter when it carries them

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    probe = (
        "from koikoi.resources import asset; p = asset('cards/matsu_crane.svg'); "
        "print(p); print(p.read_text(encoding='utf-8')[:4]); "
        "from koikoi.engine import compiled; print(compiled.in_use())"
    )
    result = subprocess.run(
        [str(python), "-c", probe],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={"PATH": os.environ.get("PATH", "")},
    )
    assert result.returncode == 0, result.stderr
    where, head, in_use = result.stdout.splitlines()
    assert in_use == str(built)  # the installed copy runs the compiled core it carries
    assert Path(where).is_relative_to(env_dir.resolve()) or Path(where).is_relative_to(env_dir)
    assert head == "<svg"
