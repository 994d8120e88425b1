"""Issue 18, item 7: plans. A rule's action may be a short sequence of moves or aim at hosts relative to
the matched host (the rest of its subnet, the next subnet on the attack path); the compiler accepts it,
the rule keeps it, aftermath judges a step `followed` when its action is any of the plan's moves, and
the plan is spelled out wherever the rule is shown."""

from __future__ import annotations

import json

import pytest

from forge.rulebook.authoring.compile import COMPILER_SCHEMA, RuleCompiler, SourceItem
from forge.rulebook.language.action import (
    NEXT_SUBNET, SUBNET, Adherence, clash_hosts, judge, parse_rule_action, relative_hosts, rule_action_to_json,
)
from forge.rulebook.language.meaning import in_words, meaning_of
from forge.rulebook.language.predicate import PredicateError
from forge.rulebook.model import RuleRecord
from forge.rulebook.outcomes.aftermath import StepSeen, episode_aftermath
from tests.test_rulebook_compile import ScriptedClient

PLAN = {"mode": "do", "verb": "Remove", "target": "$matched", "then": [{"verb": "DecoyApache", "target": "$next_subnet"}]}
WHEN = {"class": "User", "activity": "Exploit"}


def entry(action, when=WHEN, text="When a User host is exploited, remove the attacker, then decoy the next hop."):
    return {"item": 1, "verdict": "RULE", "type": "CONTENT", "directive": text, "roles": ["action_chooser"],
            "when": when, "action": action, "unexpressed": "", "trigger": ""}


def test_relative_targets_follow_the_subnets_and_the_attack_path():
    assert relative_hosts(NEXT_SUBNET, ["User1"]) == {"Enterprise0", "Enterprise1", "Enterprise2", "Defender"}
    assert relative_hosts(NEXT_SUBNET, ["Enterprise2"]) == {"Op_Host0", "Op_Host1", "Op_Host2", "Op_Server0"}
    assert relative_hosts(NEXT_SUBNET, ["Op_Server0"]) == frozenset()  # the end of the path
    assert relative_hosts(SUBNET, ["User1"]) == {"User0", "User2", "User3", "User4"}  # the rest: not User1 itself
    assert relative_hosts(SUBNET, ["User1", "User2"]) == {"User0", "User3", "User4"}


def test_a_plan_parses_round_trips_and_a_single_move_keeps_its_json():
    action = parse_rule_action(PLAN)
    assert [m.verb for m in action.moves] == ["Remove", "DecoyApache"] and action.is_plan
    assert rule_action_to_json(action) == PLAN
    single = {"mode": "do", "verb": "Restore", "target": "$matched"}
    assert rule_action_to_json(parse_rule_action(single)) == single  # no "then" key: old digests unchanged
    assert "then" not in rule_action_to_json(parse_rule_action({**single, "then": []}))
    assert parse_rule_action({"mode": "do", "verb": "Restore"}).move.target == "$matched"  # "restore it"
    relative = parse_rule_action({"mode": "do", "verb": "Analyse", "target": "subnet"})  # the "$" is optional
    assert relative.move.target == SUBNET and relative.is_plan


@pytest.mark.parametrize("bad, words", [
    ({**PLAN, "mode": "never"}, "only a 'do' action is a plan"),
    ({**PLAN, "then": {"verb": "Analyse"}}, "'then' must be a list"),
    ({**PLAN, "then": [{"verb": "Analyse", "target": "$matched"}] * 3}, "at most 3 moves"),
    ({**PLAN, "then": [{"verb": "Analyse", "target": 7}]}, "action target must be a string"),
    ({**PLAN, "then": [{"verb": "Analyse", "target": "$elsewhere"}]}, "unknown target '$elsewhere'"),
])
def test_a_bad_plan_is_refused_naming_the_fault(bad, words):
    with pytest.raises(PredicateError, match=words.replace("$", r"\$").replace("(", r"\(")):
        parse_rule_action(bad)


def test_the_compiler_keeps_a_plan_and_a_relative_target_and_its_schema_bounds_the_plan():
    text = "When a User host is exploited, remove the attacker, then decoy the next hop."
    report = RuleCompiler(ScriptedClient(json.dumps({"rules": [entry(PLAN, text=text)]}))).compile(
        [SourceItem("rule", "action_chooser", text, "s/i00")])
    rule, = report.rules
    assert rule.kept and not rule.semantic and rule.action == PLAN and not report.problems
    text = "When a User host is exploited, analyse the rest of that subnet."
    report = RuleCompiler(ScriptedClient(json.dumps({"rules": [entry({"mode": "do", "verb": "Analyse", "target": "$subnet"}, text=text)]}))).compile(
        [SourceItem("rule", "planner", text, "s/i00")])
    assert report.rules[0].action == {"mode": "do", "verb": "Analyse", "target": "$subnet"} and not report.problems
    action = COMPILER_SCHEMA["properties"]["rules"]["items"]["properties"]["action"]
    assert action["properties"]["then"]["maxItems"] == 2 and action["properties"]["mode"]["enum"] == ["do", "never", "prefer"]


def test_a_plan_that_does_not_parse_gets_the_corrective_reprompt_naming_it():
    text = "When a User host is exploited, remove the attacker, then decoy the next hop."
    bad = {**PLAN, "then": [{"verb": "DecoyApache", "target": "the next hop"}]}
    client = ScriptedClient(json.dumps({"rules": [entry(bad, text=text)]}), json.dumps({"rules": [entry(PLAN, text=text)]}))
    report = RuleCompiler(client).compile([SourceItem("rule", "action_chooser", text, "s/i00")])
    assert len(client.prompts) == 2 and "unknown target 'the next hop'" in client.prompts[1][-1].content
    assert report.rules[0].action == PLAN


def test_a_plan_is_followed_by_any_of_its_moves():
    action = parse_rule_action(PLAN)
    assert judge(action, "Remove User1", ["User1"]) is Adherence.FOLLOWED
    assert judge(action, "DecoyApache Enterprise1", ["User1"]) is Adherence.FOLLOWED
    assert judge(action, "Restore User1", ["User1"]) is Adherence.CONTRADICTED  # another verb on a host it names
    assert judge(action, "Remove User2", ["User1"]) is Adherence.IGNORED  # a host the plan leaves alone
    assert judge(action, "DecoyApache Op_Server0", ["User1"]) is Adherence.IGNORED  # not the next hop of User1
    analyse = parse_rule_action({"mode": "do", "verb": "Analyse", "target": "$subnet"})
    assert judge(analyse, "Analyse User3", ["User1"]) is Adherence.FOLLOWED
    assert judge(analyse, "Analyse User1", ["User1"]) is Adherence.IGNORED  # the rest of the subnet, not the host


def test_aftermath_judges_a_plan_rule_followed_on_either_move():
    record = RuleRecord("p1", "When a User host is exploited, remove the attacker, then decoy the next hop.", "CONTENT",
                        ("action_chooser",), "User/activity-exploit", when=WHEN, action=PLAN)
    context = "Alerts:\nUser1: Activity Exploit, Compromised User"
    steps = [StepSeen(1, context, "Remove User1", -1.0, ("p1@v1",)), StepSeen(2, context, "DecoyApache Defender", -1.0, ("p1@v1",)),
             StepSeen(3, context, "Restore User1", -1.0, ("p1@v1",))]
    found = episode_aftermath(steps, {"p1@v1": meaning_of(record)}, window=1, threshold=-10.0)
    assert [a.judged for a in found] == [Adherence.FOLLOWED, Adherence.FOLLOWED, Adherence.CONTRADICTED]


def test_plans_clash_only_where_no_move_agrees():
    plan = parse_rule_action(PLAN)
    never_decoy = parse_rule_action({"mode": "never", "verb": "DecoyApache", "target": "Enterprise0"})
    assert clash_hosts(plan, never_decoy, ["User1"], ["Enterprise0"]) == {"Enterprise0"}
    decoy_there = parse_rule_action({"mode": "do", "verb": "DecoyApache", "target": "Enterprise0"})
    assert clash_hosts(plan, decoy_there, ["User1"], ["Enterprise0"]) is None  # the plan's second move agrees
    restore = parse_rule_action({"mode": "do", "verb": "Restore", "target": "$matched"})
    assert clash_hosts(plan, restore, ["User1"], ["User1"]) == {"User1"}


def test_a_plan_is_shown_in_words_in_show_and_in_the_injected_text():
    from forge.commands.rulebook import _meaning_lines
    from forge.rulebook.injection import stage_one_pair
    from forge.rulebook.model import RuleVersion

    record = RuleRecord("p1", "When a User host is exploited, remove the attacker, then decoy the next hop.", "CONTENT",
                        ("action_chooser",), "User/activity-exploit", when=WHEN, action=PLAN)
    words = "do Remove that host, then DecoyApache the next subnet on the attack path (User -> Enterprise -> Operational)"
    assert any(line.endswith(f"= {words}") for line in _meaning_lines(record))
    assert in_words(record) == f"{record.directive} (plan: {words})"
    user, _ = stage_one_pair([RuleVersion("p1", 1, record, "add", 1)])
    assert f"- {record.directive} (plan: {words})" in user.content
    plain = record.with_(action={"mode": "do", "verb": "Remove", "target": "$matched"})
    assert in_words(plain) == plain.directive  # a single move on the matched host needs no spelling out
    assert "then" not in plain.to_dict()["action"]


def test_a_plan_taught_at_the_console_is_shown_and_injected_in_words(tmp_path, capsys):
    """The default (surrogate) compiler turns a plan into `then` and a relative target; show and query say it."""
    from forge.cli import main
    from forge.rulebook.store.backends import open_rulebook

    db = str(tmp_path / "book.db")
    text = "When User1 is exploited, remove the attacker from it, then put a decoy on the next hop."
    assert main(["rulebook", "add", "--actor", "alice", "--role", "action_chooser", "--rulebook", db, text]) == 0
    with open_rulebook(db) as store:
        (rule_id, head), = store.heads().items()
    assert head.record.action == {"mode": "do", "verb": "Remove", "target": "User1",
                                  "then": [{"verb": "DecoyApache", "target": "$next_subnet"}]}
    capsys.readouterr()
    assert main(["rulebook", "show", rule_id[:8], "--rulebook", db]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "= do Remove User1, then DecoyApache the next subnet on the attack path" in out
    context = "Situation (from the Planner): look\n\nAlerts:\nUser1: Activity Exploit, Compromised User"
    assert main(["rulebook", "query", context, "--role", "action_chooser", "--rulebook", db]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"injected: {rule_id}@v1" in out and "(plan: do Remove User1, then DecoyApache the next subnet" in out
