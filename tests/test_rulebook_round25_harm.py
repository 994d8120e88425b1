"""Issue 29, round 25 (blind-22's harmful and outranked injections, and the reference compiler's misses): readings
whose absence let a rule fire wider than its words, or let a withdrawn rule come back in other words. Sentences of
our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.language.condition import semantic_claims, text_claims, words_key
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import Atom
from forge.rulebook.language.revision import revised_in_words
from forge.rulebook.language.situation import Situation, read_situation
from forge.rulebook.language.wording import pronoun_hosts, read_wording
from forge.rulebook.language.predicate import holds
from forge.rulebook.model import Evidence, RuleStatus
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook

ANALYST = ("analyst",)
REFUSED_BY_HOST_CHECK = "predicate refused: host: the text names a host the entry does not keep to"


def teaching(text: str, actor: str, when=None, action=None, roles=ANALYST) -> Teaching:
    return Teaching(text, "CONTENT", roles, "g", actor, Evidence("failure", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", when=when, action=action, text=text)


def shows(**rows: tuple[str, str]) -> Situation:
    return read_situation("Alerts:\n" + "\n".join(f"{host}: Activity {a}, Compromised {c}" for host, (a, c) in rows.items()))


# -- a state glossed before ", so ORDER" is the order's condition ------------------------------------------------------

def test_a_glossed_state_before_so_is_the_condition_and_unknown_does_not_meet_it():
    text = "User4 compromised means the attacker has a desk to work from, so plan a Remove of User4."
    words = read_wording(text)
    assert words.gives_order and words.situation == "User4 compromised"
    found, whole = text_claims(text)
    assert whole
    # a predicate compiled as "User4 shows any compromise" is held to these words: not met at Compromised Unknown
    assert holds(found, shows(User4=("None", "User")))
    assert not holds(found, shows(User4=("None", "Unknown")))


def test_a_gloss_that_names_no_state_or_tells_a_story_gives_no_condition():
    # a guard (passes without the fix too): the new reading stays off glosses that name no host state
    assert read_wording("Too many alerts mean a noisy network, so recommend a Restore.").situation == ""
    assert read_wording("I saw User1 rooted, which meant trouble, so plan a Restore of User1.").situation != "I saw User1 rooted"


# -- "HOST is the exception: STATE -> ORDER": the state is the exception's condition -----------------------------------

def test_the_state_after_an_exception_heading_is_its_condition():
    for text in ("U2 is the exception: pwned at user lvl -> Remove it right away",
                 "User2 is the exception: compromised at user level -> plan its Remove right away"):
        claimed = semantic_claims(text, REFUSED_BY_HOST_CHECK)
        assert claimed == Atom(host="User2", compromise="User"), text
    assert semantic_claims("User2: popped at user level -> Remove it", REFUSED_BY_HOST_CHECK) == \
        Atom(host="User2", compromise="User")


# -- the host at hand: "the host under analysis", "the host you analyse" ---------------------------------------------

def test_a_state_with_no_subject_after_the_host_at_hand_is_that_hosts():
    assert rule_claims("For the machine under analysis, a root-level compromise calls for Restore.", with_instruction=True) == \
        Atom(host_class="any", compromise="Privileged")
    assert rule_claims("On the box being examined, scan activity means DecoyApache.", with_instruction=True) == \
        Atom(host_class="any", activity="Scan")


def test_it_after_the_host_at_hand_is_that_host_not_one_named_in_a_story():
    text = ("Back when User3 lit up I shrugged it off. From now on: if the machine you are analysing is scanned "
            "with no compromise, suggest DecoyApache on it rather than Monitor.")
    assert pronoun_hosts(text) == () and read_wording(text).referent is None
    claimed = rule_claims(text, with_instruction=True, bare=False)
    assert holds(claimed, shows(User1=("Scan", "No")))  # any host, not only the story's User3


def test_a_move_that_beats_another_disprefers_it():
    words = read_wording("For an inspected machine at Unknown, an Analyse beats a Restore.")
    assert words.dispreferred == ("Restore",)
    assert read_wording("Remove trumps Restore on a user box at user level.").dispreferred == ("Restore",)


def test_a_withdrawn_rule_on_the_host_at_hand_is_not_taught_back_in_other_words():
    first = "On the host under analysis, a root-level compromise calls for Restore."
    again = "Whenever the host we analyse sits at root, recommend a Restore."
    assert words_key(first) == words_key(again)
    book = PlanBook()
    old = teaching(first, "user:nina")  # kept semantic: no compiled meaning
    book.apply(old)
    book.withdraw(old.rule_id)
    plan = book.apply(teaching(again, "user:nina", {"class": "any", "compromise": "Privileged"},
                               {"verb": "Restore", "mode": "do", "target": "$matched"}))
    (outcome,) = plan.outcomes
    assert outcome.result == "refused" and old.rule_id in outcome.detail


def test_a_withdrawn_preference_comes_back_neither_as_beats():
    first = ("I shrugged off User3's probes last week and paid for it. Lesson: if the machine you are analysing is "
             "scanned with no compromise, suggest DecoyApache on it rather than Monitor.")
    again = "For an examined machine which is scanned with no compromise, a DecoyApache beats a Monitor."
    book = PlanBook()
    old = teaching(first, "user:nina")
    book.apply(old)
    book.withdraw(old.rule_id)
    (outcome,) = book.apply(teaching(again, "user:nina")).outcomes
    assert outcome.result == "refused"


def test_a_revision_on_the_host_at_hand_replaces_the_teachers_earlier_one_by_its_words():
    earlier = "analysed box at root -> rec Analyse"
    later = "Change of plan: for any box you analyse at root level, recommend a Restore."
    assert revised_in_words(earlier, later)
    book = PlanBook()
    old = teaching(earlier, "user:omar")  # kept semantic
    book.apply(old)
    book.apply(teaching(later, "user:omar", {"class": "any", "compromise": "Privileged"},
                        {"verb": "Restore", "mode": "do", "target": "$matched"}))
    assert book.records[old.rule_id].status == RuleStatus.SUPERSEDED


# -- the reference compiler's misses -----------------------------------------------------------------------------------

def test_a_heading_on_the_host_at_hand_with_its_state_opens_the_order():
    words = read_wording("analysed machine at Unknown -> rec Analyse once more; Remove is premature")
    assert words.situation == "analysed machine at Unknown"
    assert "Analyse" in words.verbs and [p.verb for p in words.prohibitions] == ["Remove"]
    assert rule_claims("analysed machine at Unknown -> rec Analyse once more; Remove is premature", with_instruction=True) == \
        Atom(host_class="any", compromise="Unknown")


def test_without_waiting_on_a_move_is_no_condition_on_the_host():
    words = read_wording("If User1 is rooted, restore User1 without waiting for an Analyse.")
    assert [c.text for c in words.conditions] == ["If User1 is rooted"] and words.dispreferred == ("Analyse",)
    # what a host lacks is still read as its state
    lacking = read_wording("Never restore Op_Host1 without root access on it.")
    assert any("without root access" in c.text for c in lacking.conditions)
