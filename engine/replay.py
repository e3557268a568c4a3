"""``python -m engine.replay FILE``: replay a scenario file and print the result as JSON.

Exit 0 when every step was accepted, 1 when a step was rejected, 2 when the file is unreadable.
"""

from __future__ import annotations

import json
import sys

from engine.scenario import ScenarioFormatError, run


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m engine.replay FILE.json", file=sys.stderr)
        return 2
    try:
        with open(argv[0], encoding="utf-8") as handle:
            data = json.load(handle)
        result = run(data)
    except (OSError, ValueError) as exc:  # ScenarioFormatError and JSON errors are ValueErrors
        kind = "not a scenario" if isinstance(exc, ScenarioFormatError) else "cannot read"
        print(f"{argv[0]}: {kind}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result.as_dict(), ensure_ascii=False, indent=1))
    return 1 if result.error else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
