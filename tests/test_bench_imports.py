"""The benchmarks share their helpers through bench/support/, never through each other: no benchmark imports another
(three once imported each other in a circle), and the support modules import no benchmark."""
from __future__ import annotations

import ast
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, at its top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def benchmark_imports(paths: list[Path]) -> dict[str, list[str]]:
    return {path.name: sorted(name for name in imported_modules(path) if name.split(".")[0].startswith("bench_"))
            for path in paths}


def test_no_benchmark_imports_another_benchmark():
    benchmarks = sorted(BENCH.glob("bench_*.py"))

    assert benchmarks
    assert {name: found for name, found in benchmark_imports(benchmarks).items() if found} == {}


def test_the_support_modules_import_no_benchmark():
    support = sorted((BENCH / "support").glob("*.py"))

    assert support
    assert {name: found for name, found in benchmark_imports(support).items() if found} == {}
