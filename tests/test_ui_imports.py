"""Import cycles in ``koikoi/ui`` that were taken apart stay apart (issue 21): a module's
imports, those for type checking included, read from its source."""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parent.parent / "koikoi" / "ui"


def ui_imports(module: str) -> set[str]:
    """The ``koikoi.ui`` modules ``module`` imports anywhere in its source."""
    found: set[str] = set()
    for node in ast.walk(ast.parse((UI / f"{module}.py").read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "koikoi.ui":
                found.update(alias.name for alias in node.names)
            elif node.module.startswith("koikoi.ui."):
                found.add(node.module.removeprefix("koikoi.ui.").split(".")[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("koikoi.ui."):
                    found.add(alias.name.removeprefix("koikoi.ui.").split(".")[0])
    return found


def reaches(start: str, target: str) -> bool:
    """Whether ``start``'s imports lead to ``target`` (through other ui modules)."""
    seen, todo = set(), [start]
    while todo:
        module = todo.pop()
        for name in ui_imports(module):
            if name == target:
                return True
            if name not in seen and (UI / f"{name}.py").exists():
                seen.add(name)
                todo.append(name)
    return False


def test_the_card_widgets_do_not_import_the_table_they_lie_on() -> None:
    assert "card_widget" in ui_imports("table")
    assert not reaches("card_widget", "table")
