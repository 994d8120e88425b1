"""Correction chains: the rules linked to one rule by SUPERSEDES (the same actor replacing an earlier
rule) or CORRECTS (an operator correcting a learned rule at a decision point), oldest first.

A chain is the connected set of rules over those two edges, ordered by when each rule was first taught;
each link says who taught it, when, why (the evidence the rule was first taught with: the correction's
text and, for an operator's correction, the reason and the decision point) and which earlier rule it
replaces or corrects.
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.rulebook.model import RuleVersion


@dataclass(frozen=True)
class ChainLink:
    rule_id: str
    status: str
    directive: str
    link: str  # "first" | "supersedes <id>" | "corrects <id>"
    who: str
    when: float
    why: str  # the teacher's reason if given, else the text taught
    where: str  # the evidence's source (for an anchored correction: trace, step and seed)


def chain_members(records: dict, rule_id: str) -> set[str]:
    """Rule ids connected to `rule_id` by SUPERSEDES or CORRECTS, either way (`records`: id -> RuleRecord)."""
    back = {rid: set(r.supersedes) | set(r.corrects) for rid, r in records.items()}
    forward: dict[str, set[str]] = {}
    for rid, earlier in back.items():
        for other in earlier:
            forward.setdefault(other, set()).add(rid)
    seen, todo = set(), [rule_id]
    while todo:
        current = todo.pop()
        if current in seen or current not in records:
            continue
        seen.add(current)
        todo += [*back.get(current, ()), *forward.get(current, ())]
    return seen


def _first(history: list[RuleVersion]) -> RuleVersion:
    return history[0]


def correction_chain(book, rule_id: str) -> list[ChainLink]:
    records = book.records()
    members = chain_members(records, rule_id)
    firsts = {rid: _first(book.history(rid)) for rid in members}
    evidence = book.evidence_of(firsts[rid].record for rid in members)
    links = []
    for rid in sorted(members, key=lambda r: (firsts[r].created_at, firsts[r].book_version)):
        head, first = records[rid], firsts[rid].record
        earlier = [f"supersedes {o[:10]}" for o in head.supersedes if o in members]
        earlier += [f"corrects {o[:10]}" for o in head.corrects if o in members]
        taught = [evidence[e] for e in first.evidence if e in evidence]
        detail = taught[0].detail if taught else ""
        text, _, reason = detail.partition(" (reason: ")
        why = reason[:-1] if reason.endswith(")") else (reason or text)
        where = taught[0].source if taught else ""
        who = ", ".join(first.actors) or (firsts[rid].provenance.actor or "?")
        links.append(ChainLink(rid, head.status, head.directive, "; ".join(earlier) or "first", who,
                               firsts[rid].created_at, why, where))
    return links
