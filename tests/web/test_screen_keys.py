"""The screen nodes' one- and two-letter keys are defined once (``webgame.pages.screen_keys``), and the three files
that use them keep to that table: ``screen.py`` writes exactly those keys and kinds, ``screen.js`` draws exactly
those, ``screen_model.py`` reads only those. A key renamed on one side alone would draw nothing in the browser
(or read nothing in the tests' view of a phone) without any error."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from webgame.pages.screen_keys import NODE_KEYS, NODE_KINDS

PAGES = Path(__file__).resolve().parents[2] / "webgame" / "pages"


def js_keys(source: str) -> set[str]:
    """Every key the browser's component reads of a node (``node.x``, ``node["x"]``)."""
    return set(re.findall(r"\bnode\.(\w+)", source)) | set(re.findall(r"\bnode\[[\"'](\w+)[\"']\]", source))


def js_kinds(source: str) -> set[str]:
    """Every kind the browser's component draws (its ``case "label":`` ...)."""
    return set(re.findall(r"\bcase \"(\w+)\":", source))


def _node_dicts(tree: ast.AST) -> list[ast.Dict]:
    """The dict literals that are nodes: those with a kind (``"t"``)."""
    return [n for n in ast.walk(tree) if isinstance(n, ast.Dict)
            and any(isinstance(k, ast.Constant) and k.value == "t" for k in n.keys)]


def _node_subscripts(tree: ast.AST) -> set[str]:
    """The keys named as ``node["x"]`` and ``node.get("x")``."""
    found: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == "node" \
                and isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, str):
            found.add(n.slice.value)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get" \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == "node" and n.args \
                and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str):
            found.add(n.args[0].value)
    return found


def py_keys(source: str) -> set[str]:
    """Every key ``screen.py`` writes into a node (in a node's literal, or as ``node["x"] = ...``)."""
    tree = ast.parse(source)
    keys = {k.value for d in _node_dicts(tree) for k in d.keys if isinstance(k, ast.Constant)}
    return keys | _node_subscripts(tree)


def py_kinds(source: str) -> set[str]:
    """Every kind ``screen.py`` writes (the ``"t"`` of its node literals)."""
    return {v.value for d in _node_dicts(ast.parse(source)) for k, v in zip(d.keys, d.values, strict=True)
            if isinstance(k, ast.Constant) and k.value == "t" and isinstance(v, ast.Constant)}


def model_reads(source: str) -> tuple[set[str], set[str]]:
    """The keys ``screen_model.py`` reads of a node, and the strings it compares with (kinds, among others)."""
    tree = ast.parse(source)
    compared = {c.value for n in ast.walk(tree) if isinstance(n, ast.Compare)
                for c in n.comparators if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    listed = {e.value for n in ast.walk(tree) if isinstance(n, ast.Compare)  # key not in ("y", "cid")
              for c in n.comparators if isinstance(c, ast.Tuple)
              for e in c.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return _node_subscripts(tree) | listed, compared


def _read(name: str) -> str:
    return (PAGES / name).read_text(encoding="utf-8")


def test_the_browser_draws_exactly_the_keys_and_kinds_of_the_table() -> None:
    js = _read("screen.js")
    assert js_keys(js) == set(NODE_KEYS)
    assert js_kinds(js) == set(NODE_KINDS)


def test_the_server_writes_exactly_the_keys_and_kinds_of_the_table() -> None:
    py = _read("screen.py")
    assert py_keys(py) == set(NODE_KEYS)
    assert py_kinds(py) == set(NODE_KINDS)


def test_the_model_reader_reads_only_keys_and_kinds_of_the_table() -> None:
    keys, compared = model_reads(_read("screen_model.py"))
    assert keys and keys <= set(NODE_KEYS)
    assert compared and compared <= set(NODE_KINDS)


def test_a_key_or_kind_changed_on_one_side_alone_is_caught() -> None:
    """The readers above see a change on each side (so the equalities above fail when only one side changes)."""
    js, py = _read("screen.js"), _read("screen.py")
    assert js_keys(js.replace("node.tip", "node.tt")) != set(NODE_KEYS)  # a key renamed in the browser only
    assert js_kinds(js.replace('case "tile":', 'case "tl":')) != set(NODE_KINDS)  # a kind renamed there only
    assert py_keys(py.replace('node["tip"] = tip', 'node["tt"] = tip')) != set(NODE_KEYS)  # on the server only
    assert py_kinds(py.replace('{"t": "tile", "x": text}', '{"t": "tl", "x": text}')) != set(NODE_KINDS)
    keys, _ = model_reads(_read("screen_model.py").replace('node.get("tip")', 'node.get("tt")'))
    assert not keys <= set(NODE_KEYS)
