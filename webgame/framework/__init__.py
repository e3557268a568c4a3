"""The framework: every change this game makes to NiceGUI and the libraries under it, and nothing else.

Holds NiceGUI's outbox loop (``outbox``), its HTTP middlewares as ASGI layers (``asgi_layers``), its page template
and HTML escaping (``page_template``, ``page_escape``), a page rebuilt in place after a restart (``page_adoption``),
sockets of unknown pages refused early (``stale_sockets``) and a browser's storage in PostgreSQL
(``browser_storage``).

May import: the libraries, ``webgame.settings``, ``webgame.store``, ``webgame.language``. Nothing of the rooms or pages.
"""
