"""Every scenario file in tests/scenarios replays as its ``expect`` says, in-process and via the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.expect import problems
from engine.scenario import run

SCENARIOS = sorted((Path(__file__).parent.parent / "scenarios").glob("*.json"))
ROOT = Path(__file__).parent.parent.parent


def test_there_are_scenarios_for_both_rule_sets() -> None:
    rules = {json.loads(p.read_text())["rules"] for p in SCENARIOS}
    assert rules == {"uz", "uk"}
    assert len(SCENARIOS) >= 44


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_matches_expect(path: Path) -> None:
    data = json.loads(path.read_text())
    assert "expect" in data, "a scenario without expect checks nothing"
    result = run(data)
    assert problems(data["expect"], result) == []


@pytest.mark.parametrize("path", SCENARIOS[:3] + [p for p in SCENARIOS if "no-shooting" in p.name],
                         ids=lambda p: p.stem)
def test_cli_exit_code_and_output(path: Path) -> None:
    data = json.loads(path.read_text())
    proc = subprocess.run([sys.executable, "-m", "engine.replay", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=30)
    expected_code = 0 if data["expect"].get("error_step") is None else 1
    assert proc.returncode == expected_code, proc.stderr
    output = json.loads(proc.stdout)
    assert set(output) == {"steps", "winner", "error"}
    assert output["winner"] == data["expect"].get("winner")


def test_unreadable_files_exit_2(tmp_path: Path) -> None:
    cases = {"bad.json": "{not json", "shape.json": json.dumps({"rules": "chess", "roles": [], "steps": []}),
             "steps.json": json.dumps({"rules": "uz", "roles": ["mafia"] * 4, "steps": [{"dance": 1}]})}
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        proc = subprocess.run([sys.executable, "-m", "engine.replay", str(path)], cwd=ROOT,
                              capture_output=True, text=True, timeout=30)
        assert proc.returncode == 2, name
        assert proc.stderr.strip(), name
    missing = subprocess.run([sys.executable, "-m", "engine.replay", str(tmp_path / "nope.json")], cwd=ROOT,
                             capture_output=True, text=True, timeout=30)
    assert missing.returncode == 2
