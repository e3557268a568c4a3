// One part of a phone's game screen (webgame/pages/screen.py): `model` is a JSON list of nodes that this
// component draws with Quasar's components and the classes NiceGUI itself uses, so the screen looks as it
// did when every node was its own element. A tap is sent back as {id, value}. What each node's kind ("t") and
// one- or two-letter key holds: webgame/pages/screen_keys.py (tests/web/test_screen_keys.py holds this file to it).
import { h, reactive, resolveComponent } from "vue";

// The veil: every part of the page is drawn covered (the same for every role) unless its owner reveals it.
// Shared by every part of the page, and kept in the browser only: a reveal sends nothing to the server.
// It covers again after a few seconds without a touch, shortly after a confirmed secret choice, when the page
// is hidden, when the phone is turned or laid flat (put down), and when the phase changes.
const veil = reactive({ open: false });
let veilTimer = null;
let flatSince = 0;
let veilKey = null;
let buzzKey = null; // the step this phone last buzzed for (the panel's `buzz` prop)
// The day's colours: the phone's switch, else its own setting (static/phone.js); the night is dark everywhere.
const dayDark = () => (window.mafiaDayDark ? window.mafiaDayDark() : "auto");
const revealMs = () => (typeof window.mafiaRevealMs === "number" ? window.mafiaRevealMs : 10000);
const afterChoiceMs = () => (typeof window.mafiaCoverAfterMs === "number" ? window.mafiaCoverAfterMs : 1500);
function cover() {
  veil.open = false;
  if (veilTimer !== null) clearTimeout(veilTimer);
  veilTimer = null;
}
// A text field with the focus holds the screen open (typing in the mafia's chat, issue 27.3): when the time is up
// the timer starts again instead. Anything that must cover (the page hidden, the phone turned or put down, a new
// phase) still does; what was typed stays in the part (its `texts`) and is there again on the next reveal.
function typing() {
  const field = document.activeElement;
  if (!field) return false;
  if (field.isContentEditable || field.tagName === "TEXTAREA") return true;
  return field.tagName === "INPUT" && !["button", "checkbox", "radio", "submit", "range"].includes(field.type);
}
function timeUp() {
  if (veil.open && typing()) arm(revealMs());
  else cover();
}
function arm(ms) {
  if (veilTimer !== null) clearTimeout(veilTimer);
  veilTimer = setTimeout(timeUp, ms);
}
function reveal() {
  veil.open = true;
  arm(revealMs());
}
if (!window.mafiaVeil) {
  window.mafiaVeil = { cover, reveal, state: veil };
  const touched = () => { if (veil.open) arm(revealMs()); };
  for (const kind of ["pointerdown", "keydown", "input"]) {
    document.addEventListener(kind, touched, { passive: true, capture: true });  // a key is a touch too
  }
  document.addEventListener("visibilitychange", () => { if (document.visibilityState !== "visible") cover(); });
  window.addEventListener("pagehide", cover);
  window.addEventListener("orientationchange", cover);
  if (window.screen && window.screen.orientation && window.screen.orientation.addEventListener) {
    window.screen.orientation.addEventListener("change", cover);
  }
  // Laid flat on the table (face up or down) for a second: put down, so covered.
  window.addEventListener("deviceorientation", (event) => {
    if (event.beta === null || event.gamma === null) return;
    const flat = (Math.abs(event.beta) < 12 || Math.abs(event.beta) > 168) && Math.abs(event.gamma) < 12;
    const now = performance.now();
    if (!flat) flatSince = 0;
    else if (!flatSince) flatSince = now;
    else if (veil.open && now - flatSince > 1000) cover();
  });
}

// Taps made while the page is out of reach of the server (static/phone.js: window.mafiaNet, issue 27.4) wait, marked
// as waiting, and go once the page is back in step, in the order they were made, if the phase they were made in is
// still on (the veil key); otherwise nothing is sent and the phone says so. A chat line is not a move of its phase:
// it goes whatever the phase: its channel is in it, and the server refuses it if that channel is closed now (a night's
// mafia line is never carried into the day's box; a line refused while its box still writes there comes back to it).
// The countdown is marked meanwhile.
const net = reactive({ online: !window.mafiaNet || window.mafiaNet.online });
const waiting = [];
const netWord = (key) => (window.mafiaNetTexts || {})[key] || "";
const inStep = () => !window.mafiaNet || window.mafiaNet.ready;
function flush() {
  if (!inStep() || !waiting.length) return;
  let stale = false;
  for (const item of waiting.splice(0)) {
    delete item.part.pending[item.id];
    if ((item.key === veilKey || item.any) && !item.part.gone) {
      item.part.$emit("tap", { id: item.id, value: item.value });
    } else stale = true;
  }
  if (stale && window.Quasar) {
    window.Quasar.Notify.create({ message: netWord("stale"), type: "warning", position: "top" });
  }
}
window.addEventListener("mafia-net", (event) => {
  net.online = !!event.detail.online;
  flush();
});

// Picks: the player tapped in a grid before the grid's button (Confirm, Nominate) sends him. Kept in the browser
// alone (issue 32: every pick was a message to the server and a padded redraw of the panel as its answer), shared by
// every part of the page, and across a reload of this tab (sessionStorage: a phone that slept too long). A pick's
// group names its grid and step (Draft.pick): a new step has a new group, so no pick of an older one shows or goes.
const pickStore = "mafia-pick:" + location.pathname;
const picks = reactive(savedPick());
function savedPick() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(pickStore) || "null");
    if (saved && typeof saved.g === "string" && Number.isInteger(saved.v)) return { [saved.g]: saved.v };
  } catch (error) { /* no storage (a private window), or not ours: no pick */ }
  return {};
}
function setPick(group, seat) {
  for (const other of Object.keys(picks)) if (other !== group) delete picks[other];
  picks[group] = seat;
  try { sessionStorage.setItem(pickStore, JSON.stringify({ g: group, v: seat })); } catch (error) { /* kept here */ }
}

export default {
  // `seat`: this page's own seat (0: none), beside the model and never in it (a model may be one string shared by
  // every phone of the room, webgame/pages/shared_parts.py): the tile of that seat is marked here, in the browser.
  // `buzz`: the step this viewer has something to do at (the panel's only), beside the model too: the phone vibrates
  // once when it gets a new one (webgame/pages/screen.py, Draft.buzz).
  props: {
    model: { type: String, default: "[]" },
    seat: { type: Number, default: 0 },
    buzz: { type: String, default: "" },
  },
  emits: ["tap"],
  data() {
    return {
      switches: {}, received: performance.now(), now: performance.now(), timer: null,
      texts: {}, channels: {}, refused: {}, held: {}, copied: null, manual: null, pending: {}, gone: false,
    };
  },
  computed: {
    nodes() {
      try {
        const nodes = JSON.parse(this.model);
        return Array.isArray(nodes) ? nodes : [];
      } catch (error) {
        return [];
      }
    },
    pickable() {
      // The grids of this part: group -> the seats a player may pick -> their labels.
      const found = {};
      const walk = (nodes) => {
        for (const node of nodes) {
          if (node.t === "pick" && !node.d) (found[node.g] = found[node.g] || {})[node.v] = node.x;
          if (node.k) walk(node.k);
        }
      };
      walk(this.nodes);
      return found;
    },
  },
  watch: {
    model() {
      this.switches = {};
      this.received = this.now = performance.now();
      this.follow();
    },
    buzz() {
      this.buzzed();
    },
  },
  mounted() {
    this.follow();
    this.buzzed();
    document.querySelector(".mafia-prelude")?.remove(); // the HTML's "Loading..." (mafia.css hides it too)
  },
  beforeUnmount() {
    this.gone = true;
    if (this.timer !== null) clearInterval(this.timer);
  },
  methods: {
    buzzed() {
      // This viewer has something to do at a new step: "your turn" (static/phone.js), once per step.
      if (this.buzz && this.buzz !== buzzKey) {
        buzzKey = this.buzz;
        if (window.mafiaBuzz) window.mafiaBuzz();
      }
    },
    follow() {
      // What a new model asks of the page itself: dark or light colours; a refused chat line back in its box
      // (the part's count of refusals grew), if the box is still empty and still writes to the line's channel.
      for (const node of this.nodes) {
        if (node.t === "dark" && this.$q && this.$q.dark) this.$q.dark.set(node.on ? true : dayDark());
        if (node.t === "vk") {
          // A new phase (or the game's start): covered, and back at the top, its title and countdown in view.
          if (veilKey !== node.v) {
            if (veilKey !== null) cover();
            window.scrollTo(0, 0);
          }
          veilKey = node.v;
        }
      }
      const walk = (nodes) => {
        for (const node of nodes) {
          if (node.t === "chat") {
            const held = this.held[node.id];
            const open = held && (node.opts || []).some(([value]) => value === held.channel);
            if (node.id in this.refused && node.rf > this.refused[node.id] && open && !this.texts[node.id]) {
              this.texts[node.id] = held.text;
              this.channels[node.id] = held.channel;
            }
            this.refused[node.id] = node.rf;
          }
          if (node.k) walk(node.k);
        }
      };
      walk(this.nodes);
    },
    chat(node, q) {
      const id = node.id;
      const options = (node.opts || []).map(([value, label]) => ({ value, label }));
      const known = options.some((option) => option.value === this.channels[id]);
      const channel = known ? this.channels[id] : node.v;
      // The box empties itself when its line goes (the server sends the writer nothing more than every phone gets
      // for a line); the line is held until the next one, to come back if it is refused.
      const send = () => {
        const text = this.texts[id] || "";
        this.held[id] = { channel: channel, text: text };
        this.texts[id] = "";
        this.tap(id, { channel: channel, text: text }, true);
      };
      const parts = [];
      if (options.length > 1) {
        parts.push(h(q.select, {
          key: "channel", class: "w-full", modelValue: channel, options, emitValue: true, mapOptions: true,
          "onUpdate:modelValue": (value) => (this.channels[id] = value),
        }));
      }
      parts.push(h("div", { key: "write", class: "nicegui-row row w-full no-wrap" }, [
        h(q.input, {
          class: "grow", placeholder: node.ph, maxlength: 300, modelValue: this.texts[id] || "", "data-testid": id,
          "onUpdate:modelValue": (value) => (this.texts[id] = value),
          onKeydown: (event) => {
            if (event.key === "Enter" && !event.isComposing) send(); // not the keyboard's Enter inside a word
          },
        }),
        h(q.btn, {
          icon: "send", color: "primary", "aria-label": node.a, "data-testid": node.sid, onClick: send,
          class: this.pending[id] ? "mafia-waiting" : "", "aria-busy": this.pending[id] ? "true" : undefined,
        }),
      ]));
      return h("div", { key: "chat-" + id, class: "nicegui-column w-full" }, parts);
    },
    form(node, q) {
      // A text field and a wide button under it (the join form); Enter sends too. What is typed stays across
      // redraws (another player's join redraws this part).
      const id = node.id;
      const send = () => this.tap(id, { text: this.texts[id] || "" });
      return h("div", { key: "form-" + id, class: "nicegui-column w-full" }, [
        h(q.input, {
          class: "w-full", label: node.lb, maxlength: node.ml, autofocus: node.af !== 0, modelValue: this.texts[id] || "",
          "data-testid": id, "onUpdate:modelValue": (value) => (this.texts[id] = value),
          onKeydown: (event) => {
            if (event.key === "Enter") send();
          },
        }),
        h(q.btn, { class: "w-full mafia-target", label: node.x, color: "primary", "data-testid": node.sid,
                   onClick: send }),
      ]);
    },
    async share(node) {
      // The phone's share sheet; without one (most desktops), the link is copied and the button says so.
      if (navigator.share) {
        try {
          await navigator.share({ title: document.title, text: node.msg, url: node.url });
          return;
        } catch (error) {
          if (error && error.name === "AbortError") return; // the player closed the sheet
        }
      }
      // Over plain http (a LAN: no secure context) there is no share sheet and no clipboard API: the old copy
      // command, and where even that fails, the link in a field, selected, for the phone's own "Copy".
      let copied = true;
      try {
        await navigator.clipboard.writeText(node.url);
      } catch (error) {
        const area = document.createElement("textarea");
        area.value = node.url;
        document.body.appendChild(area);
        area.select();
        try { copied = document.execCommand("copy"); } catch (ignored) { copied = false; }
        area.remove();
      }
      if (!copied) {
        this.manual = node.id;
        this.$nextTick(() => this.$el.querySelector("[data-testid=share-link]")?.select());
        return;
      }
      this.copied = node.id;
      setTimeout(() => { if (this.copied === node.id) this.copied = null; }, 4000);
    },
    tap(id, value, any = false) {
      // `any`: sent when back whatever the phase (a chat line), not only in the phase it was made in.
      const sent = value === undefined ? null : value;
      if (inStep()) {
        this.$emit("tap", { id: id, value: sent });
        return;
      }
      this.pending[id] = true;
      waiting.push({ part: this, id: id, value: sent, key: veilKey, any: any });
      const badge = document.getElementById("mafia-offline");
      if (badge && netWord("waiting")) badge.textContent = netWord("offline") + " · " + netWord("waiting");
    },
    picked(group) {
      // The seat picked in `group`, if he may still be picked (a grid of this part offers him), else null.
      const seat = picks[group];
      if (seat === undefined) return null;
      const seats = this.pickable[group];
      return !seats || seat in seats ? seat : null;
    },
    kids(node, q) {
      return (node.k || []).map((child, index) => this.draw(child, index, q));
    },
    draw(node, key, q) {
      const cls = node.c || "";
      const id = node.id;
      switch (node.t) {
        case "label":
          return h("div", { key, class: cls, "data-testid": id }, node.x);
        case "h":
          return h("h" + (node.l || 1), { key, class: cls, "data-testid": id }, node.x);
        case "div":
          return h("div", { key, class: cls, "data-testid": id }, this.kids(node, q));
        case "row":
          return h("div", { key, class: "nicegui-row row " + cls }, this.kids(node, q));
        case "col":
          return h("div", { key, class: "nicegui-column " + cls, "data-testid": id }, this.kids(node, q));
        case "card":
          return h(q.card, { key, class: "nicegui-card " + cls }, () => this.kids(node, q));
        case "exp":
          return h(
            q.expansion,
            { key: key + (node.o ? "-open" : "-closed"), class: "nicegui-expansion " + cls, label: node.x,
              defaultOpened: !!node.o, "data-testid": id,
              // With an id, the server sends what the fold holds once it is opened (lobby_summary.Folds).
              ...(id ? { "onUpdate:modelValue": (opened) => this.tap(id, !!opened) } : {}) },
            () => h("div", { class: "nicegui-expansion-content" }, this.kids(node, q)),
          );
        case "button": {
          // A grid's button ("g") sends the grid's pick: disabled until there is one, or not drawn when its text
          // names it ("{number}").
          const seat = node.g ? this.picked(node.g) : null;
          const waits = !!node.g && seat === null;
          if (waits && node.x.includes("{number}")) return null;
          return h(
            q.btn,
            {
              key, class: cls + (this.pending[id] ? " mafia-waiting" : ""),
              "aria-busy": this.pending[id] ? "true" : undefined,
              label: seat === null ? node.x : node.x.replace("{number}", () => String(seat)), icon: node.i,
              color: node.col || "primary", outline: !!node.o, noCaps: !!node.n, flat: !!node.f, dense: !!node.f,
              round: !!node.f, disable: !!node.d || waits, "data-testid": waits ? id + "-off" : id,
              "aria-label": node.a,
              onClick: () => {
                this.tap(id, node.g ? seat : undefined);
                if (node.h) arm(afterChoiceMs());
              },
            },
            node.tip ? () => h(q.tooltip, null, () => node.tip) : undefined,
          );
        }
        case "pick": {
          // A player in a grid: picked here, nothing is sent (the grid's button sends him).
          const on = !node.d && picks[node.g] === node.v;
          return h(q.btn, {
            key, class: cls, label: node.x, color: "primary", outline: !on, noCaps: true, disable: !!node.d,
            "data-testid": id, "aria-pressed": on ? "true" : "false", onClick: () => setPick(node.g, node.v),
          });
        }
        case "chosen": {
          const seat = this.picked(node.g);
          const name = seat === null ? undefined : (this.pickable[node.g] || {})[seat];
          if (name !== undefined) return h("div", { key, class: cls, "data-testid": id }, node.x.replace("{name}", () => name));
          return node.y ? h("div", { key, class: "mafia-muted" }, node.y) : null;
        }
        case "link":
          return h(q.btn, {
            key, class: "mafia-target w-full " + cls, label: node.x, icon: node.i, color: "primary", outline: true,
            noCaps: true, href: node.href, target: "_blank", rel: "noopener", "data-testid": id,
          });
        case "share": {
          const copied = this.copied === id;
          return h("div", { key, class: "nicegui-column w-full" }, [
            h(q.btn, {
              class: "mafia-target w-full", label: copied ? node.y : node.x, icon: copied ? "check" : "share",
              color: "primary", noCaps: true, "data-testid": id, onClick: () => this.share(node),
            }),
            h("div", { class: "mafia-sr", role: "status", "aria-live": "polite" }, copied ? node.y : ""),
            this.manual === id
              ? h("input", { class: "w-full", readonly: true, value: node.url, "aria-label": node.x,
                             "data-testid": "share-link", onFocus: (event) => event.target.select() })
              : null,
          ]);
        }
        case "badge":
          return h(q.badge, { key, color: node.col, label: node.x });
        case "icon":
          return h(q.icon, { key, name: node.i });
        case "dot":
          return h("span", { key, class: "mafia-dot " + (node.on ? "mafia-dot-on" : "mafia-dot-off") });
        case "toggle":
          // The chosen option is filled and ticked; the others are grey: which one is on shows at a glance.
          return h(q.toggle, {
            key, class: cls, "data-testid": id, modelValue: node.v, color: "grey-7", textColor: "white",
            toggleColor: "primary", toggleTextColor: "white", unelevated: true, spread: true, noCaps: true,
            options: (node.opts || []).map(([value, label]) => ({
              value, label: (value === node.v ? "✓ " : "") + label, attrs: { "aria-pressed": value === node.v },
            })),
            "onUpdate:modelValue": (value) => this.tap(id, value),
          });
        case "switch": {
          const on = id in this.switches ? this.switches[id] : !!node.v;
          return h(q.switch, {
            key, label: node.x, modelValue: on, "data-testid": id,
            "onUpdate:modelValue": (value) => {
              this.switches[id] = value;
              this.tap(id, value);
            },
          });
        }
        case "clock": {
          // The server sends the milliseconds left when it drew the part; the phone counts down on its own.
          if (typeof node.ms !== "number") return h("div", { key, class: cls, "data-testid": id }, node.x);
          if (this.timer === null) this.timer = setInterval(() => (this.now = performance.now()), 250);
          const left = Math.max(0, node.ms - (this.now - this.received));
          const whole = Math.max(0, Math.floor(left / 1000 + 0.999));
          const text = Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
          const late = net.online ? "" : " mafia-waiting"; // offline: the server's clock may say otherwise
          return h("div", { key, class: cls + late, "data-testid": id, "aria-busy": late ? "true" : undefined }, text);
        }
        case "select": {
          const value = id in this.switches ? this.switches[id] : node.v;
          return h(q.select, {
            key, class: cls, modelValue: value, "data-testid": id, "aria-label": node.a, dense: true,
            optionsDense: true, borderless: true, emitValue: true, mapOptions: true,
            options: (node.opts || []).map(([value, label]) => ({ value, label })),
            "onUpdate:modelValue": (value) => {
              this.switches[id] = value;
              this.tap(id, value);
            },
          });
        }
        case "chat":
          return this.chat(node, q);
        case "form":
          return this.form(node, q);
        case "img":
          return h("img", { key, class: cls, src: node.src, alt: node.a || "" });
        case "theme": {
          // The switch between the day's dark and light colours: in this browser only, nothing is sent.
          const dark = !!(this.$q && this.$q.dark && this.$q.dark.isActive);
          return h(q.btn, {
            key, class: cls, flat: true, round: true, dense: true, icon: dark ? "light_mode" : "dark_mode",
            "aria-label": node.a, title: node.a, "aria-pressed": dark ? "true" : "false", "data-testid": id,
            onClick: () => {
              const next = !this.$q.dark.isActive;
              if (window.mafiaSetDayDark) window.mafiaSetDayDark(next);
              this.$q.dark.set(next);
            },
          });
        }
        case "dark":
        case "vk":
          return null;
        case "cov":
          return veil.open ? null : h("div", { key: key + "c", class: "mafia-screen" }, this.kids(node, q));
        case "rev":
          return veil.open ? h("div", { key: key + "r", class: "mafia-screen" }, this.kids(node, q)) : null;
        case "bar":
          return h("div", { key, class: "mafia-bar" }, [h("div", { class: "mafia-bar-in" }, this.kids(node, q))]);
        case "tile": {
          const mine = this.seat && id === "tile-" + this.seat; // this phone's own seat (the `seat` prop)
          return h("div", {
            key, class: "mafia-tile" + (mine ? " mafia-me" : "") + (node.dd ? " mafia-dead" : ""),
            "data-testid": id,
          }, node.x);
        }
        case "reveal":
          // Covered: "Show" with its eye; revealed: only the crossed eye (its name for screen readers), so the
          // move's own buttons have the width.
          return h(q.btn, {
            key: key + (veil.open ? "-open" : "-shut"), class: "mafia-target mafia-reveal " + cls,
            label: veil.open ? undefined : node.x, icon: veil.open ? "visibility_off" : "visibility",
            color: "primary", outline: veil.open, noCaps: true, "data-testid": veil.open ? node.cid : node.id,
            "aria-label": veil.open ? node.y : node.x, title: veil.open ? node.y : node.x,
            onClick: () => (veil.open ? cover() : reveal()),
          });
        case "slot": {
          // The element's NiceGUI children of one slot: the default one (the step's counts), or a named one (the
          // night's cover, a part of its own shared by every phone).
          const fill = this.$slots[node.s || "default"];
          return fill ? h("div", { key, class: "mafia-screen" }, fill()) : null;
        }
        default:
          return null;
      }
    },
  },
  render() {
    const q = {
      btn: resolveComponent("q-btn"),
      card: resolveComponent("q-card"),
      expansion: resolveComponent("q-expansion-item"),
      badge: resolveComponent("q-badge"),
      icon: resolveComponent("q-icon"),
      toggle: resolveComponent("q-btn-toggle"),
      switch: resolveComponent("q-toggle"),
      tooltip: resolveComponent("q-tooltip"),
      select: resolveComponent("q-select"),
      input: resolveComponent("q-input"),
    };
    return h("div", { class: "mafia-screen" }, this.nodes.map((node, index) => this.draw(node, index, q)));
  },
};
