"""The shape of the code, measured from its syntax: import cycles, imports against the layers, long
functions and long modules (each with the one job its docstring says it holds).

The import graph and the layers are tests/test_import_layers.py's (one walk, one table); this script
adds the sizes. Nothing of the product is imported or run.

    PYTHONPATH=. .venv/bin/python scripts/house.py [--function-lines 80] [--module-lines 400]

Exit status 1 when there is a cycle, an import against the layers or a function over the limit.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_import_layers import LAYER, LAYERS, MODULES, _cycles, edges, unit_of  # noqa: E402


@dataclass(frozen=True)
class Function:
    module: str
    name: str  # Class.method or function
    line: int
    lines: int


def functions(module: str, path: Path) -> list[Function]:
    """Every function and method, its length from `def` (decorators excluded) to its last line."""
    found: list[Function] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                found.append(Function(module, name, child.lineno, child.end_lineno - child.lineno + 1))
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(path.read_text(), str(path)), "")
    return found


def job(path: Path) -> str:
    """The module docstring's first sentence: the one job the module says it holds."""
    doc = ast.get_docstring(ast.parse(path.read_text())) or "(no docstring)"
    first = " ".join(doc.split("\n\n")[0].split())
    return first.split(". ")[0].rstrip(".") if len(first) > 160 else first.rstrip(".")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--function-lines", type=int, default=80, help="the longest a function may be")
    parser.add_argument("--module-lines", type=int, default=400, help="modules longer than this are listed")
    args = parser.parse_args(argv)

    all_edges = edges()
    module_graph: dict[str, set[str]] = {}
    unit_graph: dict[str, set[str]] = {}
    for e in all_edges:
        module_graph.setdefault(e.source, set()).add(e.target)
        if unit_of(e.source) != unit_of(e.target):
            unit_graph.setdefault(unit_of(e.source), set()).add(unit_of(e.target))
    upward = [e for e in all_edges if LAYER[unit_of(e.target)] > LAYER[unit_of(e.source)]]
    module_cycles, unit_cycles = _cycles(module_graph), _cycles(unit_graph)
    typed_graph: dict[str, set[str]] = {}
    for e in edges(type_checking=True):
        typed_graph.setdefault(e.source, set()).add(e.target)
    typed_cycles = _cycles(typed_graph)
    sizes = {m: len(p.read_text().splitlines()) for m, p in MODULES.items()}
    every = [f for m, p in MODULES.items() for f in functions(m, p)]
    long = sorted((f for f in every if f.lines > args.function_lines), key=lambda f: -f.lines)
    longest = max(every, key=lambda f: f.lines)
    units = {unit_of(m) for m in MODULES}

    print(f"{len(MODULES)} modules in forge/, agents/, workers/ ({sum(sizes.values())} lines); "
          f"{len(units)} units in {len(LAYERS)} layers; {len(all_edges)} imports "
          f"({len({(e.source, e.target) for e in all_edges})} module pairs, "
          f"{sum(len(v) for v in unit_graph.values())} between units)")
    print(f"cycles between modules: {len(module_cycles)}" + "".join(f"\n  {' <-> '.join(c)}" for c in module_cycles))
    print(f"cycles between modules, counting imports made for types only: {len(typed_cycles)}"
          + "".join(f"\n  {' <-> '.join(c)}" for c in typed_cycles))
    print(f"cycles between units: {len(unit_cycles)}" + "".join(f"\n  {' <-> '.join(c)}" for c in unit_cycles))
    print(f"imports against the layers: {len(upward)}"
          + "".join(f"\n  {e.source} -> {e.target} (line {e.line})" for e in upward))
    print(f"functions: {len(every)}; over {args.function_lines} lines: {len(long)}; longest "
          f"{longest.module}.{longest.name} ({longest.lines} lines)"
          + "".join(f"\n  {f.lines:4d}  {f.module}.{f.name} (line {f.line})" for f in long))
    big = sorted((m for m, n in sizes.items() if n > args.module_lines), key=lambda m: -sizes[m])
    print(f"modules over {args.module_lines} lines: {len(big)}")
    for m in big:
        print(f"  {sizes[m]:5d}  {MODULES[m].relative_to(ROOT)}: {job(MODULES[m])}")
    return 1 if module_cycles or typed_cycles or unit_cycles or upward or long else 0


if __name__ == "__main__":
    sys.exit(main())
