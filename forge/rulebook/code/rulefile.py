"""Rule files and rule-test files: YAML read with line numbers, checked against the published schema.

A rule file (docs/rulebook-as-code.md):

    version: 1
    rules:
      - id: restore-op-server
        text: Restore Op_Server0 as soon as it shows any compromise.
        role: action_chooser
        actor: user:alice
        when: {host: Op_Server0, compromise: any}                      # optional: skips the compiler
        action: {mode: do, verb: Restore, target: Op_Server0}

YAML is read with the YAML 1.2 booleans (`true` / `false` only), as editors read it: under YAML 1.1 an
unquoted `compromise: No` would be the boolean false. A duplicated key is an error, not a silent
overwrite. Every problem is a `Finding` naming the file, the line, the entry id and the key.

Parsing is pure (`parse_rule_file(text, path)`); `read_rule_file(path)` adds the read.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

import yaml

from forge.rulebook.code.schema import NAME_KEYS, rule_file_schema, tests_file_schema
from forge.rulebook.model import RuleStatus, RuleType

SEVERITIES = ("error", "warning")


@dataclass(frozen=True)
class Finding:
    """One problem in a file: where (file, line, entry, key), what, and which check found it."""

    path: str
    message: str
    check: str  # schema | unknown-name | yaml | duplicate | validation | never-fires | always-fires | conflict | ...
    entry: Optional[str] = None  # the entry's id (`#3` for an entry without a usable one)
    key: str = ""  # the key inside the entry (`when.all[1].host`), or the file's top-level key
    severity: str = "error"
    line: Optional[int] = None

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"finding severity must be one of {', '.join(SEVERITIES)}, got {self.severity!r}")

    @property
    def error(self) -> bool:
        return self.severity == "error"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        subject = ": ".join(part for part in (f"entry {self.entry}" if self.entry else "", self.key) if part)
        return f"{where}: {self.severity}: {subject + ': ' if subject else ''}{self.message} [{self.check}]"


@dataclass(frozen=True)
class RuleEntry:
    """One rule as its file states it."""

    id: str
    text: str
    roles: tuple[str, ...]
    actors: tuple[str, ...]
    path: str
    line: int
    type: Optional[str] = None  # None: CONTENT, unless the compiler finds a FORMAT rule
    when: Optional[dict] = None
    action: Optional[dict] = None
    unexpressed: str = ""
    semantic: bool = False
    context: Optional[str] = None
    replaces: tuple[str, ...] = ()
    status: str = RuleStatus.ACTIVE
    lines: dict = field(default_factory=dict, compare=False, repr=False)  # key -> line, for findings

    __hash__ = None  # type: ignore[assignment]  # when / action are dicts

    @property
    def explicit(self) -> bool:
        """Whether the file states the meaning (a trigger, `semantic`, or a FORMAT rule): no compiler."""
        return self.when is not None or self.semantic or self.type == RuleType.FORMAT

    def line_of(self, key: str) -> int:
        return self.lines.get(key, self.line)

    def finding(self, message: str, check: str, key: str = "", severity: str = "error") -> Finding:
        return Finding(self.path, message, check, self.id, key, severity, self.line_of(key.split(".")[0]) if key else self.line)


@dataclass(frozen=True)
class RuleFile:
    path: str
    entries: tuple[RuleEntry, ...]  # the entries without schema errors, in file order
    findings: tuple[Finding, ...]  # what the schema and the YAML reader found
    digest: str  # sha256 of the file's bytes

    @property
    def ok(self) -> bool:
        return not any(f.error for f in self.findings)


@dataclass(frozen=True)
class TestCase:
    """One rule test: a decision context, a role, and the rules it must (not) receive."""

    name: str
    role: str
    path: str
    line: int
    context: Optional[str] = None
    trace: Optional[str] = None  # RUN:instance:episode:step
    actor: Optional[str] = None
    expect: Optional[tuple[str, ...]] = None  # exact set (None: not exact)
    must: tuple[str, ...] = ()
    must_not: tuple[str, ...] = ()


@dataclass(frozen=True)
class TestFile:
    path: str
    cases: tuple[TestCase, ...]
    findings: tuple[Finding, ...]


# -- YAML -----------------------------------------------------------------------------------------------


class _Loader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 booleans: only true/false (any case) are booleans; yes/no/on/off are strings."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                              list("tTfF"))


def _bool(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> bool:
    return node.value.lower() == "true"


_Loader.add_constructor("tag:yaml.org,2002:bool", _bool)


def _walk(node: yaml.Node, path: tuple, lines: dict, duplicates: list) -> None:
    """Line (1-based) of every key path, and the duplicated keys with their lines."""
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        seen: set = set()
        for key, value in node.value:
            name = key.value if isinstance(key, yaml.ScalarNode) else str(key)
            if name in seen:
                duplicates.append((path, name, key.start_mark.line + 1))
            seen.add(name)
            _walk(value, (*path, name), lines, duplicates)
            lines[(*path, name)] = key.start_mark.line + 1  # a key's line, not its value's
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, (*path, index), lines, duplicates)


def load_yaml(text: str, path: str) -> tuple[Any, dict, list[Finding]]:
    """(data, line of each key path, findings): YAML errors and duplicated keys are findings."""
    try:
        node = yaml.compose(text, Loader=_Loader)
        data = yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return None, {}, [Finding(path, f"not valid YAML: {problem}", "yaml", line=mark.line + 1 if mark else None)]
    lines: dict = {}
    duplicates: list = []
    if node is not None:
        _walk(node, (), lines, duplicates)
    findings = [Finding(path, f"key {name!r} appears twice (YAML keeps only the last)", "duplicate",
                        _entry_name(data, where), _key_text(where[2:] + (name,)) if _in_entry(where) else name, line=line)
                for where, name, line in duplicates]
    return data, lines, findings


# -- schema errors --------------------------------------------------------------------------------------


def _in_entry(path: Sequence) -> bool:
    return len(path) >= 2 and path[0] in ("rules", "cases") and isinstance(path[1], int)


def _entry_name(data: Any, path: Sequence) -> Optional[str]:
    if not _in_entry(path):
        return None
    try:
        entry = data[path[0]][path[1]]
    except (KeyError, IndexError, TypeError):
        return f"#{path[1] + 1}"
    name = entry.get("id" if path[0] == "rules" else "name") if isinstance(entry, dict) else None
    return name if isinstance(name, str) and name else f"#{path[1] + 1}"


def _key_text(parts: Iterable) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


_CROSS_KEY = {  # a `not` in these schema places: what it forbids, in words
    ("rule", 0): "semantic: true takes no `when` and no `action` (it has no predicate)",
    ("rule", 1): "a FORMAT rule takes no `action`, `unexpressed` or `semantic` (it reaches every call of its roles)",
    ("action", 0): "`over` belongs to mode prefer only (prefer VERB over another move)",
    ("action", 1): "`then` belongs to mode do only (a plan's later moves)",
    ("case", 0): "`expect` is the exact set: it takes no `must` or `must_not`",
}


def _message(error) -> tuple[str, str]:
    """(message, check) for one jsonschema error, in the words of the file's keys."""
    path = list(error.absolute_path)
    key = next((p for p in reversed(path) if isinstance(p, str)), "")
    validator = error.validator
    if validator == "enum" and key in NAME_KEYS:
        allowed = [v for v in error.validator_value if v is not None]
        shown = ", ".join(map(str, allowed[:16])) + (", …" if len(allowed) > 16 else "")
        kind = {"class": "host class", "acted": "verb", "compromise": "Compromised value", "activity": "Activity value"}.get(key, key)
        return f"unknown {kind} {error.instance!r} (one of {shown})", "unknown-name"
    if validator == "enum":
        return f"{error.instance!r} is not one of {', '.join(map(repr, error.validator_value))}", "schema"
    if validator == "required":
        missing = re.search(r"'([^']+)' is a required property", error.message)
        return f"missing key {missing.group(1) if missing else error.message!r}", "schema"
    if validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        return f"unknown key(s) {', '.join(extra)}", "schema"
    if validator == "dependentRequired":
        return error.message.replace(" is a dependency of ", " is needed with "), "schema"
    if validator == "not":
        schema_path = list(error.absolute_schema_path)
        index = schema_path[len(schema_path) - 1 - schema_path[::-1].index("allOf") + 1] if "allOf" in schema_path else 0
        place = "action" if key == "action" else ("case" if path and path[0] == "cases" else "rule")
        return _CROSS_KEY.get((place, index), "keys that do not go together"), "schema"
    if validator == "oneOf" and key == "actor":
        return f"actor {error.instance!r} is neither user:<name> nor <session>/<instance> (or a list of them)", "schema"
    if validator == "oneOf" and key == "role":
        return f"role {error.instance!r} is not an agent role or a list of them (planner, analyst, action_chooser)", "unknown-name"
    if validator == "oneOf" and isinstance(error.instance, dict) and ({"host", "class"} & set(error.instance) or not error.instance):
        return "an atom names exactly one of `host` or `class`", "schema"
    if validator == "oneOf" and path and path[0] == "cases" and len(path) == 2:
        return "a case gives exactly one of `context` or `trace`", "schema"
    if validator == "anyOf" and path and path[0] == "cases" and len(path) == 2:
        return "a case needs `expect`, `must` or `must_not`", "schema"
    if validator == "const" and key == "when":
        return "a FORMAT rule's `when` is {always: true} (or left out)", "schema"
    text = error.message
    return (text if len(text) <= 200 else text[:199] + "…"), "schema"


@lru_cache(maxsize=2)
def _validator(kind: str):
    from jsonschema import Draft202012Validator

    schema = rule_file_schema() if kind == "rules" else tests_file_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def schema_findings(data: Any, path: str, lines: dict, kind: str = "rules") -> list[Finding]:
    """Every schema error of a parsed file, at its entry and key (one per place, the deepest first)."""
    if data is None:
        return [Finding(path, "the file is empty", "schema", line=1)]
    found: dict[tuple, Finding] = {}  # by (*key path, message)
    errors = sorted(_validator(kind).iter_errors(data), key=lambda e: (-len(e.absolute_path), list(map(str, e.absolute_path))))
    for error in errors:
        where = tuple(error.absolute_path)
        if error.validator in ("oneOf", "anyOf") and any(other[: len(where)] == where for other in found):
            continue  # a deeper error already says what is wrong inside this alternative
        message, check = _message(error)
        line = next((lines[where[:n]] for n in range(len(where), -1, -1) if where[:n] in lines), None)
        key = _key_text(where[2:]) if _in_entry(where) else _key_text(where)
        found.setdefault((*where, message), Finding(path, message, check, _entry_name(data, where), key, line=line))
    return sorted(found.values(), key=lambda f: (f.line or 0, f.key))


# -- rule files -------------------------------------------------------------------------------------------


def _tuple(value: Any) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, list) else (value,)


def _entry(raw: dict, path: str, line: int, lines: dict, where: tuple) -> RuleEntry:
    own = {key[len(where)]: number for key, number in lines.items() if len(key) > len(where) and key[:len(where)] == where}
    return RuleEntry(
        id=raw["id"], text=raw["text"].strip(), roles=_tuple(raw["role"]), actors=_tuple(raw["actor"]), path=path,
        line=line, type=raw.get("type"), when=raw.get("when"), action=raw.get("action"),
        unexpressed=" ".join(raw.get("unexpressed", "").split()), semantic=bool(raw.get("semantic", False)),
        context=raw["context"].strip() if raw.get("context") else None, replaces=tuple(raw.get("replaces", ())),
        status=raw.get("status", RuleStatus.ACTIVE), lines=own,
    )


def parse_rule_file(text: str, path: str) -> RuleFile:
    """A rule file's entries and findings. An entry with a schema error is left out of `entries`."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    data, lines, findings = load_yaml(text, path)
    if findings and data is None:
        return RuleFile(path, (), tuple(findings), digest)
    findings += schema_findings(data, path, lines, "rules")
    broken = {f.entry for f in findings if f.error}
    entries = []
    if isinstance(data, dict) and isinstance(data.get("rules"), list):
        for index, raw in enumerate(data["rules"]):
            where = ("rules", index)
            if _entry_name(data, where) in broken or not isinstance(raw, dict):
                continue
            entries.append(_entry(raw, path, lines.get(where, 1), lines, where))
    return RuleFile(path, tuple(entries), tuple(findings), digest)


def read_rule_file(path: str | Path) -> RuleFile:
    return parse_rule_file(Path(path).read_text(encoding="utf-8"), str(path))


# -- test files -------------------------------------------------------------------------------------------


def parse_test_file(text: str, path: str) -> TestFile:
    data, lines, findings = load_yaml(text, path)
    if findings and data is None:
        return TestFile(path, (), tuple(findings))
    findings += schema_findings(data, path, lines, "tests")
    broken = {f.entry for f in findings if f.error}
    cases = []
    names: dict[str, int] = {}
    for index, raw in enumerate(data.get("cases", []) if isinstance(data, dict) else []):
        where = ("cases", index)
        if _entry_name(data, where) in broken or not isinstance(raw, dict):
            continue
        line = lines.get(where, 1)
        if raw["name"] in names:
            findings.append(Finding(path, f"case name {raw['name']!r} is used twice (first at line {names[raw['name']]})",
                                    "duplicate", raw["name"], "name", line=line))
            continue
        names[raw["name"]] = line
        expect = raw.get("expect")
        cases.append(TestCase(raw["name"], raw["role"], path, line, context=raw.get("context"), trace=raw.get("trace"),
                              actor=raw.get("actor"), expect=tuple(expect) if expect is not None else None,
                              must=tuple(raw.get("must", ())), must_not=tuple(raw.get("must_not", ()))))
    return TestFile(path, tuple(cases), tuple(findings))


def read_test_file(path: str | Path) -> TestFile:
    return parse_test_file(Path(path).read_text(encoding="utf-8"), str(path))
