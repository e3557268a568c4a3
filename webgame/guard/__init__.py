"""The guard: what keeps one mischievous phone or a stranger with the link from stopping a table.

Holds the token-bucket rate limits (``ratelimit``), how many pages a room keeps and whose go first
(``page_limits``), and what a browser's socket may send (``socket_guard``).

May import: ``webgame.errors``, ``webgame.settings``, ``webgame.language``, ``webgame.framework`` (a page's sockets,
the socket hooks). Nothing of the rooms: a guard decides before any room work.
"""
