"""Record the TV narrator's phrases for browsers without a voice for the room's language (often Uzbek).

Run from the repository root after changing a narrator phrase or its translation (and after
``pybabel compile``)::

    apt-get install -y espeak-ng opus-tools     # Debian's offline speech synthesizer and Opus encoder
    .venv/bin/python scripts/narrator_clips.py         # records the clips whose text changed
    .venv/bin/python scripts/narrator_clips.py --check # only compares the manifest with the catalogs

Each clip is ``webgame/static/narrator/<lang>/<clip>.ogg`` (Opus, mono, 8 kbit/s: 1-5 KB), made by
espeak-ng from ``webgame.pages.narration.clip_texts`` in that language; ``manifest.json`` keeps the text each clip
was made from, so ``tests/web/test_narration.py`` finds a clip that no longer matches its translation. The
clips are committed: CI and the Docker image need neither espeak-ng nor opus-tools. The two phase-change
sounds (``cue-night.ogg``, ``cue-day.ogg``) are synthesised here too (a soft falling or rising chime).
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import struct
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from webgame.language.i18n import LANGUAGES, translator  # noqa: E402
from webgame.pages.narration import clip_texts  # noqa: E402

OUT = ROOT / "webgame" / "static" / "narrator"
MANIFEST = OUT / "manifest.json"
# espeak-ng 1.51 (Debian 12) has a voice for each of the five languages.
VOICES = {"en": "en-gb", "uz": "uz", "uk": "uk", "ro": "ro", "ru": "ru"}
SPEED = 150  # words per minute: a narrator speaks slowly and clearly
BITRATE = "8"  # kbit/s: speech stays clear, a clip is 1-5 KB


def expected() -> dict[str, dict[str, str]]:
    """Language -> clip id -> the text it must say, from the compiled catalogs."""
    return {language: clip_texts(translator(language)) for language in LANGUAGES}


def record(text: str, voice: str, target: Path, work: Path) -> None:
    raw = work / "clip.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(SPEED), "-w", str(raw), text], check=True)
    encode(raw, target)


def encode(raw: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["opusenc", "--quiet", "--bitrate", BITRATE, "--downmix-mono", "--serial", "1",
                    str(raw), str(target)], check=True)


def chime(path: Path, notes: list[float]) -> None:
    """A soft chime of ``notes`` (Hz), each 0.35 s with a fast attack and a slow decay, quiet."""
    rate = 24000
    samples: list[int] = []
    for frequency in notes:
        length = int(rate * 0.35)
        for index in range(length):
            t = index / rate
            envelope = min(1.0, t / 0.01) * math.exp(-t * 7)
            value = 0.25 * envelope * (math.sin(2 * math.pi * frequency * t)
                                       + 0.3 * math.sin(4 * math.pi * frequency * t))
            samples.append(int(max(-1.0, min(1.0, value)) * 32767))
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(struct.pack(f"<{len(samples)}h", *samples))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only compare the manifest with the catalogs")
    parser.add_argument("--all", action="store_true", help="record every clip again")
    args = parser.parse_args(argv)
    wanted = expected()
    old: dict[str, dict[str, str]] = json.loads(MANIFEST.read_text("utf-8")) if MANIFEST.exists() else {}
    stale = [(language, clip) for language, texts in wanted.items() for clip, text in texts.items()
             if args.all or old.get(language, {}).get(clip) != text
             or not (OUT / language / f"{clip}.ogg").exists()]
    if args.check:
        for language, clip in stale:
            print(f"{language}/{clip}.ogg: to record again ({wanted[language][clip]!r})")
        return 1 if stale else 0
    for tool in ("espeak-ng", "opusenc"):
        if shutil.which(tool) is None:
            print(f"{tool} is missing: apt-get install -y espeak-ng opus-tools", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for language, clip in stale:
            record(wanted[language][clip], VOICES[language], OUT / language / f"{clip}.ogg", work)
        for name, notes in (("cue-night", [659.3, 523.3, 392.0]), ("cue-day", [392.0, 523.3, 659.3])):
            if args.all or not (OUT / f"{name}.ogg").exists():
                chime(work / "cue.wav", notes)
                encode(work / "cue.wav", OUT / f"{name}.ogg")
    for language, texts in wanted.items():  # clips no longer in the catalog
        for path in (OUT / language).glob("*.ogg"):
            if path.stem not in texts:
                path.unlink()
    MANIFEST.write_text(json.dumps(wanted, ensure_ascii=False, indent=1, sort_keys=True) + "\n", "utf-8")
    print(f"{len(stale)} clips recorded; {sum(len(t) for t in wanted.values())} in all")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
