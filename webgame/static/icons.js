// The game's icons as SVG paths (24x24), drawn by Quasar's q-icon through its iconMapFn
// (webgame/framework/page_template.py): no icon font to download. The names are Material Icons' names, so Quasar's own
// components (a select's arrow, an expansion item's chevron, a notification's sign) find theirs here too.
// A path is "d@@style"; paths are joined by "&&" (Quasar's format). A name not listed draws nothing.
(function () {
  "use strict";
  const line = "@@fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round";
  const stroke = (...paths) => paths.map((d) => d + line).join("&&");
  const circle = (x, y, r) => `M${x - r} ${y}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0z`;
  const ring = circle(12, 12, 9);
  const eye = "M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z";
  const paths = {
    check: stroke("M5 12.5l4.5 4.5L19 7.5"),
    close: stroke("M6 6l12 12M18 6L6 18"),
    arrow_upward: stroke("M12 19V5M6 11l6-6 6 6"),
    arrow_downward: stroke("M12 5v14M6 13l6 6 6-6"),
    arrow_drop_down: "M7 10l5 5 5-5z",
    keyboard_arrow_down: stroke("M6 9l6 6 6-6"),
    keyboard_arrow_up: stroke("M6 15l6-6 6 6"),
    star_outline: stroke("M12 3.5l2.6 5.4 5.9.8-4.3 4.1 1.1 5.8L12 16.8l-5.3 2.8 1.1-5.8-4.3-4.1 5.9-.8z"),
    visibility: stroke(eye, circle(12, 12, 3)),
    visibility_off: stroke(eye, circle(12, 12, 3), "M3 3l18 18"),
    send: stroke("M4 20l17-8L4 4l2.5 8zM6.5 12H12"),
    stop: "M6 6h12v12H6z",
    share: stroke(circle(18, 5, 2.5), circle(6, 12, 2.5), circle(18, 19, 2.5), "M8.2 10.9l7.6-4.3M8.2 13.1l7.6 4.3"),
    key: stroke(circle(8, 12, 4), "M12 12h9M18 12v3M21 12v2"),
    phonelink_setup: stroke("M7 3h8a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1z", "M10 18h2",
                            "M18 9l3 3-3 3M16 12h5"),
    undo: stroke("M9 14L4 9l5-5", "M4 9h10.5a5.5 5.5 0 0 1 0 11H11"),
    logout: stroke("M10 20H5a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h5", "M16 16l4-4-4-4M20 12H9"),
    volume_up: "M3 9h4l5-4v14l-5-4H3z&&" + stroke("M15.5 8.5a5 5 0 0 1 0 7", "M18.5 5.5a9.2 9.2 0 0 1 0 13"),
    replay: stroke("M4 12a8 8 0 1 0 2.4-5.7L4 8.5", "M4 4v4.5h4.5"),
    restart_alt: stroke("M6.3 6.3A8 8 0 1 1 4 12", "M6.3 2v4.3h4.3"),
    description: stroke("M6 3h8l5 5v12a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1z", "M14 3v5h5",
                        "M8.5 13h7M8.5 17h7"),
    download: stroke("M12 4v11M7 10.5l5 5 5-5", "M5 20h14"),
    person_remove: stroke(circle(9, 8, 4), "M2 21a7 7 0 0 1 14 0", "M16 11h6"),
    smart_toy: stroke("M6 8h12a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2z", "M12 4v4",
                      "M9 13v1.5M15 13v1.5M2 13v3M22 13v3"),
    gavel: stroke("M13.5 3.5l7 7-3 3-7-7z", "M12 12l-8 8", "M13 21h8"),
    how_to_vote: stroke("M4 13h16v8H4z", "M8 13V3h8v10", "M10 8l1.5 1.5L14.5 6.5"),
    record_voice_over: stroke(circle(9, 8, 4), "M2 21a7 7 0 0 1 14 0", "M17 5.5a4.5 4.5 0 0 1 0 6",
                              "M19.8 3a8.5 8.5 0 0 1 0 11"),
    dark_mode: stroke("M20 14.5A8.5 8.5 0 1 1 9.5 4a7 7 0 0 0 10.5 10.5z"),
    light_mode: stroke(circle(12, 12, 4), "M12 2v2M12 20v2M2 12h2M20 12h2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4" +
                       "M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"),
    // Quasar's notifications and fields
    check_circle: stroke(ring, "M8 12.5l3 3 5-6"),
    info: stroke(ring, "M12 11v6M12 7.5v.1"),
    warning: stroke("M12 3.5L2.5 20h19z", "M12 10v4.5M12 17.5v.1"),
    priority_high: stroke("M12 4v11M12 19.5v.1"),
    error: stroke(ring, "M12 7v6M12 16.5v.1"),
    cancel: stroke(ring, "M9 9l6 6M15 9l-6 6"),
    clear: stroke("M6 6l12 12M18 6L6 18"),
  };
  window.mafiaIcons = paths;
  window.mafiaIcon = function (name) {
    if (typeof name !== "string" || /^(img:|svguse:|[Mm]\s?[-+]?\.?\d)|[: ]/.test(name)) return undefined;
    return { icon: paths[name] || "none" };
  };
})();
