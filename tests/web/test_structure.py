"""The web layer's house (issue 12): imports run one way, no module or class too long to find one's way in, the
bench's hook out of the product, the room's way out (``webgame.room.projection``) free of the rules' state.

Read from the source (``tests/web/structure.py``), so a rule broken anywhere fails here, whatever the tests run.
``EXEMPT`` lists what is not held to the rules yet: shrink it as parts move in line, never grow it.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

from . import structure
from .structure import ROOT, cycles, import_graph, is_under, within

EXEMPT: tuple[str, ...] = ()  # nothing: the pages are held to the rules too
EXEMPT_MODULES = tuple(path.rstrip("/").replace("/", ".") for path in EXEMPT)
ENTRY_POINTS = {"webgame.app", "webgame.__main__"}  # they wire the pages into the app: above the pages
# Not asked for a docstring: generated migrations, and the ORM's models (Tortoise makes a model's docstring its
# table's comment, so one would be a schema change).
NO_DOCSTRING = ("webgame/store/migrations/", "webgame/store/models.py:")
# What each package may grow to, in lines of source (its migrations apart): the sizes of issue 29's re-housing and
# a fifth more. A package that needs more is a package that holds two concerns: split it, or raise its budget
# here with the reason in the commit.
BUDGETS = {"room": 2700, "store": 1750, "evening": 450, "cluster": 450, "guard": 900, "framework": 2850,
           "browser": 1200, "language": 240, "pages": 6400}
TOP_MODULES = {"webgame", "webgame.__main__", "webgame.app", "webgame.errors",  # the entry, the shared refusal
               "webgame.settings"}  # and the environment, read once


def held(where: str) -> bool:
    """Whether ``where`` (a path, ``path:Class`` or a dotted module) is held to the rules (not exempt)."""
    return not where.startswith(EXEMPT) and not any(is_under(where, module) for module in EXEMPT_MODULES)


def package_of(module: str) -> str:
    """``webgame.room.rooms`` -> ``room``; a module outside the packages (``webgame.app``) -> itself."""
    parts = module.split(".")
    return parts[1] if parts[0] == "webgame" and len(parts) > 2 or module in structure.packages() else module


def test_imports_outside_the_pages_run_one_way() -> None:
    graph = import_graph()
    assert cycles(within(graph, [name for name in graph if held(name)])) == []


def test_nothing_below_the_pages_imports_them() -> None:
    graph = import_graph()
    upward = {name: sorted(target for target in targets if is_under(target, "webgame.pages"))
              for name, targets in graph.items()
              if not is_under(name, "webgame.pages") and name not in ENTRY_POINTS}
    assert {name: targets for name, targets in upward.items() if targets} == {}


def test_every_module_lives_in_a_package_that_says_what_it_holds() -> None:
    """``webgame/`` is packages by concern; each ``__init__`` says what it holds and what it may import."""
    graph = import_graph()
    loose = sorted(name for name in graph if is_under(name, "webgame") and package_of(name) == name
                   and name not in TOP_MODULES and name.removeprefix("webgame.") not in structure.packages())
    assert loose == []
    allowed = structure.allowed_imports()
    assert set(allowed) == set(structure.packages())
    assert allowed["room"] >= {"store", "language", "errors", "engine"}  # the docstrings were read


def test_packages_import_only_what_their_docstring_allows() -> None:
    allowed = structure.allowed_imports()
    wrong = sorted({(package_of(name), floor(target)) for name, targets in import_graph().items()
                    if package_of(name) in allowed for target in targets
                    if floor(target) not in ("", package_of(name)) and floor(target) not in allowed[package_of(name)]})
    assert wrong == []


def floor(module: str) -> str:
    """What a package's docstring names for ``module``: ``engine``, a package or ``errors``; "" for a library."""
    if is_under(module, "engine"):
        return "engine"
    return package_of(module).removeprefix("webgame.") if is_under(module, "webgame") else ""


def test_the_packages_stack_in_floors() -> None:
    """The rules the docstrings declare have no cycle: every package sits on a floor above what it imports."""
    allowed = structure.allowed_imports()
    graph = {name: {target for target in targets if target in allowed} for name, targets in allowed.items()}
    assert cycles(graph) == []


def test_every_package_keeps_to_its_size_budget() -> None:
    sizes = structure.package_sizes()
    assert set(sizes) == set(BUDGETS)
    assert {name: lines for name, lines in sizes.items() if lines > BUDGETS[name]} == {}
    assert sizes["room"] > 1000  # the walk did read the room's modules


def test_every_module_and_class_says_what_it_is_for() -> None:
    missing = structure.missing_docstrings()
    assert "webgame/store/models.py:Room" in missing  # the walk sees classes (and leaves the ORM's alone, below)
    assert [where for where in missing if held(where) and not where.startswith(NO_DOCSTRING)] == []


def test_the_projection_a_page_names_does_not_bring_the_rules_state() -> None:
    """``webgame.room.projection`` (and what it imports in ``webgame/``) imports no engine module but the view's
    types (``engine.view_types``), which import nothing."""
    graph = import_graph()
    reached, todo = set(), ["webgame.room.projection"]
    while todo:
        name = todo.pop()
        if name in reached or name not in graph:
            continue
        reached.add(name)
        todo += graph[name]
    assert "webgame.room.chat" in reached
    engine = {name: sorted(target for target in graph[name] if is_under(target, "engine")) for name in reached}
    assert {name: targets for name, targets in engine.items() if targets} == {
        "webgame.room.projection": ["engine.view_types"]}
    assert import_graph("engine")["engine.view_types"] <= {"__future__", "typing"}


def test_the_product_never_imports_the_bench_hook() -> None:
    graph = import_graph()
    assert {name: sorted(targets) for name, targets in graph.items()
            if any(is_under(target, "bench") for target in targets)} == {}
    assert not (ROOT / "webgame" / "bench_hook.py").exists()
    # The app as ``python -m webgame`` sets it up, even with the bench's flag on: no bench module, no bench route.
    code = ("import json, sys; from nicegui import app; import webgame.app; webgame.app.setup(); "
            "print(json.dumps({'bench': sorted(m for m in sys.modules if m.split('.')[0] == 'bench'), "
            "'routes': [r.path for r in app.routes if '_bench' in getattr(r, 'path', '')]}))")
    env = {**os.environ, "MAFIA_BENCH": "1", "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120, check=True)
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {"bench": [], "routes": []}


# The layers of the pages, from the top: a module imports only modules of its own layer or below (and never one
# that imports it back, above). Below the parts: the room's public interface and the rest of ``webgame``.
LAYERS: list[set[str]] = [
    {"webgame.pages.room", "webgame.pages.home", "webgame.pages.results_screen", "webgame.pages.protocol",
     "webgame.pages.tv_route"},  # pages (and the TV page's route)
    {"webgame.pages.tv_parts", "webgame.pages.tv_table"},  # the TV's screens
    {"webgame.pages.lobby", "webgame.pages.game_view", "webgame.pages.night", "webgame.pages.day",
     "webgame.pages.outcome", "webgame.pages.record_part", "webgame.pages.chat_part",
     "webgame.pages.lobby_summary", "webgame.pages.lobby_settings", "webgame.pages.moderator",
     "webgame.pages.standings", "webgame.pages.best_move_part"},  # the screens
    {"webgame.pages.screen", "webgame.pages.wording", "webgame.pages.components", "webgame.pages.evenness",
     "webgame.pages.news", "webgame.pages.page_protocols", "webgame.pages.screen_model",
     "webgame.pages.narrator_controls", "webgame.pages.narration", "webgame.pages.moving",
     "webgame.pages.reach_note", "webgame.pages.shared_parts", "webgame.pages.screen_keys"},  # the parts, wording
]
FORBIDDEN_IN_PAGES = ("engine.state", "engine.knowledge", "engine.game", "engine.view")


def test_every_page_module_has_its_layer() -> None:
    pages = {name for name in import_graph() if is_under(name, "webgame.pages") and name != "webgame.pages"}
    assert pages == set().union(*LAYERS)


def test_the_pages_import_downwards_only() -> None:
    graph = import_graph()
    layer_of = {name: index for index, layer in enumerate(LAYERS) for name in layer}
    upward = [(name, target) for name, targets in graph.items() if name in layer_of
              for target in targets if target in layer_of and layer_of[target] < layer_of[name]]
    assert upward == []
    assert cycles(within(graph, list(graph))) == []


def test_pages_never_touch_the_game_state() -> None:
    """A page asks its room for its viewer's projection (``Room.projection``) and sends actions: no page module
    imports the rules' state, knowledge, game or view, and none reads a room's ``state``."""
    graph = import_graph()
    imports = {name: sorted(t for t in targets if any(is_under(t, f) for f in FORBIDDEN_IN_PAGES))
               for name, targets in graph.items() if is_under(name, "webgame.pages")}
    assert {name: found for name, found in imports.items() if found} == {}
    readers = []
    for path in sorted((ROOT / "webgame" / "pages").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "state":
                readers.append(f"{path.name}:{node.lineno}")
    assert readers == []


def test_the_page_rules_can_fail() -> None:
    """The checks above see what they look for: an upward import and a read of ``state`` in made-up source."""
    tree = ast.parse("def f(room):\n    return room.state\n")
    assert any(isinstance(n, ast.Attribute) and n.attr == "state" for n in ast.walk(tree))
    assert any(is_under(t, "engine.state") for t in ("engine.state",))


# ---------------------------------------------------------------- the measures themselves


def test_cycles_finds_every_knot_and_nothing_else() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}, "f": {"d", "outside"}}
    assert cycles(graph) == [["a", "b", "c", "a"], ["e", "e"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_graph_counts_type_checking_relative_and_late_imports(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.sub import b\n")
    (package / "sub" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import c\n")
    (package / "sub" / "c.py").write_text("def late():\n    from ..a import x\n    import os\n")
    graph = import_graph("pkg", tmp_path)
    assert graph["pkg.a"] == {"pkg.sub.b"}
    assert graph["pkg.sub.b"] == {"typing", "pkg.sub.c"}
    assert graph["pkg.sub.c"] == {"pkg.a", "os"}
    assert cycles(within(graph, graph)) == [["pkg.a", "pkg.sub.b", "pkg.sub.c", "pkg.a"]]


def test_a_package_docstring_is_read_as_its_import_rule(tmp_path: Path) -> None:
    (tmp_path / "webgame" / "room").mkdir(parents=True)
    (tmp_path / "webgame" / "store").mkdir()
    (tmp_path / "webgame" / "room" / "__init__.py").write_text(
        '"""The room.\n\nMay import: ``engine``, ``webgame.store``.\n\nNot ``webgame.pages``."""\n')
    (tmp_path / "webgame" / "store" / "__init__.py").write_text('"""The store.\n\nMay import: the libraries."""\n')
    (tmp_path / "webgame" / "store" / "queries.py").write_text("x = 1\ny = 2\n")
    assert structure.allowed_imports(tmp_path) == {"room": {"engine", "store"}, "store": set()}
    assert structure.package_sizes(tmp_path) == {"room": 5, "store": 5}
