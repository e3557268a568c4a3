"""The store: what a room leaves on disk, and the only code that talks to the database.

Holds where the database is and how it opens (``db``), the ORM's models and their migrations (``models``,
``migrations``), frozen copies of rows (``records``), the queries the rooms use (``queries``, imported as ``store``),
the action log's write on SQLite (``sqlite_log``), the lease that fences every write of a room (``leases``), the
evening's games (``evening``), seat tokens and room codes (``tokens``, ``room_codes``).

May import: ``webgame.errors``, ``webgame.settings``, ``webgame.framework`` (the action log's write in one step on
aiosqlite's connection) and the libraries (Tortoise). Nothing else of ``webgame``: no room, no page.
"""
