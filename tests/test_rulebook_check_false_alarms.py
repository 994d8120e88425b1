"""Issue 29, fifth round: the checks kept semantic a compilation that says what its text plainly says (a false alarm
costs recall for any compiler, a real model's included): the right predicate, refused, leaves a rule that the gate
can only judge by the product's reading of its words, silent where that reading is not whole. Each class is tested
on sentences of its kind written for these tests, compiled as a careful compiler would (scripted), and the product's
checks must keep the predicate; where the text is read, the rule is injected where it applies and not elsewhere.

- An explanation after a comma and a pronoun ("..., they already run a web server") was part of the order, and its
  "already" asked for a history atom.
- A level said to be all there is ("just a user-level foothold", "only user-compromised") was an unexpressed
  restriction; "doesn't need a rebuild" ran on in the relative clause before it.
- A judgement on a verb ("there is nothing to gain from analysing") was a negated condition.
- The answer an order gives ("call it low risk") was a condition on a priority.
- "is scanned and nothing more" was read as "not scanned".
"""

from __future__ import annotations

import pytest

from forge.rulebook.language.condition import text_claims
from tests.test_rulebook_claims_scope import taught
from tests.test_rulebook_text_checks import entry, reply
from tests.actions import do, never
from tests.test_rulebook_text_held import claimed, every_host


def prefer(verb, target, over_verb, over_target):
    return {"mode": "prefer", "verb": verb, "target": target, "over": {"verb": over_verb, "target": over_target}}


# text | the careful compilation (when, action) | a context where it applies | one where it does not
KEPT = [
    ("Avoid DecoyTomcat on Enterprise1, it already runs a web server.",
     {"host": "Enterprise1"}, never("DecoyTomcat", "Enterprise1"),
     {"Enterprise1": "Scan,No"}, None),
    ("An enterprise host with just a user-level foothold doesn't need a rebuild; Remove is enough there.",
     {"class": "Enterprise", "compromise": "User"}, prefer("Remove", "$matched", "Restore", "$matched"),
     {"Enterprise1": "None,User"}, {"Enterprise1": "None,Privileged"}),
    ("On a user host that is only user-compromised, Remove the attacker rather than Restore the host.",
     {"class": "User", "compromise": "User"}, prefer("Remove", "$matched", "Restore", "$matched"),
     {"User2": "None,User"}, {"User2": "None,Privileged"}),
    ("In the exploitation phase there is nothing to gain from analysing: when a host shows Activity Exploit, remove "
     "the attacker from it.",
     {"class": "any", "activity": "Exploit"}, do("Remove", "$matched"),
     {"User3": "Exploit,User"}, {"User3": "Scan,No"}),
    ("If Enterprise1 only shows a scan, call it low risk and recommend a DecoyApache on it.",
     {"host": "Enterprise1", "activity": "Scan", "compromise": "No"}, do("DecoyApache", "Enterprise1"),
     {"Enterprise1": "Scan,No"}, {"Enterprise1": "Exploit,User"}),
]


@pytest.mark.parametrize("text, when, action, applies, not_applies", KEPT)
def test_a_compilation_that_says_what_its_text_says_is_kept(tmp_path, text, when, action, applies, not_applies):
    record, injected = taught(tmp_path, text, reply(entry(when, action)))
    assert record.when == when, record.semantic_reason
    assert injected(every_host(**applies))
    if not_applies is not None:
        assert not injected(every_host(**not_applies))


@pytest.mark.parametrize("text, host", [
    ("If User2 shows a scan and nothing else, put a decoy on it.", "User2"),
    ("When Op_Host1 is scanned and nothing more, analyse it.", "Op_Host1"),
])
def test_scanned_and_nothing_more_is_only_scanned(text, host):
    """"and nothing more" negated the scan: the claims said the host was not scanned (the opposite)."""
    found, whole = text_claims(text)
    assert whole, (text, found)
    assert claimed(text, every_host(**{host: "Scan,No"})) is True
    assert claimed(text, every_host(**{host: "Exploit,User"})) is False


KEPT_ORDERS = [
    # "X means / calls for / warrants VERB": an order, given in situation X
    ("I watched Op_Host2 for two turns while the attacker settled in. For Op_Host2, a compromise means Restore Op_Host2 "
     "at once.",
     {"host": "Op_Host2", "compromise": "any"}, do("Restore", "Op_Host2"),
     {"Op_Host2": "None,User"}, {"Op_Host2": "Scan,No"}),
    ("Enterprise2 rooted calls for a Restore of Enterprise2.",
     {"host": "Enterprise2", "compromise": "Privileged"}, do("Restore", "Enterprise2"),
     {"Enterprise2": "None,Privileged"}, {"Enterprise2": "None,User"}),
    # a scope label before its lesson, after a story that names another class
    ("An enterprise server was exploited while I decoyed the op subnet; the decoy was wasted. Rule for every enterprise "
     "server: an exploit on one warrants a Remove on that server.",
     {"class": "Enterprise", "activity": "Exploit"}, do("Remove", "$matched"),
     {"Enterprise0": "Exploit,User"}, {"Op_Host0": "Exploit,User"}),
    # "with VERB" after a host is what the order uses, not a relative clause about the host
    ("Never touch Op_Server0 with Remove.", {"host": "Op_Server0"}, never("Remove", "Op_Server0"),
     {"Op_Server0": "None,User"}, None),
    # a sentence that says what a host is opens no situation
    ("User4 is the finance team's laptop. Hands off User4.", {"host": "User4"}, never("any", "User4"),
     {"User4": "None,User"}, None),
]


@pytest.mark.parametrize("text, when, action, applies, not_applies", KEPT_ORDERS)
def test_orders_in_other_forms_keep_their_compilation(tmp_path, text, when, action, applies, not_applies):
    """"a compromise means Restore" gave no order (the story was read as the instruction and its hosts and classes
    held against the compilation); "Rule for every enterprise server:" hid its lesson the same way; "with Remove"
    opened a condition about the host; "User4 is the finance team's laptop" was the situation of the order."""
    test_a_compilation_that_says_what_its_text_says_is_kept(tmp_path, text, when, action, applies, not_applies)


def test_one_host_of_a_class_said_quiet_is_one_host_and_its_own_state_rules_out_what_it_negates(tmp_path):
    """"a user host ... (Activity None, Compromised User)" claimed every user host quiet and compromised (the reading of
    "the user hosts are quiet"), and "without any exploit" that no user host was exploited: the careful compilation (a
    user host at Activity None, Compromised User) was refused as wider than that."""
    from forge.rulebook.language.claims import claims
    from forge.rulebook.language.predicate import AllOf, Atom

    text = "An enterprise host that is compromised without any exploit showing (Activity None, Compromised User): analyse it."
    when = {"class": "Enterprise", "activity": "None", "compromise": "User"}
    record, injected = taught(tmp_path, text, reply(entry(when, do("Analyse", "$matched"))))
    assert record.when == when, record.semantic_reason
    assert injected(every_host(Enterprise1="None,User", Enterprise2="Exploit,User"))
    assert not injected(every_host(Enterprise1="Exploit,User"))
    assert claims("an enterprise host with user-level access but not root") == Atom(host_class="Enterprise", compromise="User")
    # the plural still speaks of each host of the class
    assert isinstance(claims("when the user hosts are quiet"), AllOf)


def test_a_lesson_about_a_host_in_general_may_be_compiled_over_classes(tmp_path):
    """"when a host's table row says Compromised Unknown" (a story naming Enterprise1 before it) compiled over the three
    classes was refused: "the entry is about User hosts, which the text does not name"."""
    text = ("I called Enterprise1 fine at step 9 though its row said Compromised Unknown. Lesson: when a host's row says "
            "Compromised Unknown, recommend Analyse on it.")
    when = {"any": [{"class": c, "compromise": "Unknown"} for c in ("User", "Enterprise", "Operational")]}
    record, injected = taught(tmp_path, text, reply(entry(when, do("Analyse", "$matched"))))
    assert record.when == when, record.semantic_reason
    assert injected(every_host(User3="None,Unknown"))
    assert not injected(every_host(User3="None,User"))


def test_the_only_host_showing_anything_may_name_the_others_and_a_list_too_long_is_refused_not_cut():
    """"User2 is the only host showing anything" compiled with every other host quiet was refused (grounding: "the entry
    names User0"); and a list of more parts than the parser reads was cut to its first 16 in silence: under "not", the
    rule then fired where a host it had listed was compromised."""
    from forge.env.catalog import HOSTS
    from forge.rulebook.authoring.checks import text_problem
    from forge.rulebook.language.predicate import MAX_COMBINED, PredicateError, parse_predicate

    others = [h for h in HOSTS if h != "User2"]
    quiet = {"all": [{"host": "User2", "compromise": "any"}] + [{"not": {"host": h, "compromise": "any"}} for h in others[:8]]}
    assert text_problem("If User2 is the only host showing anything, analyse User2.", quiet, do("Analyse", "User2")) is None
    listed = {"not": {"any": [{"host": h, "compromise": c} for h in others for c in ("User", "Privileged")]}}
    assert len(listed["not"]["any"]) > MAX_COMBINED
    with pytest.raises(PredicateError, match="at most 16"):
        parse_predicate(listed)


KEPT_REASONS = [
    # "REASON, so ORDER": the order (it was dropped as a justification, and a "never" of it called an inversion)
    ("Op_Host0 feeds the plant's historian, so leave Op_Host0 alone.", {"host": "Op_Host0"}, never("any", "Op_Host0"),
     {"Op_Host0": "None,User"}, None),
    # "there's no point removing it" judges a verb: no condition on a score
    ("If Op_Host1 is rooted, there's no point removing it: restore it.", {"host": "Op_Host1", "compromise": "Privileged"},
     prefer("Restore", "Op_Host1", "Remove", "Op_Host1"), {"Op_Host1": "None,Privileged"}, {"Op_Host1": "None,User"}),
    # what doing it would do, after a colon, is a reason: its words ("green", "traffic") are no condition
    ("When Enterprise0 is compromised, remove the attacker rather than restore it: restoring Enterprise0 drops the green "
     "users' traffic.", {"host": "Enterprise0", "compromise": "any"}, prefer("Remove", "Enterprise0", "Restore", "Enterprise0"),
     {"Enterprise0": "None,User"}, {"Enterprise0": "Scan,No"}),
    # "Remove isn't enough on ..." disprefers Remove
    ("If Op_Host1 is compromised, restore it. Remove isn't enough on the op hosts.",
     {"host": "Op_Host1", "compromise": "any"}, prefer("Restore", "Op_Host1", "Remove", "Op_Host1"),
     {"Op_Host1": "None,User"}, {"Op_Host1": "Scan,No"}),
]


@pytest.mark.parametrize("text, when, action, applies, not_applies", KEPT_REASONS)
def test_reasons_said_around_an_order_keep_its_compilation(tmp_path, text, when, action, applies, not_applies):
    test_a_compilation_that_says_what_its_text_says_is_kept(tmp_path, text, when, action, applies, not_applies)


def test_a_predicate_that_holds_nowhere_is_refused_and_the_rule_held_to_its_words(tmp_path):
    """"some host is scanned, and no host shows any activity" can hold in no context: it implied every claim, passed
    the checks, and the rule was silent everywhere (a miss the checks could see)."""
    text = "While the red agent is only scanning and nothing anywhere is compromised, avoid restoring the scanned host."
    nowhere = {"all": [{"class": "any", "activity": "Scan"},
                       {"not": {"any": [{"class": "any", "activity": "any"}, {"class": "any", "compromise": "any"}]}}]}
    entry_json = reply(entry(nowhere, never("Restore", "$matched")))
    record, injected = taught(tmp_path, text, entry_json, entry_json)
    assert record.when is None and record.semantic_reason.startswith("predicate refused: never")
    assert injected(every_host(User1="Scan,No"))
    assert not injected(every_host(User1="Scan,No", User2="None,User"))


def test_no_host_showing_activity_or_compromise_is_read_whole():
    """"activity or compromise" after "no host shows any" was taken for two states of which the reading has one."""
    text = "If no host shows any activity or compromise, plan a Monitor and nothing else."
    found, whole = text_claims(text)
    assert whole, found
    assert claimed(text, every_host()) is True and claimed(text, every_host(User1="Scan,No")) is False
