"""Issue 29, second round: a rule the product's checks keep back (semantic) is judged by its own words' claims, and
must fire only where every condition its words state is read and true: an exception ("except", "other than", "User0
is the exception", "this does not apply to User0") is honoured, a rule taught on one host ("I restored Enterprise1
too late. Restore it as soon as it is compromised.") does not reach a sibling, and an "it" the reading cannot tie to
one host leaves the rule silent. The compilations are scripted (what a compiler answered), so the product's own
checks and claims are what is tested."""

from __future__ import annotations

import pytest

from forge.memory.model import Provenance
from forge.rulebook.authoring.compile import RuleCompiler
from forge.rulebook.authoring.teaching import Correction, teach_text
from forge.rulebook.book import Rulebook
from forge.rulebook.injection import RulebookInjection
from forge.rulebook.retrieval.retrieve import RetrievalSettings
from forge.rulebook.store.backends import open_rulebook
from tests.test_rulebook_compile import ScriptedClient
from tests.test_rulebook_text_checks import CHOOSER, entry, reply
from tests.actions import do
def taught(tmp_path, text: str, *entries_json: str, kind: str = "correction"):
    """The rule `text` compiles to with these scripted replies, and a function naming whether it is injected."""
    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")))
    (rule_id,) = teach_text(book, RuleCompiler(ScriptedClient(*entries_json)), [Correction(text, CHOOSER, "user:ann", "t",
                                                                                            kind=kind)],
                            provenance=Provenance()).rule_ids
    injection = RulebookInjection(book, RetrievalSettings(), window=0, embedder=book.embedder)

    def injected(context: str) -> bool:
        return any(i.id.split("@")[0] == rule_id for i in injection.for_call(CHOOSER, context).items)
    return book.store.head(rule_id).record, injected


WIDE_USER = reply(entry({"class": "User", "compromise": "any"}, do("Restore", "$matched")))


@pytest.mark.parametrize("text", [
    "Restore compromised user hosts. User0 is the exception.",
    "Restore compromised user hosts; this does not apply to User0.",
    "Reimage any compromised workstation, with the exception of User0.",
    "Except for User0, restore every compromised user host.",
    "Restore the compromised user hosts and leave User0 out of it.",
])
def test_an_exception_is_honoured_by_the_check_and_by_the_claims_of_the_rule_it_keeps_back(tmp_path, text):
    """The compiler dropped the exception (a class-wide restore): refused, and the semantic rule's claims leave User0
    out, so it is silent where only User0 is compromised (it fired there)."""
    record, injected = taught(tmp_path, text, WIDE_USER, WIDE_USER)
    assert record.when is None and record.semantic_reason.startswith("predicate refused: except")
    assert not injected("User0: Activity None, Compromised User\nUser1: Activity Scan, Compromised No")
    assert injected("User0: Activity None, Compromised No\nUser3: Activity None, Compromised User")


@pytest.mark.parametrize("text, verb, host, sibling", [
    ("I restored Enterprise1 too late and the attacker got root. Restore it as soon as it is compromised.", "Restore",
     "Enterprise1", "Enterprise2"),
    ("The attacker got into User3 and I waited. Remove the attacker from that host as soon as it is exploited.", "Remove",
     "User3", "User1"),
    ("User2 was exploited twice while I monitored. Next time remove the attacker from it the moment it shows an exploit.",
     "Remove", "User2", "User4"),
])
def test_a_rule_taught_on_one_host_does_not_reach_a_sibling(tmp_path, text, verb, host, sibling):
    """The host is named only in the lesson's story; "it" in the order is that host. A compilation to any host is
    refused, and the rule's claims keep to that host."""
    wide = reply(entry({"class": "any", "compromise": "any"}, do(verb, "$matched")))
    record, injected = taught(tmp_path, text, wide, wide, kind="rule")
    assert record.when is None and f"means by 'it' {host}" in record.semantic_reason
    assert not injected(f"{sibling}: Activity Exploit, Compromised User")
    assert injected(f"{host}: Activity Exploit, Compromised User")


def test_a_compilation_kept_to_the_host_of_the_story_passes(tmp_path):
    text = "I restored Enterprise1 too late and the attacker got root. Restore it as soon as it is compromised."
    record, injected = taught(tmp_path, text, reply(entry({"host": "Enterprise1", "compromise": "any"}, do("Restore", "$matched"))),
                              kind="rule")
    assert record.when == {"host": "Enterprise1", "compromise": "any"}
    assert injected("Enterprise1: Activity None, Compromised User") and not injected("Enterprise2: Activity None, Compromised User")


def test_an_it_is_the_host_its_sentence_names_and_the_condition_about_it_must_be_expressed(tmp_path):
    """Two hosts named in the text, one per sentence: "it" is Enterprise1. A compilation that keeps only Op_Server0's
    condition is refused (it used to pass: the claims check skipped a text whose "it" it could not place), and the
    rule's claims hold both conditions."""
    text = "Restore Enterprise1 if it is compromised. This only matters while Op_Server0 is clean."
    wide = reply(entry({"host": "Op_Server0", "compromise": "No"}, do("Restore", "Enterprise1")))
    record, injected = taught(tmp_path, text, wide, wide)
    assert record.when is None and record.semantic_reason.startswith("predicate refused: claims")
    assert not injected("Enterprise1: Activity None, Compromised No\nOp_Server0: Activity None, Compromised No")
    assert injected("Enterprise1: Activity None, Compromised User\nOp_Server0: Activity None, Compromised No")
    assert not injected("Enterprise1: Activity None, Compromised User\nOp_Server0: Activity None, Compromised User")


def test_an_it_the_reading_cannot_tie_to_one_host_leaves_the_rule_silent(tmp_path):
    text = "When Enterprise1 or Enterprise2 shows a scan and it is not yet compromised, put a DecoyApache on Enterprise2."
    wide = reply(entry({"class": "Enterprise", "activity": "Scan"}, do("DecoyApache", "Enterprise2")))
    record, injected = taught(tmp_path, text, wide, wide)
    assert record.when is None
    assert not injected("Enterprise1: Activity Scan, Compromised No\nEnterprise2: Activity Scan, Compromised No")


def test_an_order_about_compromised_hosts_is_an_order_not_a_report():
    """"Restore compromised user hosts" used to read as a report (its participle taken for the past tense), so the
    sentence after it was its instruction."""
    from forge.rulebook.language.wording import read_wording

    words = read_wording("Restore compromised user hosts. User0 is the exception.")
    assert words.gives_order and words.instruction == "Restore compromised user hosts." and words.excepted == ("User0",)


@pytest.mark.parametrize("text, when, action, check", [
    # "when both are compromised" compiled as any host compromised: "both" is the two hosts its sentence names
    ("Restore User1 but never User2 when both are compromised.", {"class": "any", "compromise": "any"},
     do("Restore", "User1"), "claims"),
    # "only user hosts are compromised" restricts the situation (no other host is), it does not name the rule's scope
    ("Don't reimage enterprise boxes when only user hosts are compromised.", {"class": "User", "compromise": "any"},
     {"mode": "never", "verb": "Restore", "target": "Enterprise"}, "negation"),
    # "unless it is User0" is an exception
    ("When a user host is compromised, restore it, unless it is User0.", {"class": "User", "compromise": "any"},
     do("Restore", "$matched"), "except"),
])
def test_a_wider_compilation_of_a_group_a_restriction_or_an_exception_is_refused(text, when, action, check):
    from forge.rulebook.authoring.checks import text_problem

    problem = text_problem(text, when, action)
    assert problem is not None and problem.split(":")[0] == check, problem


def test_what_both_and_an_unless_exception_claim():
    from forge.rulebook.language.guard import complete_claims
    from forge.rulebook.language.rule_claims import rule_claims
    from forge.rulebook.language.predicate import parse_predicate

    both = "Restore User1 but never User2 when both are compromised."
    found = rule_claims(both, with_instruction=True)
    assert complete_claims(both, found) and found == parse_predicate(
        {"all": [{"host": "User1", "compromise": "any"}, {"host": "User2", "compromise": "any"}]})
    unless = "When a user host is compromised, restore it, unless it is User0."
    found = rule_claims(unless, with_instruction=True)
    assert complete_claims(unless, found) and found == parse_predicate(
        {"any": [{"host": f"User{n}", "compromise": "any"} for n in range(1, 5)]})


def test_a_negated_class_clause_does_not_negate_the_clause_about_other_hosts_after_and():
    """"When no enterprise host is compromised and a user host is being exploited": the "no" is the enterprise hosts'
    (it used to negate the user host's exploit too, so the rule applied where no user host was exploited)."""
    from forge.rulebook.language.guard import complete_claims
    from forge.rulebook.language.rule_claims import rule_claims
    from forge.rulebook.language.predicate import parse_predicate

    text = "When no enterprise host is compromised and a user host is being exploited, remove the attacker from that user host."
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found) and found == parse_predicate(
        {"all": [{"not": {"class": "Enterprise", "compromise": "any"}}, {"class": "User", "activity": "Exploit"}]})
    both = rule_claims("If User1 and User2 are compromised, restore Op_Server0.", with_instruction=True)
    assert both == parse_predicate({"all": [{"host": "User1", "compromise": "any"}, {"host": "User2", "compromise": "any"}]})


@pytest.mark.parametrize("text, claimed", [
    # a universal condition claims each host of the class (it used to claim some host of it: wider)
    ("When all user hosts are compromised, restore Op_Server0.",
     {"all": [{"host": f"User{n}", "compromise": "any"} for n in range(5)]}),
    ("When the user subnet is clean, put a DecoyApache on User2.",
     {"all": [{"host": f"User{n}", "compromise": "No"} for n in range(5)]}),
    # what an order acts on, and "at all", stay existential
    ("Restore all compromised user hosts.", {"class": "User", "compromise": "any"}),
    ("If any machine at all is rooted, reimage that machine.", {"class": "any", "compromise": "Privileged"}),
    ("If the user subnet is being scanned, put a DecoyApache on User2.", {"class": "User", "activity": "Scan"}),
])
def test_a_universal_condition_claims_each_host_of_its_class(text, claimed):
    from forge.rulebook.language.guard import complete_claims
    from forge.rulebook.language.rule_claims import rule_claims
    from forge.rulebook.language.predicate import parse_predicate

    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found) and found == parse_predicate(claimed)


def test_an_order_with_its_condition_after_it_and_a_sentence_that_scopes_it_are_read():
    """"reimage User1 whenever it is compromised" is an order (its condition's "is" made it read as a report, so the
    surrogate's trigger on the other host passed), and "This only matters while Op_Server0 is clean." is a condition
    of the rule (it was left out, so a compilation without it passed)."""
    from forge.rulebook.authoring.checks import text_problem
    from forge.rulebook.language.wording import read_wording

    two = "Don't reimage User2; reimage User1 whenever it is compromised."
    assert read_wording(two).hosts == ("User2", "User1")
    assert text_problem(two, {"host": "User2", "compromise": "any"},
                        {"mode": "prefer", "verb": "Restore", "target": "User1", "over": {"verb": "Restore", "target": "User2"}}) \
        .startswith("claims")
    assert text_problem(two, {"host": "User1", "compromise": "any"}, do("Restore", "User1")) is None
    scoped = "Restore Enterprise1 if it is compromised. This only matters while Op_Server0 is clean."
    assert [c.text for c in read_wording(scoped).conditions] == ["if it is compromised", "while Op_Server0 is clean"]
    assert text_problem(scoped, {"host": "Enterprise1", "compromise": "any"}, do("Restore", "Enterprise1")) is not None
