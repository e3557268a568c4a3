"""The persistence tests of ``tests/web/test_store.py`` again, on PostgreSQL (the cluster's database).

The tests that look at the SQLite file itself (its tables, its bytes, its one-trip log writer) stay there."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.web import test_store as on_sqlite
from webgame.store import sqlite_log
from webgame.store.db import open_database, tortoise_config

SHARED = [
    "test_create_room_then_find_it_by_code",
    "test_room_codes_are_unique",
    "test_seats_keep_only_the_token_hash",
    "test_start_game_numbers_games_and_marks_the_room_playing",
    "test_actions_load_in_the_order_they_were_appended",
    "test_a_duplicate_or_skipped_index_is_refused_and_writes_nothing",
    "test_a_row_written_behind_the_logs_back_is_a_conflict",
    "test_concurrent_appends_at_one_index_let_exactly_one_through",
    "test_deadline_and_finish",
    "test_chat_lists_the_latest_messages_oldest_first",
]
for _name in SHARED:
    globals()[_name] = getattr(on_sqlite, _name)


@pytest.fixture
async def db(pg_url: str) -> AsyncIterator[str]:
    async with open_database(tortoise_config(pg_url)):
        assert sqlite_log.client() is None  # PostgreSQL: the ORM's transaction writes the log
        yield pg_url


@pytest.fixture
def log_writer() -> str:
    return "orm"


def test_every_shared_test_exists() -> None:
    """A renamed test in tests/web/test_store.py must be renamed here too, not silently dropped."""
    assert all(callable(getattr(on_sqlite, name, None)) for name in SHARED)
