"""The language: translations for the pages, one cached ``Translator`` per language, and the compiled catalogs.

Holds the translators (``i18n``) and the catalogs made at start (``catalogs``).

May import: the standard library and Babel. Nothing of ``webgame``.
"""
