"""What a chat line may be, and how fast one person may write: checked before any work is spent on the line.

Every attempt counts against the writer's flood control, the refused ones too (too long, empty): a line refused
for its length used to skip it, so a script could send refused megabytes as fast as it liked, each costing a
walk over every character. A line longer than ``INPUT_CUT`` is refused from its length alone, before anything
looks at its characters.
"""

from __future__ import annotations

import unicodedata

from webgame.errors import Refusal
from webgame.language.i18n import N_

CHAT_MAX_LENGTH = 300
CHAT_BURST, CHAT_WINDOW = 5, 10.0  # flood control: at most this many messages per writer in this many seconds
INPUT_CUT = 4 * CHAT_MAX_LENGTH  # longer than this (spaces and invisible characters included): refused at once
SHOWN = 20  # lines of a chat a phone shows at once (older ones a page at a time, on request)


def admit(times: dict[str, list[float]], writer: str, text: object, now: float) -> str:
    """The line as it will be kept, or a Refusal; the attempt is counted in ``times[writer]`` either way (except
    when the writer is already over his limit)."""
    recent = [moment for moment in times.get(writer, []) if now - CHAT_WINDOW < moment <= now]
    if len(recent) >= CHAT_BURST:
        times[writer] = recent
        raise Refusal(N_("You are writing too fast. Wait a few seconds."))
    times[writer] = [*recent, now]
    if not isinstance(text, str):
        raise Refusal(N_("Write something first."))
    if len(text) > INPUT_CUT:
        raise Refusal(N_("A message can have at most {count} characters."), count=CHAT_MAX_LENGTH)
    clean = "".join(char for char in text.strip() if unicodedata.category(char) not in {"Cc", "Cf"})
    if not clean:
        raise Refusal(N_("Write something first."))
    if len(clean) > CHAT_MAX_LENGTH:
        raise Refusal(N_("A message can have at most {count} characters."), count=CHAT_MAX_LENGTH)
    return clean
