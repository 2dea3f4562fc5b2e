"""Tests are a package whose shared code is tests/support/: no module under tests/ imports a test module (what two
test modules share belongs in support), and none imports a support module by its bare name."""
from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SUPPORT = {path.stem for path in (TESTS / "support").glob("*.py")} - {"__init__"}


def _imported(tree: ast.AST) -> list[str]:
    """Every module a tree imports, as written (relative imports with their leading dots)."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append("." * node.level + (node.module or ""))
    return names


def _modules() -> dict[str, list[str]]:
    return {path.relative_to(TESTS).as_posix(): _imported(ast.parse(path.read_text("utf-8")))
            for path in TESTS.rglob("*.py") if "fixtures" not in path.relative_to(TESTS).parts}


def test_no_module_imports_a_test_module():
    importing = {module: names for module, names in _modules().items()
                 if any(part.startswith("test_") for name in names for part in name.lstrip(".").split("."))}
    assert importing == {}


def test_no_module_imports_a_support_module_by_its_bare_name():
    bare = {module: names for module, names in _modules().items()
            if any(name.split(".")[0] in SUPPORT for name in names)}
    assert bare == {}


def test_every_test_folder_is_a_package():
    folders = {path.parent for path in TESTS.rglob("*.py") if "fixtures" not in path.relative_to(TESTS).parts}
    assert {folder.relative_to(TESTS.parent).as_posix() for folder in folders
            if not (folder / "__init__.py").exists()} == set()
