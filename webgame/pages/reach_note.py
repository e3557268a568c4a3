"""The one line a lobby opened on the server's own machine (``http://localhost:8080``) shows: where the phones join.

The links, the QR code and the share targets of such a page already use that address
(``webgame.browser.public_address``); the line says why they differ from the laptop's address bar, and what to do when
no address could be found."""

from __future__ import annotations

from webgame.browser.public_address import Reach
from webgame.language.i18n import N_, Translator
from webgame.pages.screen import Draft

LAN = N_("Phones join at {link}: this computer's address on your network.")
OTHERS = N_("If a phone cannot open it, try: {links}")
PUBLIC = N_("Phones join at {link}.")
UNREACHABLE = N_("Phones cannot open a localhost link. Open this page at this computer's network address, or set "
                 "PUBLIC_URL.")


def lines(_: Translator, reach: Reach) -> list[str]:
    """What the lobby says about ``reach``; nothing on a page opened by any other address."""
    if reach.kind == "lan":
        said = [_(LAN).format(link=reach.base)]
        if reach.others:
            said.append(_(OTHERS).format(links=", ".join(reach.others)))
        return said
    if reach.kind == "public":
        return [_(PUBLIC).format(link=reach.base)]
    if reach.kind == "unreachable":
        return [_(UNREACHABLE)]
    return []


def draw(d: Draft, _: Translator, reach: Reach) -> None:
    for number, line in enumerate(lines(_, reach)):
        d.label(line, "text-sm break-words" + (" font-bold" if number == 0 else " mafia-muted"),
                "reach-note" if number == 0 else "reach-others")
