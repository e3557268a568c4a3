"""``python -m engine.rules_doc``: the option tables and the role tables as Markdown, for docs/RULES.md.

A test checks that docs/RULES.md holds exactly these tables, so the document cannot drift from
the engine. The role texts are the ones the app shows (the lobby's role help, the role card's help),
translated from the same table (``engine.roles``).
"""

from __future__ import annotations

import sys

from engine.options import OPTION_TABLES, OptionSpec
from engine.roles import ROLE_TABLES, TEAM_NAMES


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return f"`{value}`"


def _allowed(spec: OptionSpec) -> str:
    if isinstance(spec.default, bool):
        return "on / off"
    if isinstance(spec.default, int):
        return f"{spec.minimum}-{spec.maximum}"
    return " / ".join(f"`{c}`" for c in spec.choices)


def option_table(rules: str) -> str:
    lines = ["| option | default | values | what it means |", "|---|---|---|---|"]
    for spec in OPTION_TABLES[rules]:
        lines.append(f"| `{spec.name}` | {_value(spec.default)} | {_allowed(spec)} | {spec.label}: {spec.help} |")
    return "\n".join(lines)


def role_table(rules: str) -> str:
    lines = ["| role | team | what it does |", "|---|---|---|"]
    for info in ROLE_TABLES[rules].values():
        lines.append(f"| {info.name} (`{info.role}`) | {TEAM_NAMES[info.team]} | {info.description} |")
    return "\n".join(lines)


def main() -> int:
    for rules in ROLE_TABLES:
        print(f"<!-- roles:{rules} -->\n{role_table(rules)}\n<!-- /roles:{rules} -->\n")
    for rules in OPTION_TABLES:
        print(f"<!-- options:{rules} -->\n{option_table(rules)}\n<!-- /options:{rules} -->\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
