"""No import cycles among the ``koikoi`` modules (issue 21), read from their source with
``ast``: nothing is imported.

An import counts wherever it runs: at module level and inside a function alike (the app →
viewer → history → app cycle was made of function-level imports, and a cycle all the same).
Imports under ``if TYPE_CHECKING:`` never run and do not count, except for the one pair held
apart by its own test below and the type-only cycles, which are back-references to an owner
and pinned, each of them, below."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import REPO


def module_name(path: Path, root: Path) -> str:
    """``koikoi/ui/table/table.py`` → ``koikoi.ui.table.table``; a package by its folder."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(node: ast.AST, type_checking: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements under ``node``, those under ``if TYPE_CHECKING:`` only when
    ``type_checking``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child
        elif isinstance(child, ast.If) and _is_type_checking(child.test) and not type_checking:
            for other in child.orelse:
                yield from _import_nodes(ast.Module(body=[other], type_ignores=[]), False)
        else:
            yield from _import_nodes(child, type_checking)


def imports(path: Path, name: str, modules: set[str], type_checking: bool = False) -> set[str]:
    """The modules of ``modules`` that the module ``name`` (its source at ``path``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in _import_nodes(tree, type_checking):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
            continue
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            source = ".".join([*base, node.module] if node.module else base)
        else:
            source = node.module or ""
        for alias in node.names:
            if f"{source}.{alias.name}" in modules:  # from a package import a module
                found.add(f"{source}.{alias.name}")
            elif source in modules:
                found.add(source)
    found.discard(name)
    return found


def import_graph(root: Path, type_checking: bool = False) -> dict[str, set[str]]:
    """Each module under ``root/koikoi`` → the ``koikoi`` modules it imports."""
    paths = {module_name(path, root): path for path in sorted((root / "koikoi").rglob("*.py"))}
    modules = set(paths)
    return {name: imports(path, name, modules, type_checking) for name, path in paths.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (its first module repeated at the end), or None."""
    done: set[str] = set()
    for start in sorted(graph):
        trail: list[str] = []
        todo: list[Iterator[str]] = []
        following: str | None = start
        while True:
            if following is not None and following in trail:
                return [*trail[trail.index(following) :], following]
            if following is not None and following not in done:
                trail.append(following)
                todo.append(iter(sorted(graph.get(following, ()))))
            if not todo:
                break
            following = next(todo[-1], None)
            if following is None:
                done.add(trail.pop())
                todo.pop()
                if not todo:
                    break
    return None


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_cycle_through_a_function_and_a_package_is_found(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "koikoi/__init__.py": "",
            "koikoi/a.py": "from koikoi.sub import b\n",
            "koikoi/sub/__init__.py": "",
            "koikoi/sub/b.py": "def f():\n    from . import c\n",
            "koikoi/sub/c.py": "import koikoi.a\n",
        },
    )
    graph = import_graph(tmp_path)
    assert graph["koikoi.a"] == {"koikoi.sub.b"}
    assert graph["koikoi.sub.b"] == {"koikoi.sub.c"}
    assert find_cycle(graph) == ["koikoi.a", "koikoi.sub.b", "koikoi.sub.c", "koikoi.a"]


def test_type_checking_imports_do_not_count(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "koikoi/__init__.py": "",
            "koikoi/a.py": "import koikoi.b\n",
            "koikoi/b.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from koikoi.a import A\nelse:\n    import koikoi.c\n"
            ),
            "koikoi/c.py": "",
        },
    )
    assert import_graph(tmp_path)["koikoi.b"] == {"koikoi.c"}
    assert find_cycle(import_graph(tmp_path)) is None
    assert find_cycle(import_graph(tmp_path, type_checking=True)) == [
        "koikoi.a",
        "koikoi.b",
        "koikoi.a",
    ]


def test_no_koikoi_module_imports_itself_back() -> None:
    graph = import_graph(REPO)
    assert len(graph) > 120 and graph["koikoi.ui.app"]
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_card_widgets_do_not_import_the_table_they_lie_on() -> None:
    """Not even for their types: a card asks its table through ``CardTable``."""
    graph = import_graph(REPO, type_checking=True)
    assert "koikoi.ui.table.card_widget" in graph["koikoi.ui.table.table"]
    seen: set[str] = set()
    todo = ["koikoi.ui.table.card_widget"]
    while todo:
        for following in graph[todo.pop()] - seen:
            assert following != "koikoi.ui.table.table"
            if following.startswith("koikoi.ui."):
                seen.add(following)
                todo.append(following)


def test_the_product_never_imports_the_developers_tools() -> None:
    """``koikoi.devtools`` stays out of the packaged app (``packaging/koikoi.spec``): a
    product module that imported it would break there."""
    graph = import_graph(REPO, type_checking=True)
    assert "koikoi.ui.smoke" in graph["koikoi.devtools.lanbench"]
    for name, imported in graph.items():
        if not name.startswith("koikoi.devtools"):
            assert not {m for m in imported if m.startswith("koikoi.devtools")}, name


def type_only_cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The modules of ``graph`` that import each other round, each such group once (the
    strongly connected components of more than one module)."""
    reach: dict[str, set[str]] = {}
    for start in graph:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for following in graph.get(todo.pop(), set()) - seen:
                seen.add(following)
                todo.append(following)
        reach[start] = seen
    return {
        frozenset(m for m in reach[name] if name in reach[m]) | {name}
        for name in graph
        if name in reach[name]
    }


def test_type_only_cycles_are_found_whole(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "koikoi/__init__.py": "",
            "koikoi/a.py": "import koikoi.b\nimport koikoi.d\n",
            "koikoi/b.py": "if TYPE_CHECKING:\n    import koikoi.c\n",
            "koikoi/c.py": "if TYPE_CHECKING:\n    from koikoi.a import A\n",
            "koikoi/d.py": "import koikoi.c\n",
        },
    )
    assert type_only_cycles(import_graph(tmp_path)) == set()
    assert type_only_cycles(import_graph(tmp_path, type_checking=True)) == {
        frozenset({"koikoi.a", "koikoi.b", "koikoi.c", "koikoi.d"})
    }


def test_the_only_type_only_cycles_are_back_references_to_an_owner() -> None:
    """A module may name its owner's type, under ``if TYPE_CHECKING:``, for the owner it is
    handed: the controller's opponents and its presenter (``matchview.Presenter`` is called
    with the controller that owns it), and the session's parts, functions of the
    :class:`Session` that calls them. Any other cycle, even of types, is a type in the
    wrong module (the score column named the game screen it never used)."""
    assert type_only_cycles(import_graph(REPO, type_checking=True)) == {
        frozenset(
            {"koikoi.ui.match.controller", "koikoi.ui.match.matchview", "koikoi.ui.match.opponents"}
        ),
        frozenset(
            f"koikoi.net.session.{part}"
            for part in ("core", "farewell", "private_dealing", "record", "stamps", "toss", "turns")
        ),
    }
