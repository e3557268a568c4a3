"""The load generator still runs (bench/load.py): one room of phones and server bots plays for a few seconds
against a real server. No timing is asserted; benchmarks are run by hand (docs/PERFORMANCE.md)."""

from __future__ import annotations

from pathlib import Path

from bench import hook as bench_hook
from bench.load import run_one
from tests.conftest import Environment


def test_a_room_of_phones_and_server_bots_plays(tmp_path: Path) -> None:
    """One room of three phones and two of the server's bots plays for a few seconds: the bench taps for the
    phones only (every tap measured on every affected screen) and waits for the bots."""
    result = run_one("game", rooms=1, players=3, duration=10.0, think=0.1, workers=1, storm=False, data=tmp_path,
                     log=lambda _text: None, bots=2)
    assert result["setup_failed_rooms"] == 0, result["setup_failures"]
    assert result["actions"] > 0 and result["p50_ms"] is not None and result["bot_actions"] > 0, result
    assert result["errors"] == 0 and result["missed"] == 0, result["error_text"]


def test_the_bench_hook_exists_only_with_mafia_bench(environment: Environment) -> None:
    class App:
        routes: list[str] = []

        def add_api_route(self, path: str, *_args: object, **_kwargs: object) -> None:
            self.routes.append(path)

    environment.unset(bench_hook.ENV_FLAG)
    app = App()
    bench_hook.register(app)
    assert app.routes == []
    environment.set(bench_hook.ENV_FLAG, "1")
    bench_hook.register(app)
    assert app.routes == [bench_hook.PATH, bench_hook.MEMORY_PATH, bench_hook.CLIENT_PATH,
                          bench_hook.STEPS_PATH]
