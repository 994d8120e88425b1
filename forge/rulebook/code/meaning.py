"""What each rule-file entry means: a trigger the file states, checked as a compiled one is; else compiled.

- An entry with `when` (and optionally `action`, `unexpressed`) skips the compiler, and its meaning goes
  through exactly what a compiler's entry goes through (`authoring.compile.content_meaning`: the rule
  language's parser, the never-wider-than-its-text checks of `authoring.checks.text_problem`, then the
  completion the book keeps: a prohibition with no verb forbids every verb, only an `unexpressed` rest
  that is a condition guards). A refused trigger is an error naming the entry: it never falls back to a
  semantic rule, since its author said exactly what they meant.
- `semantic: true` is a rule without a predicate (it applies by the similarity of its words); a FORMAT
  entry reaches every call of its roles, so its text must state no condition on hosts (the compiler's
  `format_problem`). Neither is compiled.
- Any other entry is compiled (the grammar, else the configured compiler model), once: an entry whose
  rule is already in the book with the same words, roles and type keeps the meaning it was compiled to
  (so a plan is repeatable, and a model is not asked twice about a text it answered).

Whatever the path, the rule's directive is the entry's text as written: the compiler supplies meaning,
never wording.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Mapping, Optional, Sequence

from forge.llm.types import ChatClient
from forge.rulebook.authoring.compile import (RuleCompiler, compile_as_written, compile_grammar, content_meaning,
                                              format_problem)
from forge.rulebook.language.predicate import group_of, parse_predicate
from forge.rulebook.model import CompileVerdict, CompiledRule, RuleRecord, RuleType, SourceItem, actor_kind
from forge.rulebook.code.rulefile import RuleEntry

FROM_FILE = "rulefile"  # `compiled_by` of a meaning the file states
SEMANTIC_REASON = "semantic in its rule file: it applies by the similarity of its words"


@dataclass(frozen=True)
class EntryMeaning:
    """An entry and the rule it compiles to (None: refused, with the reason)."""

    entry: RuleEntry
    compiled: Optional[CompiledRule]
    problem: str = ""
    origin: str = "file"  # file (stated) | kept (compiled before; from the book) | compiled (by this plan)

    @property
    def ok(self) -> bool:
        return self.compiled is not None


def source_item(entry: RuleEntry) -> SourceItem:
    """The entry as the compiler sees an artifact: a correction when a person teaches it."""
    kind = "correction" if any(actor_kind(a) == "user" for a in entry.actors) else "rule"
    return SourceItem(kind, entry.roles[0], entry.text, entry.actors[0])


def explicit_meaning(entry: RuleEntry) -> EntryMeaning:
    """The meaning an entry states (FORMAT, semantic, or a trigger): no compiler, the compiler's checks. Pure."""
    item = source_item(entry)
    if entry.type == RuleType.FORMAT:
        problem = format_problem(entry.text)
        if problem is not None:
            return EntryMeaning(entry, None, f"the FORMAT rule is refused: {problem}")
        return EntryMeaning(entry, CompiledRule(item, CompileVerdict.RULE, entry.text, RuleType.FORMAT, entry.roles,
                                                "format/reply", "", FROM_FILE, when={"always": True}))
    if entry.semantic:
        written = compile_as_written(item, SEMANTIC_REASON)
        return EntryMeaning(entry, replace(written, directive=entry.text, type=RuleType.CONTENT, roles=entry.roles,
                                           trigger=entry.context or entry.text, compiled_by=FROM_FILE,
                                           reason="", semantic_reason=SEMANTIC_REASON))
    when, action, unexpressed, problem = content_meaning(entry.text, entry.when, entry.action, entry.unexpressed)
    if when is None:
        return EntryMeaning(entry, None, f"the trigger is refused: {problem.removeprefix('predicate refused: ')}")
    return EntryMeaning(entry, CompiledRule(item, CompileVerdict.RULE, entry.text, RuleType.CONTENT, entry.roles,
                                            group_of(parse_predicate(when)), entry.context or entry.text, FROM_FILE,
                                            when=when, action=action, unexpressed=unexpressed))


def compiled_meaning(entry: RuleEntry, compiled: CompiledRule, origin: str = "compiled") -> EntryMeaning:
    """The compiler's rule, in the file's words and for the file's roles and type. Pure."""
    if not compiled.kept:
        return EntryMeaning(entry, None, f"the compiler dropped it: {compiled.reason or 'not an instruction'}", origin)
    if compiled.compiled_by == "fallback":  # no usable answer (a model error, a botched reply): not a decision to keep
        why = compiled.semantic_reason.removeprefix("compiled as written: ") or compiled.reason
        return EntryMeaning(entry, None, f"the compiler gave no usable answer ({why}): plan again, state the trigger "
                                         f"(`when`), or mark it `semantic: true`", origin)
    rule_type = entry.type or compiled.type
    if rule_type == RuleType.FORMAT:
        compiled = replace(compiled, when={"always": True}, action=None, unexpressed="", group="format/reply")
    elif compiled.type == RuleType.FORMAT:  # the file says CONTENT; a FORMAT reading has no trigger to keep
        compiled = replace(compiled, when=None, action=None, semantic_reason="the compiler read a FORMAT rule; "
                                                                               "the file says CONTENT")
    return EntryMeaning(entry, replace(compiled, directive=entry.text, type=rule_type, roles=entry.roles,
                                       trigger=entry.context or entry.text), origin=origin)


def kept_meaning(entry: RuleEntry, record: RuleRecord) -> EntryMeaning:
    """The meaning the book holds for this entry's words (compiled by an earlier plan). Pure."""
    compiled = CompiledRule(source_item(entry), CompileVerdict.RULE, record.directive, record.type, record.roles,
                            record.group, entry.context or entry.text, record.compiled_by, when=record.when,
                            action=record.action, semantic_reason=record.semantic_reason, unexpressed=record.unexpressed)
    return EntryMeaning(entry, compiled, origin="kept")


def compiled_before(entry: RuleEntry, heads: Mapping[str, RuleRecord], rule_ids: Callable[[RuleEntry, str], str]) -> Optional[RuleRecord]:
    """The book's rule for this entry's words, compiled (not stated) by an earlier plan, if any."""
    for rule_type in ((entry.type,) if entry.type else (RuleType.CONTENT, RuleType.FORMAT)):
        record = heads.get(rule_ids(entry, rule_type))
        if record is not None and record.compiled_by not in (FROM_FILE, "fallback"):
            return record
    return None


def entry_meanings(entries: Sequence[RuleEntry], heads: Mapping[str, RuleRecord],
                   client: Callable[[], Optional[ChatClient]], rule_ids: Callable[[RuleEntry, str], str],
                   *, seed: int = 0) -> tuple[list[EntryMeaning], list[str]]:
    """Each entry's meaning, in order, and what the compiler reported. The compiler is called once, in one
    batch, for the entries that need it; its model client is built only if one of them is not in the
    grammar (as `forge rulebook add` does)."""
    out: dict[int, EntryMeaning] = {}
    pending: list[int] = []
    for index, entry in enumerate(entries):
        if entry.explicit:
            out[index] = explicit_meaning(entry)
            continue
        before = compiled_before(entry, heads, rule_ids)
        if before is not None:
            out[index] = kept_meaning(entry, before)
        else:
            pending.append(index)
    problems: list[str] = []
    if pending:
        items = [source_item(entries[i]) for i in pending]
        model = client() if any(compile_grammar(item) is None for item in items) else None
        report = RuleCompiler(model).compile(items, seed=seed)
        problems = list(report.problems)
        for index, compiled in zip(pending, report.rules):
            out[index] = compiled_meaning(entries[index], compiled)
    return [out[i] for i in range(len(entries))], problems
