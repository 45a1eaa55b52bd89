"""No module of the product over 800 lines (issue 21): a longer one is to be split along a
seam, one job per module (docs/architecture.md)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import REPO

LIMIT = 800
"""The most lines a module under ``koikoi/`` may have."""


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def sizes(root: Path = REPO) -> dict[str, int]:
    """Lines of each module under ``root/koikoi``, by its path from ``root``."""
    return {
        path.relative_to(root).as_posix(): line_count(path)
        for path in sorted((root / "koikoi").rglob("*.py"))
    }


def over_limit(counted: dict[str, int]) -> dict[str, int]:
    return {name: lines for name, lines in counted.items() if lines > LIMIT}


def test_line_count_counts_the_lines_of_a_file(tmp_path: Path) -> None:
    (tmp_path / "koikoi" / "sub").mkdir(parents=True)
    (tmp_path / "koikoi" / "sub" / "long.py").write_text("x = 1\n" * (LIMIT + 1))
    (tmp_path / "koikoi" / "short.py").write_text("x = 1\n" * LIMIT)
    (tmp_path / "koikoi" / "notes.txt").write_text("x\n" * (LIMIT + 5))
    counted = sizes(tmp_path)
    assert counted == {"koikoi/short.py": LIMIT, "koikoi/sub/long.py": LIMIT + 1}
    assert over_limit(counted) == {"koikoi/sub/long.py": LIMIT + 1}


def test_no_module_is_over_the_limit() -> None:
    counted = sizes()
    assert len(counted) > 100, counted  # the package was found
    over = over_limit(counted)
    assert not over, f"modules over {LIMIT} lines (split them along a seam): " + ", ".join(
        f"{name} ({lines})" for name, lines in sorted(over.items(), key=lambda kv: -kv[1])
    )
