"""The app's entry, its process handling, its settings and resources stay ``mypy --strict``
clean, as the engine and the network core do (tests/test_static.py)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO

STRICT = [
    "koikoi/__main__.py",
    "koikoi/resources.py",
    "koikoi/ui/__init__.py",
    "koikoi/ui/ai_helper.py",
    "koikoi/ui/ai_worker.py",
    "koikoi/ui/app.py",
    "koikoi/ui/qtfix.py",
    "koikoi/ui/settings.py",
    "tests/conftest.py",
    "tests/test_ci_setup.py",
    "tests/test_ui_processes.py",
    "tests/test_ui_pyside.py",
    "tests/test_ui_typed.py",
]


def test_mypy_strict_on_the_app_entry_and_its_processes() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", *STRICT],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
