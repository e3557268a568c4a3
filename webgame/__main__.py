"""``python -m webgame``: serve the game (port from ``PORT``, default 8080; database from ``DATABASE_URL``)."""

from webgame.app import run, setup

setup()

if __name__ in {"__main__", "__mp_main__"}:
    run()
