"""The shape of ``webgame/``, read from its source (nothing is imported): the import graph, its cycles, module
and class sizes. ``test_structure.py`` holds the rules; this module only measures.

The import graph has an edge ``a -> b`` for every import of ``b`` anywhere in ``a``: at the top, inside a
function, under ``if TYPE_CHECKING:`` (a cycle of type hints is still a circle a reader must walk).
``from p import m`` names the module ``p.m`` when there is one, else ``p``; a relative import is resolved
against its package.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def module_name(path: Path, root: Path = ROOT) -> str:
    """``webgame/pages/room.py`` -> ``webgame.pages.room``; a package's ``__init__.py`` -> the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(package: str = "webgame", root: Path = ROOT) -> dict[str, Path]:
    """Every module of ``package`` (its folder under ``root``), by dotted name."""
    return {module_name(path, root): path for path in sorted((root / package.replace(".", "/")).rglob("*.py"))}


def _imported(node: ast.AST, name: str, is_package: bool, known: Iterable[str]) -> set[str]:
    """The modules one import statement names (absolute, dotted)."""
    known = set(known)
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    if not isinstance(node, ast.ImportFrom):
        return set()
    base = node.module or ""
    if node.level:
        package = name.split(".") if is_package else name.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, *([base] if base else [])])
    names = set()
    for alias in node.names:
        child = f"{base}.{alias.name}"
        names.add(child if child in known else base)
    return names


def import_graph(package: str = "webgame", root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> every module it imports (inside the package or not), from the source's AST."""
    found = modules(package, root)
    graph: dict[str, set[str]] = {}
    for name, path in found.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        is_package = path.name == "__init__.py"
        graph[name] = set().union(*(_imported(node, name, is_package, found) for node in ast.walk(tree)))
    return graph


def within(graph: dict[str, set[str]], keep: Iterable[str]) -> dict[str, set[str]]:
    """The graph restricted to the modules ``keep`` (edges to anything else dropped)."""
    kept = set(keep)
    return {name: {target for target in targets if target in kept} for name, targets in graph.items() if name in kept}


def is_under(module: str, prefix: str) -> bool:
    """``webgame.pages.room`` is under ``webgame.pages`` (and so is ``webgame.pages`` itself)."""
    return module == prefix or module.startswith(prefix + ".")


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle of imports per knot in the graph (a strongly connected part of two or more modules, or a module
    importing itself), as ``[a, b, ..., a]``; empty when imports run one way."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    knots: list[set[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in graph:
                continue
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            knot = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                knot.add(member)
                if member == node:
                    break
            if len(knot) > 1 or node in graph.get(node, ()):
                knots.append(knot)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(_circle(graph, knot) for knot in knots)


def _circle(graph: dict[str, set[str]], knot: set[str]) -> list[str]:
    """A shortest way from the knot's first module back to itself, through the knot."""
    start = min(knot)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(graph[node] & knot):
            if target == start:
                return [*paths[node], start]
            if target not in paths:
                paths[target] = [*paths[node], target]
                queue.append(target)
    raise AssertionError(f"no circle through {start}")  # a knot always has one


@dataclass(frozen=True)
class Size:
    """A module's or a class's length in lines, and where it is."""

    where: str  # webgame/room/rooms.py or webgame/room/rooms.py:Room
    lines: int


def module_sizes(package: str = "webgame", root: Path = ROOT) -> list[Size]:
    return [Size(str(path.relative_to(root)), len(path.read_text().splitlines()))
            for path in modules(package, root).values()]


def class_sizes(package: str = "webgame", root: Path = ROOT) -> list[Size]:
    """Every class (nested ones too), from its ``class`` line (or first decorator) to its last line."""
    sizes = []
    for path in modules(package, root).values():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                first = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
                assert node.end_lineno is not None
                sizes.append(Size(f"{path.relative_to(root)}:{node.name}", node.end_lineno - first + 1))
    return sizes


def missing_docstrings(package: str = "webgame", root: Path = ROOT) -> list[str]:
    """Modules (not empty ``__init__``) and top-level classes without a docstring saying what they are for."""
    missing = []
    for path in modules(package, root).values():
        tree = ast.parse(path.read_text())
        if tree.body and ast.get_docstring(tree) is None:
            missing.append(str(path.relative_to(root)))
        missing += [f"{path.relative_to(root)}:{node.name}" for node in tree.body
                    if isinstance(node, ast.ClassDef) and ast.get_docstring(node) is None]
    return missing


def packages(root: Path = ROOT) -> list[str]:
    """The packages of ``webgame/`` (a folder with an ``__init__.py``), by name: ``room``, ``store``, ..."""
    return sorted(path.parent.name for path in (root / "webgame").glob("*/__init__.py"))


def allowed_imports(root: Path = ROOT) -> dict[str, set[str]]:
    """Per package, what its ``__init__`` docstring's "May import:" paragraph names: ``webgame.X`` as ``X``,
    and ``engine``."""
    allowed = {}
    for name in packages(root):
        doc = ast.get_docstring(ast.parse((root / "webgame" / name / "__init__.py").read_text(encoding="utf-8"))) or ""
        rule = doc.partition("May import:")[2].split("\n\n")[0]
        named = set(re.findall(r"``webgame\.(\w+)``", rule))
        allowed[name] = named | ({"engine"} if "``engine``" in rule else set())
    return allowed


def package_sizes(root: Path = ROOT) -> dict[str, int]:
    """Lines of source per package (its migrations apart)."""
    return {name: sum(len(path.read_text(encoding="utf-8").splitlines())
                      for path in (root / "webgame" / name).rglob("*.py") if "migrations" not in path.parts)
            for name in packages(root)}
