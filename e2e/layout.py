"""What a phone's screen looks like, measured in the page (issue 27, point 2): words broken across lines, and
elements past the screen's left or right edge.

A word is broken when the text range of that word is drawn in more than one line box: ``Range`` over the word,
``getClientRects()``, rectangles with different tops. A word may still break after its own hyphen or slash
("Jean-Luc", "a/b"): those are the places a line may end. An element is outside when its box passes the
viewport's left or right edge and no ancestor clips it (an ancestor with ``overflow`` other than visible whose
box is inside the viewport), or when the page itself scrolls sideways.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from e2e.harness import Phone

MEASURE_JS = r"""() => {
  const width = document.documentElement.clientWidth;
  const broken = [], outside = [];
  const shown = (el) => {
    for (let node = el; node && node !== document.body; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.display === "none" || style.visibility === "hidden" || style.opacity === "0") return false;
    }
    return true;
  };
  const where = (el) => {
    const id = el.closest("[data-testid]");
    return id ? id.getAttribute("data-testid") : el.className && String(el.className).split(" ")[0] || el.tagName;
  };
  const clipped = (el, self) => {  // self: the element's own overflow counts (it clips its text, not its box)
    for (let node = self ? el : el.parentElement; node && node !== document.body; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.overflowX !== "visible" || style.clipPath !== "none" || style.clip !== "auto") {
        const box = node.getBoundingClientRect();
        if (box.left >= -1 && box.right <= width + 1) return true;
      }
    }
    return false;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const parent = text.parentElement;
    if (!parent || ["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"].includes(parent.tagName)) continue;
    if (parent.closest(".mafia-sr, .mafia-prelude") || !shown(parent)) continue;
    const words = /[^\s\-\u2010\u2013\u2014\/]+[\-\u2010\u2013\u2014\/]?/g;
    for (let m = words.exec(text.data); m; m = words.exec(text.data)) {
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0.5 && r.height > 0.5);
      if (!rects.length) continue;
      const tops = [];
      for (const r of rects) if (!tops.some((top) => Math.abs(top - r.top) < r.height / 2)) tops.push(r.top);
      if (tops.length > 1) broken.push(where(parent) + ": " + m[0]);
      if (rects.some((r) => r.left < -1 || r.right > width + 1) && !clipped(parent, true)) {
        outside.push(where(parent) + ": " + m[0]);
      }
    }
  }
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest(".mafia-sr, .mafia-prelude")) continue;
    const box = el.getBoundingClientRect();
    if (box.width < 1 || box.height < 1 || (box.left >= -1 && box.right <= width + 1)) continue;
    if (!shown(el) || clipped(el, false)) continue;
    outside.push(where(el) + " <" + el.tagName.toLowerCase() + "> " + Math.round(box.left) + ".." +
                 Math.round(box.right));
  }
  if (document.documentElement.scrollWidth > width + 1) {
    outside.push("the page scrolls sideways: " + document.documentElement.scrollWidth + " > " + width);
  }
  return {broken, outside};
}"""


@dataclass
class Findings:
    """Every screen measured, and what was wrong on each (screen, language) -> problems."""

    screens: int = 0
    broken: dict[str, list[str]] = field(default_factory=dict)
    outside: dict[str, list[str]] = field(default_factory=dict)

    def measure(self, phone: Phone, screen: str) -> None:
        """Measure ``phone``'s whole page as it is now (its current language) under the name ``screen``."""
        phone.page.wait_for_timeout(150)  # Quasar's transitions (a button's ripple, an expansion) end
        found: dict[str, Any] = phone.page.evaluate(MEASURE_JS)
        key = f"{screen} [{phone.language}]"
        self.screens += 1
        shots = os.environ.get("LAYOUT_SHOTS")  # a folder: every screen measured is photographed there too
        if shots:
            name = re.sub(r"[^\w]+", "-", key).strip("-").lower()
            phone.page.evaluate("() => window.scrollTo(0, 0)")
            phone.screenshot(Path(shots) / f"{name}.png")
        if found["broken"]:
            self.broken[key] = list(found["broken"])
        if found["outside"]:
            self.outside[key] = list(dict.fromkeys(found["outside"]))

    @property
    def counts(self) -> tuple[int, int]:
        return sum(map(len, self.broken.values())), sum(map(len, self.outside.values()))

    def report(self) -> str:
        broken, outside = self.counts
        lines = [f"{self.screens} screens measured: {broken} broken words, {outside} elements outside"]
        for title, problems in (("broken", self.broken), ("outside", self.outside)):
            for key, found in sorted(problems.items()):
                lines.append(f"  {title} {key}: {'; '.join(found[:8])}{' ...' if len(found) > 8 else ''}")
        return "\n".join(lines)
