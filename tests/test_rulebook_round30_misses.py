"""Issue 29, round 30 (blind-27's missed injections): conditions about whole subnets, counts and the one compromised
host of a class that the product's reader did not place, so that a rule was refused by the checks and then, kept
semantic, judged by a reading that was not the whole of its condition and stayed silent.

- "the user one" (the pronoun "one" after a class word and "the") was read as the host User1;
- two classes sharing one plural "subnets" ("the enterprise and the op subnets", "ops + usr subnets all quiet") were
  read as no class, or their "all quiet" as the whole network's; "footholds" (plural) was no compromise word; a note's
  second condition after a comma ("..., an ent srv scanned") took the state of the first;
- a subnet said quiet (each of its hosts quiet) did not count as a denial the reading placed;
- "<host> (is) the only <state> <class> host" placed "only" nowhere (it read as the host and its class in the state);
- "2+ usr boxes" hid its count behind the "+"; "network-wide", "on the whole network" were words left unplaced.

Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.claims import claims
from forge.rulebook.language.guard import complete_claims, reads_whole
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Not
from forge.rulebook.language.names import hosts_in


def _atoms(found) -> list:
    """Every atom of a reading, however nested."""
    if isinstance(found, Atom):
        return [found]
    if isinstance(found, Not):
        return _atoms(found.part)
    return [a for p in getattr(found, "parts", ()) for a in _atoms(p)]


# -- "the user one": the pronoun, not User1 ---------------------------------------------------------------------------

def test_the_class_word_then_one_is_a_pronoun_not_a_host():
    assert hosts_in("Reimage the enterprise box first and isolate the user one afterwards.") == ()
    assert hosts_in("Of the two footholds, clean that enterprise one before lunch.") == ()


def test_guard_a_host_number_in_words_is_still_a_host():
    # guard: "user one" with no "the" before it, and any number after "the", still name the host
    assert hosts_in("Isolate user one and keep watching.") == ("User1",)
    assert hosts_in("Reimage the user three box when it turns red.") == ("User3",)


# -- two classes sharing "subnets"; "footholds"; a comma before a second class condition ------------------------------

def test_footholds_in_two_subnets_is_a_compromise_in_each():
    found = rule_claims("If intruders keep footholds in both the enterprise and the user subnets, reimage everything.",
                        with_instruction=True)
    assert isinstance(found, AllOf)
    assert set(found.parts) == {Atom(host_class="Enterprise", compromise="any"), Atom(host_class="User", compromise="any")}


def test_plural_footholds_is_a_compromise():
    assert rule_claims("When red has footholds in the enterprise subnet, reimage them.",
                       with_instruction=True) == Atom(host_class="Enterprise", compromise="any")


def test_two_subnets_all_quiet_are_those_subnets_not_the_network():
    text = "usr + ops subnets all quiet, an ent box probed -> DecoyHarakaSMTP on it"
    found = rule_claims(text, with_instruction=True)
    atoms = _atoms(found)
    assert Atom(host_class="Enterprise", activity="Scan") in atoms
    assert not any(a.host and a.host.startswith("Enterprise") for a in atoms)  # the enterprise servers are not quiet
    assert {a.host for a in atoms if a.compromise == "No"} >= {"User0", "User4", "Op_Server0", "Op_Host2"}
    assert complete_claims(text, found)


def test_a_subnet_said_quiet_places_the_denial_its_words_state():
    when = {"all": [{"not": {"class": "User", "activity": "any"}}, {"not": {"class": "User", "compromise": "any"}},
                    {"class": "Enterprise", "activity": "Scan"}]}
    text = "usr subnet all quiet, an ent box probed -> DecoyHarakaSMTP on it"
    assert text_problem(text, when, {"mode": "do", "verb": "DecoyHarakaSMTP", "target": "$matched"}) is None


# -- "<host> is the only <state> <class> host" ------------------------------------------------------------------------

def test_the_only_compromised_host_of_its_class_denies_the_others():
    found = rule_claims("While Enterprise1 is the only owned enterprise server, reimage Enterprise1.", with_instruction=True)
    assert found == AllOf((Atom(host="Enterprise1", compromise="any"),
                           Not(AnyOf((Atom(host="Enterprise0", compromise="any"), Atom(host="Enterprise2", compromise="any"))))))


def test_the_only_host_said_tersely_after_its_name():
    found = rule_claims("U3 the only hacked usr box => isolate U3", with_instruction=True)
    assert Not(AnyOf(tuple(Atom(host=f"User{n}", compromise="any") for n in (0, 1, 2, 4)))) in found.parts


# -- counts: "3+ ...", "network-wide", "on the whole network" ---------------------------------------------------------

def test_a_count_with_a_plus_is_at_least_that_many():
    found = rule_claims("3+ usr hosts hacked => reimage each", with_instruction=True)
    assert isinstance(found, AnyOf) and all(len(p.parts) == 3 for p in found.parts)


def test_network_wide_is_the_network_a_count_already_means():
    for rest in ("just one host hacked network-wide", "just one host hacked across the entire network"):
        assert reads_whole(rest, claims(rest))


# -- "nothing else" is what a host shows, not "else" (the other cases) ------------------------------------------------

def test_nothing_else_keeps_the_sentences_preference():
    from forge.rulebook.language.wording import read_wording
    text = "When the box under review has a probe on it and nothing else, go with DecoyTomcat there rather than any Restore."
    assert read_wording(text).dispreferred == ("Restore",)


def test_guard_otherwise_still_drops_the_other_cases():
    # guard: "otherwise" / "or else" still mark what happens in the other cases, no part of this rule's order
    from forge.rulebook.language.wording import read_wording
    assert read_wording("Isolate User3 when it is hacked; otherwise never touch it.").prohibitions == ()


# -- a count of a class after "and" opens its own clause; "or more" is no choice of two states ------------------------

def test_a_count_after_and_is_its_own_clause():
    text = "If a user box shows an exploit and three or more enterprise servers are hacked, isolate the user box."
    found = rule_claims(text, with_instruction=True)
    assert Atom(host_class="User", activity="Exploit") in found.parts
    counted = [p for p in found.parts if isinstance(p, (AnyOf, AllOf))]
    assert counted and not any(a.activity for a in _atoms(counted[0]))  # the exploit is the user box's alone
    assert complete_claims(text, found)


# -- "only <a state> and nothing more": that state alone, no denial of it ---------------------------------------------

def test_only_a_state_and_nothing_more_is_that_state_alone():
    found = rule_claims("Where the inspected machine shows just a scan and nothing more, deploy DecoyTomcat on it.",
                        with_instruction=True)
    assert found == Atom(host_class="any", activity="Scan", compromise="No")


# -- "the scanning reaches <where>": a scan there, not a compromise -----------------------------------------------------

def test_scanning_that_reaches_a_subnet_is_a_scan_there():
    found = rule_claims("Once the scanning gets to the enterprise subnet, put DecoyTomcat on the probed server.",
                        with_instruction=True)
    assert found == Atom(host_class="Enterprise", activity="Scan")


def test_guard_the_attacker_reaching_a_host_is_still_a_compromise():
    # guard: "reaches" said of the attacker is still the attacker's arrival
    assert rule_claims("When red reaches Enterprise0, reimage it.", with_instruction=True) == \
        Atom(host="Enterprise0", compromise="any")


# -- "E-box", "U-host": the class's letter hyphenated to a singular noun --------------------------------------------------

def test_a_class_letter_before_a_singular_noun_is_the_class():
    found = rule_claims("an E-box hacked + U3 quiet -> DecoyTomcat on U3, then Analyse the E-box", with_instruction=True)
    assert found == AllOf((Atom(host_class="Enterprise", compromise="any"), Atom(host="User3", activity="None", compromise="No")))


# -- "already held": a host the attacker holds now, no history ----------------------------------------------------------

HELD = "If Enterprise0 shows an exploit while Enterprise2 is already held, isolate Enterprise0."


def test_a_host_already_held_is_compromised_now():
    found = rule_claims(HELD, with_instruction=True)
    assert found == AllOf((Atom(host="Enterprise0", activity="Exploit"), Atom(host="Enterprise2", compromise="any")))
    when = {"all": [{"host": "Enterprise0", "activity": "Exploit"}, {"host": "Enterprise2", "compromise": "any"}]}
    assert text_problem(HELD, when, {"mode": "do", "verb": "Remove", "target": "Enterprise0"}) is None


def test_guard_already_held_with_no_verb_stays_a_history():
    # guard: "already held" said of no host with "is" ("while some other zone already held"), in a note of what changed,
    # stays a history the reading cannot judge (read as a state, such a note was injected on its likeness alone)
    from forge.rulebook.language.facts import facts_needed
    assert "history" in facts_needed("pivot seen (a fresh box hacked while some other zone already held) -> isolate it")
