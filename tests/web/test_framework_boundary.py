"""Only ``webgame/framework/`` touches the private parts of NiceGUI and the libraries under it (issue 29, point 2).

The rule, read from the source with ``ast`` (``violations``). Outside ``webgame/framework/``, no module of ``webgame/``
(nor the tests' conftest files):

- imports a private name or module of those libraries (``from nicegui.nicegui import _on_handshake``,
  ``from nicegui import _x``, ``import engineio._private``);
- reads or writes ``x._name`` (or ``getattr``/``setattr``/``hasattr`` with such a name) where ``_name`` is one of the
  private names those libraries define (a def, a class, an assigned attribute or name starting with one ``_``,
  collected from their installed source), and ``x`` is not ``self`` or ``cls`` of a class of our own;
- in a class that derives from one of their classes, defines, reads or writes one of those private names through
  ``self``/``cls`` (an override of a private method is a copy of their code by another name);
- patches them: assigns an attribute of a module or class imported from them, or ``setattr``s one.

A name of our own that happens to start with ``_`` (a Tortoise model's ``_meta``, our own objects' helpers) is not
theirs and is left alone. ``webgame/framework/`` is where such a change goes, with its reason
(``webgame/framework/__init__.py``, docs/FRAMEWORK.md).
"""

from __future__ import annotations

import ast
import functools
import importlib.util
from pathlib import Path

from .structure import ROOT

LIBRARIES = ("nicegui", "socketio", "engineio", "starlette", "uvicorn", "aiosqlite")
HELD = [*sorted(path for path in (ROOT / "webgame").rglob("*.py") if "framework" not in path.parts),
        ROOT / "conftest.py", *sorted(ROOT.joinpath("tests").rglob("conftest.py"))]


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@functools.cache
def library_privates() -> frozenset[str]:
    """Every private name the libraries define: defs, classes, assigned attributes and names."""
    names: set[str] = set()
    for library in LIBRARIES:
        spec = importlib.util.find_spec(library)
        assert spec is not None and spec.submodule_search_locations, library
        for path in Path(next(iter(spec.submodule_search_locations))).rglob("*.py"):
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"))
            except (SyntaxError, UnicodeDecodeError):
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(node.name)
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                    names.add(node.attr)
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    names.add(node.id)
    return frozenset(name for name in names if _private(name))


def _from_library(module: str | None) -> bool:
    return module is not None and module.split(".")[0] in LIBRARIES


def _root_name(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def library_subclasses(paths: list[Path]) -> frozenset[str]:
    """The names of our classes that derive from one of the libraries' classes, directly or through another of ours
    (by name, across ``paths``: e.g. ``webgame.framework.model_element.ModelElement`` and the ``Screen`` on it)."""
    classes: dict[str, tuple[set[str], bool]] = {}  # name -> (base names, derives from an imported library name)
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = _library_names(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(base).split(".")[-1] for base in node.bases}
                classes[node.name] = (bases, any(_root_name(base) in imported for base in node.bases))
    found = {name for name, (_, direct) in classes.items() if direct}
    while True:
        more = {name for name, (bases, _) in classes.items() if bases & found} - found
        if not more:
            return frozenset(found)
        found |= more


def _library_names(tree: ast.Module) -> set[str]:
    """The local names a module binds to the libraries' modules, classes and functions."""
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _from_library(alias.name):
                    imported.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ImportFrom) and _from_library(node.module):
            imported.update(alias.asname or alias.name for alias in node.names)
    return imported


def violations(source: str, where: str = "<source>", subclasses: frozenset[str] = frozenset()) -> list[str]:
    """Every place of ``source`` that breaks the rule (see the module's docstring), as ``where:line: what``, in the
    order of the source. ``subclasses``: our classes known to derive from the libraries' (``library_subclasses``)."""
    tree = ast.parse(source)
    privates = library_privates()
    imported = _library_names(tree)
    found: list[tuple[int, int, str]] = []

    def flag(node: ast.AST, what: str) -> None:
        found.append((getattr(node, "lineno", 0), getattr(node, "col_offset", 0), what))

    library_classes: list[ast.ClassDef] = [
        node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
        and any(_root_name(base) in imported or ast.unparse(base).split(".")[-1] in subclasses
                for base in node.bases)]
    inside_library_class = {id(child) for cls in library_classes for child in ast.walk(cls)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _from_library(alias.name) and any(_private(part) for part in alias.name.split(".")):
                    flag(node, f"imports {alias.name}")
        elif isinstance(node, ast.ImportFrom) and _from_library(node.module):
            assert node.module is not None
            for alias in node.names:
                if _private(alias.name) or any(_private(part) for part in node.module.split(".")):
                    flag(node, f"imports {alias.name} from {node.module}")
        elif isinstance(node, ast.Attribute):
            owner = node.value.id if isinstance(node.value, ast.Name) else None
            if node.attr in privates and (owner not in ("self", "cls") or id(node) in inside_library_class):
                flag(node, f"touches {ast.unparse(node)}")
            elif isinstance(node.ctx, ast.Store | ast.Del) and _root_name(node.value) in imported:
                flag(node, f"patches {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) >= 2:
            name = node.args[1].value if isinstance(node.args[1], ast.Constant) else None
            if isinstance(name, str) and name in privates:
                flag(node, f"{node.func.id} of {name}")
            elif node.func.id in ("setattr", "delattr") and _root_name(node.args[0]) in imported:
                flag(node, f"patches {ast.unparse(node.args[0])} with {node.func.id}")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in privates \
                and id(node) in inside_library_class:
            flag(node, f"overrides {node.name}")
    return [f"{where}:{line}: {what}" for line, _, what in sorted(found)]


def test_only_the_framework_touches_the_libraries_private_parts() -> None:
    subclasses = library_subclasses([*HELD, *sorted((ROOT / "webgame" / "framework").glob("*.py"))])
    assert {"ModelElement", "Screen", "LineElement"} <= subclasses  # ours on theirs, through ours too
    found = [line for path in HELD
             for line in violations(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)), subclasses)]
    assert found == []
    assert len(HELD) > 100 and ROOT / "tests" / "web" / "conftest.py" in HELD  # the walk did read the tree


def test_the_rule_catches_each_way_in() -> None:
    """Each kind of reach into the libraries is caught on a made-up source, and what is ours is not."""
    assert "_socket_to_document_id" in library_privates() and "_meta" not in library_privates()
    made_up = '''
from nicegui import Client, app, ui
from nicegui.nicegui import _on_handshake
import nicegui.client
from engineio import async_socket

def sockets(client: Client) -> list[str]:
    return list(client._socket_to_document_id)

def request(client: Client) -> object:
    return getattr(client, "_request", None)

app._mafia_routing = True
nicegui.client.json = None
setattr(async_socket.AsyncSocket, "receive", None)

class Part(ui.element):
    def _displayed_contents(self) -> list[str]:
        return list(self._props)

class Line(Part):
    def __init__(self) -> None:
        self._event_listeners.clear()

class Ours:
    def __init__(self) -> None:
        self._request = None

    def mine(self, other: "Ours") -> object:
        return self._request, Game._meta, other._helper
'''
    found = [line.split(": ", 1)[1] for line in violations(made_up, subclasses=frozenset({"Part"}))]
    assert found == [
        "imports _on_handshake from nicegui.nicegui",
        "touches client._socket_to_document_id",
        "getattr of _request",
        "patches app._mafia_routing",
        "patches nicegui.client.json",
        "patches async_socket.AsyncSocket with setattr",
        "overrides _displayed_contents",
        "touches self._props",
        "touches self._event_listeners",
    ], found
