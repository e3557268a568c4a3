// The TV's layout (/r/CODE/screen only; never loaded on a phone). Static code: the server never calls it with text.
// A TV has no scroll bar and nobody to scroll it, so everything it shows fits its screen by itself:
// - [data-tv-fit]: a box of fixed height (the page is a column as tall as the screen) whose type shrinks, by the
//   CSS variable --tv-fit on it (1 down to MIN_FIT), until its content fits; it grows back when there is room
//   again (30 seats, a long tally, long names in any language: the same box, smaller type).
// - [data-tv-pages]: the end screen's timeline, laid out in columns of the box's height (its one child); the
//   columns that do not fit are further pages, slid in turn every PAGE_MS (the dots beside its title say which).
// On a phone-sized window (a TV page opened on a phone: 600 px or less) the page scrolls like any page instead.
(function () {
  "use strict";
  const MIN_FIT = 0.45;
  const PAGE_MS = () => window.mafiaTvPageMs || 9000;
  let queued = false;
  let page = 0;
  let turned = Date.now();

  function isTv() { return window.innerWidth > 600; }

  // The boxes laid out in the element: its children, and for a child of ``display: contents`` (a box of the TV's
  // parts, results_screen.TvPart, and the refreshable's container) its own children in its place.
  function laidOut(el) {
    return Array.from(el.children).flatMap((child) =>
      getComputedStyle(child).display === "contents" ? laidOut(child) : [child]);
  }

  // Whether the box's content goes past its bottom or right edge, to the fraction of a pixel (scrollHeight is
  // rounded); its fixed children (the corner's QR code) are not in it.
  function overflows(el) {
    if (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1) return true;
    const box = el.getBoundingClientRect();
    return laidOut(el).some((child) => {
      if (getComputedStyle(child).position === "fixed") return false;
      const r = child.getBoundingClientRect();
      return r.bottom > box.bottom + 0.25 || r.right > box.right + 0.25;
    });
  }

  function setFit(el, value) { el.style.setProperty("--tv-fit", String(value)); }

  // The largest type (by a binary search, 8 layouts) with which the box's content fits.
  function fit(el) {
    setFit(el, 1);
    if (!isTv() || !overflows(el)) return;
    let low = MIN_FIT;
    let high = 1;
    for (let step = 0; step < 8; step += 1) {
      const middle = (low + high) / 2;
      setFit(el, middle);
      if (overflows(el)) high = middle; else low = middle;
    }
    setFit(el, low);
  }

  function pager() { return document.querySelector("[data-tv-pages]"); }

  // The pager's columns (its one child) and the distance from one page to the next: the box's width and a gap.
  function columns(el) { return el && el.firstElementChild; }

  function step(el) {
    const inner = columns(el);
    const gap = inner ? parseFloat(getComputedStyle(inner).columnGap) || 0 : 0;
    return { width: el.getBoundingClientRect().width + gap, gap: gap };
  }

  // How many pages the timeline has: its columns past the box's width are further pages of the same width.
  function pages(el) {
    const inner = columns(el);
    if (!inner) return 1;
    const { width, gap } = step(el);
    return Math.max(1, Math.ceil((inner.scrollWidth + gap) / width - 0.02)); // a last page of one column too
  }

  function show(index) {
    const el = pager();
    if (!el || !columns(el)) return 0;
    const count = pages(el);
    page = ((index % count) + count) % count;
    columns(el).style.transform = page ? "translateX(" + (-page * step(el).width) + "px)" : "";
    turned = Date.now();
    dots(el, count);
    return page;
  }

  function dots(el, count) {
    const holder = document.querySelector("[data-tv-page-dots]");
    if (!holder) return;
    const wanted = count > 1 ? count : 0;
    while (holder.children.length > wanted) holder.lastChild.remove();
    while (holder.children.length < wanted) holder.appendChild(document.createElement("span"));
    Array.from(holder.children).forEach((dot, index) => dot.classList.toggle("mafia-tv-dot-on", index === page));
    holder.setAttribute("data-page", String(page + 1));
    holder.setAttribute("data-pages", String(count));
  }

  function layout() {
    queued = false;
    document.querySelectorAll("[data-tv-fit]").forEach(fit);
    const el = pager();
    if (el) show(Math.min(page, pages(el) - 1));
  }

  function later() {
    if (queued) return;
    queued = true;
    requestAnimationFrame(layout);
  }

  function tick() {
    const el = pager();
    if (!el) { page = 0; return; }
    if (pages(el) > 1 && Date.now() - turned >= PAGE_MS()) show(page + 1);
  }

  // A redraw of the screen (a new phase, a vote, a seat) adds or removes elements, and a part changed in place (the
  // vote's count, results_screen._set_progress) changes a text that may wrap: fit again. The countdown's new text
  // every second does not change what fits (its box holds its widest text): no layout every second for it.
  function ticking(node) {
    const el = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
    return Boolean(el && el.closest(".mafia-countdown"));
  }
  new MutationObserver((changes) => {
    if (changes.some((change) => !ticking(change.target))) later();
  }).observe(document.body, { childList: true, characterData: true, subtree: true });
  const sizes = new ResizeObserver(later);
  new MutationObserver(() => document.querySelectorAll("[data-tv-fit], [data-tv-pages]")
    .forEach((el) => sizes.observe(el))).observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", later);
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(later);
  setInterval(tick, 500);
  // pending: whether a layout is queued for the next frame (the tests read the screen only once it has run).
  window.mafiaTv = { layout: layout, show: show, pages: () => pages(pager()), page: () => page,
    pending: () => queued };
})();
