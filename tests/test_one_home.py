"""One home per name, checked statically: the names below are spelled in their home module and read from
it everywhere else (issue 33, item 4). Every .py file under forge/, agents/ and workers/ is parsed (nothing
is imported) and its string constants are checked:

- a table elsewhere: a tuple, list, set, dict or enum class body that spells two or more names of one
  family (a second list of the attackers, the provider kinds, the phases...);
- a single spelling of a name that can only mean that name (a package's attacker class, a rule type, an
  MLflow tag key, a stage boundary), and a rule status compared, assigned or keyed as a status.

The surrogate model is left out: it is the one stand-in, written to share no table with the product
(it speaks the rule compiler's wire format as a model would, in its own words).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from forge.env.attackers import ATTACKERS
from forge.llm.kinds import PROVIDER_CLASSES
from forge.protocol import phases
from forge.rulebook.model import RuleStatus, RuleType
from forge.runs.tracking import Tags

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("forge", "agents", "workers")
LEFT_OUT = ("forge/llm/surrogate/",)


@dataclass(frozen=True)
class Family:
    what: str
    home: str  # the module that spells them
    names: frozenset[str]  # two of them in one table elsewhere is a second home
    singles: frozenset[str] = frozenset()  # names that may not be spelled at all elsewhere


FAMILIES = (
    Family("attackers", "forge/env/attackers.py", frozenset(a.name for a in ATTACKERS),
           frozenset(a.package_class for a in ATTACKERS if a.package_class != "SleepAgent")),  # also a blue agent
    Family("attackers' package classes", "forge/env/attackers.py", frozenset(a.package_class for a in ATTACKERS)),
    Family("provider kinds", "forge/llm/kinds.py", frozenset(PROVIDER_CLASSES)),
    Family("rule types", "forge/rulebook/model.py", frozenset(RuleType), frozenset(RuleType)),
    Family("rule statuses", "forge/rulebook/model.py", frozenset(RuleStatus)),
    Family("MLflow tag keys", "forge/runs/tracking.py", frozenset(v for k, v in vars(Tags).items() if k.isupper()),
           frozenset(v for k, v in vars(Tags).items() if k.isupper())),
    Family("worker phases", "forge/protocol/phases.py", frozenset(phases.WORKER_PHASES)),
    Family("stage boundaries", "forge/protocol/phases.py", frozenset(phases.STAGE_BOUNDARIES),
           frozenset(phases.STAGE_BOUNDARIES)),
)
STATUSES = frozenset(RuleStatus)


def _files() -> Iterator[tuple[str, ast.AST]]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if not relative.startswith(LEFT_OUT):
                yield relative, ast.parse(path.read_text(), relative)


def _strings(nodes) -> list[str]:
    return [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _tables(tree: ast.AST) -> Iterator[tuple[int, list[str]]]:
    """(line, the strings it spells) of every literal collection and every class body of assignments."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            yield node.lineno, _strings(node.elts)
        elif isinstance(node, ast.Dict):
            yield node.lineno, _strings([k for k in node.keys if k is not None]) + _strings(node.values)
        elif isinstance(node, ast.ClassDef):
            yield node.lineno, _strings([s.value for s in node.body if isinstance(s, (ast.Assign, ast.AnnAssign))
                                         and s.value is not None])


def _is_status(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "status") or (isinstance(node, ast.Name) and node.id == "status")


def _status_spellings(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Rule statuses spelled as statuses: compared with a `status`, passed as `status=`, keyed "status"."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(_is_status(side) for side in [node.left, *node.comparators]):
            yield from ((node.lineno, s) for s in _strings([node.left, *node.comparators]) if s in STATUSES)
        elif isinstance(node, ast.keyword) and node.arg == "status":
            yield from ((node.value.lineno, s) for s in _strings([node.value]) if s in STATUSES)
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if _strings([key]) == ["status"]:
                    yield from ((node.lineno, s) for s in _strings([value]) if s in STATUSES)


def second_homes() -> list[str]:
    found = []
    for relative, tree in _files():
        tables = list(_tables(tree))
        constants = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        for family in FAMILIES:
            if relative == family.home:
                continue
            for line, strings in tables:
                spelled = sorted(set(strings) & family.names)
                if len(spelled) >= 2:
                    found.append(f"{relative}:{line}: a table of {family.what} ({', '.join(spelled)}); read {family.home}")
            for node in constants:
                if node.value in family.singles or any(f"`{name}`" in node.value for name in family.singles):
                    found.append(f"{relative}:{node.lineno}: {node.value!r} spelled again; read {family.home}")
        if relative != "forge/rulebook/model.py":
            found += [f"{relative}:{line}: rule status {status!r} spelled; use RuleStatus" for line, status in
                      _status_spellings(tree)]
    return sorted(set(found))


def test_every_name_has_one_home():
    found = second_homes()
    assert not found, "names with a second home:\n" + "\n".join(found)


def test_the_walk_finds_a_second_home(tmp_path, monkeypatch):
    """The checks themselves can fail: a module that lists attackers, compares a status and tags a run is caught."""
    module = tmp_path / "forge" / "stray.py"
    module.parent.mkdir()
    module.write_text('RED = ("b_line", "meander")\n'
                      'def active(record):\n    return record.status == "active"\n'
                      'TAGS = {"forge.session": "s"}\n'
                      'KIND = "FORMAT"\n')
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    found = second_homes()
    assert any("table of attackers" in f for f in found)
    assert any("rule status 'active'" in f for f in found)
    assert any("'forge.session' spelled again" in f for f in found)
    assert any("'FORMAT' spelled again" in f for f in found)
