"""The packaging's own files, checked fast (the slow build and its checks are .ci/run's:
``packaging/build.sh`` then ``packaging/check.sh``): the desktop file and the AppStream
metainfo validate and agree with the app, the icons are the sizes their names say, the spec
and build script read the project's name and version, and the sdist holds real files only."""

from __future__ import annotations

import configparser
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from koikoi import __version__
from tests.conftest import REPO

PACKAGING = REPO / "packaging"
APP_ID = "org.koikoi.Koikoi"
DESKTOP = PACKAGING / "linux" / f"{APP_ID}.desktop"
METAINFO = PACKAGING / "linux" / f"{APP_ID}.metainfo.xml"


def _desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(DESKTOP, encoding="utf-8")
    return parser["Desktop Entry"]


def _tool(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:  # .ci/setup installs it; a bare machine may lack it
        pytest.fail(f"{name} is missing: apt-get install {package} (.ci/setup does)")
    return path


def test_the_desktop_file_validates() -> None:
    tool = _tool("desktop-file-validate", "desktop-file-utils")
    result = subprocess.run([tool, str(DESKTOP)], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip() == "", result.stdout + result.stderr


def test_the_metainfo_validates() -> None:
    tool = _tool("appstreamcli", "appstream")
    result = subprocess.run(
        [tool, "validate", "--no-net", str(METAINFO)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert not re.search(r"^[EW]:", result.stdout, re.M), result.stdout  # no errors or warnings


def test_the_desktop_file_says_what_the_issue_asks() -> None:
    entry = _desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Name"] and entry["Name[ja]"] == "花札こいこい" and entry["Comment"]
    assert entry["Categories"] == "Game;CardGame;"
    assert entry["Exec"] == "koikoi" and entry["Icon"] == APP_ID
    assert entry["Terminal"] == "false"


def test_the_metainfo_agrees_with_the_app() -> None:
    root = ET.parse(METAINFO).getroot()
    assert root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    assert root.findtext("launchable") == DESKTOP.name
    assert root.findtext("provides/binary") == "koikoi"
    releases = [r.get("version") for r in root.findall("releases/release")]
    assert releases and releases[0] == __version__, "the newest release is this version"
    assert root.find("content_rating") is not None
    assert len(root.findall("screenshots/screenshot")) >= 1
    assert root.find("description/p") is not None


def test_the_window_names_the_desktop_file() -> None:
    """Wayland and the docks match the window to its .desktop file (and so its icon) by it."""
    code = "from koikoi.ui.app import make_app; print(make_app().desktopFileName())"
    result = subprocess.run(  # a fresh process: this one's QApplication was made by conftest
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert result.stdout.strip() == APP_ID, result.stderr


def test_the_spec_and_build_script_read_the_projects_name_and_version() -> None:
    result = subprocess.run(
        [sys.executable, str(PACKAGING / "meta.py"), "name", "version", "app_id"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == ["koikoi", __version__, APP_ID]
    spec = (PACKAGING / "koikoi.spec").read_text(encoding="utf-8")
    assert "meta.name()" in spec and "meta.version()" in spec and "meta.APP_ID" in spec


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_spec_leaves_the_developers_tools_out() -> None:
    """The spec's own filter (run here on every module of the checkout) keeps the product
    and drops ``koikoi.devtools``, which its excludes name too."""
    spec = (PACKAGING / "koikoi.spec").read_text(encoding="utf-8")
    assert 'collect_submodules("koikoi", filter=_product)' in spec
    assert re.search(r"excludes=\[[^\]]*\bDEVTOOLS\b", spec)
    names: dict[str, object] = {}
    exec(spec[spec.index("DEVTOOLS = ") : spec.index("a = Analysis(")], names)
    product = names["_product"]
    assert callable(product)
    modules = [
        ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
        for path in (REPO / "koikoi").rglob("*.py")
    ]
    dropped = sorted(name for name in modules if not product(name))
    assert dropped == sorted(name for name in modules if name.startswith("koikoi.devtools"))
    assert "koikoi.devtools.screenshots" in dropped and product("koikoi.ui.smoke")


def test_the_hicolor_icons_are_the_sizes_their_names_say() -> None:
    sizes = []
    for png in sorted((REPO / "assets" / "icons").glob("koikoi-*.png")):
        size = int(png.stem.removeprefix("koikoi-"))
        assert _png_size(png) == (size, size), png.name
        sizes.append(size)
    assert {16, 32, 48, 64, 128, 256, 512} <= set(sizes)
    assert (REPO / "assets" / "icons" / "koikoi.svg").is_file()  # scalable, and .ico/.icns


def _tracked_files() -> set[str]:
    result = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=False)
    if result.returncode != 0:
        pytest.fail("not a git checkout: the sdist test compares it with git's files")
    return {name for name in result.stdout.decode().split("\0") if name}


def test_the_sdist_lists_real_files_only(tmp_path: Path) -> None:
    """Every entry of the sdist's include list exists; the sdist holds only files the
    repository tracks (no build/, dist/, caches), and everything the build script needs."""
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    include = pyproject["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    for entry in include:
        assert (REPO / entry).exists(), f"the sdist's include list names {entry!r}: not here"
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "sdist", "-d", str(tmp_path)],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    (sdist,) = tmp_path.glob("koikoi-*.tar.gz")
    assert sdist.name == f"koikoi-{__version__}.tar.gz"
    with tarfile.open(sdist) as tar:
        names = {m.name.split("/", 1)[1] for m in tar.getmembers() if m.isfile()}
    names.discard("PKG-INFO")  # written by the build
    assert names <= _tracked_files(), sorted(names - _tracked_files())
    for needed in ("packaging/build.sh", "packaging/koikoi.spec", "packaging/meta.py"):
        assert needed in names
    assert f"packaging/linux/{APP_ID}.desktop" in names
    assert "assets/cards/matsu_crane.svg" in names and "koikoi/ui/app.py" in names
