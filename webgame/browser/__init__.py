"""The browser: what the app keeps in and says to a browser apart from a page's screen.

Holds who is who (``identity``: seat tokens in the browser's storage, the storage secret, names), the language
cookie (``language_cookie``), when a browser's storage expires (``storage_expiry``), the connection's heartbeat
(``heartbeat``), cookies and compression (``transport``), the address the table reaches (``public_address``) and
the web manifest (``app_manifest``).

May import: ``webgame.errors``, ``webgame.settings``, ``webgame.language``, ``webgame.store``, ``webgame.guard``,
``webgame.framework``.
"""
