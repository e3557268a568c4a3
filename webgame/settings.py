"""The server's settings: every environment variable the game reads, read in one place, once at start.

``load()`` reads the environment into a ``Settings`` and makes it the current one; ``app.setup()`` calls it first
thing (so the simulated-phone tests, which set the app up again for each test, read each test's environment);
everything else asks ``current()``, never ``os.environ``. The README's configuration table lists the same variables
(``tests/web/test_settings.py`` holds the two together).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_PORT = 8080
DEFAULT_HOST = "0.0.0.0"
DEFAULT_DATA_DIR = "./data"


@dataclass(frozen=True, slots=True)
class Settings:
    """What the environment said at start, one field per variable (``VARIABLES`` maps them), unset as None."""

    port: int = DEFAULT_PORT  # PORT: where the server listens
    host: str = DEFAULT_HOST  # HOST: the address it binds to
    database_url: str | None = None  # DATABASE_URL: None is the SQLite file in the data folder
    data_dir: Path = Path(DEFAULT_DATA_DIR)  # MAFIA_DATA_DIR: the SQLite file, the storage secret, browsers' storage
    storage_secret: str | None = None  # STORAGE_SECRET: None is one generated once into the data folder
    secure_cookies: bool | None = None  # SECURE_COOKIES: "1" True, "0" False, unset None (then DOMAIN decides)
    domain: str | None = None  # DOMAIN: the name served over HTTPS by compose's TLS front
    public_url: str | None = None  # PUBLIC_URL: as written (webgame.browser.public_address checks it at start)
    trust_proxy: bool = False  # TRUST_PROXY: "1" behind one's own reverse proxy
    process: str | None = None  # MAFIA_PROCESS: this process's name in a cluster (webgame.cluster.process checks it)
    browser_storage: Path | None = None  # NICEGUI_STORAGE_PATH: None is "browsers" in the data folder
    show_link: bool = False  # MAFIA_SHOW_LINK: "1" (bash scripts/play) prints the join link and its QR code
    bench: bool = False  # MAFIA_BENCH: "1" only in the bench's own server (bench.serve adds its routes then)

    @property
    def https(self) -> bool:
        """The game is served over HTTPS: ``SECURE_COOKIES=1``, or ``DOMAIN`` set unless ``SECURE_COOKIES=0``."""
        return self.secure_cookies if self.secure_cookies is not None else self.domain is not None


# The variable behind each field, as the README's table names them.
VARIABLES: dict[str, str] = {
    "PORT": "port", "HOST": "host", "DATABASE_URL": "database_url", "MAFIA_DATA_DIR": "data_dir",
    "STORAGE_SECRET": "storage_secret", "SECURE_COOKIES": "secure_cookies", "DOMAIN": "domain",
    "PUBLIC_URL": "public_url", "TRUST_PROXY": "trust_proxy", "MAFIA_PROCESS": "process",
    "NICEGUI_STORAGE_PATH": "browser_storage", "MAFIA_SHOW_LINK": "show_link", "MAFIA_BENCH": "bench",
}


def read(environment: Mapping[str, str]) -> Settings:
    """The settings ``environment`` gives; values are trimmed and an empty one counts as unset (compose passes
    ``${DOMAIN:-}``); a ``PORT`` that is not a number is refused (``ValueError``)."""

    def given(name: str) -> str | None:
        value = environment.get(name, "").strip()
        return value or None

    chosen_cookies = given("SECURE_COOKIES")
    browsers = given("NICEGUI_STORAGE_PATH")
    return Settings(
        port=int(given("PORT") or DEFAULT_PORT),
        host=given("HOST") or DEFAULT_HOST,
        database_url=given("DATABASE_URL"),
        data_dir=Path(given("MAFIA_DATA_DIR") or DEFAULT_DATA_DIR),
        storage_secret=environment.get("STORAGE_SECRET") or None,  # as written: a secret is not trimmed
        secure_cookies=None if chosen_cookies is None else chosen_cookies == "1",
        domain=given("DOMAIN"),
        public_url=given("PUBLIC_URL"),
        trust_proxy=given("TRUST_PROXY") == "1",
        process=given("MAFIA_PROCESS"),
        browser_storage=Path(browsers) if browsers else None,
        show_link=given("MAFIA_SHOW_LINK") == "1",
        bench=given("MAFIA_BENCH") == "1",
    )


class _Current:
    """The settings in force: the last ``load()``'s, or None before the first."""

    value: Settings | None = None


_CURRENT = _Current()


def load() -> Settings:
    """Read the environment now and make what it says the settings in force (at start: ``app.setup``)."""
    _CURRENT.value = read(os.environ)
    return _CURRENT.value


def current() -> Settings:
    """The settings in force; the environment is read on the first ask if nothing loaded them yet (a tool or a
    test that uses one module without setting the app up)."""
    return _CURRENT.value if _CURRENT.value is not None else load()


def forget() -> None:
    """Drop the settings in force: the next ``current()`` reads the environment again (the tests, between two)."""
    _CURRENT.value = None
