"""The room: the one door to a game night (``rooms.Room``) and everything a room holds in memory.

Holds the room and its registry (``rooms``), the lobby's settings and seats (``seating``), the game with its clock
(``table_game``, ``game_clock``, ``result_hold``, ``clock``), the chat (``chat``, ``chat_limits``), the pages that
watch it (``subscribers``), the one way out to a screen (``projection``), the host's and the moderator's absence
(``host_watch``, ``moderator_presence``), seat moves (``seat_moves``), bots (``bots``, ``bot_names``), the room's own
notices (``notices``) and finding a room by its code (``lookup``).

May import: ``engine``, ``webgame.errors``, ``webgame.language``, ``webgame.store``, ``webgame.browser`` (names and
seat tokens). Never the pages, the cluster or the framework.
"""
