"""The engine is pure: standard library only, no clock, no I/O beyond its two command-line tools."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).parent.parent.parent / "engine"
CLI_MODULES = {"replay.py", "simulate.py", "rules_doc.py"}  # they read files / print, by design
FORBIDDEN_CALLS = {"open", "print", "input"}
FORBIDDEN_MODULES = {"time", "datetime", "asyncio", "socket", "os", "subprocess", "threading", "sqlite3"}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_only_the_standard_library() -> None:
    for path in ENGINE.glob("*.py"):
        outside = {name for name in imports(path) if name != "engine" and name not in sys.stdlib_module_names}
        assert not outside, f"{path.name} imports {outside}"


def test_rules_modules_read_no_clock_and_do_no_io() -> None:
    for path in ENGINE.glob("*.py"):
        if path.name in CLI_MODULES:
            continue
        assert not imports(path) & FORBIDDEN_MODULES, path.name
        calls = {node.func.id for node in ast.walk(ast.parse(path.read_text()))
                 if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
        assert not calls & FORBIDDEN_CALLS, f"{path.name} calls {calls & FORBIDDEN_CALLS}"
