"""No import circles among the project's modules (issue 29): no module of ``bot/``, ``rules/`` or
``storage/`` imports itself back through a chain of imports — at the top of a file or inside a
function (a late import is still a circle: it only hides it). An import under
``if TYPE_CHECKING:`` is for annotations only (never run) and is not counted. ``from . import x``
imports the package first, so it counts as an import of the package too.

Also a script: ``python tests/test_imports.py [ROOT]`` prints the circles and exits 1 if any."""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGES = ("bot", "rules", "storage")
ROOT = Path(__file__).resolve().parent.parent


def modules(root: Path) -> dict[str, Path]:
    """The project's modules by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).glob("**/*.py")):
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of ``tree``, wherever it stands, but under ``if TYPE_CHECKING:``
    (its ``else:`` runs, so it counts)."""
    found: list[ast.Import | ast.ImportFrom] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        if _type_checking(node):
            todo.extend(node.orelse)  # type: ignore[attr-defined]
        else:
            todo.extend(ast.iter_child_nodes(node))
    return found


def graph(root: Path) -> dict[str, dict[str, int]]:
    """``module -> {module it imports: the line}``, between the project's modules only."""
    mods = modules(root)
    edges: dict[str, dict[str, int]] = defaultdict(dict)
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
                targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
            for target in targets:
                while target and target not in mods:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges[name].setdefault(target, node.lineno)
    return edges


def circles(root: Path) -> list[list[str]]:
    """The import circles (strongly connected components of two modules or more), each sorted."""
    edges = graph(root)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's algorithm
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in edges.get(module, {}):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for module in modules(root):
        if module not in index:
            visit(module)
    return sorted(found)


def described(root: Path, circle: list[str]) -> str:
    """A circle and the imports that close it (``module:line -> module``)."""
    edges = graph(root)
    links = [f"{a}:{line} -> {b}" for a in circle for b, line in sorted(edges.get(a, {}).items())
             if b in circle]
    return " ↔ ".join(circle) + "\n    " + "\n    ".join(links)


def test_no_module_imports_itself_back() -> None:
    found = circles(ROOT)
    assert not found, "import circles:\n" + "\n".join(described(ROOT, c) for c in found)


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("files", "expected"), [
    ({"storage/__init__.py": "", "storage/a.py": "from .b import x\n",
      "storage/b.py": "def f():\n    from .a import y\n"},
     [["storage.a", "storage.b"]]),  # a late import closes a circle too
    ({"storage/__init__.py": "from .a import x\n", "storage/a.py": "from . import b\n",
      "storage/b.py": ""},
     [["storage", "storage.a"]]),  # `from . import b` imports the package first
    ({"bot/__init__.py": "", "bot/a.py": "from .b import x\n",
      "bot/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n"},
     []),  # for annotations only
    ({"bot/__init__.py": "", "bot/a.py": "from .b import x\n",
      "bot/b.py": "if TYPE_CHECKING:\n    pass\nelse:\n    from .a import A\n"},
     [["bot.a", "bot.b"]]),  # the else branch runs
    ({"rules/__init__.py": "from .a import x\n", "rules/a.py": "import rules.b as b\n",
      "rules/b.py": ""},
     []),
])
def test_the_walker_finds_what_closes_a_circle(tmp_path: Path, files: dict[str, str],
                                                expected: list[list[str]]) -> None:
    """What the check above counts, on small trees of its own."""
    assert circles(_tree(tmp_path, files)) == expected


PLATFORMS = ("bot/telegram", "bot/discord")


def store_reaches(root: Path) -> list[str]:
    """Where a platform's code reaches past the service into the store: an attribute ``store``
    of something named ``service`` (``self.service.store``, ``referee.service.store.alias``)."""
    found = []
    for platform in PLATFORMS:
        for path in sorted((root / platform).glob("**/*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr == "store" and (
                        isinstance(node.value, ast.Attribute) and node.value.attr == "service"
                        or isinstance(node.value, ast.Name) and node.value.id == "service"):
                    found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_no_platform_reaches_into_the_store() -> None:
    """Telegram and Discord reach the store only through :class:`bot.service.Service` (issue
    29): what they need of it is a service method."""
    assert store_reaches(ROOT) == []


def test_the_reach_walker_finds_a_reach(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"bot/telegram/a.py": "x = self.service.store.alias(c)\n",
                            "bot/discord/b.py": "y = service.store\nz = self.service.home(c)\n"})
    assert store_reaches(root) == ["bot/telegram/a.py:1", "bot/discord/b.py:1"]


if __name__ == "__main__":
    where = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT
    for circle in circles(where):
        print(described(where, circle))
    sys.exit(1 if circles(where) else 0)
