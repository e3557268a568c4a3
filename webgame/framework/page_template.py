"""What a page's HTML makes a phone load: NiceGUI's page template, lightened, and our own head.

A phone opens a room's link once, at the table, often on bad Wi-Fi (docs/PERFORMANCE.md, "A phone's first
load"). NiceGUI's template (``nicegui/templates/index.html``) makes every page load Roboto and four Material
Icons fonts (164 KB for a dozen icons), all of Quasar's CSS (40 KB gzipped, most of it for components we never
draw), and lists a dozen JavaScript libraries in its import map. ``install()`` puts a copy of that template in
front of NiceGUI's, edited once at start (``EDITS``; a NiceGUI that changed those lines stops the app at start
rather than silently loading them again):

- no ``fonts.css`` (the system's fonts, ``static/mafia.css``; the icons are SVG paths, ``static/icons.js``,
  that Quasar draws through its ``iconMapFn``, its own components' icons included);
- ``static/quasar-lite.css`` instead of Quasar's two stylesheets and NiceGUI's (``scripts/quasar_subset.py``):
  one request instead of three;
- the import map without NiceGUI's optional libraries (charts, maps, editors, ...), which no page of ours
  imports;
- NiceGUI's own texts ("Connection lost. Trying to reconnect...", ...) in the phone's language, from our
  catalogs (``framework_texts``), instead of the page's fixed language;
- Quasar started with our icons and the phone's day colours (``VUE_CONFIG_SCRIPT``: light or dark as the
  phone's switch or its ``prefers-color-scheme`` says; the night's screens are dark on every phone);
- socket.io's reconnect sooner (``RECONNECT_SCRIPT``): after a restart or a failover a phone is back within
  ``RECONNECT_DELAY_MAX_MS`` of the server answering again, instead of up to socket.io's 5 s, and names its
  page when it does (``ADOPT_SCRIPT``), so that a server that lost the page builds it again in place;
- a page's acknowledgements of what it got every 6 s instead of 3 (``ACK_SCRIPT``): half the packets a phone sends
  while nobody taps.

``HEAD`` is what every page adds to its head: our stylesheet and scripts (their URLs carry a hash of their
content, so a new version is never mixed with an old cached one), the web app manifest and the theme colour.
"""

from __future__ import annotations

import hashlib
import html
import json
from pathlib import Path
from typing import Any

import jinja2
from starlette.requests import Request

from webgame.language.i18n import N_, Translator

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
THEME_COLOUR = "#1d1d1d"  # the browser's bar, the installed app's splash screen: the night's colour


def static_url(name: str) -> str:
    """``/static/NAME?v=HASH``: a changed file gets a new URL, so no browser mixes versions."""
    digest = hashlib.sha256((STATIC_DIR / name).read_bytes()).hexdigest()[:10]
    return f"/static/{name}?v={digest}"


QUASAR_CSS = static_url("quasar-lite.css")
MAFIA_CSS = static_url("mafia.css")
HEAD = (f'<link rel="stylesheet" href="{MAFIA_CSS}">'
        f'<script src="{static_url("icons.js")}" defer></script>'
        f'<script src="{static_url("phone.js")}" defer></script>'
        '<link rel="manifest" href="/manifest.webmanifest">'
        f'<meta name="theme-color" content="{THEME_COLOUR}">'
        '<link rel="apple-touch-icon" href="/static/app-icon-192.png">')

_QUASAR_CSS = '        @import url("{{ prefix | safe }}/_nicegui/{{version}}/static/quasar.%s.css") layer(%s);\n'
_QUASAR_IMPORTS = ("      {% if prod_js %}\n" + _QUASAR_CSS % ("unimportant.prod", "quasar")
                   + _QUASAR_CSS % ("important.prod", "quasar_importants") + "      {% else %}\n"
                   + _QUASAR_CSS % ("unimportant", "quasar") + _QUASAR_CSS % ("important", "quasar_importants")
                   + "      {% endif %}\n")
_RTL_FAB = """\
        /* DEPRECATED: mirror of quasarframework/quasar#18413 + #18419, remove with the Quasar bump for NiceGUI 4.0 */
        [dir="rtl"] .q-fab__actions--right {
          transform-origin: 0 50%;
          right: auto;
          margin-right: 0;
          left: 100%;
          margin-left: 9px;
          flex-direction: row-reverse;
        }
        [dir="rtl"] .q-fab__actions--right:not(.q-fab__actions--opened) {
          transform: scale(0.4) translateX(-62px);
        }
        [dir="rtl"] .q-fab__actions--left {
          transform-origin: 100% 50%;
          left: auto;
          margin-left: 0;
          right: 100%;
          margin-right: 9px;
          flex-direction: row;
        }
        [dir="rtl"] .q-fab__actions--left:not(.q-fab__actions--opened) {
          transform: scale(0.4) translateX(62px);
        }
"""
_TEXTS = "{% set texts = request.state.framework_texts if request.state.framework_texts is defined else translations %}"
_SANITIZER = """\
      import DOMPurify from "dompurify";
      Element.prototype.setHTML = function (html) {
        this.innerHTML = DOMPurify.sanitize(html);
      };
"""
# DOMPurify (12 KB) only when an element sanitizes HTML (the phones' pages have none): the element stays empty
# until it is loaded, never unsanitized, and takes the last HTML it was given.
_LAZY_SANITIZER = """\
      let purifier = null;
      Element.prototype.setHTML = function (html) {
        this.mafiaHtml = html;
        purifier = purifier || import("dompurify");
        purifier.then(({ default: DOMPurify }) => {
          if (this.mafiaHtml === html) this.innerHTML = DOMPurify.sanitize(html);
        });
      };
"""
# socket.io's reconnect backoff (its defaults: 1 s doubling to at most 5 s, +-50 % each). After a restart or a
# failover (docs/PERFORMANCE.md, the reconnect storm) every phone waits out its backoff before it finds the server
# back, learns that its page is gone and reloads: with 5 s a phone came back up to 5 s after the server could have
# taken it. 0.5 s doubling to 2 s: an attempt a phone makes while the server is down is a refused connection (or
# the proxy's quick error), nothing to build; once the server answers, every phone is there within 2 s. The bench's
# simulated phone reads these numbers from the page (``bench/phone.py``).
RECONNECT_DELAY_MS = 500
RECONNECT_DELAY_MAX_MS = 2000
RECONNECT_SCRIPT = (f"      window.socket?.io?.reconnectionDelay({RECONNECT_DELAY_MS})"
                    f".reconnectionDelayMax({RECONNECT_DELAY_MAX_MS});\n")
# Every reconnect names the page in the socket's query (the address bar's path, which may have been replaced
# since the load), so that a server that lost the page can build it again in place
# (``webgame.framework.page_adoption``).
ADOPT_SCRIPT = ('      window.socket?.io?.on("reconnect_attempt", () => '
                '{ window.socket.io.opts.query.mafia_page = location.pathname; });\n')
# NiceGUI's page tells the server every 3 s (``ACK_TICK_MS``, nicegui.js: ``setInterval(() => ack(), 3000)``) which
# messages it has, when it got new ones; the server keeps what was sent for a reconnect's replay until then. Here a
# page acknowledges at most every ``ACK_AT_MOST_MS``, so every second look: every 6 s. A reconnect's replay is the
# same (it starts from what the page has, not from what it acknowledged); the server keeps some 3 s more of a page's
# messages (1.7 MB at 960 phones) and reads half as many packets: at 80 rooms of 12 the acknowledgements were five
# packets an action, each read from its frame and handled in some 50 µs of CPU (issue 32: 5 % of an action's CPU
# measured; the phones send half as many packets on a busy Wi-Fi too). ``ack`` is a global function of NiceGUI's
# classic script, looked up at every tick.
ACK_TICK_MS = 3000
ACK_AT_MOST_MS = 5000
ACK_SCRIPT = ("      ((ack, every) => { if (typeof ack !== \"function\") return; let last = -Infinity;\n"
              "        window.ack = () => { const now = performance.now(); if (now - last < every) return;\n"
              "          const before = window.ackedMessageId; ack();\n"
              "          if (window.ackedMessageId !== before) last = now; };\n"
              f"      }})(window.ack, {ACK_AT_MOST_MS});\n")
EDITS: tuple[tuple[str, str], ...] = (
    (_SANITIZER, _LAZY_SANITIZER),
    # The "no ES modules" notice showed itself after 1 s, so on a slow network a phone read it while the scripts
    # were still coming; only a browser without modules runs a ``nomodule`` script.
    ("        animation: esm-fallback-reveal 0s 1s forwards;\n", ""),
    ('    <div id="app" ', '    <script nomodule>document.getElementById("esm-fallback").style.opacity = 1;</script>\n'
     '    <div id="app" '),
    ('      @import url("{{ prefix | safe }}/_nicegui/{{version}}/static/fonts.css") layer(base);\n', ""),
    (_QUASAR_IMPORTS, f'      @import url("{{{{ prefix | safe }}}}{QUASAR_CSS}");\n'),
    ('      @import url("{{ prefix | safe }}/_nicegui/{{version}}/static/nicegui.css") layer(nicegui);\n', ""),
    # Quasar's script (150 KB, in the body) starts with the stylesheets, not behind them.
    ('    <link href="{{ favicon_url }}" rel="shortcut icon" />\n',
     '    <link rel="preload" as="script" '
     'href="{{ prefix | safe }}/_nicegui/{{version}}/static/quasar.umd{{ ".prod" if prod_js else "" }}.js" />\n'
     '    <link href="{{ favicon_url }}" rel="shortcut icon" />\n'),
    (_RTL_FAB, ""),
    ('{"imports": {{ imports | safe }}}', '{"imports": {{ imports | page_imports | safe }}}'),
    ('<div id="esm-fallback">', _TEXTS + '<div id="esm-fallback">'),
    ("Your browser does not support ES modules.<br />Please use a modern browser.",
     "{{ texts.esm_unsupported | default('Your browser does not support ES modules.') }}<br />"
     "{{ texts.esm_update | default('Please use a modern browser.') }}"),
    # (the socket is made by the app's ``mounted``, which ``mount`` runs before it returns)
    ('      app.mount("#app");\n', '      app.mount("#app");\n' + RECONNECT_SCRIPT + ADOPT_SCRIPT + ACK_SCRIPT),
    *((f"{{{{ translations.{key} }}}}", f"{{{{ texts.{key} }}}}") for key in
      ("connection_lost", "trying_to_reconnect", "message_too_long", "message_too_long_body")),
)
# What NiceGUI's template says by itself; "esm_*" is not in NiceGUI's translations (its fallback is English).
FRAMEWORK_TEXTS = {
    "connection_lost": N_("Connection lost."),
    "trying_to_reconnect": N_("Trying to reconnect..."),
    "message_too_long": N_("Message too long"),
    "message_too_long_body": N_("The message is too large to be sent."),
    "esm_unsupported": N_("Your browser does not support ES modules."),
    "esm_update": N_("Please use a modern browser."),
}
NICEGUI_VUE_CONFIG = """
        app.use(Quasar, {config: vue_config});
        applyColors(vue_config.brand);
        Quasar.lang.set(Quasar.lang[language.replace('-', '')]);
        darkSetter = (dark) => Quasar.Dark.set(dark === None ? "auto" : dark);
        setDark(dark);
    """
# Our icons for every icon name (window.mafiaIcon, static/icons.js); a page of no fixed colours (dark None) takes
# the phone's day colours (window.mafiaDayDark, static/phone.js: its switch, else prefers-color-scheme).
VUE_CONFIG_SCRIPT = """
        vue_config.iconMapFn = window.mafiaIcon || null;
        app.use(Quasar, {config: vue_config});
        applyColors(vue_config.brand);
        Quasar.lang.set(Quasar.lang[language.replace('-', '')]);
        const dayDark = () => (window.mafiaDayDark ? window.mafiaDayDark() : "auto");
        darkSetter = (dark) => Quasar.Dark.set(dark === None ? dayDark() : dark);
        setDark(dark);
    """


def page_imports(imports: str) -> str:
    """The import map without NiceGUI's optional libraries (``nicegui-aggrid``, ``nicegui-leaflet``, ...)."""
    table: dict[str, Any] = json.loads(imports)
    return json.dumps({name: url for name, url in table.items() if not name.startswith("nicegui-")})


def lightened(source: str) -> str:
    for old, new in EDITS:
        if old not in source:
            raise RuntimeError("NiceGUI's page template changed; webgame/framework/page_template.py expects: "
                               f"{old[:80]!r}")
        source = source.replace(old, new)
    return source


def install() -> None:
    """Put the lightened template in front of NiceGUI's and start Quasar with our icons and colours
    (idempotent: ``webgame.app.setup`` runs again for every simulated-phone test)."""
    from nicegui import app, client

    environment = client.templates.env
    environment.filters["page_imports"] = page_imports
    loader = environment.loader
    if not isinstance(loader, jinja2.ChoiceLoader):
        assert loader is not None
        source = loader.get_source(environment, "index.html")[0]
        environment.loader = jinja2.ChoiceLoader([jinja2.DictLoader({"index.html": lightened(source)}), loader])
        if environment.cache is not None:
            environment.cache.clear()  # the template NiceGUI may have compiled already is not used again
    if app.config.vue_config_script.strip() not in (NICEGUI_VUE_CONFIG.strip(), VUE_CONFIG_SCRIPT.strip()):
        raise RuntimeError("NiceGUI's vue_config_script changed; see webgame/framework/page_template.py")
    app.config.vue_config_script = VUE_CONFIG_SCRIPT


def framework_texts(_: Translator, request: Request) -> None:
    """NiceGUI's own texts of this page (the connection-lost banner, ...) in the reader's language."""
    request.state.framework_texts = {key: _(text) for key, text in FRAMEWORK_TEXTS.items()}


LOADING = N_("Loading the game...")


def prelude(_: Translator) -> str:
    """What the page's HTML shows by itself, before the scripts that draw the page have come (seconds on a slow
    network): the game's name and "Loading the game...", where the page's header will be. Hidden as soon as the
    page is drawn (``static/mafia.css``). No player text, nothing of the room."""
    title, loading = html.escape(_("Mafia")), html.escape(_(LOADING))
    return (f'<div class="mafia-prelude" aria-busy="true"><p class="mafia-prelude-title">{title}</p>'
            f'<p>{loading}</p></div>')
