"""The import layers of forge/, agents/ and workers/ (docs/layout.md, "Import layers"), checked statically.

Every .py file is parsed (ast, nothing is imported) and every import it makes becomes an edge: module
level and function level alike (a lazy import kept for cold-start speed is still an import), and
`importlib.import_module` with a literal name; only imports under `if TYPE_CHECKING:` are left out
(they never run). An edge goes to the deepest project module the import names (`from forge.memory
import open_store` -> `forge.memory`; `from forge.rulebook import model` -> `forge.rulebook.model`).

Granularity:
- units: each module belongs to the longest entry of LAYERS that prefixes it (`forge.rulebook.book`
  -> `forge.rulebook`; `forge.llm.types` is a unit of its own, below the rest of `forge.llm`);
- no import goes from a unit to a unit of a higher layer;
- no cycle between units (units of one layer may import each other one way only);
- no cycle between modules, inside a unit or across.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path
from typing import Iterator, NamedTuple, Optional

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("forge", "agents", "workers")

# Lowest first. A unit may import units of its own layer (without a cycle) and of the layers below.
LAYERS: tuple[tuple[str, ...], ...] = (
    # leaves: the standard library (and numpy-style dependencies) only; the tables config reads
    ("forge", "forge.errors", "forge.plumbing", "forge.analysis.stats", "forge.llm.types", "forge.llm.kinds",
     "forge.env.attackers"),
    ("forge.config",),
    # what the agents and the rulebook stand on: models, the environment, memory, failures, the run directory
    ("forge.llm", "forge.env", "forge.memory", "forge.failure", "forge.runs.rundir"),
    # the rulebook's rooms, lowest first (forge/rulebook/__init__.py is their map); all stand without the agents
    ("forge.rulebook.model",),  # the records: rules, versions, decision nodes, compiled rules
    ("forge.rulebook.language",),  # pure: the grammar, predicates, actions, situations, meanings, attack phases
    ("forge.rulebook.store", "forge.rulebook.retrieval"),  # how a rule is kept; which rules reach a decision
    ("forge.rulebook.book",),  # the facade over store and retrieval
    ("forge.rulebook.outcomes",),  # how a rule is judged
    ("forge.rulebook.authoring",),  # how rules enter: the compiler (its prompt and schema), sync, teaching
    ("agents",),  # the defender and the learners; memory injection's interface (with the aftermath it returns)
    ("forge.rulebook",),  # injection (through the agents' interface) and query
    ("forge.rulebook.code",),  # the rulebook as code: rule files, plans, rule tests, lint (over the book and authoring)
    ("forge.protocol",),  # episodes, the operator, the inner loop: drive the agents, read the rulebook's aftermath
    ("forge.wiring", "forge.injection_factory"),  # the composition root: builds clients, stores and injection
    # what runs or reads sessions: runs of one instance, tracking, analysis, CAGE-2's protocol and baselines
    ("forge.runs", "forge.analysis", "forge.cage2", "forge.cage2_agent"),
    ("workers",),  # Ray actors, the session driver and the sessions it runs (which write the reports at the end)
    ("forge.commands",),
    ("forge.cli",),
    ("workers.chaos",),  # the reliability tests' harness: the command line with hooks that kill workers and the driver
)
LAYER = {unit: i for i, layer in enumerate(LAYERS) for unit in layer}

# import_module calls whose argument is not a literal: (module, why it is safe).
DYNAMIC = {
    "forge.llm.registry": "a provider kind's module, named by its row of forge/llm/kinds.py",
    "forge.llm.gemini_provider": "the optional google-genai SDK",
    "forge.env.cyborg_import": "CybORG's agent modules",
    "forge.env.cage2": "an external attacker's module, named by its row of forge/env/attackers.py",
}


class Edge(NamedTuple):
    source: str
    target: str
    line: int
    lazy: bool  # inside a function


def _module_files() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _module_files()


def _deepest_module(name: str) -> Optional[str]:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _type_checking_only(tree: ast.AST) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
                    isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
                skipped.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    return skipped


def _in_functions(tree: ast.AST) -> set[int]:
    return {id(inner) for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            for inner in ast.walk(node)}


def _literal_prefix(arg: ast.expr) -> Optional[str]:
    """The module an import_module argument names, as far as it is literal (an f-string's leading text)."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        return str(arg.values[0].value).rstrip(".")
    return None


def _imported_names(module: str, node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        submodules = [f"{source}.{alias.name}" for alias in node.names if f"{source}.{alias.name}" in MODULES]
        yield from submodules
        if len(submodules) < len(node.names):
            yield source


@lru_cache(maxsize=None)
def edges(type_checking: bool = False) -> tuple[Edge, ...]:
    """Every import between project modules; `type_checking`: those under `if TYPE_CHECKING:` too."""
    found: list[Edge] = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(), str(path))
        skipped, lazy = set() if type_checking else _type_checking_only(tree), _in_functions(tree)
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            names = list(_imported_names(module, node))
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module":
                prefix = _literal_prefix(node.args[0]) if node.args else None
                names = [prefix] if prefix else []
            for name in names:
                target = _deepest_module(name)
                if target and target != module:
                    found.append(Edge(module, target, node.lineno, id(node) in lazy))
    return tuple(found)


def unit_of(module: str) -> str:
    return max((u for u in LAYER if module == u or module.startswith(u + ".")), key=len, default="")


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _where(edge: Edge) -> str:
    return f"{edge.source} -> {edge.target} (line {edge.line}{', in a function' if edge.lazy else ''})"


def test_the_walk_sees_lazy_imports():
    """A function-level import is an edge like any other (forge.wiring imports the rulebook's injection factory lazily)."""
    assert any(e.source == "forge.wiring" and e.target == "forge.injection_factory" and e.lazy for e in edges())


def test_every_module_has_a_layer():
    unplaced = [m for m in MODULES if unit_of(m) in ("", "forge") and m != "forge"]
    assert not unplaced, f"add these to LAYERS in {Path(__file__).name} (and the diagram in docs/layout.md): {unplaced}"


def test_no_import_goes_up_a_layer():
    upward = [_where(e) for e in edges() if LAYER[unit_of(e.target)] > LAYER[unit_of(e.source)]]
    assert not upward, "imports from a lower layer to a higher one:\n" + "\n".join(upward)


def test_no_cycle_between_units():
    graph: dict[str, set[str]] = {}
    for e in edges():
        if unit_of(e.source) != unit_of(e.target):
            graph.setdefault(unit_of(e.source), set()).add(unit_of(e.target))
    cycles = _cycles(graph)
    detail = [_where(e) for e in edges() for c in cycles if unit_of(e.source) in c and unit_of(e.target) in c
              and unit_of(e.source) != unit_of(e.target)]
    assert not cycles, f"import cycles between units {cycles}:\n" + "\n".join(detail)


def test_no_cycle_between_modules():
    graph: dict[str, set[str]] = {}
    for e in edges():
        graph.setdefault(e.source, set()).add(e.target)
    cycles = _cycles(graph)
    detail = [_where(e) for e in edges() for c in cycles if e.source in c and e.target in c]
    assert not cycles, f"import cycles between modules {cycles}:\n" + "\n".join(detail)


def test_nothing_in_the_product_imports_the_chaos_harness():
    """A test double is something the caller passes in (workers/hooks.py), never a module the product loads:
    nothing under forge/, agents/ or workers/ but workers/chaos.py itself imports it, at any level, not even
    for a type."""
    importers = [_where(e) for e in edges(type_checking=True) if e.target == "workers.chaos" and e.source != "workers.chaos"]
    assert not importers, "the product imports the chaos harness:\n" + "\n".join(importers)


def test_dynamic_imports_are_known():
    """An import_module whose name is not literal is invisible to this walk: each one is listed, with why."""
    unlisted, seen = [], set()
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
                    and _literal_prefix(node.args[0]) is None):
                seen.add(module)
                if module not in DYNAMIC:
                    unlisted.append(f"{module} line {node.lineno}")
    assert not unlisted, f"non-literal import_module calls (list them in DYNAMIC with the reason): {unlisted}"
    assert seen == set(DYNAMIC), f"DYNAMIC lists modules with no such call: {sorted(set(DYNAMIC) - seen)}"


def test_every_lazy_project_import_says_why():
    """A function-level import of a project module must say why it is not at module level (`# lazy: ...`
    on its line or above it in the same function), so none is left whose only purpose was to dodge a
    cycle (the walk above proves none hides one). forge.commands is exempt as a whole: each command imports its domain only
    when it runs, so `forge <cmd>` loads what that command needs and nothing else (the CLI's cold start)."""
    unexplained = []
    for e in edges():
        if not e.lazy or unit_of(e.source) in ("forge.commands", "forge.cli"):
            continue
        lines = MODULES[e.source].read_text().splitlines()[:e.line]
        start = max(i for i, line in enumerate(lines) if line.lstrip().startswith(("def ", "async def ")))
        if not any("lazy:" in line for line in lines[start:]):
            unexplained.append(_where(e))
    assert not unexplained, "function-level imports without a `# lazy: <why>`:\n" + "\n".join(sorted(set(unexplained)))
