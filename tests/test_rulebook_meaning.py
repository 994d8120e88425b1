"""Issue 9's acceptance cases for the rulebook, and the compiler's structured output: FORMAT reaches every call
of its role, rules stay silent where their trigger does not hold, the gate reads every context form,
conflicts and merges by meaning, schema validation with one corrective re-prompt, persistence."""

from __future__ import annotations

import json

import pytest

from forge.llm.types import Completion, Usage
from forge.memory.model import Provenance
from forge.rulebook.store.backends import open_rulebook
from forge.rulebook.book import Rulebook
from forge.rulebook.authoring.compile import RuleCompiler, SourceItem
from forge.rulebook.injection import RulebookInjection
from forge.rulebook.model import RuleRecord
from forge.rulebook.retrieval.retrieve import RetrievalSettings
from forge.rulebook.authoring.teaching import Correction, teach_text
from tests.test_rulebook_store import HashEmbedder

FORMAT_TEXT = "Answer with exactly one action, written as the verb followed by the hostname, and nothing else."
USER0_WASTE = "Do not waste actions on User0; it is the attacker's foothold and cannot be cleaned."
USER0_RESTORE = "Restore User0 whenever it shows a privileged compromise."
CLASS_RESTORE = "When a User host shows any compromise, then Restore that host."


class ContractCompiler:
    """A compiler model answering per the compiler's contract (forge/rulebook/authoring/compiler_prompt.md) from a table text ->
    entry (scripted, per test)."""

    def __init__(self, table: dict[str, dict], *, broken_first: bool = False) -> None:
        self.table = table
        self.calls: list[list] = []
        self.broken_first = broken_first

    def complete(self, messages, *, seed=None, stop=None):
        import re

        self.calls.append(list(messages))
        text = next(m.content for m in messages if m.role == "user")
        entries = []
        for match in re.finditer(r"^\[(\d+)\] \w+ for (\w+), taught by \S+\n(.+?)(?=\n\n\[|\Z)", text, re.M | re.S):
            entry = dict(self.table[match[3].strip()])
            entry.update({"item": int(match[1]), "roles": entry.get("roles", [match[2]]), "directive": match[3].strip()})
            if self.broken_first and len(self.calls) == 1:
                entry["when"] = {"host": "User9"}
            entries.append(entry)
        return Completion(json.dumps({"rules": entries}), Usage(1, 1))


CONTRACT = {
    FORMAT_TEXT: {"verdict": "RULE", "type": "FORMAT", "when": {"always": True}, "action": None, "trigger": ""},
    USER0_WASTE: {"verdict": "RULE", "type": "CONTENT", "when": {"host": "User0"}, "action": None, "trigger": "User0"},
    USER0_RESTORE: {"verdict": "RULE", "type": "CONTENT", "when": {"host": "User0", "compromise": "Privileged"},
                    "action": {"mode": "do", "verb": "Restore", "target": "User0"}, "trigger": "User0 privileged"},
    "Never restore User0.": {"verdict": "RULE", "type": "CONTENT", "when": {"host": "User0"},
                             "action": {"mode": "never", "verb": "Restore", "target": "User0"}, "trigger": "User0"},
    "Whenever a user machine is compromised, reimage it.": {
        "verdict": "RULE", "type": "CONTENT", "when": {"class": "User", "compromise": "any"},
        "action": {"mode": "do", "verb": "Restore", "target": "$matched"}, "trigger": "a User host compromised"},
    "If a workstation gets compromised in any way, restore that box.": {
        "verdict": "RULE", "type": "CONTENT", "when": {"class": "user", "compromise": "any"},
        "action": {"mode": "do", "verb": "Restore", "target": "$matched"}, "trigger": "workstation compromised"},
}


@pytest.fixture
def book(tmp_path):
    return Rulebook(open_rulebook(str(tmp_path / "rb.db")), HashEmbedder())


def teach(book, text: str, actor: str, role: str = "action_chooser", compiler=None):
    return teach_text(book, RuleCompiler(compiler or ContractCompiler(CONTRACT)),
                      [Correction(text, role, actor, f"test:{actor}:{text[:20]}")], provenance=Provenance(actor=actor))


def injected(book, role: str, context: str, actor=None) -> list[str]:
    inj = RulebookInjection(book, RetrievalSettings(), actor=actor, window=0)
    found = inj.for_call(role, context)
    heads = book.heads()
    return sorted(heads[rid].record.directive for rid in inj.stage_one_ids(role)) + \
        [heads[i.id.split("@")[0]].record.directive for i in found.items]


def test_a_format_rule_reaches_every_call_of_its_role_and_only_its_role(book):
    taught = teach(book, FORMAT_TEXT, "user:alice")
    assert taught.compiled[0].type == "FORMAT" and taught.compiled[0].when == {"always": True}
    inj = RulebookInjection(book, RetrievalSettings(), window=0)
    inj.start_episode("No host shows activity or compromise.")
    for context in ("No host shows activity or compromise.", "Op_Server0: Activity Exploit, Compromised User",
                    "Reply in JSON. The weather is nice today.", ""):
        prefix = inj.for_call("action_chooser", context).prefix
        assert prefix and FORMAT_TEXT in prefix[0].content
        assert inj.for_call("planner", context).prefix == ()
    # Without start_episode (a caller that forgot it) the FORMAT rule still arrives.
    fresh = RulebookInjection(book, RetrievalSettings(), window=0)
    assert FORMAT_TEXT in fresh.for_call("action_chooser", "User1: Activity Scan, Compromised No").prefix[0].content


def test_user0_rules_stay_silent_on_contexts_without_user0(book):
    teach(book, USER0_WASTE, "user:alice")
    teach(book, USER0_RESTORE, "user:bob")
    for actor in ("user:alice", "user:bob", None):
        for context in ("Op_Server0: Activity Exploit, Compromised User", "User3 | Activity Scan | Compromised No",
                        "Enterprise0: Activity Scan, Compromised No\nEnterprise1: Activity Scan, Compromised No"):
            assert injected(book, "action_chooser", context, actor) == [], (actor, context)
    # Issue 29: "do not waste actions on User0" forbids every verb on User0 (the compiler gave no action; the
    # product completes it), so it disagrees with bob's Restore there: each teacher gets their own, a third
    # actor the narrower rule (bob's: User0 privileged).
    privileged = "User0: Activity Exploit, Compromised Privileged"
    assert injected(book, "action_chooser", privileged, "user:alice") == [USER0_WASTE]
    assert injected(book, "action_chooser", privileged, "user:bob") == [USER0_RESTORE]
    assert injected(book, "action_chooser", privileged, "user:carol") == [USER0_RESTORE]
    assert injected(book, "action_chooser", "User0: Activity Exploit, Compromised User", "user:bob") == [USER0_WASTE]


def test_the_user2_grammar_rule_fires_on_the_pipe_row(book):
    teach(book, "When User2 shows Activity Exploit, then Restore User2.", "user:alice", compiler=ContractCompiler({}))
    assert injected(book, "action_chooser", "User2 | Activity Exploit | Compromised User") == \
        ["When User2 shows Activity Exploit, then Restore User2."]
    assert injected(book, "action_chooser", "User2 | Activity Scan | Compromised No") == []


def test_never_restore_user0_conflicts_with_a_class_rule_and_the_querying_actors_rule_wins(book):
    teach(book, CLASS_RESTORE, "user:bob", compiler=ContractCompiler({}))
    never = teach(book, "Never restore User0.", "user:alice")
    heads = book.records()
    class_id = next(r for r, rec in heads.items() if rec.directive == CLASS_RESTORE)
    assert class_id in heads[never.rule_ids[0]].conflicts_with  # found by meaning, not by a shared group string
    both = "User0: Activity Exploit, Compromised User\nUser1: Activity None, Compromised User"
    assert injected(book, "action_chooser", both, "user:alice") == ["Never restore User0."]
    assert injected(book, "action_chooser", both, "user:bob") == [CLASS_RESTORE]
    assert injected(book, "action_chooser", both, "user:zed") == []  # one each: abstain
    # Where the class rule would not restore User0, they do not disagree: both apply, both are injected.
    apart = "User0: Activity Scan, Compromised No\nUser1: Activity None, Compromised User"
    assert sorted(injected(book, "action_chooser", apart, "user:alice")) == sorted([CLASS_RESTORE, "Never restore User0."])


def test_compatible_corrections_from_two_actors_merge_their_support(book):
    first = teach(book, "Whenever a user machine is compromised, reimage it.", "user:alice")
    second = teach(book, "If a workstation gets compromised in any way, restore that box.", "user:bob")
    assert second.results == ["merge"] and second.rule_ids == first.rule_ids
    record = book.records()[first.rule_ids[0]]
    assert record.actors == ("user:alice", "user:bob") and record.support == 2 and not record.conflicts_with


def test_an_invalid_predicate_gets_one_corrective_reprompt_naming_the_fault(book):
    compiler = ContractCompiler(CONTRACT, broken_first=True)
    report = RuleCompiler(compiler).compile([SourceItem("correction", "action_chooser", "Never restore User0.", "user:a")])
    assert len(compiler.calls) == 2 and "User9" in compiler.calls[1][-1].content
    rule = report.rules[0]
    assert rule.when == {"host": "User0"} and rule.action["mode"] == "never" and not rule.semantic_reason


def test_a_predicate_still_invalid_after_the_reprompt_leaves_the_rule_semantic_with_the_reason():
    class AlwaysBroken:
        calls = 0

        def complete(self, messages, *, seed=None, stop=None):
            AlwaysBroken.calls += 1
            return Completion(json.dumps({"rules": [{"item": 1, "verdict": "RULE", "type": "CONTENT",
                                                     "directive": "Never restore User0.", "roles": ["action_chooser"],
                                                     "when": {"host": "User0"},
                                                     "action": {"mode": "never", "verb": "Reimage", "target": "User0"}}]}),
                              Usage(1, 1))

    report = RuleCompiler(AlwaysBroken()).compile([SourceItem("correction", "action_chooser", "Never restore User0.", "user:a")])
    rule = report.rules[0]
    assert AlwaysBroken.calls == 2 and rule.kept and rule.when is None and rule.action is None
    assert "Reimage" in rule.semantic_reason and any("Reimage" in p for p in report.problems)


@pytest.mark.parametrize("backend", ["sqlite", "redis"])
def test_predicates_and_actions_persist_and_old_records_still_load(backend, tmp_path, request):
    spec = str(tmp_path / "rb.db") if backend == "sqlite" else request.getfixturevalue("clean_redis_url")
    book = Rulebook(open_rulebook(spec), HashEmbedder())
    rule_id = teach(book, "Never restore User0.", "user:alice").rule_ids[0]
    book.store.close()
    reopened = Rulebook(open_rulebook(spec, create=False), HashEmbedder())
    record = reopened.records()[rule_id]
    assert record.when == {"host": "User0"} and record.action == {"mode": "never", "verb": "Restore", "target": "User0"}
    assert injected(reopened, "action_chooser", "User0: Activity Scan, Compromised No") == ["Never restore User0."]
    reopened.store.close()
    old = {k: v for k, v in record.to_dict().items() if k not in ("when", "action", "semantic_reason")}
    assert RuleRecord.from_dict(old).when is None  # a record written before rules carried a meaning


def test_rulebook_show_prints_the_predicate_and_the_action(tmp_path, capsys):
    from forge.cli import main

    db = str(tmp_path / "rb.db")
    assert main(["rulebook", "add", "--rulebook", db, "--actor", "alice", "--role", "action_chooser",
                 "When a User host shows Compromised Privileged, then Restore that host."]) == 0
    added = capsys.readouterr().out
    assert 'when: {"class":"User","compromise":"Privileged"}' in added
    rule_id = added.split()[1].split("@")[0]
    assert main(["rulebook", "show", "--rulebook", db, rule_id]) == 0
    shown = capsys.readouterr().out
    assert 'when: {"class":"User","compromise":"Privileged"}  = a User host shows Compromised Privileged' in shown
    assert 'action: {"mode":"do","target":"$matched","verb":"Restore"}  = do Restore that host' in shown


def test_rulebook_query_settles_a_conflict_for_the_named_user(tmp_path, capsys):
    from forge.cli import main

    db = str(tmp_path / "rb.db")
    for actor, verb in (("bob", "Restore"), ("alice", "Remove")):
        assert main(["rulebook", "add", "--rulebook", db, "--actor", actor, "--role", "action_chooser",
                     f"When User0 shows any compromise, then {verb} User0."]) == 0
    capsys.readouterr()
    assert main(["rulebook", "query", "--rulebook", db, "--role", "action_chooser", "--actor", "alice",
                 "User0 | Activity Exploit | Compromised User"]) == 0
    out = capsys.readouterr().out
    assert "user:alice is a party" in out and "injected: " in out and "Remove User0" in out.split("injected: ")[1]
