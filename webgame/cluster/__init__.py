"""The cluster: one game process of several behind a reverse proxy, on one PostgreSQL (docs/SCALING.md).

Holds the process's part (``process``: its name, the rooms it claims and renews, the routes it answers) and the rate
limits shared between processes (``shared_limits``). The lease and its fence are the store's (``store.leases``).

May import: ``webgame.settings``, ``webgame.room``, ``webgame.store``, ``webgame.guard``, ``webgame.framework``,
``webgame.language``.
"""
