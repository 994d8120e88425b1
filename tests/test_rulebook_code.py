"""The rulebook as code, its pure decisions (issue 34): rule files and their findings, stated triggers through
the product's checks, the plan's diff, lint, rule-test verdicts, and the published JSON Schemas. No model,
no Ray, no book: head records in, plans and findings out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from forge.rulebook.authoring.compile import RuleCompiler, SourceItem
from forge.rulebook.code.lint import lint_entries
from forge.rulebook.code.meaning import entry_meanings, explicit_meaning
from forge.rulebook.code.plan import ADD, NEW_VERSION, UNCHANGED, WITHDRAW, FilePlan, entry_rule_id, plan_rule_files
from forge.rulebook.code.rulefile import parse_rule_file, parse_test_file
from forge.rulebook.code.ruletest import FAIL, PASS, judge, resolve_names
from forge.rulebook.code import schema as schemas
from forge.rulebook.model import Evidence, RuleRecord, RulebookError, rule_id_for
from tests.test_rulebook_compile import ScriptedClient

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "rulebook"


def rules(*entries: str) -> str:
    return "version: 1\nrules:\n" + "".join(entries)


def entry(entry_id: str, text: str, *, role: str = "action_chooser", actor: str = "user:alice", extra: str = "") -> str:
    return f"  - id: {entry_id}\n    text: {json.dumps(text)}\n    role: {role}\n    actor: {actor}\n" + \
        "".join(f"    {line}\n" for line in extra.strip().splitlines())


RESTORE_OP = entry("restore-op", "Restore Op_Server0 as soon as it shows any compromise.",
                   extra="when: {host: Op_Server0, compromise: any}\naction: {mode: do, verb: Restore, target: Op_Server0}")
NEVER_USER0 = entry("never-user0", "Never restore User0.", actor="user:bob",
                    extra="when: {host: User0}\naction: {mode: never, verb: Restore, target: User0}")
GRAMMAR = entry("grammar", "When Enterprise1 shows Compromised User, then Restore Enterprise1", actor="user:carol")


class Book:
    """A book held in memory: head records and the evidence and trigger texts they cite; commits a plan."""

    def __init__(self) -> None:
        self.version = 0
        self.heads: dict[str, RuleRecord] = {}
        self.evidence: dict[str, Evidence] = {}
        self.texts: dict[str, str] = {}

    def plan(self, text: str, path: str = "rules.yaml") -> FilePlan:
        parsed = parse_rule_file(text, path)
        assert parsed.ok, [str(f) for f in parsed.findings]
        meanings, problems = entry_meanings(parsed.entries, self.heads, lambda: None, entry_rule_id)
        return plan_rule_files(self.version, self.heads, meanings, trigger_texts=self.texts, evidence=self.evidence,
                               compiler_problems=problems)

    def commit(self, plan: FilePlan) -> None:
        assert not plan.errors and plan.book_version == self.version
        for node in plan.nodes:
            if isinstance(node, Evidence):
                self.evidence[node.id] = node
            elif hasattr(node, "text"):
                self.texts[node.id] = node.text
        for change in plan.changes:
            self.heads[change.record.rule_id] = change.record
        self.version += bool(plan.changes)

    def steps(self, plan: FilePlan) -> dict[str, str]:
        return {s.entry: s.kind for s in plan.steps}


# -- rule files -------------------------------------------------------------------------------------------


def test_findings_name_the_file_line_entry_and_key_and_no_reads_as_a_string():
    text = rules(
        RESTORE_OP,
        entry("typo", "Restore Op_Server9 when it is compromised.", extra="when: {host: Op_Server9, compromise: any}"),
        entry("bad-verb", "Never reboot User1.", extra="when: {host: User1}\naction: {mode: never, verb: Reboot, target: User1}"),
        entry("clean-user0", "If User0 is not compromised, leave it.", extra="when: {host: User0, compromise: No}\naction: {mode: do, verb: Sleep}"),
        entry("dup", "Never restore User2.", extra="when: {host: User2}\nwhen: {host: User3}"),
        entry("semantic-and-when", "Be careful with Enterprise2.", extra="semantic: true\nwhen: {host: Enterprise2}"),
    )
    parsed = parse_rule_file(text, "ops/rules.yaml")
    found = {(f.entry, f.key, f.check): f for f in parsed.findings}
    host = found[("typo", "when.host", "unknown-name")]
    assert host.line == text.splitlines().index("    when: {host: Op_Server9, compromise: any}") + 1
    assert str(host).startswith(f"ops/rules.yaml:{host.line}: error: entry typo: when.host: unknown host 'Op_Server9'")
    assert ("bad-verb", "action.verb", "unknown-name") in found
    assert ("dup", "when", "duplicate") in found
    assert any(f.entry == "semantic-and-when" and "semantic: true takes no `when`" in f.message for f in parsed.findings)
    # YAML 1.2 booleans, as editors read them: an unquoted No is the Compromised value, not false.
    assert [e.id for e in parsed.entries] == ["restore-op", "clean-user0"]
    assert parsed.entries[1].when == {"host": "User0", "compromise": "No"}


def test_a_file_that_is_not_yaml_is_one_finding_with_its_line():
    parsed = parse_rule_file("version: 1\nrules:\n  - id: a\n    text: [unclosed\n", "r.yaml")
    (finding,) = parsed.findings
    assert finding.check == "yaml" and finding.line is not None and not parsed.entries


# -- stated triggers pass the compiler's own checks ---------------------------------------------------------


@pytest.mark.parametrize("text, when, action, check", [
    # a negated condition stated without its negation
    ("If User0 is not compromised, do not restore it.", {"host": "User0", "compromise": "any"},
     {"mode": "never", "verb": "Restore", "target": "User0"}, "negation"),
    # a text about Op_Server0 whose trigger is about User hosts
    ("Restore Op_Server0 when it shows Compromised Privileged.", {"class": "User", "compromise": "Privileged"},
     {"mode": "do", "verb": "Restore", "target": "Op_Server0"}, "grounding"),
    # a condition stated, a trigger that holds on every context
    ("When Enterprise2 shows Activity Exploit, remove the attacker from it.", {"always": True},
     {"mode": "do", "verb": "Remove", "target": "Enterprise2"}, "always"),
    # Only the never-wider checks of issue 29 catch the next four (the stated trigger was accepted before them):
    # a text naming Op_Server0, a trigger on any host at all
    ("Restore Op_Server0 when it shows Compromised Privileged.", {"class": "any", "compromise": "Privileged"},
     {"mode": "do", "verb": "Restore", "target": "$matched"}, "host"),
    # a prohibition stated as an order
    ("When User2 shows Activity Exploit, do not remove the attacker from it.", {"host": "User2", "activity": "Exploit"},
     {"mode": "do", "verb": "Remove", "target": "User2"}, "prohibition"),
    # a negated condition said without "not" ("clean"), stated as its opposite
    ("While Op_Server0 is clean, deploy a decoy on it.", {"host": "Op_Server0", "compromise": "any"},
     {"mode": "do", "verb": "DecoyApache", "target": "Op_Server0"}, "negation"),
    # a condition on a host stated as the host merely shown
    ("When User2 is compromised, never restore it.", {"host": "User2"},
     {"mode": "never", "verb": "Restore", "target": "User2"}, "bare"),
])
def test_an_explicit_trigger_that_is_wider_than_its_text_is_refused(text, when, action, check):
    yaml_entry = entry("wide", text, extra=f"when: {json.dumps(when)}\naction: {json.dumps(action)}")
    parsed = parse_rule_file(rules(yaml_entry), "r.yaml")
    assert parsed.ok  # well-formed: the refusal is the product's validation, not the schema
    meaning = explicit_meaning(parsed.entries[0])
    assert meaning.compiled is None and meaning.problem.startswith(f"the trigger is refused: {check}: ")
    # a compiler's entry of the same meaning is refused by the same check (and kept semantic)
    (compiled,) = RuleCompiler(ScriptedClient(*[compiler_reply(when, action)] * 2)).compile(
        [SourceItem("correction", "action_chooser", text, "user:alice")]).rules
    assert compiled.when is None and compiled.semantic_reason.startswith(f"predicate refused: {check}: ")
    plan = Book().plan(rules(yaml_entry))
    assert plan.empty and [(f.entry, f.check) for f in plan.errors] == [("wide", "validation")]
    assert [f.check for f in lint_entries([parsed]) if f.error] == ["validation"]


@pytest.mark.parametrize("text, when, action, unexpressed", [
    # a prohibition with no verb: every verb on its host (stated without an action, or forbidding one verb)
    ("Spend no actions at all on User0.", {"host": "User0"}, None, None),
    ("Leave User0 alone.", {"host": "User0"}, {"mode": "never", "verb": "Restore", "target": "User0"}, None),
    # an unexpressed rest that is a justification never guards; one that is a condition does
    ("When a user host shows Compromised Privileged, restore it (because an early look saves a restore later).",
     {"class": "User", "compromise": "Privileged"}, {"mode": "do", "verb": "Restore", "target": "$matched"},
     "because an early look saves a restore later"),
    ("When a user host shows any compromise at critical priority, restore it.", {"class": "User", "compromise": "any"},
     {"mode": "do", "verb": "Restore"}, "at critical priority"),
])
def test_a_stated_trigger_is_kept_as_the_compiler_keeps_the_same_entry(text, when, action, unexpressed):
    """Stated in a file or answered by a compiler, one meaning is stored one way: the action a verb-less
    prohibition gives, a target left out read as the matched host, only a conditional rest kept as a guard."""
    extra = f"when: {json.dumps(when)}" + (f"\naction: {json.dumps(action)}" if action else "") + \
        (f"\nunexpressed: {json.dumps(unexpressed)}" if unexpressed else "")
    parsed = parse_rule_file(rules(entry("stated", text, extra=extra)), "r.yaml")
    assert parsed.ok, [str(f) for f in parsed.findings]
    stated = explicit_meaning(parsed.entries[0]).compiled
    (compiled,) = RuleCompiler(ScriptedClient(compiler_reply(when, action, unexpressed or ""))).compile(
        [SourceItem("correction", "action_chooser", text, "user:alice")]).rules
    assert compiled.when is not None, compiled.semantic_reason
    assert (stated.when, stated.action, stated.unexpressed, stated.group) == \
        (compiled.when, compiled.action, compiled.unexpressed, compiled.group)
    assert stated.action is not None and stated.action["target"] in ("User0", "$matched")
    if "User0" in text:
        assert stated.action["verb"] == "any"


def test_a_stated_format_rule_whose_text_states_a_condition_on_hosts_is_refused_as_a_compiled_one_is():
    text = "When User1 is scanned, answer with a decoy on it."
    parsed = parse_rule_file(rules(entry("fmt", text, extra="type: FORMAT")), "r.yaml")
    assert parsed.ok
    meaning = explicit_meaning(parsed.entries[0])
    assert meaning.compiled is None and "format: the text states a condition on hosts" in meaning.problem
    assert [(f.check, f.key) for f in lint_entries([parsed]) if f.error] == [("validation", "type")]
    assert explicit_meaning(parse_rule_file(rules(entry("fmt", "Answer with one Action line.", extra="type: FORMAT")),
                                            "r.yaml").entries[0]).ok


def compiler_reply(when, action, unexpressed: str = "") -> str:
    """A compiler model's answer for one artifact: this predicate and action (the compiler's wire format)."""
    return json.dumps({"rules": [{"item": 1, "verdict": "RULE", "type": "CONTENT", "directive": "the rule",
                                  "roles": ["action_chooser"], "when": when, "action": action, "unexpressed": unexpressed}]})


def test_a_stated_trigger_skips_the_compiler_and_keeps_the_authors_words():
    called = []
    parsed = parse_rule_file(rules(RESTORE_OP, GRAMMAR), "r.yaml")
    meanings, _ = entry_meanings(parsed.entries, {}, lambda: called.append(1), entry_rule_id)
    assert not called  # a stated trigger and a grammar rule need no model client
    stated, grammar = (m.compiled for m in meanings)
    assert stated.compiled_by == "rulefile" and stated.directive == "Restore Op_Server0 as soon as it shows any compromise."
    assert grammar.compiled_by == "grammar" and grammar.directive == parsed.entries[1].text  # not the canonical spelling
    assert grammar.when == {"host": "Enterprise1", "compromise": "User"}


def test_an_entry_the_compiler_gives_no_usable_answer_for_is_an_error_not_a_semantic_rule():
    free = entry("free", "Whenever a user box is rooted, reimage it.", actor="user:dave")
    parsed = parse_rule_file(rules(free), "r.yaml")
    client = ScriptedClient("I cannot help with that.", "Still no JSON, sorry.")
    (meaning,), problems = entry_meanings(parsed.entries, {}, lambda: client, entry_rule_id)
    assert meaning.compiled is None and "the compiler gave no usable answer" in meaning.problem and problems
    plan = plan_rule_files(0, {}, [meaning], trigger_texts={}, evidence={})
    assert plan.empty and [(f.entry, f.check) for f in plan.errors] == [("free", "compile")]


# -- the plan -------------------------------------------------------------------------------------------


def test_the_plan_says_add_new_version_withdraw_unchanged_and_applying_it_twice_changes_nothing():
    book = Book()
    first = book.plan(rules(RESTORE_OP, NEVER_USER0, GRAMMAR))
    assert book.steps(first) == {"restore-op": ADD, "never-user0": ADD, "grammar": ADD}
    assert [c.op for c in first.changes] == ["add"] * 3
    book.commit(first)
    again = book.plan(rules(RESTORE_OP, NEVER_USER0, GRAMMAR))
    assert again.empty and set(book.steps(again).values()) == {UNCHANGED}

    # never-user0 narrowed (a new meaning, same words), the grammar rule reworded, restore-op gone
    narrowed = NEVER_USER0.replace("when: {host: User0}", "when: {host: User0, compromise: Privileged}")
    reworded = GRAMMAR.replace("Restore Enterprise1", "Remove Enterprise1")
    plan = book.plan(rules(narrowed, reworded))
    steps = {s.entry: s for s in plan.steps}
    assert {e: s.kind for e, s in steps.items()} == {"never-user0": NEW_VERSION, "grammar": NEW_VERSION, "restore-op": WITHDRAW}
    assert "its meaning changed" in steps["never-user0"].detail and steps["never-user0"].rule_id == steps["never-user0"].before.rule_id
    old_grammar = steps["grammar"].detail.split("supersedes rule ")[1]
    ops = {c.record.rule_id: c.op for c in plan.changes}
    assert ops[steps["never-user0"].rule_id] == "revise" and ops[steps["grammar"].rule_id] == "add"
    assert ops[old_grammar] == "supersede" and ops[steps["restore-op"].rule_id] == "withdraw"
    book.commit(plan)
    assert book.heads[old_grammar].status == "superseded" and book.heads[steps["restore-op"].rule_id].status == "withdrawn"
    assert book.heads[steps["grammar"].rule_id].supersedes == (old_grammar,)
    assert book.plan(rules(narrowed, reworded)).empty


def test_status_withdrawn_withdraws_and_active_again_restores():
    book = Book()
    book.commit(book.plan(rules(RESTORE_OP)))
    withdrawn = RESTORE_OP + "    status: withdrawn\n"
    plan = book.plan(rules(withdrawn))
    assert book.steps(plan) == {"restore-op": WITHDRAW} and [c.op for c in plan.changes] == ["withdraw"]
    book.commit(plan)
    assert book.plan(rules(withdrawn)).empty
    back = book.plan(rules(RESTORE_OP))
    assert book.steps(back) == {"restore-op": NEW_VERSION} and [c.op for c in back.changes] == ["restore"]


def test_teaching_a_withdrawn_rules_meaning_in_other_words_is_refused_as_the_book_refuses_it():
    book = Book()
    book.commit(book.plan(rules(RESTORE_OP)))
    book.commit(book.plan(rules(RESTORE_OP + "    status: withdrawn\n")))
    again = entry("op-again", "Reimage Op_Server0 whenever it is compromised.",
                  extra="when: {host: Op_Server0, compromise: any}\naction: {mode: do, verb: Restore, target: Op_Server0}")
    plan = book.plan(rules(RESTORE_OP + "    status: withdrawn\n", again))
    assert [(f.entry, f.check) for f in plan.errors] == [("op-again", "withdrawn")]
    assert "forge rulebook restore" in plan.errors[0].message


def test_consequences_are_maintenance_on_the_book_a_conflict_and_how_precedence_settles_it():
    book = Book()
    book.commit(book.plan(rules(NEVER_USER0)))
    class_rule = entry("restore-users", "When a User host shows Compromised User, restore it.", actor="user:dave",
                       extra="when: {class: User, compromise: User}\naction: {mode: do, verb: Restore, target: $matched}")
    plan = book.plan(rules(NEVER_USER0, class_rule))
    (consequence,) = plan.consequences
    assert consequence.op == "conflict" and "nothing settles it" in consequence.detail
    narrow = entry("user0-remove", "When User0 shows Compromised User, remove the attacker rather than restoring it.",
                   extra="when: {host: User0, compromise: User}\n"
                         "action: {mode: prefer, verb: Remove, target: User0, over: {verb: Restore, target: User0}}")
    plan = book.plan(rules(narrow, class_rule))
    assert any("user0-remove wins by specificity" in c.detail for c in plan.consequences)


def test_an_entry_keeps_its_id_across_files_and_duplicated_ids_or_rules_are_errors():
    book = Book()
    plan = book.plan(rules(RESTORE_OP, RESTORE_OP.replace("user:alice", "user:bob")))
    assert [f.check for f in plan.errors] == ["duplicate"]
    twin = RESTORE_OP.replace("id: restore-op", "id: restore-op-twin")
    plan = book.plan(rules(RESTORE_OP, twin))
    assert [f.check for f in plan.errors] == ["duplicate"] and "same rule as entry 'restore-op'" in plan.errors[0].message


def test_a_file_adopts_a_rule_of_its_words_without_changing_its_support():
    book = Book()
    failure = Evidence("failure", "s1/i00", "s1/i00-s1-a1", 3)
    learned = RuleRecord(rule_id_for("CONTENT", ["action_chooser"], "Never restore User0."), "Never restore User0.",
                         "CONTENT", ("action_chooser",), "User0/shown", actors=("s1/i00",), evidence=(failure.id,), support=3,
                         sources=("memory-item",), compiled_by="model", when={"host": "User0"},
                         action={"mode": "never", "verb": "Restore", "target": "User0"})
    book.heads[learned.rule_id] = learned
    book.evidence[failure.id] = failure
    adopt = NEVER_USER0.replace("user:bob", "s1/i00")
    plan = book.plan(rules(adopt))
    (step,) = plan.steps
    assert step.kind == NEW_VERSION and "adopts rule" in step.detail
    after = plan.changes[0].record
    assert after.support == 3 and after.actors == ("s1/i00",) and after.sources == ("memory-item", "rulefile:never-user0")
    book.commit(plan)
    assert book.plan(rules(adopt)).empty


# -- lint -----------------------------------------------------------------------------------------------


def test_lint_finds_triggers_that_never_or_always_fire_and_conflicts_nothing_settles():
    never = entry("never-fires", "When User1 shows Activity Scan, analyse it.",
                  extra="when: {all: [{host: User1, activity: Scan}, {not: {host: User1, activity: any}}]}\n"
                        "action: {mode: do, verb: Analyse, target: User1}")
    # a host merely shown for a condition on it: the never-wider checks refuse it (apply would too)
    shown = entry("shown-only", "When User2 is compromised, never restore it.",
                  extra="when: {host: User2}\naction: {mode: never, verb: Restore, target: User2}")
    # a tautology the checks let through (it is no literal `always`): lint's own trigger check finds it
    tautology = entry("tautology", "When in doubt, monitor.",
                      extra="when: {any: [{class: any, activity: any}, {not: {class: any, activity: any}}]}\n"
                            "action: {mode: do, verb: Monitor}")
    restore_users = entry("restore-users", "Restore User hosts that show Compromised User.", actor="user:dave",
                          extra="when: {class: User, compromise: User}\naction: {mode: do, verb: Restore, target: $matched}")
    unknown_host = entry("ghost", "Never restore Op_Server7.", extra="semantic: true")
    parsed = parse_rule_file(rules(never, shown, tautology, NEVER_USER0, restore_users, unknown_host), "lint.yaml")
    found = {(f.entry, f.check): f for f in lint_entries([parsed])}
    assert found[("never-fires", "never-fires")].error
    refused = found[("shown-only", "validation")]
    assert refused.error and refused.key == "when" and refused.message.startswith("the trigger is refused: bare: ")
    assert ("shown-only", "always-fires") not in found
    assert found[("tautology", "always-fires")].error and ("tautology", "validation") not in found
    conflict = found[("restore-users", "conflict")]
    assert conflict.error and "never-user0" in conflict.message and conflict.key == "action"
    assert found[("ghost", "text-host")].severity == "warning"
    clean = parse_rule_file(rules(RESTORE_OP, NEVER_USER0, GRAMMAR), "clean.yaml")
    assert lint_entries([clean]) == []


def test_lint_finds_a_teacher_whose_equivalent_trigger_would_supersede_its_own_entry():
    remove = entry("remove-op", "When Op_Server0 shows any compromise, remove the attacker from it.",
                   extra="when: {host: Op_Server0, compromise: any}\naction: {mode: do, verb: Remove, target: Op_Server0}")
    findings = lint_entries([parse_rule_file(rules(RESTORE_OP, remove), "r.yaml")])
    assert [(f.entry, f.check) for f in findings] == [("remove-op", "supersedes")]
    assert Book().plan(rules(RESTORE_OP, remove)).errors[0].check == "supersedes"


# -- rule-test verdicts -----------------------------------------------------------------------------------


def test_verdicts_for_exact_sets_and_must_and_must_not():
    heads = {r.rule_id: r for r in (
        RuleRecord("aaaa1111aaaa1111", "A", "CONTENT", ("planner",), "g", sources=("rulefile:a",)),
        RuleRecord("bbbb2222bbbb2222", "B", "CONTENT", ("planner",), "g", sources=("rulefile:b",)),
        RuleRecord("cccc3333cccc3333", "C", "CONTENT", ("planner",), "g"),
    )}
    cases = parse_test_file(
        "cases:\n"
        "  - {name: exact, role: planner, context: x, expect: [a, b]}\n"
        "  - {name: nothing, role: planner, context: x, expect: []}\n"
        "  - {name: must, role: planner, context: x, must: [a], must_not: [cccc33]}\n", "t.yaml").cases
    names = resolve_names(["a", "b", "cccc33"], heads)
    verdict = lambda case, injected: judge(case, injected, names, heads)  # noqa: E731
    assert verdict(cases[0], ["bbbb2222bbbb2222", "aaaa1111aaaa1111"]).verdict == PASS
    missing = verdict(cases[0], ["aaaa1111aaaa1111", "cccc3333cccc3333"])
    assert missing.verdict == FAIL and missing.missing == ("b",) and missing.unexpected == ("cccc3333cccc3333",)
    assert verdict(cases[1], []).passed and not verdict(cases[1], ["aaaa1111aaaa1111"]).passed
    assert verdict(cases[2], ["aaaa1111aaaa1111", "bbbb2222bbbb2222"]).passed
    assert verdict(cases[2], ["aaaa1111aaaa1111", "cccc3333cccc3333"]).unexpected == ("cccc33",)
    with pytest.raises(RulebookError, match="'zzz' names no rule-file entry"):
        resolve_names(["zzz"], heads)


def test_a_test_file_with_both_an_exact_set_and_must_is_refused_by_the_schema():
    parsed = parse_test_file("cases:\n  - {name: x, role: planner, context: c, expect: [a], must: [b]}\n"
                             "  - {name: y, role: planner, expect: [a]}\n", "t.yaml")
    messages = {f.entry: f.message for f in parsed.findings}
    assert "takes no `must`" in messages["x"] and "exactly one of `context` or `trace`" in messages["y"]


# -- the published schemas ------------------------------------------------------------------------------


def test_the_published_schemas_are_what_the_product_builds():
    for name, build in schemas.SCHEMAS.items():
        published = json.loads((ROOT / "schemas" / name).read_text())
        assert published == build(), f"schemas/{name} is stale: run scripts/write_schemas.py"


def test_the_json_schema_validates_every_shipped_example_and_rejects_a_broken_one():
    from jsonschema import Draft202012Validator

    rule_files = sorted(EXAMPLES.glob("rules/*.yaml"))
    test_files = sorted(EXAMPLES.glob("tests/*.yaml"))
    assert rule_files and test_files
    validators = {"rules": Draft202012Validator(schemas.rule_file_schema()), "tests": Draft202012Validator(schemas.tests_file_schema())}
    for kind, paths in (("rules", rule_files), ("tests", test_files)):
        for path in paths:
            # the published file, as an editor uses it (yaml.safe_load: quoted values read the same either way)
            schema = json.loads((ROOT / "schemas" / ("rulebook.schema.json" if kind == "rules" else "rulebook-tests.schema.json")).read_text())
            data = yaml.safe_load(path.read_text())
            assert not list(Draft202012Validator(schema).iter_errors(data)), path
            assert not list(validators[kind].iter_errors(data)), path
    broken = yaml.safe_load((EXAMPLES / "rules" / "operators.yaml").read_text())
    broken["rules"][0]["when"] = {"host": "Op_Server9", "compromise": "any"}
    broken["rules"][1]["action"]["mode"] = "always"
    del broken["rules"][2]["actor"]
    errors = list(validators["rules"].iter_errors(broken))
    paths = {tuple(e.absolute_path) for e in errors}
    assert ("rules", 0, "when", "host") in paths and ("rules", 1, "action", "mode") in paths and ("rules", 2) in paths


def test_the_schema_and_the_parser_agree_on_the_rule_language():
    """Every compilation the development splits of the DC bench write down (their `ref`s) is valid under the
    schema exactly when the product's parser reads it; and so are deliberately broken ones."""
    from jsonschema import Draft202012Validator

    from forge.rulebook.language.action import parse_rule_action
    from forge.rulebook.language.predicate import PredicateError, parse_predicate

    schema = schemas.rule_file_schema()
    predicate = Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/predicate"})
    action = Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/action"})
    refs = []
    for split in ("dev", "model_style"):
        data = yaml.safe_load((ROOT / "data" / "dc_bench" / f"{split}.yaml").read_text())
        refs += [t["ref"] for s in data["scenarios"] for step in s["steps"] for t in step.get("teach", ()) if t.get("ref")]
    whens = [r["when"] for r in refs if r.get("when")] + [{"host": "User9"}, {"class": "User", "host": "User1"},
                                                           {"host": "User1", "within": 2}, {"phase": "impact"}, {"any": []}]
    actions = [r["action"] for r in refs if r.get("action")] + [
        {"mode": "do", "verb": "Sleep", "target": None},
        {"mode": "never", "verb": "Restore"},  # a host verb's target left out: the matched host
        {"mode": "never", "verb": "any"},  # every verb on the matched host
        {"mode": "do", "verb": "any", "target": "User0"},  # `any` is a prohibition's only
        {"mode": "prefer", "verb": "Restore", "target": "User1", "over": {"verb": "any", "target": "User1"}},
        {"mode": "do", "verb": "Remove", "then": [{"verb": "Restore"}]},
        {"mode": "do", "verb": "Remove", "target": "User1", "then": [{"verb": "any", "target": "User1"}]},
        {"mode": "prefer", "verb": "Remove", "target": "User1"}]
    assert len(whens) > 40 and len(actions) > 40
    assert any(a.get("verb") == "any" for a in actions[:-8])  # the bench's compilations use it
    for value, validator, parse in [(w, predicate, parse_predicate) for w in whens] + [(a, action, parse_rule_action) for a in actions]:
        try:
            parse(value)
            parsed = True
        except PredicateError:
            parsed = False
        assert validator.is_valid(value) == parsed, value
