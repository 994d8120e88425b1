"""A dict of head records that applies the rulebook's maintenance plans, as a store would (no I/O)."""

from __future__ import annotations

from forge.rulebook.model import Evidence, RuleRecord
from forge.rulebook.store.curation import Teaching, plan_teachings, plan_withdraw


class PlanBook:
    def __init__(self) -> None:
        self.records: dict[str, RuleRecord] = {}
        self.evidence: dict[str, Evidence] = {}

    def apply(self, *teachings: Teaching):
        for t in teachings:
            self.evidence[t.evidence.id] = t.evidence
        plan = plan_teachings(self.records, teachings, self.evidence)
        for change in plan.changes:
            self.records[change.record.rule_id] = change.record
        return plan

    def withdraw(self, rule_id: str) -> None:
        change = plan_withdraw(self.records, rule_id)
        self.records[rule_id] = change.record

    def of(self, directive: str) -> RuleRecord:
        return next(r for r in self.records.values() if r.directive == directive)
