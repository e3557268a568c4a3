"""Write ``webgame/static/quasar-lite.css``: Quasar's stylesheets without what our pages never draw.

NiceGUI loads all of Quasar's CSS (``quasar.unimportant.prod.css`` and ``quasar.important.prod.css``, 40 KB
gzipped) on every page; our pages draw a dozen of its components (buttons, cards, fields and selects with
their menus, toggles, badges, icons, tooltips, an expansion item, notifications). This keeps every rule
whose selectors name only classes we may use and drops the others: the components listed in ``DROPPED``,
the material palette's colours (``text-red-5``, ``bg-teal-2``, ...) but ``COLOURS``, the responsive grid
(``col-md-6``, ``offset-*``), the gutters, the deep shadows and the transitions no component of ours runs.
Both files go into one, each in its own cascade layer, as NiceGUI's page template puts them, with NiceGUI's
own ``nicegui.css`` (in its layer): one request instead of three (``webgame.framework.page_template`` imports this one
instead).

``python scripts/quasar_subset.py`` writes it again (after a NiceGUI upgrade); ``--check`` only compares
(``tests/web/test_first_touch.py`` runs it).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import nicegui

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "webgame" / "static" / "quasar-lite.css"
SOURCES = (("quasar", "quasar.unimportant.prod.css"), ("quasar_importants", "quasar.important.prod.css"))

# Quasar components none of our pages draws (a class's block: its name up to "__" or "--").
DROPPED = frozenset([
    "avatar", "banner", "bar", "bottom-sheet", "btn-dropdown", "carousel", "checkbox", "chip", "circular-progress",
    "color-picker", "date", "dialog", "dialog-plugin", "drawer", "drawer-container", "editor", "fab", "file",
    "footer", "header", "img", "infinite-scroll", "inner-loading", "intersection", "ios-padding", "knob",
    "linear-progress", "loading", "markup-table", "message", "message-avatar", "message-container", "message-label",
    "message-name", "message-stamp", "message-text", "morph", "option-group", "page-sticky", "pagination", "panel",
    "panel-parent", "parallax", "popup-edit", "pull-to-refresh", "radio", "range", "rating", "responsive",
    "scrollarea", "skeleton", "slide-item", "slider", "splitter", "stepper", "tab", "tab-panel", "tab-panels",
    "table", "tabs", "textarea", "time", "timeline", "toolbar", "tree", "uploader", "video",
])
PALETTE = [
    "red", "pink", "purple", "deep-purple", "indigo", "blue", "light-blue", "cyan", "teal", "green", "light-green",
    "lime", "yellow", "amber", "orange", "deep-orange", "brown", "grey", "blue-grey",
]
COLOURS = frozenset({"grey-7"})  # the toggle's colour (webgame/pages/screen.js)
TRANSITIONS = frozenset({"fade", "scale", "jump-up", "jump-down", "jump-left", "jump-right"})
_PALETTE = re.compile(r"^(?:text|bg)-(" + "|".join(sorted(PALETTE, key=len, reverse=True)) + r")(?:-(\d+))?$")
_CLASS = re.compile(r"\.((?:\\.|[\w-])+)")


def dropped_class(name: str) -> bool:
    """Whether a rule naming this class can never match an element of our pages."""
    block = re.split(r"__|--", name, maxsplit=1)[0]
    if block.startswith("q-") and block[2:] in DROPPED:
        return True
    colour = _PALETTE.match(name)
    if colour and f"{colour.group(1)}{'-' + colour.group(2) if colour.group(2) else ''}" not in COLOURS:
        return True
    if re.match(r"^(col-(xs|sm|md|lg|xl)(-|$)|offset-|col-\d|q-col-gutter|q-gutter|shadow-up-|inset-shadow)", name):
        return True
    shadow = re.match(r"^shadow-(\d+)$", name)
    if shadow and int(shadow.group(1)) > 5:
        return True
    transition = re.match(r"^q-transition--([\w-]+?)-(enter|leave)", name)
    return bool(transition and transition.group(1) not in TRANSITIONS)


def blocks(css: str) -> Iterator[tuple[str, str]]:
    """The top-level ``(prelude, body)`` pairs of a stylesheet (a body keeps its nested blocks as text)."""
    index = 0
    while True:
        opening = css.find("{", index)
        if opening < 0:
            return
        depth, end = 1, opening + 1
        while depth:
            depth += {"{": 1, "}": -1}.get(css[end], 0)
            end += 1
        yield css[index:opening].strip(), css[opening + 1:end - 1]
        index = end


def split_selectors(prelude: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for position, char in enumerate(prelude):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(prelude[start:position])
            start = position + 1
    parts.append(prelude[start:])
    return parts


def subset(css: str, animations: set[str]) -> str:
    """The rules of ``css`` that may match; the names of the animations they run go into ``animations``."""
    out: list[str] = []
    for prelude, body in blocks(css):
        if prelude.startswith("@keyframes"):
            out.append(f"{prelude}{{{body}}}")  # kept or not at the end, when every user is known
        elif prelude.startswith("@"):
            inner = subset(body, animations)
            if inner:
                out.append(f"{prelude}{{{inner}}}")
        else:
            kept = [s for s in split_selectors(prelude) if not any(dropped_class(c) for c in _CLASS.findall(s))]
            if kept:
                out.append(f"{','.join(kept)}{{{body}}}")
                animations.update(re.findall(r"animation(?:-name)?:\s*([\w-]+)", body))
    return "".join(out)


def unused_keyframes(css: str, animations: set[str]) -> str:
    return re.sub(r"@keyframes ([\w-]+)\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}",
                  lambda match: match.group(0) if match.group(1) in animations else "", css)


def build() -> str:
    folder = Path(nicegui.__file__).resolve().parent / "static"
    animations: set[str] = set()
    layers = [(layer, subset((folder / name).read_text(encoding="utf-8"), animations)) for layer, name in SOURCES]
    head = (f"/* Quasar's CSS as NiceGUI {nicegui.__version__} ships it, without what our pages never draw, and "
            "NiceGUI's own: written by scripts/quasar_subset.py, do not edit. */\n")
    own = (folder / "nicegui.css").read_text(encoding="utf-8")  # one request less (the page's first load)
    return (head + "".join(f"@layer {layer}{{{unused_keyframes(css, animations)}}}\n" for layer, css in layers)
            + f"@layer nicegui{{\n{own}}}\n")


def main(argv: list[str]) -> int:
    text = build()
    if "--check" in argv:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.relative_to(ROOT)} is out of date: run python scripts/quasar_subset.py")
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"{TARGET.relative_to(ROOT)}: {len(text)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
