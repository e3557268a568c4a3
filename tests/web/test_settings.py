"""The server's settings (issue 29.5): the environment is read in one module, once at start, every variable is in the
README's table, and what a variable says reaches the code that uses it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.conftest import Environment
from webgame import settings
from webgame.browser import identity, public_address, transport
from webgame.cluster import process
from webgame.framework import browser_storage
from webgame.guard import ratelimit
from webgame.store import db

from .structure import ROOT, modules

READERS = frozenset({"environ", "environb", "getenv", "getenvb"})


def environment_readers(package: str = "webgame", root: Path = ROOT) -> list[str]:
    """Where ``package``'s source reads the process's environment (``path:line``): ``os.environ``, ``os.getenv``,
    or either imported from ``os`` (a parameter named ``environ``, as socket.io's, is not the environment)."""
    found: list[tuple[str, int]] = []
    for path in modules(package, root).values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr in READERS and isinstance(node.value, ast.Name)
                    and node.value.id == "os") or (isinstance(node, ast.ImportFrom) and node.module == "os"
                                                   and any(alias.name in READERS for alias in node.names)):
                found.append((str(path.relative_to(root)), node.lineno))
    return [f"{path}:{line}" for path, line in sorted(set(found))]


def test_only_the_settings_read_the_environment() -> None:
    readers = environment_readers()
    assert readers and all(where.startswith("webgame/settings.py:") for where in readers), readers


def test_the_reader_finds_every_way_to_the_environment(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("import os\nx = os.environ.get('A')\ny = os.getenv('B')\n")
    (tmp_path / "pkg" / "b.py").write_text("from os import environ\nz = environ['C']\n")
    (tmp_path / "pkg" / "c.py").write_text("import os\nw = os.getpid()\ndef f(environ):\n    return environ['D']\n")
    assert environment_readers("pkg", tmp_path) == ["pkg/a.py:2", "pkg/a.py:3", "pkg/b.py:1"]


def test_every_variable_is_in_the_readme_table() -> None:
    table = re.findall(r"^\| `([A-Z_]+)` \|", (ROOT / "README.md").read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert sorted(table) == sorted(settings.VARIABLES)
    fields = {field for field in settings.Settings.__dataclass_fields__}
    assert set(settings.VARIABLES.values()) == fields  # one variable per setting, none without its variable


def test_blank_is_unset_and_the_cookie_choice_beats_the_domain() -> None:
    assert settings.read({}) == settings.Settings()
    assert settings.read({"DOMAIN": " ", "PORT": "", "TRUST_PROXY": "0"}) == settings.Settings()
    assert settings.read({"DOMAIN": "mafia.example.org"}).https
    assert not settings.read({"DOMAIN": "mafia.example.org", "SECURE_COOKIES": "0"}).https
    assert settings.read({"SECURE_COOKIES": "1"}).https
    assert settings.read({"PORT": " 9000 ", "HOST": "192.168.1.5"}) == settings.Settings(port=9000, host="192.168.1.5")
    with pytest.raises(ValueError):
        settings.read({"PORT": "eighty"})


def test_what_a_variable_says_reaches_its_user(tmp_path: Path, environment: Environment) -> None:
    """Each variable set at start is what the code that uses it sees; a change to the environment after the start
    changes nothing until the next start (``settings.load``)."""
    given = {"DATABASE_URL": "postgres://mafia@db.example:5432/mafia", "MAFIA_DATA_DIR": str(tmp_path / "kept"),
             "STORAGE_SECRET": "a secret", "DOMAIN": "mafia.example.org", "PUBLIC_URL": "https://mafia.example.org/",
             "TRUST_PROXY": "1", "MAFIA_PROCESS": "p2", "HOST": "127.0.0.1"}
    for name, value in given.items():
        environment.set(name, value)
    settings.load()  # the start (``app.setup``)
    assert db.db_url() == "postgres://mafia@db.example:5432/mafia" and browser_storage.on_postgres()
    assert db.data_dir() == tmp_path / "kept" and (tmp_path / "kept").is_dir()
    assert identity.storage_secret() == "a secret"
    assert transport.session_cookie_kwargs()["https_only"] is True
    assert transport.public_base("http://mafia.example.org") == "https://mafia.example.org"
    assert public_address.public_url() == "https://mafia.example.org"
    assert public_address.lan_addresses() == ()  # bound to loopback: no phone reaches it
    assert ratelimit.trust_proxy()
    assert process.process_name() == "p2"

    for name in given:
        environment.unset(name)
    assert process.process_name() is None  # read again: nothing of the above is set any more
    settings.load()
    with pytest.MonkeyPatch.context() as later:  # changed under a running server: it keeps what it read at start
        later.setenv("TRUST_PROXY", "1")
        later.setenv("MAFIA_PROCESS", "p3")
        assert not ratelimit.trust_proxy() and process.process_name() is None
