"""The engine and the typed contracts between the engine and the pages are checked by ``mypy --strict``.

The project's mypy configuration (``pyproject.toml``, run by ``scripts/test`` and CI as ``mypy engine webgame``)
must give each of these modules every check ``--strict`` turns on, as mypy itself defines it today: a relaxation
(a per-module ``disallow_untyped_defs = false``, say) or a ``strict`` that no longer reaches them fails here.
"""

from __future__ import annotations

from pathlib import Path

from mypy.main import process_options
from mypy.options import PER_MODULE_OPTIONS, Options

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS = ("engine.view_types", "webgame.room.projection", "webgame.pages.screen_keys")


def _options(*args: str) -> Options:
    _, options = process_options([*args, "engine"])
    options.build_per_module_cache()
    return options


def strict_checks() -> dict[str, object]:
    """The per-module checks ``--strict`` turns on, with their strict values (mypy's own list)."""
    strict, plain = _options("--config-file", "", "--strict"), _options("--config-file", "")
    return {flag: getattr(strict, flag) for flag in sorted(PER_MODULE_OPTIONS)
            if getattr(strict, flag) != getattr(plain, flag)}


def engine_modules() -> list[str]:
    return ["engine", *(f"engine.{path.stem}" for path in sorted((ROOT / "engine").glob("*.py"))
                        if path.stem != "__init__")]


def not_strict(config: Path, modules: list[str]) -> dict[str, list[str]]:
    """Module -> the strict checks this configuration does not give it."""
    options, checks = _options("--config-file", str(config)), strict_checks()
    missing: dict[str, list[str]] = {}
    for module in modules:
        got = options.clone_for_module(module)
        lacking = [flag for flag, value in checks.items() if getattr(got, flag) != value]
        if lacking:
            missing[module] = lacking
    return missing


def test_strict_turns_something_on() -> None:
    assert {"disallow_untyped_defs", "disallow_any_generics", "warn_return_any"} <= set(strict_checks())


def test_the_engine_and_the_contract_modules_are_checked_strictly() -> None:
    modules = [*engine_modules(), *CONTRACTS]
    assert all((ROOT / (module.replace(".", "/") + ".py")).exists() for module in CONTRACTS)
    assert not_strict(ROOT / "pyproject.toml", modules) == {}


def test_a_relaxed_module_is_caught(tmp_path: Path) -> None:
    """The check above can fail: the project's configuration with one contract module relaxed."""
    relaxed = tmp_path / "pyproject.toml"
    relaxed.write_text((ROOT / "pyproject.toml").read_text(encoding="utf-8") + (
        '\n[[tool.mypy.overrides]]\nmodule = ["webgame.room.projection"]\ndisallow_untyped_defs = false\n'),
        encoding="utf-8")
    assert not_strict(relaxed, [*CONTRACTS]) == {"webgame.room.projection": ["disallow_untyped_defs"]}
