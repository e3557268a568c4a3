// The TV's narrator (/r/CODE/screen only; never loaded on a phone). Static code: the server never calls it with
// text. The page renders each line the narrator says as an element of its own (escaped by NiceGUI):
//   <div class="mafia-narration" data-lang="uz" data-on="1">
//     <div data-line="7" data-clips="n3 p-died-night" data-cue="day">3. Aziz died tonight.</div>
//     <div data-line="8" data-cue="day" data-silent="1">Day 1: defence</div>   (a caption and a sound only)
// and this script says each new line once, in order: the phase-change sound (data-cue), then the element's text
// through the browser's speech synthesis when it has a voice for data-lang, else the recorded clips
// /static/narrator/<lang>/<clip>.ogg one after the other (a seat's number, then the rest of the sentence).
// Sound needs a tap first in most browsers: while it is blocked, the page's [data-narrator-unlock] button shows.
(function () {
  "use strict";
  const BASE = "/static/narrator/";
  const queue = [];
  let lastLine = 0;
  let busy = false;
  let unlocked = false;
  let blocked = false;
  let audio = null;
  let watchdog = null;
  let context = null;
  let pending = null;

  function root() { return document.querySelector(".mafia-narration"); }

  function isOn() {
    const el = root();
    return !!el && el.dataset.on === "1";
  }

  function language() {
    const el = root();
    return (el && el.dataset.lang) || "en";
  }

  function voiceFor(lang) {
    if (!("speechSynthesis" in window)) return null;
    const voices = window.speechSynthesis.getVoices() || [];
    const wanted = lang.toLowerCase();
    return voices.find((v) => (v.lang || "").toLowerCase().replace("_", "-").split("-")[0] === wanted) || null;
  }

  function showUnlock(show) {
    blocked = show;
    document.querySelectorAll("[data-narrator-unlock]").forEach((el) => {
      el.style.display = show ? "" : "none";
    });
  }

  // Whether this browser lets the page play sound before a tap (an AudioContext starts "suspended" if not).
  function soundAllowed() {
    if (unlocked) return true;
    try {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return true;
      context = context || new Context();
      if (context.state === "running") { unlocked = true; return true; }
    } catch (e) { /* no Web Audio: try to play and see */ return true; }
    if (navigator.userActivation && navigator.userActivation.hasBeenActive) { unlocked = true; return true; }
    return false;
  }

  function unlock() {
    unlocked = true;
    try { if (context) context.resume(); } catch (e) { /* fine */ }
    try {
      if ("speechSynthesis" in window) {
        const silent = new SpeechSynthesisUtterance(" ");
        silent.volume = 0;
        window.speechSynthesis.speak(silent); // speech needs a tap once, like audio
      }
    } catch (e) { /* fine */ }
    showUnlock(false);
    next();
  }

  function player() {
    if (!audio) {
      audio = new Audio();
      audio.preload = "auto";
    }
    return audio;
  }

  // Each item has a number: a late "ended" (or the watchdog) of an item already left behind changes nothing.
  let serial = 0;

  function finish(token) {
    if (token !== serial || !busy) return;
    if (watchdog) { clearTimeout(watchdog); watchdog = null; }
    busy = false;
    next();
  }

  function arm(ms, token) {
    if (watchdog) clearTimeout(watchdog);
    watchdog = setTimeout(() => finish(token), ms); // a browser that never says "ended": go on anyway
  }

  function playClips(urls, then, token) {
    if (token !== serial) return;
    if (!urls.length) { then(); return; }
    const el = player();
    const rest = urls.slice(1);
    el.onended = () => playClips(rest, then, token);
    el.onerror = () => playClips(rest, then, token); // a missing clip: say the rest
    el.src = urls[0];
    arm(8000, token);
    let started;
    try { started = el.play(); } catch (e) { started = null; }
    if (started && typeof started.catch === "function") {
      started.catch((error) => {
        if (token === serial && error && error.name === "NotAllowedError") {
          unlocked = false;
          queue.unshift(pending); // said again after the tap
          serial += 1;
          busy = false;
          if (watchdog) { clearTimeout(watchdog); watchdog = null; }
          showUnlock(true);
        }
      });
    }
  }

  function speak(item, token) {
    const lang = language();
    const voice = voiceFor(lang);
    const cue = item.cue ? [BASE + "cue-" + item.cue + ".ogg"] : [];
    const done = () => finish(token);
    if (item.silent) { playClips(cue, done, token); return; } // a phase change without words: its sound only
    if (voice) {
      playClips(cue, () => {
        const utterance = new SpeechSynthesisUtterance(item.text);
        utterance.lang = voice.lang || lang;
        try { utterance.voice = voice; } catch (e) { /* a voice object the browser does not take */ }
        utterance.rate = 0.95;
        utterance.onend = done;
        utterance.onerror = (event) => {
          if (event && event.error === "not-allowed") { unlocked = false; showUnlock(true); }
          done();
        };
        arm(Math.max(6000, item.text.length * 150), token);
        window.speechSynthesis.speak(utterance);
      }, token);
      return;
    }
    const clips = item.clips.map((clip) => BASE + lang + "/" + clip + ".ogg");
    playClips(cue.concat(clips), done, token);
  }

  function next() {
    if (busy || !queue.length) return;
    if (!isOn()) { queue.length = 0; return; }
    if (!soundAllowed()) { showUnlock(true); return; }
    busy = true;
    pending = queue.shift();
    serial += 1;
    speak(pending, serial);
  }

  // New lines, in the order of their numbers, each once.
  function scan() {
    const el = root();
    if (!el) return;
    const lines = Array.from(el.querySelectorAll("[data-line]"))
      .map((node) => ({ n: Number(node.dataset.line), node }))
      .filter((line) => line.n > lastLine)
      .sort((a, b) => a.n - b.n);
    for (const line of lines) {
      lastLine = line.n;
      if (!isOn()) continue;
      queue.push({
        text: line.node.textContent.trim(),
        clips: (line.node.dataset.clips || "").split(" ").filter(Boolean),
        cue: line.node.dataset.cue || "",
        silent: line.node.dataset.silent === "1",
      });
    }
    if (isOn() && !soundAllowed()) showUnlock(true);
    else if (blocked && (!isOn() || unlocked)) showUnlock(false);
    next();
  }

  window.mafiaNarrator = { scan: scan, unlock: unlock };
  document.addEventListener("pointerdown", () => { if (!unlocked) unlock(); }, { passive: true });
  document.addEventListener("keydown", () => { if (!unlocked) unlock(); }); // a TV's remote
  setInterval(scan, 250);
  // Chrome loads its voices on the first call: ask early, so the first line finds them.
  if ("speechSynthesis" in window) window.speechSynthesis.getVoices();
})();
