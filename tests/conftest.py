"""Shared test set-up: Qt runs offscreen, and each test gets its own KOIKOI_HOME."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

collect_ignore = ["atspi_reader.py"]
"""Run by Debian's python3 with pyatspi (tests/test_ui_atspi.py), not importable here."""

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@pytest.fixture(autouse=True)
def _koikoi_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Identity keys, pinned peers, settings and saves never touch the real user's files."""
    home = tmp_path_factory.mktemp("koikoi-home")
    monkeypatch.setenv("KOIKOI_HOME", str(home))
    return home


def run_koikoi(
    *args: str, stdin: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run the real ``koikoi`` command (as installed: ``python -m koikoi``)."""
    return subprocess.run(
        [sys.executable, "-m", "koikoi", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
    )


@pytest.fixture(scope="session", autouse=True)
def _qapplication() -> object:
    """One QApplication for the run, made before any test can make a bare QGuiApplication
    (widgets need a QApplication; pictures are happy with either)."""
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])


NETWORK_TIMING_MODULES = frozenset(
    {
        "test_net_clock.py",
        "test_net_discovery.py",
        "test_net_discovery_cli.py",
        "test_net_discovery_netns.py",
        "test_net_faults.py",
        "test_net_faults_crash.py",
        "test_net_faults_netns.py",
        "test_net_guessing.py",
        "test_net_hostile.py",
        "test_net_play.py",
        "test_net_resume_app.py",
        "test_net_toss_cli.py",
        "test_ui_atspi.py",
        "test_ui_clock.py",
        "test_ui_crash_resume.py",
        "test_ui_lan_processes.py",
        "test_ui_lobby.py",
        "test_ui_lobby_join_wait.py",
        "test_ui_mdns_redial.py",
        "test_ui_netlink.py",
        "test_ui_network.py",
        "test_ui_prematch_toss.py",
        "test_ui_screenshots.py",
        "test_ui_smoke_lan.py",
        "test_ui_stall.py",
        "test_ui_teyaku_toss.py",
    }
)
"""Tests over real sockets, mDNS on the shared loopback and whole app processes. A wait bound
in time can run out on a loaded 2-core machine without anything being wrong, so these run
again (up to twice) when they fail; a rerun is listed in the summary ("R"), and a test that
fails every time still fails. A test that needs a rerun is a defect to chase, not to keep."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.pluginmanager.hasplugin("rerunfailures"):
        return
    for item in items:
        if item.path.name in NETWORK_TIMING_MODULES:
            item.add_marker(pytest.mark.flaky(reruns=2, reruns_delay=1))
