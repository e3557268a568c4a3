"""The pages: one module per page (home, room, TV screen, results, protocol) plus the screens and parts a page is
built from. They draw from a room's projection only and never read the rules' state (``tests/web/test_structure``).

May import: ``engine`` (its actions, options and wording, never its state), ``webgame.errors``,
``webgame.language``, ``webgame.store``, ``webgame.framework``, ``webgame.guard``, ``webgame.browser``,
``webgame.room``, ``webgame.evening``.
"""
