"""``/manifest.webmanifest``: what a phone needs to offer "Add to home screen" and open the game like an app.

Linked from every page's head (``webgame.framework.page_template.HEAD``). The name is the game's, in the language the
browser asks for (a manifest is fetched without the page's cookies, so the phone's own choice in the game is
not known here). ``start_url`` is the home page: an installed app opens on "create or join a room", never on
an old room's game screen. No service worker (docs/WEB.md says why).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse

from webgame.framework.page_template import THEME_COLOUR
from webgame.language.i18n import from_accept_language, translator

PATH = "/manifest.webmanifest"
BACKGROUND = "#121212"  # Quasar's dark page: the splash screen while the first page loads


def manifest(language: str) -> dict[str, object]:
    _ = translator(language)
    return {
        "id": "/",
        "name": _("Mafia"),
        "short_name": _("Mafia"),
        "lang": language,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND,
        "icons": [
            {"src": "/static/app-icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
            {"src": "/static/app-icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any maskable"},
            {"src": "/static/app-icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any maskable"},
        ],
    }


def web_manifest(request: Request) -> JSONResponse:
    language = from_accept_language(request.headers.get("accept-language"))
    return JSONResponse(manifest(language), media_type="application/manifest+json",
                        headers={"Cache-Control": "public, max-age=86400", "Vary": "Accept-Language"})
