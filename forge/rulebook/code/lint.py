"""`forge rulebook lint`: what is wrong with rule files before anyone plans them. Pure, no model, no book.

Checks, each a `Finding` naming the file, the line, the entry id and the key:
- schema (and YAML) errors; unknown hosts, classes, values and verbs (`unknown-name`);
- duplicated ids, and two entries that are one rule (the same text, type and roles);
- `validation`: a stated trigger (or FORMAT rule) the product refuses (the checks every compiled rule passes,
  so `apply` would refuse it too: meaning.explicit_meaning);
- `never-fires`: a trigger no context can satisfy (it contradicts itself);
- `always-fires`: a trigger that holds on every context although the text states a condition (a trigger
  narrower than always but wider than its text, such as a host merely shown for "when User2 is compromised",
  is the checks' to refuse: `validation`);
- `conflict`: two entries whose actions can disagree where both apply, and which nothing settles: not
  the same teacher (whose equivalent trigger would replace the other: `supersedes`), neither narrower
  than the other, equal support. For any actor but their own, neither would be injected there;
- `replaces`: naming an entry that is still in the files;
- `text-host` (warning): the text names a host CAGE-2 does not have.
Entries without a stated trigger are compiled at plan time; lint checks their text only.
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import Sequence

from forge.env.catalog import HOSTS
from forge.rulebook.authoring.compile import STATED_CONDITION
from forge.rulebook.code.meaning import EntryMeaning, explicit_meaning
from forge.rulebook.code.plan import entry_rule_id
from forge.rulebook.code.rulefile import Finding, RuleEntry, RuleFile
from forge.rulebook.language.meaning import meaning_of, may_conflict
from forge.rulebook.language.predicate import Always, Not, PredicateError, implies, may_overlap, parse_predicate
from forge.rulebook.model import RuleRecord, RuleStatus, RuleType
from forge.rulebook.retrieval.resolve import settle

_HOST_LIKE = re.compile(r"\b(?:User|Enterprise|Op_Host|Op_Server)\d+\b|\bOp_\w+\d\b")


def _record(meaning: EntryMeaning) -> RuleRecord:
    compiled, entry = meaning.compiled, meaning.entry
    return RuleRecord(entry_rule_id(entry, compiled.type), entry.text, compiled.type, entry.roles, compiled.group,
                      actors=entry.actors, support=len(entry.actors), when=compiled.when, action=compiled.action,
                      unexpressed=compiled.unexpressed)


def trigger_findings(entry: RuleEntry, when: dict) -> list[Finding]:
    """never-fires / always-fires for one stated trigger."""
    predicate = parse_predicate(when)
    if not may_overlap(predicate, Always()):
        return [entry.finding("the trigger can never hold: its parts contradict each other", "never-fires", "when")]
    condition = STATED_CONDITION.search(entry.text)
    if condition is None:
        return []
    stated = condition.group(0).strip()[:60]
    if not may_overlap(Not(predicate), Always()):
        return [entry.finding(f"the trigger holds on every context, but the text states a condition ({stated!r})",
                              "always-fires", "when")]
    return []


def conflict_findings(meanings: Sequence[EntryMeaning]) -> list[Finding]:
    """Pairs of active CONTENT entries that disagree where both apply and that nothing settles."""
    found = []
    rules = [(m, _record(m)) for m in meanings
             if m.ok and m.entry.status == RuleStatus.ACTIVE and m.compiled.type == RuleType.CONTENT and m.compiled.when is not None]
    for (a, ra), (b, rb) in combinations(rules, 2):
        if not set(ra.roles) & set(rb.roles) or not may_conflict(meaning_of(ra), meaning_of(rb)):
            continue
        shared = set(ra.actors) & set(rb.actors)
        if shared:
            pa, pb = meaning_of(ra).when, meaning_of(rb).when
            if implies(pa, pb) and implies(pb, pa) and ra.unexpressed == rb.unexpressed:
                found.append(b.entry.finding(
                    f"the same teacher ({', '.join(sorted(shared))}) as entry {a.entry.id!r} on an equivalent trigger "
                    f"with another action: teaching it would supersede that entry; keep one of them", "supersedes", "when"))
            continue
        decision = settle([ra.rule_id, rb.rule_id], {ra.rule_id: ra, rb.rule_id: rb}, None)
        if decision.winner is None:
            found.append(b.entry.finding(
                f"conflicts with entry {a.entry.id!r} ({a.entry.path}:{a.entry.line}) where both apply, and nothing "
                f"settles it ({decision.detail}; neither trigger is narrower): for any other actor neither is "
                f"injected there. Narrow one trigger, or let one `replaces` the other", "conflict", "action"))
    return found


def lint_entries(files: Sequence[RuleFile]) -> list[Finding]:
    findings = [f for rf in files for f in rf.findings]
    entries = [e for rf in files for e in rf.entries]
    every_id = {e.id for e in entries}
    ids: dict[str, RuleEntry] = {}
    rules: dict[str, RuleEntry] = {}
    for entry in entries:
        if entry.id in ids:
            first = ids[entry.id]
            findings.append(entry.finding(f"the id is used twice (first at {first.path}:{first.line})", "duplicate", "id"))
        ids.setdefault(entry.id, entry)
        rule_id = entry_rule_id(entry, entry.type or RuleType.CONTENT)
        if rule_id in rules and entry.status == rules[rule_id].status:
            other = rules[rule_id]
            findings.append(entry.finding(f"is the same rule as entry {other.id!r} ({other.path}:{other.line}): the same "
                                          f"text, type and roles", "duplicate", "text"))
        rules.setdefault(rule_id, entry)
        for name in entry.replaces:
            if name in every_id:
                findings.append(entry.finding(f"names entry {name!r}, which is still in the files", "replaces", "replaces"))
        for word in sorted(set(_HOST_LIKE.findall(entry.text)) - set(HOSTS)):
            findings.append(entry.finding(f"the text names {word}, which is not a CAGE-2 host", "text-host", "text", "warning"))
    meanings = []
    for entry in entries:
        if not entry.explicit:
            continue
        meaning = explicit_meaning(entry)
        meanings.append(meaning)
        if entry.when is None:
            if not meaning.ok:
                findings.append(entry.finding(meaning.problem, "validation", "type"))
            continue
        try:
            triggers = trigger_findings(entry, entry.when)
        except PredicateError:
            triggers = []  # the validation below names what is wrong with it
        if not meaning.ok:
            findings.append(entry.finding(meaning.problem, "validation", "when"))
        findings.extend(f for f in triggers if meaning.ok or f.check == "never-fires")
    findings.extend(conflict_findings(meanings))
    return sorted(findings, key=lambda f: (f.path, f.line or 0, f.check))


def unlinted(files: Sequence[RuleFile]) -> int:
    """Entries whose meaning only the compiler gives (lint checks their text only)."""
    return sum(1 for rf in files for e in rf.entries if not e.explicit)
