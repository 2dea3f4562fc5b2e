"""Code names a problem code by its string, and every such string is a row of a room's table (mr.problems.ROOMS):
a misspelt code fails here, not when a harvest first meets the case."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from ckanext.passport.mr.problems import catalogue

PACKAGE = Path(__file__).resolve().parent.parent / "ckanext" / "passport"
CODE_SHAPE = re.compile(r"[a-z][a-z0-9_]*(\.[a-z0-9_]+)+")
KNOWN = set(catalogue())
# The first words of the codes (fetch., config., site_check. …): a dotted string starting with one is a code.
ROOM_WORDS = {code.split(".", 1)[0] for code in KNOWN}


def strings(node: ast.AST) -> list[ast.Constant]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def named_codes(tree: ast.AST) -> list[ast.Constant]:
    """What a module passes to ``problem(...)`` as its code, compares a ``code`` with, and every other dotted string
    that starts with a code's first word."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "problem":
            found += strings(node.args[0]) if node.args else []
        elif isinstance(node, ast.Compare) and "code" in ast.unparse(node):
            found += [n for n in strings(node) if CODE_SHAPE.fullmatch(n.value)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE_SHAPE.fullmatch(node.value) \
                and node.value.split(".", 1)[0] in ROOM_WORDS:
            found.append(node)
    return found


def test_every_code_the_code_names_is_in_the_catalogue():
    named = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in named_codes(ast.parse(path.read_text(encoding="utf-8"))):
            named.setdefault(node.value, f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert len(named) > 200
    assert sorted(f"{where}: {code}" for code, where in named.items() if code not in KNOWN) == []


def test_a_misspelt_code_is_found():
    tree = ast.parse('problem("config.invalud", errors="x")\nif found.code == "fetch.not_fond": pass\n')
    assert sorted({n.value for n in named_codes(tree)} - KNOWN) == ["config.invalud", "fetch.not_fond"]
