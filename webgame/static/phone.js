// Small helpers for phones. Static code: the server only ever calls these functions by name, with no
// player text in the call.
(function () {
  "use strict";
  let wakeLock = null;
  let wantWakeLock = false;
  let audio = null;

  async function requestWakeLock() {
    if (!wantWakeLock || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
    } catch (e) {
      wakeLock = null; // refused (battery saver, no user gesture yet): the game works without it
    }
  }

  // Keep the screen on during a game (Screen Wake Lock API, where the browser has it).
  window.mafiaWakeLock = function (on) {
    wantWakeLock = !!on;
    if (wantWakeLock) {
      if (!wakeLock) requestWakeLock();
    } else if (wakeLock) {
      wakeLock.release().catch(() => {});
      wakeLock = null;
    }
  };
  document.addEventListener("visibilitychange", () => { if (!wakeLock) requestWakeLock(); });
  document.addEventListener("pointerdown", () => { if (!wakeLock) requestWakeLock(); }, { passive: true });

  // The day's colours: dark or light as the phone's switch says (kept in this browser), else as the phone's
  // own setting (prefers-color-scheme: Quasar's "auto"). The night's screens are dark on every phone whatever
  // this says (webgame/pages/screen.js).
  const THEME_KEY = "mafia-theme";
  window.mafiaDayDark = function () {
    try {
      const kept = window.localStorage.getItem(THEME_KEY);
      if (kept === "dark" || kept === "light") return kept === "dark";
    } catch (e) { /* no storage (private mode): the phone's setting */ }
    return "auto";
  };
  window.mafiaSetDayDark = function (dark) {
    try { window.localStorage.setItem(THEME_KEY, dark ? "dark" : "light"); } catch (e) { /* not kept */ }
  };

  // The connection's state within 3 s (issue 27.4). The server sends a "beat" to every socket that heard nothing
  // for 1.125 s (webgame/browser/heartbeat.py); any packet is a sign of life. Silence for OFFLINE_MS, the socket's
  // own disconnect or the browser's "offline" event shows a badge at the top of the screen (never over the bottom
  // bar, where NiceGUI's own "Connection lost" popup sat: hidden while this runs). Taps made meanwhile wait
  // (pages/screen.js) until the page is back in step: online, its handshake done and, after a loss, the messages
  // it missed in. On a socket that connected again they are replayed: the server's mafiaCaughtUp for this socket
  // comes behind them (sent at every handshake). A socket that was kept (a silent Wi-Fi that came back: nothing lost, only held) gets what was
  // held at once: two messages heard since (beats or updates: a busy page hears no beats). Failing both, a packet
  // heard SETTLE_MS after the page was back. State changes are told with a "mafia-net" event: {online, ready}.
  const OFFLINE_MS = 2500;
  const net = { online: true, ready: false, recovering: false };
  let socket = null;
  let connected = false; // once: before its first connection a page is loading, not offline
  let heard = 0;
  let backAt = 0; // when the page was heard again after a loss
  let caughtUp = false; // this socket's replay is in (window.mafiaCaughtUp)
  let signs = 0; // socket.io messages heard since the loss
  let rejoined = false; // the socket connected again since the loss (its CONNECT and handshake's answer: no signs)
  const SETTLE_MS = 2000;
  function netText(key) {
    const texts = window.mafiaNetTexts || {};
    return texts[key] || "";
  }
  function badge() {
    let element = document.getElementById("mafia-offline");
    if (!element && document.body) {
      element = document.createElement("div");
      element.id = "mafia-offline";
      element.className = "mafia-offline";
      element.setAttribute("role", "status");
      element.setAttribute("aria-live", "assertive");
      element.setAttribute("data-testid", "offline");
      element.hidden = true;
      document.body.appendChild(element);
    }
    return element;
  }
  function judge() {
    if (!socket || !connected) return;
    const online = socket.connected && navigator.onLine !== false && performance.now() - heard < OFFLINE_MS;
    if (!online) {
      net.recovering = true;
      backAt = 0;
      caughtUp = false;
      signs = 0;
      rejoined = false;
    } else if (net.recovering) {
      if (!backAt) backAt = performance.now();
      const inStep = caughtUp || (!rejoined && signs >= 2) || heard - backAt >= SETTLE_MS;
      if (window.did_handshake && inStep) net.recovering = false;
    }
    const ready = online && !net.recovering && !!window.did_handshake;
    if (online === net.online && ready === net.ready) return;
    net.online = online;
    net.ready = ready;
    const element = badge();
    if (element) {
      element.textContent = netText("offline");
      element.hidden = online;
    }
    document.documentElement.classList.toggle("mafia-is-offline", !online);
    window.dispatchEvent(new CustomEvent("mafia-net", { detail: { online, ready } }));
  }
  function watch() {
    const current = window.socket;
    if (!current || current === socket || !current.io) return;
    socket = current;
    heard = performance.now();
    socket.io.on("packet", () => { heard = performance.now(); signs += 1; });
    socket.io.on("ping", () => { heard = performance.now(); });
    connected = connected || socket.connected;
    socket.on("connect", () => {
      heard = performance.now();
      caughtUp = false;
      rejoined = true;
      connected = true;
    });
    socket.on("disconnect", judge);
    document.documentElement.classList.add("mafia-net");  // our badge instead of NiceGUI's popup (mafia.css)
  }
  window.mafiaNet = net;
  window.mafiaCaughtUp = function (socketId) {
    if (socket && socket.id === socketId) { caughtUp = true; judge(); }
  };
  setInterval(() => { watch(); judge(); }, 200);
  window.addEventListener("offline", judge);
  window.addEventListener("online", judge);

  // "Your turn": a short vibration and a short beep, where the phone allows them.
  window.mafiaBuzz = function () {
    try { if (navigator.vibrate) navigator.vibrate([120, 60, 120]); } catch (e) { /* not allowed */ }
    try {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      audio = audio || new Context();
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = 880;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start();
      oscillator.stop(audio.currentTime + 0.25);
    } catch (e) { /* no sound before the first tap: fine */ }
  };
})();
