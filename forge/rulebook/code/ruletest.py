"""`forge rulebook test`: which rules a decision context must (not) receive, checked like unit tests.

A case names rules by their rule-file entry id (the `rulefile:<id>` a managed rule carries) or by a
book rule id (or a unique prefix of one). It expects an exact set (`expect`; `[]`: nothing injected), or
rules that must / must not be injected. "Injected" is what `forge rulebook query` injects: the CONTENT
rules retrieval selects for the role (FORMAT rules reach every call of their roles and are no part of a
case). The verdict is a pure function of the injected rule ids (`judge`); running the cases queries the
book (`run_cases`), and `junit_xml` writes what CI reads.
"""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, replace
from typing import Callable, Mapping, Optional, Sequence

from forge.rulebook.code.plan import MIN_PREFIX, entry_ids
from forge.rulebook.code.rulefile import TestCase, TestFile
from forge.rulebook.model import RuleRecord, RulebookError

PASS, FAIL, ERROR = "pass", "fail", "error"


@dataclass(frozen=True)
class CaseResult:
    case: TestCase
    verdict: str  # pass | fail | error
    injected: tuple[str, ...] = ()  # the injected rules, by name
    missing: tuple[str, ...] = ()  # expected (or must) rules that were not injected
    unexpected: tuple[str, ...] = ()  # injected rules the case did not expect (or must_not names)
    error: str = ""  # why the case could not run
    context: str = ""
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return self.verdict == PASS

    def why(self) -> str:
        if self.verdict == ERROR:
            return self.error
        parts = []
        if self.missing:
            parts.append(f"not injected: {', '.join(self.missing)}")
        if self.unexpected:
            parts.append(f"{'injected although must_not' if self.case.expect is None else 'not expected'}: "
                         f"{', '.join(self.unexpected)}")
        return "; ".join(parts)


def context_summary(text: str) -> str:
    """A context in one line for a table: its host lines (what a rule's trigger reads), else its first line."""
    lines = [line.strip() for line in text.splitlines() if ": Activity" in line or "No host shows" in line]
    return "; ".join(lines) if lines else " ".join(text.split())


def rule_name(record: RuleRecord) -> str:
    """How a result names a rule: its entry id, else its rule id."""
    managed = entry_ids(record)
    return managed[-1] if managed else record.rule_id


def resolve_names(names: Sequence[str], heads: Mapping[str, RuleRecord],
                  entries: frozenset[str] = frozenset()) -> dict[str, frozenset[str]]:
    """Each name's rule ids: the rules an entry id manages (any status), else the rule a rule id (or a
    unique prefix) names. An id among `entries` (the rule files' own) that no rule carries stands for no
    rule: a withdrawn entry the book never held is never injected. RulebookError naming the first name
    that means nothing."""
    by_entry: dict[str, set[str]] = {}
    for rule_id, record in heads.items():
        for entry_id in entry_ids(record):
            by_entry.setdefault(entry_id, set()).add(rule_id)
    out = {}
    for name in names:
        if name in by_entry or name in entries:
            out[name] = frozenset(by_entry.get(name, ()))
            continue
        matches = [r for r in heads if len(name) >= MIN_PREFIX and r.startswith(name)]
        if len(matches) != 1:
            raise RulebookError(f"{name!r} names no rule-file entry and no rule in the book"
                                + (f" (ambiguous prefix: {', '.join(sorted(matches)[:4])})" if matches else ""))
        out[name] = frozenset(matches)
    return out


def judge(case: TestCase, injected: Sequence[str], names: Mapping[str, frozenset[str]],
          heads: Mapping[str, RuleRecord]) -> CaseResult:
    """The case's verdict for the injected rule ids. `names`: what each name the case uses stands for
    (resolve_names). Pure."""
    shown = tuple(rule_name(heads[r]) if r in heads else r for r in injected)
    chosen = set(injected)
    if case.expect is not None:
        missing = tuple(n for n in case.expect if not names[n] & chosen)
        expected = set().union(*(names[n] for n in case.expect)) if case.expect else set()
        unexpected = tuple(name for rid, name in zip(injected, shown) if rid not in expected)
    else:
        missing = tuple(n for n in case.must if not names[n] & chosen)
        unexpected = tuple(n for n in case.must_not if names[n] & chosen)
    verdict = PASS if not missing and not unexpected else FAIL
    return CaseResult(case, verdict, shown, missing, unexpected)


def trace_context(spec: str, load_step: Callable[[str, str, str, int], str]) -> str:
    """The observation of `RUN:instance:episode:step` (RUN may itself hold colons: an s3:// URI)."""
    run, instance, episode, step = spec.rsplit(":", 3)
    if not step.isdigit():
        raise RulebookError(f"trace {spec!r}: the step must be a number (RUN:instance:episode:step)")
    return load_step(run, instance, episode, int(step))


def run_cases(files: Sequence[TestFile], heads: Mapping[str, RuleRecord],
              injected_for: Callable[[str, str, Optional[str]], Sequence[str]],
              load_step: Callable[[str, str, str, int], str], entries: frozenset[str] = frozenset()) -> list[CaseResult]:
    """Every case of every file: its context (inline, or a trace step's observation), what the book
    injects for it (`injected_for(context, role, actor)` -> rule ids) and the verdict. `entries`: the
    entry ids of the rule files applied (resolve_names)."""
    results = []
    for test_file in files:
        for case in test_file.cases:
            started = time.perf_counter()
            try:
                context = case.context if case.context is not None else trace_context(case.trace, load_step)
                names = resolve_names([*(case.expect or ()), *case.must, *case.must_not], heads, entries)
                result = replace(judge(case, injected_for(context, case.role, case.actor), names, heads), context=context)
            except RulebookError as exc:
                result = CaseResult(case, ERROR, error=str(exc), context=case.context or case.trace or "")
            results.append(replace(result, seconds=time.perf_counter() - started))
    return results


def junit_xml(results: Sequence[CaseResult], suite_names: Mapping[str, str]) -> str:
    """JUnit XML: one testsuite per test file (`suite_names`: path -> name), one testcase per case."""
    root = ET.Element("testsuites", name="forge rulebook test")
    by_file: dict[str, list[CaseResult]] = {}
    for result in results:
        by_file.setdefault(result.case.path, []).append(result)
    for path, group in by_file.items():
        suite = ET.SubElement(root, "testsuite", name=suite_names.get(path, path), tests=str(len(group)),
                              failures=str(sum(r.verdict == FAIL for r in group)),
                              errors=str(sum(r.verdict == ERROR for r in group)),
                              time=f"{sum(r.seconds for r in group):.3f}")
        for result in group:
            case = ET.SubElement(suite, "testcase", classname=suite_names.get(path, path), name=result.case.name,
                                 file=path, line=str(result.case.line), time=f"{result.seconds:.3f}")
            if result.verdict != PASS:
                detail = (f"role {result.case.role}; injected: {', '.join(result.injected) or 'nothing'}\n"
                          f"context:\n{result.context}")
                ET.SubElement(case, "failure" if result.verdict == FAIL else "error", message=result.why(),
                              type=result.verdict).text = detail
    root.set("tests", str(len(results)))
    root.set("failures", str(sum(r.verdict == FAIL for r in results)))
    root.set("errors", str(sum(r.verdict == ERROR for r in results)))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
