"""Plugins for every test run (pytest only accepts ``pytest_plugins`` in the top-level conftest).

``nicegui.testing.user_plugin`` gives the simulated phones of tests/web (``user``, ``create_user``); its
main file is set in pyproject.toml (``main_file``).
"""

pytest_plugins = ["nicegui.testing.user_plugin"]
