"""Shared test set-up: Qt runs offscreen, and each test gets its own KOIKOI_HOME."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
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


@pytest.fixture
def japanese() -> Iterator[None]:
    """The app's words in Japanese for one test (English again after it)."""
    from koikoi.ui import names

    assert names.install_translations("ja")
    try:
        yield
    finally:
        names.install_translations("en")


KINDS: dict[str, tuple[str, ...]] = {
    "test_ai_simulate": ("processes",),
    "test_art": ("processes",),
    "test_ci_setup": ("processes",),
    "test_cli": ("processes", "sockets"),
    "test_golden_replays": ("processes",),
    "test_golden_scores": ("processes",),
    "test_net_bench": ("sockets",),
    "test_net_clock": ("processes", "sockets"),
    "test_net_confirm": ("sockets",),
    "test_net_dealing_bench": ("processes",),
    "test_net_dealing_refusal": ("processes", "sockets"),
    "test_net_discovery": ("processes", "sockets"),
    "test_net_discovery_cli": ("processes", "sockets"),
    "test_net_discovery_flood": ("netns", "processes", "sockets"),
    "test_net_discovery_netns": ("netns", "processes", "sockets"),
    "test_net_faults": ("processes", "sockets"),
    "test_net_faults_crash": ("processes", "sockets"),
    "test_net_faults_netns": ("netns", "processes", "sockets"),
    "test_net_flood": ("processes", "sockets"),
    "test_net_fuzz": ("processes", "sockets"),
    "test_net_guess_report": ("sockets",),
    "test_net_guessing": ("processes", "sockets"),
    "test_net_hello_relay": ("sockets",),
    "test_net_hostile": ("processes", "sockets"),
    "test_net_netns": ("netns", "processes", "sockets"),
    "test_net_nickname": ("processes", "sockets"),
    "test_net_play": ("processes", "sockets"),
    "test_net_private_audit_cli": ("processes", "sockets"),
    "test_net_private_cli": ("processes",),
    "test_net_private_prober": ("processes", "sockets"),
    "test_net_record_keys": ("processes",),
    "test_net_record_signals": ("processes", "sockets"),
    "test_net_recordfile": ("sockets",),
    "test_net_resume_app": ("processes", "sockets"),
    "test_net_room": ("sockets",),
    "test_net_room_rematch": ("sockets",),
    "test_net_toss_cli": ("processes", "sockets"),
    "test_net_transport": ("sockets",),
    "test_net_verify": ("processes",),
    "test_net_verify_ledger": ("processes", "sockets"),
    "test_packaging": ("processes",),
    "test_packaging_syslibs": ("netns", "processes"),
    "test_static": ("processes",),
    "test_ui_app": ("processes",),
    "test_ui_atspi": ("atspi", "processes"),
    "test_ui_clock": ("sockets",),
    "test_ui_crash_resume": ("processes", "sockets"),
    "test_ui_crash_resume_mdns": ("sockets",),
    "test_ui_crash_resume_stranger": ("sockets",),
    "test_ui_dealing_refusal": ("sockets",),
    "test_ui_i18n": ("processes",),
    "test_ui_i18n_failures": ("netns", "processes", "sockets"),
    "test_ui_lan_processes": ("netns", "processes", "sockets"),
    "test_ui_lobby": ("processes", "sockets"),
    "test_ui_lobby_join_wait": ("sockets",),
    "test_ui_lobby_resume": ("sockets",),
    "test_ui_mdns_redial": ("processes", "sockets"),
    "test_ui_netlink": ("processes", "sockets"),
    "test_ui_netlink_room_closing": ("sockets",),
    "test_ui_network": ("sockets",),
    "test_ui_prematch_toss": ("sockets",),
    "test_ui_private_audit": ("sockets",),
    "test_ui_private_dealing": ("sockets",),
    "test_ui_processes": ("processes",),
    "test_ui_screenshots": ("processes",),
    "test_ui_smoke_lan": ("processes",),
    "test_ui_stall": ("processes", "sockets"),
    "test_ui_teyaku_toss": ("processes",),
    "test_ui_viewer": ("processes",),
}
"""What each module's tests need beyond Python, as markers (registered in pyproject.toml):
``sockets`` real sockets on the loopback (asyncio, Qt, mDNS), ``processes`` starts koikoi or
another program, ``netns`` network namespaces, ``atspi`` the accessibility bus. A module not
listed needs none: the engine, the sans-I/O protocol on an injected clock, widgets offscreen."""

SLOW: frozenset[str] = frozenset()
"""Modules that take over 20 s on the 2-core machine (docs/benchmarks.md, "Tests"), marked
``slow``. The everyday run leaves them out with the processes, namespaces and AT-SPI:
``pytest -m "not (processes or netns or atspi or slow)"`` (README, "Develop")."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        module = item.path.stem
        for kind in KINDS.get(module, ()):
            item.add_marker(kind)
        if module in SLOW:
            item.add_marker("slow")
