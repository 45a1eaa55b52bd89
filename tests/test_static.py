"""The code stays ruff clean (lint and format), and mypy clean: koikoi --strict, the tests with
the overrides of pyproject.toml (a test function's body is checked, its signature is free)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.conftest import REPO


def _tool(name: str) -> str:
    path = shutil.which(name, path=str(REPO / ".venv" / "bin")) or shutil.which(name)
    if path is None:
        pytest.skip(
            f"{name} is not installed (it comes with the test extra: pip install -e '.[test]')"
        )
    return path


def test_ruff_clean():
    proc = subprocess.run(
        [_tool("ruff"), "check", "koikoi", "tests", "assets"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_formatted():
    proc = subprocess.run(
        [_tool("ruff"), "format", "--check", "koikoi", "tests", "assets"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_clean_on_koikoi_and_the_tests():
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
