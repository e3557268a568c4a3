"""Checking a scenario's ``expect`` block against a replay: the project's scenario checker.

``expect`` may hold ``error_step`` (null or the rejected step), ``winner``, and ``steps``: a
list of ``{"at": i, ...}`` whose ``alive``, ``winner`` and ``roles`` must equal the replay's,
whose ``events`` must each appear (as a subset of keys) among that step's events, and whose
``no_events`` names event types that must not appear.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.scenario import Result

_MISSING = object()


def problems(expect: Mapping[str, Any], result: Result) -> list[str]:
    """Every way the replay differs from ``expect``; empty when it matches."""
    found: list[str] = []
    error_step = result.error["step"] if result.error else None
    if expect.get("error_step", _MISSING) is not _MISSING and expect.get("error_step") != error_step:
        found.append(f"error_step: expected {expect.get('error_step')}, got {error_step} ({result.error})")
    if "winner" in expect and expect["winner"] != result.winner:
        found.append(f"winner: expected {expect['winner']}, got {result.winner}")
    for item in expect.get("steps", []):
        at = item["at"]
        if at >= len(result.steps):
            found.append(f"step {at}: not reached ({len(result.steps)} steps accepted)")
            continue
        step = result.steps[at]
        for key in ("alive", "winner", "roles"):
            if key in item and item[key] != step[key]:
                found.append(f"step {at}: {key} expected {item[key]}, got {step[key]}")
        for event in item.get("events", []):
            if not any(all(actual.get(k) == v for k, v in event.items()) for actual in step["events"]):
                found.append(f"step {at}: missing event {event}; got {step['events']}")
        for type_ in item.get("no_events", []):
            if any(actual["type"] == type_ for actual in step["events"]):
                found.append(f"step {at}: unexpected {type_} event in {step['events']}")
    return found
