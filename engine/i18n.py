"""Message ids for Babel.

The engine never translates: it only marks English message ids with ``N_`` so that
``pybabel extract`` finds them, and the web layer translates them per phone.
"""


def N_(msgid: str) -> str:  # noqa: N802 - gettext's conventional marker name
    """Mark a message id for extraction; returns it unchanged."""
    return msgid
