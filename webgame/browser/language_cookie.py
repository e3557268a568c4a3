"""A phone's language in a cookie of its own, not in the browser's server-side storage.

The language picker used to write ``app.storage.user["lang"]``: one file (or, in a cluster, one PostgreSQL row)
per visitor who only touched the picker, kept for ever (issue 26: 100 visitors, 100 rows). Now the picker
sends the phone to ``/lang/CODE?next=PAGE``, which answers with the cookie ``LANG_COOKIE`` and a redirect back to
the page: a visitor who only picks a language costs the server nothing but that answer. The browser's storage
holds seat tokens only (``webgame.browser.identity``); a ``lang`` an older version wrote there is still read, after
the cookie.

The cookie is not secret (it says which of five languages to draw), but it is ``HttpOnly`` and ``SameSite=Lax``
like the session's, ``Secure`` with ``SECURE_COOKIES=1``. ``next`` must be a path of this site: anything else
(another host, ``//host``, a backslash) goes to ``/``.
"""

from __future__ import annotations

from urllib.parse import quote, urlsplit

from fastapi.responses import RedirectResponse
from starlette.requests import Request

from webgame.browser import transport
from webgame.language.i18n import LANGUAGES

LANG_COOKIE = "mafia_lang"
PATH = "/lang/{code}"
COOKIE_DAYS = 365


def cookie_language(request: Request) -> str | None:
    """The language this browser picked (its cookie), if it is one of ours."""
    value = request.cookies.get(LANG_COOKIE)
    return value if value in LANGUAGES else None


def switch_path(language: str, page: str) -> str:
    """Where the picker sends the phone to choose ``language`` and come back to ``page``."""
    return f"/lang/{language}?next={quote(safe_next(page), safe='/')}"


def safe_next(target: str | None) -> str:
    """``target`` if it is a path of this site (with its query), else ``/``."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


def choose(code: str, request: Request) -> RedirectResponse:
    """``GET /lang/CODE?next=PAGE``: the cookie, and back to the page (an unknown code changes nothing)."""
    response = RedirectResponse(safe_next(request.query_params.get("next")), status_code=303)
    if code in LANGUAGES:
        response.set_cookie(LANG_COOKIE, code, max_age=COOKIE_DAYS * 86400, path="/", httponly=True, samesite="lax",
                            secure=transport.secure_cookies())
    response.headers["Cache-Control"] = "no-store"
    return response


def register(app: object) -> None:
    app.add_api_route(PATH, choose, methods=["GET"], include_in_schema=False)  # type: ignore[attr-defined]
