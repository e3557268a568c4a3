"""The server starts without importing ``aiohttp`` (engine.io's optional client would: a quarter of a second of
every start, which a restart's reconnect storm waits for), and ``aiohttp`` is still there for what asks for it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                          timeout=120).stdout.strip()


def test_the_server_starts_without_aiohttp_and_it_stays_importable() -> None:
    assert run("import sys, webgame.app; print('aiohttp' in sys.modules)") == "False"
    assert run("import webgame.app, aiohttp; print(aiohttp.ClientSession.__name__)") == "ClientSession"


def test_the_bench_server_imports_the_web_layer_first() -> None:
    assert run("import sys, bench.serve; print('aiohttp' in sys.modules)") == "False"
