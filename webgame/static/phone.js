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
