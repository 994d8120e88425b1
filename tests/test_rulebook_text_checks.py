"""Issue 29: the rulebook on text it has never seen. A compiled rule never says more than its text, nor the
opposite of it, whatever the compiler (items 1 and 7); guards (item 3); withdrawal by meaning compares texts
(item 5); a note that opens with its situation is an instruction (item 6). Item 4 (contexts read host by
host) is tests/test_rulebook_contexts_read.py; item 2 (harm measured) is tests/test_dc_bench.py and the live
figure tests/test_rulebook_efficacy.py.

The compilations below are what a compiler answered for the classes of failure the issue names (a model, the
surrogate or a case author can each give them); every one is scripted, so the product's own checks are what
is tested."""

from __future__ import annotations

import json

import pytest

from forge.memory.model import Provenance
from forge.rulebook.authoring.compile import RuleCompiler, SourceItem
from forge.rulebook.authoring.teaching import Correction, teach_text
from forge.rulebook.book import Rulebook
from forge.rulebook.injection import RulebookInjection
from forge.rulebook.retrieval.retrieve import RetrievalSettings
from forge.rulebook.store.backends import open_rulebook
from tests.test_rulebook_compile import ScriptedClient
from tests.actions import do, never

QUIET = {"not": {"any": [{"class": "any", "activity": "any"}, {"class": "any", "compromise": "any"}]}}
ACTIVE = {"any": [{"class": "any", "activity": "any"}, {"class": "any", "compromise": "any"}]}
CHOOSER = "action_chooser"


def entry(when, action, unexpressed="", item=1, verdict="RULE", directive=None, type_="CONTENT"):
    directive = directive or f"rule {json.dumps([when, action], sort_keys=True)}"
    return {"item": item, "verdict": verdict, "type": type_, "directive": directive, "roles": [CHOOSER], "when": when,
            "action": action, "unexpressed": unexpressed, "trigger": ""}


def reply(*entries) -> str:
    return json.dumps({"rules": list(entries)})


# -- item 1: never wider, never the opposite -----------------------------------------------------------


@pytest.mark.parametrize("text, when, action, unexpressed, check", [
    # a condition of absence stored as its opposite, with an unexpressed rest (which used to switch the check off)
    ("When no host shows any activity, deploy DecoyApache on Enterprise0.", ACTIVE, do("DecoyApache", "Enterprise0"),
     "no host shows any activity", "negation"),
    # an exception that forbids a verb on a named host and offers another, compiled from its last sentence: the
    # prohibition became an order, the host became any host
    ("Except for User0: do not restore User0 when it is compromised. Remove the attacker from it instead.",
     {"class": "any", "compromise": "any"}, do("Remove", "$matched"), "", "host"),
    ("Except for User0: do not restore User0 when it is compromised. Remove the attacker from it instead.",
     {"host": "User0", "compromise": "any"}, do("Restore", "User0"), "", "prohibition"),
    ("Except for User0: do not restore User0 when it is compromised. Remove the attacker from it instead.",
     {"class": "any", "compromise": "any"}, {"mode": "prefer", "verb": "Remove", "target": "$matched",
                                             "over": {"verb": "Restore", "target": "$matched"}}, "", "host"),
    # a named host became any host
    ("When User2 gets exploited, kick the attacker off User2.", {"class": "any", "activity": "Exploit"},
     do("Remove", "$matched"), "", "host"),
    # scanned and nothing compromised became "any scan"
    ("If Enterprise1 is scanned but not yet compromised, deploy DecoyTomcat on Enterprise1.",
     {"host": "Enterprise1", "activity": "Scan"}, do("DecoyTomcat", "Enterprise1"), "", "negation"),
    # a fresh compromise (clean at the previous step) became "shows Exploit"
    ("A host that was clean at the previous step and is compromised now has just been breached: analyse it.",
     {"class": "any", "activity": "Exploit"}, do("Analyse", "$matched"), "", "negation|history"),
    # a class word must restrict the trigger
    ("No restores on the operational hosts while they only show scans.", {"class": "any", "activity": "Scan",
     "compromise": "No"}, {"mode": "never", "verb": "Restore", "target": "Operational"}, "", "class"),
    # "prefer X over Y" reversed
    ("Use Remove rather than Restore on Enterprise2 when it has user-level access.",
     {"host": "Enterprise2", "compromise": "User"}, {"mode": "prefer", "verb": "Restore", "target": "Enterprise2",
                                                    "over": {"verb": "Remove", "target": "Enterprise2"}}, "", "disprefer"),
    # an order compiled as a prohibition
    ("Restore Op_Server0 when it is compromised.", {"host": "Op_Server0", "compromise": "any"},
     {"mode": "never", "verb": "Restore", "target": "Op_Server0"}, "", "inverted"),
    # a negated condition with its negation in the wrong place ("not (scanned and compromised)")
    ("Avoid restoring Op_Server0 while it only shows a scan and no compromise.",
     {"not": {"host": "Op_Server0", "activity": "Scan", "compromise": "any"}},
     {"mode": "never", "verb": "Restore", "target": "Op_Server0"}, "", "claims"),
    # "clean" stored as its opposite
    ("As long as Op_Server0 is clean, keep monitoring.", {"not": {"host": "Op_Server0", "compromise": "No"}},
     do("Monitor", None), "", "claims"),
    # an order about a host that holds everywhere
    ("Never restore the user hosts.", {"always": True}, {"mode": "never", "verb": "Restore", "target": "User"}, "", "always"),
    # a condition that says something of a host compiled as "the context shows it"
    ("If User3 gets hit, reimage User3.", {"host": "User3"}, do("Restore", "User3"), "", "bare"),
])
def test_a_compilation_wider_than_its_text_or_its_opposite_is_refused_naming_the_check(text, when, action, unexpressed,
                                                                                         check):
    from forge.rulebook.authoring.checks import text_problem

    problem = text_problem(text, when, action, unexpressed)
    assert problem is not None and problem.split(":")[0] in check.split("|"), problem


@pytest.mark.parametrize("text, when, action", [
    ("When no host shows any activity, deploy DecoyApache on Enterprise0.", QUIET, do("DecoyApache", "Enterprise0")),
    ("Except for User0: do not restore User0 when it is compromised. Remove the attacker from it instead.",
     {"host": "User0", "compromise": "any"}, {"mode": "prefer", "verb": "Remove", "target": "User0",
                                              "over": {"verb": "Restore", "target": "User0"}}),
    ("If Enterprise1 is scanned but not yet compromised, deploy DecoyTomcat on Enterprise1.",
     {"host": "Enterprise1", "activity": "Scan", "compromise": "No"}, do("DecoyTomcat", "Enterprise1")),
    ("A host that was clean at the previous step and is compromised now has just been breached: analyse it.",
     {"class": "any", "compromise": "any", "newly_compromised": True}, do("Analyse", "$matched")),
    ("Never restore Enterprise1, even if it is compromised.", {"host": "Enterprise1"},
     {"mode": "never", "verb": "Restore", "target": "Enterprise1"}),
    ("Always analyse Enterprise0 when it shows Compromised User but not Compromised Privileged.",
     {"host": "Enterprise0", "compromise": "User"}, do("Analyse", "Enterprise0")),
    ("Restore User1 if it shows Compromised Privileged; leave it alone otherwise.",
     {"host": "User1", "compromise": "Privileged"}, do("Restore", "User1")),
    ("Spend no actions at all on User0; it is a honeypot we watch.", {"host": "User0"}, None),
])
def test_a_compilation_that_says_what_its_text_says_passes(text, when, action):
    from forge.rulebook.authoring.checks import text_problem

    assert text_problem(text, when, action) is None


# Three of the model-style author's compilations say more than their words, and the split keeps its author's file
# as written: "newly compromised" compiled as "shows Exploit" twice (the text speaks of history), and a plan whose
# second step names Op_Server0 compiled as its first step alone (the named host neither restricts the trigger nor
# is the target). The checks refuse exactly these, by these checks.
AUTHORS_WIDER_READINGS = {("M-hi-4", "a"): "history", ("M-ph-5", "a"): "history", ("M-pl-3", "a"): "host"}


def test_every_reference_compilation_of_the_development_splits_passes_the_checks():
    """The case authors' own compilations of the dev, held-out and model-style splits: the checks refuse none
    but the author's three wider readings above (a check that refused correct compilations would turn good rules
    into silent ones)."""
    from forge.rulebook.authoring.checks import text_problem
    from tests.test_dc_bench import load_bench

    bench = load_bench()
    observations = bench.load_observations()
    refused = []
    for split in ("dev", "heldout", "model_style"):
        for scenario in bench.load_split(split, observations):
            for step in scenario["steps"]:
                for item in step.get("teach") or []:
                    ref = item.get("ref") or {}
                    if ref.get("when") is not None and ref.get("type") != "FORMAT":
                        problem = text_problem(item["text"], ref["when"], ref.get("action"), ref.get("unexpressed", ""))
                        if problem:
                            refused.append((scenario["id"], item["as"], problem.split(":")[0]))
    assert sorted(refused) == sorted((*key, check) for key, check in AUTHORS_WIDER_READINGS.items()), refused


def test_a_refused_compilation_gets_one_reprompt_then_stays_semantic_and_silent_where_its_text_does_not_apply(tmp_path):
    """The inverted exception, twice: kept semantic with the reason, never stored as a predicate rule, and judged by
    its own words (three-valued): silent where User0 is not compromised, and where User0 is not shown."""
    text = "Except for User0: do not restore User0 when it is compromised. Remove the attacker from it instead."
    inverted = reply(entry({"class": "any", "compromise": "any"}, do("Remove", "$matched")))
    client = ScriptedClient(inverted, inverted)
    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")))
    taught = teach_text(book, RuleCompiler(client), [Correction(text, CHOOSER, "user:alice", "t")], provenance=Provenance())
    (rule_id,) = taught.rule_ids
    record = book.store.head(rule_id).record
    assert len(client.prompts) == 2 and "the text names User0" in client.prompts[1][-1].content
    assert record.when is None and record.action is None and record.semantic_reason.startswith("predicate refused: host")
    injection = RulebookInjection(book, RetrievalSettings(relevance_floor=0.0), window=0, embedder=book.embedder)

    def injected(context: str) -> bool:
        return any(i.id.split("@")[0] == rule_id for i in injection.for_call(CHOOSER, context).items)

    assert not injected("User1: Activity Exploit, Compromised User")  # another host: the wide compile fired here
    assert not injected("User0: Activity Scan, Compromised No")  # User0 not compromised
    assert injected("User0: Activity None, Compromised User")


def test_a_prohibition_with_no_verb_forbids_every_verb_and_conflicts_with_an_order_about_that_host(tmp_path):
    """Two teachers who disagree: alice's "spend no actions on User0" (compiled with no action, as the issue
    saw) and bob's order to restore it. The product completes the prohibition to every verb on User0, so the
    two conflict and the precedence table settles them: each teacher gets their own, a third the narrower."""
    spend = "Spend no actions at all on User0; it is a honeypot we watch."
    restore = "When User0 is compromised, restore User0."
    client = ScriptedClient(reply(entry({"host": "User0"}, None)),
                            reply(entry({"host": "User0", "compromise": "any"}, do("Restore", "User0"))))
    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")))
    compiler = RuleCompiler(client)
    (a,) = teach_text(book, compiler, [Correction(spend, CHOOSER, "user:alice", "t1")], provenance=Provenance()).rule_ids
    (b,) = teach_text(book, compiler, [Correction(restore, CHOOSER, "user:bob", "t2")], provenance=Provenance()).rule_ids
    assert book.store.head(a).record.action == {"mode": "never", "verb": "any", "target": "User0"}
    assert b in book.store.head(a).record.conflicts_with
    context = "User0: Activity None, Compromised User"

    def injected(actor):
        injection = RulebookInjection(book, RetrievalSettings(), actor=actor, window=0, embedder=book.embedder)
        return {i.id.split("@")[0] for i in injection.for_call(CHOOSER, context).items}

    assert injected("user:alice") == {a}
    assert injected("user:bob") == {b}
    assert injected("user:carol") == {b}  # specificity: User0 compromised is narrower than User0 shown


# -- inversions that used to slip through (issue 29b): the checks hold whatever the compiler ----------------------

U1_TO_4 = {"any": [{"host": f"User{n}", "compromise": "any"} for n in range(1, 5)]}
BOTH = {"all": [{"host": "Op_Server0", "compromise": "any"}, {"host": "Enterprise2", "compromise": "any"}]}


def prefer(verb, target, over_verb, over_target):
    return {"mode": "prefer", "verb": verb, "target": target, "over": {"verb": over_verb, "target": over_target}}


@pytest.mark.parametrize("text, when, action, check", [
    # an order with an exception turned into a prohibition of its own verb (a negative word elsewhere let it pass)
    ("Restore the compromised user hosts, but not User0.", {"host": "User0", "compromise": "any"}, never("Restore", "User0"),
     "inverted"),
    # a priority between two hosts, reversed
    ("When Op_Server0 and Enterprise2 are both compromised, restore Op_Server0 before Enterprise2.", BOTH,
     prefer("Restore", "Enterprise2", "Restore", "Op_Server0"), "target"),
    # the target swapped for the host the text contrasts it with
    ("When Enterprise1 is compromised, restore Enterprise1 rather than Enterprise2.", {"host": "Enterprise1", "compromise": "any"},
     do("Restore", "Enterprise2"), "target"),
    ("When User2 is scanned, put a decoy on it, not on User3.", {"host": "User2", "activity": "Scan"}, do("DecoyApache", "User3"),
     "target"),
    # a prohibition moved to another host
    ("Never restore User0; restore User1 instead when both are compromised.",
     {"all": [{"host": "User0", "compromise": "any"}, {"host": "User1", "compromise": "any"}]}, never("Restore", "User1"),
     "inverted"),
    # a dispreference the product did not read before ("as a last resort", "better than"), reversed
    ("If Enterprise0 is compromised, remove the attacker; restore it only as a last resort.",
     {"host": "Enterprise0", "compromise": "any"}, prefer("Restore", "Enterprise0", "Remove", "Enterprise0"), "disprefer"),
    ("On Enterprise2, Remove is better than Restore when it shows a user-level compromise.",
     {"host": "Enterprise2", "compromise": "User"}, prefer("Restore", "Enterprise2", "Remove", "Enterprise2"), "disprefer"),
    # a prohibition in words the product did not read before, turned into an order
    ("Never pick Remove for User0 when it is compromised.", {"host": "User0", "compromise": "any"}, do("Remove", "User0"),
     "prohibition"),
    ("Do not use Restore on Enterprise1, even when it is compromised.", {"host": "Enterprise1", "compromise": "any"},
     do("Restore", "Enterprise1"), "prohibition"),
    ("Restoring Enterprise1 is pointless when it only has user-level access.", {"host": "Enterprise1", "compromise": "User"},
     do("Restore", "Enterprise1"), "prohibition"),
    ("User1 should never be restored while it is only scanned.", {"host": "User1", "activity": "Scan", "compromise": "No"},
     do("Restore", "User1"), "prohibition"),
    # a prohibition on one host widened to whatever the trigger matches (it forbids the restore the text orders)
    ("Don't restore User2; restore User1 when it is compromised.", {"class": "User", "compromise": "any"},
     never("Restore", "$matched"), "inverted"),
    # a prohibition on "the other user hosts" widened to the whole class, User1 included (the order is on User1)
    ("Restore User1 when it is compromised, but never restore the other user hosts.", {"host": "User1", "compromise": "any"},
     never("Restore", "User"), "inverted"),
    # a preference the text does not state (an invented "over")
    ("When Op_Server0 and Enterprise2 are both compromised, restore Op_Server0.", BOTH,
     prefer("Restore", "Op_Server0", "Restore", "Enterprise2"), "prefer"),
])
def test_an_inverted_compilation_is_refused_whatever_the_compiler(text, when, action, check):
    from forge.rulebook.authoring.checks import text_problem

    problem = text_problem(text, when, action)
    assert problem is not None and problem.split(":")[0] == check, problem


@pytest.mark.parametrize("text, when, action", [
    ("Restore the compromised user hosts, but not User0.", U1_TO_4, do("Restore", "$matched")),
    ("When Op_Server0 and Enterprise2 are both compromised, restore Op_Server0 before Enterprise2.", BOTH,
     prefer("Restore", "Op_Server0", "Restore", "Enterprise2")),
    ("When Op_Server0 and Enterprise2 are both compromised, restore Op_Server0 before Enterprise2.", BOTH,
     do("Restore", "Op_Server0")),
    ("When User2 is scanned, put a decoy on it, not on User3.", {"host": "User2", "activity": "Scan"}, do("DecoyApache", "User2")),
    ("Never restore User0; restore User1 instead when both are compromised.",
     {"all": [{"host": "User0", "compromise": "any"}, {"host": "User1", "compromise": "any"}]},
     prefer("Restore", "User1", "Restore", "User0")),
    ("If Enterprise0 is compromised, remove the attacker; restore it only as a last resort.",
     {"host": "Enterprise0", "compromise": "any"}, prefer("Remove", "Enterprise0", "Restore", "Enterprise0")),
    ("Never pick Remove for User0 when it is compromised.", {"host": "User0", "compromise": "any"}, never("Remove", "User0")),
    ("Restore User1 when it is compromised, but never restore the other user hosts.", {"host": "User1", "compromise": "any"},
     do("Restore", "User1")),
    ("Never hesitate to restore Op_Server0 once it is compromised.", {"host": "Op_Server0", "compromise": "any"},
     do("Restore", "Op_Server0")),
    ("Decoy Enterprise2 before Enterprise2 gets exploited, while it only shows a scan.",
     {"host": "Enterprise2", "activity": "Scan", "compromise": "No"}, do("DecoyApache", "Enterprise2")),
])
def test_a_compilation_that_keeps_its_texts_direction_passes(text, when, action):
    from forge.rulebook.authoring.checks import text_problem

    assert text_problem(text, when, action) is None


# -- item 3: guards ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("rest", ["last time we waited and the attacker got root", "the moment it is compromised",
                                  "because an early look saves a restore later", "lesson: do not wait"])
def test_a_rest_that_is_a_story_a_justification_or_a_restatement_never_guards(tmp_path, rest):
    text = f"When a user host shows Compromised Privileged, restore it ({rest})."
    client = ScriptedClient(reply(entry({"class": "User", "compromise": "Privileged"}, do("Restore", "$matched"), rest)))
    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")))
    (rule_id,) = teach_text(book, RuleCompiler(client), [Correction(text, CHOOSER, "s1/i00", "t", kind="rule")],
                            provenance=Provenance()).rule_ids
    assert book.store.head(rule_id).record.unexpressed == ""
    injection = RulebookInjection(book, RetrievalSettings(), window=0, embedder=book.embedder)
    ids = lambda context: {i.id.split("@")[0] for i in injection.for_call(CHOOSER, context).items}  # noqa: E731
    assert ids("Alerts:\nUser2: Activity None, Compromised Privileged") == {rule_id}  # the predicate holds: injected
    assert ids("Alerts:\nUser2: Activity Exploit, Compromised User") == set()


def test_a_rest_taken_from_the_texts_story_or_justification_never_guards(tmp_path):
    """A compiler that lists words of the text's explanation as unexpressed ("spread attack") adds no condition: the
    rest is dropped, and the rule applies where its predicate holds (a rest the product cannot judge would silence it)."""
    text = "Compromised user workstations spread the attack. Restore any User host that shows a compromise."
    client = ScriptedClient(reply(entry({"class": "User", "compromise": "any"}, do("Restore", "$matched"), "spread attack")))
    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")))
    (rule_id,) = teach_text(book, RuleCompiler(client), [Correction(text, CHOOSER, "s1/i00", "t", kind="rule")],
                            provenance=Provenance()).rule_ids
    assert book.store.head(rule_id).record.unexpressed == ""
    injection = RulebookInjection(book, RetrievalSettings(), window=0, embedder=book.embedder)
    assert {i.id.split("@")[0] for i in injection.for_call(CHOOSER, "User2: Activity None, Compromised User").items} == {rule_id}


def test_a_rest_that_is_a_condition_guards_three_valued_by_what_it_claims():
    """A guard is judged like a semantic rule's condition, by its claims (three-valued), never by its cosine: "only
    while Op_Server0 is clean" holds where Op_Server0 shows Compromised No, is false where it is compromised, and
    unknown (silent) where the context does not show it; "it" is the one host the predicate names."""
    from forge.rulebook.language.guard import guard_claims
    from forge.rulebook.language.predicate import parse_predicate, truth
    from forge.rulebook.language.situation import read_situation

    when = parse_predicate({"host": "Enterprise1", "compromise": "any"})
    clean = guard_claims("only while Op_Server0 is clean", when)
    value = lambda guard, context: truth(guard, read_situation(context))  # noqa: E731
    assert value(clean, "Enterprise1: Activity None, Compromised User\nOp_Server0: Activity None, Compromised No") is True
    assert value(clean, "Enterprise1: Activity None, Compromised User\nOp_Server0: Activity Exploit, Compromised User") is False
    assert value(clean, "Enterprise1: Activity None, Compromised User") is None  # Op_Server0 not stated: unknown
    exploited = guard_claims("and it shows an exploit", when)
    assert value(exploited, "Enterprise1: Activity Exploit, Compromised User") is True
    assert value(exploited, "Enterprise1: Activity None, Compromised User") is False
    assert guard_claims("because an early look saves a restore later", when) is None  # a justification: no guard


@pytest.mark.parametrize("rest, context", [
    # contexts that state the very words of the rest: a cosine guard passed them, the product cannot judge them
    ("at critical priority", "User1: Activity None, Compromised User (alert priority: critical)"),
    ("when the attacker seems to be moving fast", "User1: Activity None, Compromised User. The attacker seems to be "
                                                  "moving fast."),
    ("if the SOC ticket for it is urgent", "User1: Activity None, Compromised User. The SOC ticket for User1 is urgent."),
])
def test_a_rest_the_product_cannot_judge_leaves_its_rule_silent_whatever_its_cosine(tmp_path, rest, context):
    text = f"When a user host shows any compromise {rest}, restore it."
    client = ScriptedClient(reply(entry({"class": "User", "compromise": "any"}, do("Restore", "$matched"), rest)))
    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")))
    (rule_id,) = teach_text(book, RuleCompiler(client), [Correction(text, CHOOSER, "user:gina", "t")],
                            provenance=Provenance()).rule_ids
    assert book.store.head(rule_id).record.unexpressed == rest
    injection = RulebookInjection(book, RetrievalSettings(), window=0, embedder=book.embedder)
    assert not injection.for_call(CHOOSER, context).items


# -- item 5: withdrawal by meaning compares texts -----------------------------------------------------------


def test_a_withdrawn_rule_taught_again_in_other_words_is_refused_even_when_the_wordings_compile_differently(tmp_path):
    first = "Put a DecoyApache on User1 as soon as it is scanned."
    again = "User1 was probed first. Whenever User1 shows a scan, deploy DecoyApache on User1."
    client = ScriptedClient(reply(entry({"host": "User1", "activity": "Scan"}, do("DecoyApache", "User1"))),
                            # the rewording, compiled differently (a meaning of its own: only while clean)
                            reply(entry({"host": "User1", "activity": "Scan", "compromise": "No"}, do("DecoyApache", "User1"))))
    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")))
    compiler = RuleCompiler(client)
    (rule_id,) = teach_text(book, compiler, [Correction(first, CHOOSER, "user:carol", "t1")], provenance=Provenance()).rule_ids
    book.withdraw(rule_id, Provenance(actor="user:carol"))
    taught = teach_text(book, compiler, [Correction(again, CHOOSER, "s2/i04", "t2", kind="rule")], provenance=Provenance())
    assert taught.results == ["refused"]
    detail = taught.teach.outcomes[0].detail
    assert rule_id in detail and f"forge rulebook restore {rule_id}" in detail
    different = "Analyse User1 as soon as it is scanned."  # another verb: another rule
    client.replies.append(reply(entry({"host": "User1", "activity": "Scan"}, do("Analyse", "User1"))))
    assert teach_text(book, compiler, [Correction(different, CHOOSER, "user:carol", "t3")], provenance=Provenance()).results == ["add"]


# -- item 6: a note that opens with its situation is an instruction ---------------------------------------


def test_a_note_that_opens_with_its_situation_is_an_instruction_not_noise():
    note = "Op_Server0 compromised. That is the impact phase and it costs the most. Restore Op_Server0 right away."
    drop = reply({"item": 1, "verdict": "DROP", "reason": "not an instruction"})
    client = ScriptedClient(drop, drop)
    report = RuleCompiler(client).compile([SourceItem("correction", CHOOSER, note, "user:harry")])
    (rule,) = report.rules
    assert rule.kept and len(client.prompts) == 2 and "gives an order" in client.prompts[1][-1].content
    from forge.rulebook.language.condition import semantic_claims
    from forge.rulebook.language.predicate import predicate_to_json

    # kept as written: judged by what its words claim, its opening situation
    # (and, judged by its words alone, not met where the row is at Compromised Unknown: guard.confirmed)
    assert predicate_to_json(semantic_claims(rule.directive, rule.semantic_reason)) == {
        "all": [{"host": "Op_Server0", "compromise": "any"}, {"not": {"host": "Op_Server0", "compromise": "Unknown"}}]}
    repeat = reply({"item": 1, "verdict": "DROP", "reason": "repeats an earlier artifact"})
    kept = RuleCompiler(ScriptedClient(repeat)).compile([SourceItem("correction", CHOOSER, note, "user:harry")]).rules[0]
    assert not kept.kept  # a repeat is dropped


def test_the_surrogate_reads_a_note_that_opens_with_its_situation():
    from forge.config import load_config
    from forge.wiring import build_clients

    clients, _ = build_clients(load_config())
    notes = ["Op_Server0 compromised. That is the impact phase and it costs the most. Restore Op_Server0 right away.",
             "Reconnaissance under way: the attacker is mapping the network. Deploy a DecoyApache on User2."]
    first, second = RuleCompiler(clients["compiler"]).compile([SourceItem("correction", CHOOSER, n, "user:harry") for n in notes]).rules
    assert first.when == {"host": "Op_Server0", "compromise": "any"} and first.action == do("Restore", "Op_Server0")
    assert second.when == {"phase": "reconnaissance"} or second.when == {"class": "any", "activity": "Scan"}
    assert second.action == do("DecoyApache", "User2")
