"""The evening: a room's finished games read back from the store, as standings and as the club's paper protocol.

Holds the standings (``standings``) and a game's protocol (``protocol``).

May import: ``engine``, ``webgame.errors``, ``webgame.language``, ``webgame.store``, ``webgame.room``.
"""
