"""Bringing an instance's memory into the rulebook: compile each learned item once, with its trigger.

Each memory item (rule or example) is compiled the first time its actor's memory is synced; what it
compiled to (a rule, or why it was dropped) is remembered in the store under `<actor>:<item id>`, so a
later sync of the same memory costs one lookup. The trigger of a FORGE rule comes from the failure
snapshot its provenance names; without one, from the situation the compiler states. The actor of a
FORGE item is `<session>/<instance>` of the instance that learned it (kept through broadcasts).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable, Optional

from forge.failure.snapshot import failure_id
from forge.rulebook.language.grammar import parse_rule
from forge.memory.model import MemoryItem, MemorySnapshot, Provenance
from forge.rulebook.book import Lesson, Rulebook, TeachReport
from forge.rulebook.authoring.compile import CompileReport, RuleCompiler
from forge.rulebook.model import CompiledRule, DecisionNode, Evidence, RuleType, SourceItem
from forge.rulebook.authoring.trigger_node import FailureLibrary, node_from_failure, stated_node

Progress = Callable[[str, int, int], None]  # (what, done, total)


def memory_actor(item: MemoryItem) -> str:
    p = item.provenance
    return f"{p.session or 'memory'}/{p.instance or 'unknown'}"


def source_of(item: MemoryItem) -> SourceItem:
    return SourceItem(kind=item.kind, role=item.role, text=item.text, actor=memory_actor(item), title=item.title,
                      item_id=item.id, support=item.support)


@dataclass(frozen=True)
class CompiledItem:
    """One memory item and what became of it."""

    item: MemoryItem
    compiled: CompiledRule
    trigger: str  # where the trigger came from: `<failure id> step <n>` or `stated`
    rule_id: Optional[str] = None
    result: str = ""  # the book's outcome: add | reinforce | merge | refused ("" when dropped)


@dataclass
class SyncReport:
    items: list[CompiledItem] = field(default_factory=list)
    already: int = 0  # items compiled by an earlier sync
    teach: Optional[TeachReport] = None
    compile: CompileReport = field(default_factory=CompileReport)

    @property
    def kept(self) -> int:
        """Items that became (or reinforced) a rule; a refused re-teaching is not kept."""
        return sum(1 for i in self.items if i.compiled.kept and i.result != "refused")

    @property
    def refused(self) -> int:
        """Items the book refused: a withdrawn rule's meaning taught again."""
        return sum(1 for i in self.items if i.result == "refused")

    @property
    def dropped(self) -> int:
        return sum(1 for i in self.items if not i.compiled.kept)

    @property
    def book_version(self) -> Optional[int]:
        """The book version this sync's teaching made (None: it changed nothing)."""
        return self.teach.book_version.number if self.teach and self.teach.book_version else None

    def to_dict(self) -> dict:
        """What became of each item, as `forge rulebook export` reports it (reports/rulebook_export.json)."""
        return {
            "book_version": self.book_version, "already_compiled": self.already,
            "items": [{"item": e.item.id, "kind": e.item.kind, "role": e.item.role, "verdict": e.compiled.verdict,
                       "compiled_by": e.compiled.compiled_by, "type": e.compiled.type, "roles": list(e.compiled.roles),
                       "group": e.compiled.group, "directive": e.compiled.directive, "reason": e.compiled.reason,
                       "trigger": e.trigger, "rule_id": e.rule_id} for e in self.items],
            "problems": self.compile.problems,
        }


class MemorySync:
    def __init__(self, book: Rulebook, compiler: RuleCompiler | Callable[[], RuleCompiler],
                 failures: FailureLibrary, *, window: int = 4) -> None:
        self.book = book
        self._compiler = compiler
        self.failures = failures
        self.window = window

    def compiler(self) -> RuleCompiler:
        if not isinstance(self._compiler, RuleCompiler):
            self._compiler = self._compiler()
        return self._compiler

    def pending(self, snapshot: MemorySnapshot) -> tuple[list[MemoryItem], int]:
        items = list(snapshot.items)
        keys = {f"{memory_actor(i)}:{i.id}": i for i in items}
        done = self.book.store.compilations(keys)
        return [item for key, item in keys.items() if key not in done], len(done)

    def sync(self, snapshot: MemorySnapshot, *, provenance: Optional[Provenance] = None, seed: int = 0,
             progress: Optional[Progress] = None) -> SyncReport:
        todo, already = self.pending(snapshot)
        report = SyncReport(already=already)
        if not todo:
            return report
        sources = [source_of(item) for item in todo]
        if progress:
            progress("compiling", 0, len(todo))
        needs_model = any(item.kind == "example" for item in todo) or any(
            _grammar_free(source) for source in sources)
        compiler = self.compiler() if needs_model else RuleCompiler(None)
        report.compile = compiler.compile(sources, seed=seed)
        if progress:
            progress("compiling", len(todo), len(todo))
        lessons: list[Lesson] = []
        for item, compiled in zip(todo, report.compile.rules):
            node, origin, evidence = self._trigger_and_evidence(item, compiled)
            report.items.append(CompiledItem(item, compiled, origin))
            if compiled.kept:
                lessons.append(Lesson(compiled, node, evidence))
        if progress:
            progress("embedding and storing", 0, 1)
        report.teach = self.book.teach(lessons, provenance or Provenance(actor="rulebook-sync"),
                                       note=f"{len(lessons)} rules from memory {snapshot.digest[:12]}")
        taught = iter(report.teach.outcomes)
        outcomes = {}
        for index, entry in enumerate(report.items):
            if entry.compiled.kept:
                outcome = next(taught, None)
                refused = outcome is not None and outcome.result == "refused"
                entry = CompiledItem(entry.item, entry.compiled, entry.trigger,
                                     None if outcome is None or refused else outcome.rule_id,
                                     outcome.result if outcome is not None else "")
                report.items[index] = entry
            outcomes[f"{memory_actor(entry.item)}:{entry.item.id}"] = json.dumps(
                {"verdict": entry.compiled.verdict, "rule_id": entry.rule_id, "reason": entry.compiled.reason,
                 "compiled_by": entry.compiled.compiled_by, "result": entry.result}, sort_keys=True)
        self.book.store.put_compilations(outcomes)
        if progress:
            progress("embedding and storing", 1, 1)
        return report

    def _trigger_and_evidence(self, item: MemoryItem, compiled: CompiledRule) -> tuple[Optional[DecisionNode], str, Evidence]:
        actor = memory_actor(item)
        failure = self.failures.for_item(item)
        node: Optional[DecisionNode] = None
        if failure is not None:
            trigger = node_from_failure(failure, self.window)
            fid = failure_id(failure.instance, failure.stage, failure.attempt)
            evidence = Evidence("failure", actor, f"{failure.session}/{fid}", item.support, item.id)
            origin = f"{fid} step {trigger.step}"
            node = trigger.node
        else:
            evidence = Evidence("memory", actor, f"memory:{item.id}", item.support, item.id)
            origin = "stated"
        if compiled.type != RuleType.CONTENT:
            return None, "unconditional", evidence
        if node is None:
            node = stated_node(compiled.trigger or compiled.directive)
        return node, origin, evidence


def _grammar_free(source: SourceItem) -> bool:
    return parse_rule(source.text) is None
