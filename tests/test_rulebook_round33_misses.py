"""Issue 29, round 33 (r33m, blind-30's missed injections): words the product's reader did not place, so that a rule was
refused by the checks and kept semantic, then stayed silent where it applied; and a conflict the resolution left to
no one.

- a move warned against: "you'll regret a Restore of X ...; analyse it" puts the Restore after the order's verb;
- a concession said without its "if": "even owned, it falls again at once" is no history of the host;
- "where an Analyse has just ..." opens a condition (the defender's move, then what it did);
- "not another look", "one more look": a look at a host is an Analyse;
- "I'd rather / sooner VERB X than VERB it" orders the first verb and disprefers the second, also after a doubt
  said of the story ("Perhaps it made no difference, but ...");
- "U3 exempt: never ...": a heading that sets a host apart from the prohibition it opens names that host only;
- one broad rule against two exceptions to it, each on its own host and not against each other: both exceptions are
  kept (no single one is the narrowest, so the group had abstained).

Sentences of our own, none from a case file. Tests marked "guard" pass without the change too."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import spoken_facts
from forge.rulebook.language.names import verbs_in
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording
from forge.rulebook.model import Evidence
from forge.rulebook.retrieval.resolve import eligible_rules, resolve_conflicts
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook
from tests.actions import do, never, prefer


# -- a move warned against ---------------------------------------------------------------------------------------------

def test_a_regretted_move_is_the_one_put_aside():
    text = "You'd regret planning a Restore of User3 while it reads Unknown: plan an Analyse of User3."
    assert text_problem(text, {"host": "User3", "compromise": "Unknown"}, prefer("Analyse", "Restore", "User3")) is None


def test_a_regretted_move_with_no_gerund():
    text = "We will regret a Restore on Op_Host1 at Unknown; inspect it instead."
    assert text_problem(text, {"host": "Op_Host1", "compromise": "Unknown"}, prefer("Analyse", "Restore", "Op_Host1")) is None


def test_guard_the_regretted_move_is_still_no_order():
    # guard: a `do` of the regretted verb stays refused
    text = "You'll regret a Restore of Op_Host1 at Unknown; inspect it instead."
    assert text_problem(text, {"host": "Op_Host1", "compromise": "Unknown"}, do("Restore", "Op_Host1")) is not None


# -- a concession without its "if" -------------------------------------------------------------------------------------

def test_even_owned_before_a_comma_is_a_concession():
    text = "It is never a mistake to skip a Restore of User4: even rooted, it gets compromised again within a step, so do not restore it."
    assert not any("history" in kinds for _, kinds in spoken_facts(read_wording(text)))
    assert text_problem(text, {"host": "User4"}, never("Restore", "User4")) is None


# -- the defender's move opens a condition ----------------------------------------------------------------------------

def test_where_a_move_has_just_done_something_is_a_condition():
    text = "Where a Remove has just left a box at Unknown, the plan gets an Analyse of that box -- not a Restore yet."
    words = read_wording(text)
    assert words.conditions and words.conditions[0].text.startswith("Where a Remove has just")
    when = {"class": "any", "compromise": "Unknown", "acted": "Remove", "within": 1, "changed": True}
    action = {"mode": "prefer", "verb": "Analyse", "target": "$matched", "over": {"verb": "Restore", "target": "$matched"}}
    assert text_problem(text, when, action) is None


# -- a look is an Analyse ----------------------------------------------------------------------------------------------

def test_another_look_is_an_analyse():
    assert verbs_in("reimage it, not one more look") == ("Restore", "Analyse")
    text = "Op_Server0 owned three steps in a row earns a Restore next, not another look."
    assert text_problem(text, {"host": "Op_Server0", "compromise": "any", "unchanged_for": 3},
                        prefer("Restore", "Analyse", "Op_Server0")) is None


def test_guard_a_look_at_a_host_was_read_already():
    # guard
    assert verbs_in("take a closer look at User1") == ("Analyse",)


# -- "I'd rather X than Y" ---------------------------------------------------------------------------------------------

def test_rather_verb_than_verb_orders_the_first():
    words = read_wording("I'd sooner restore User3 than analyse it.")
    assert gives_order("I'd sooner restore User3 than analyse it.")
    assert words.dispreferred == ("Analyse",)


def test_rather_after_a_doubt_said_of_the_story():
    text = ("At step 6 I picked a Monitor when User1 got exploited and Enterprise0 was owned already, and lost the race. "
            "Perhaps it made no difference, but I would rather Remove User1 than watch it if an exploit is showing on it.")
    assert read_wording(text).instruction.startswith("I would rather Remove User1")
    assert text_problem(text, {"host": "User1", "activity": "Exploit"}, prefer("Remove", "Monitor", "User1")) is None


def test_guard_rather_we_did_not_is_still_a_prohibition():
    # guard: "I'd rather we didn't restore ..." forbids
    assert read_wording("I'd rather we didn't restore Op_Server0.").prohibitions


# -- a heading that sets a host apart ----------------------------------------------------------------------------------

def test_a_host_set_apart_in_a_heading_names_it():
    text = "U3 exempt: never remove, whatever it shows."
    assert text_problem(text, {"host": "User3"}, never("Remove", "User3")) is None


def test_guard_a_state_in_a_heading_is_still_a_state():
    # guard: "U3 rooted: ..." says something of User3, which a bare predicate leaves out
    text = "U3 rooted: never remove, restore it."
    assert text_problem(text, {"host": "User3"}, never("Remove", "User3")) is not None


# -- one broad rule, two exceptions apart -----------------------------------------------------------------------------

CHOOSER = ("action_chooser",)


def _taught(text: str, when: dict, action: dict) -> Teaching:
    return Teaching(text, "CONTENT", CHOOSER, "g", "user:noa", Evidence("correction", "user:noa", text[:40], 1),
                    trigger="dn-x", compiled_by="model", when=when, action=action)


def test_two_exceptions_to_one_broad_rule_are_both_kept():
    broad = _taught("Each op host showing a compromise: a Restore.", {"class": "Operational", "compromise": "any"},
                    do("Restore", "$matched"))
    spared = _taught("Never restore Op_Host0, it is the lab's.", {"host": "Op_Host0"}, never("Restore", "Op_Host0"))
    other = _taught("Op_Host1 at user level: a Remove and not a Restore.", {"host": "Op_Host1", "compromise": "User"},
                    prefer("Remove", "Restore", "Op_Host1"))
    book = PlanBook()
    for teaching in (broad, spared, other):
        book.apply(teaching)
    ids = [book.of(t.directive).rule_id for t in (broad, spared, other)]
    assert ids[1] in book.records[ids[0]].conflicts_with and ids[2] in book.records[ids[0]].conflicts_with
    assert ids[2] not in book.records[ids[1]].conflicts_with
    kept, decisions = resolve_conflicts(ids, book.records, eligible_rules(book.records), None)
    assert sorted(kept) == sorted(ids[1:]) and decisions[0].tier == "specificity"


# -- a withdrawn order taught again with a preference ------------------------------------------------------------------

def _semantic(text: str, actor: str) -> Teaching:
    return Teaching(text, "CONTENT", CHOOSER, "g", actor, Evidence("failure", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", text=text)


def test_a_withdrawn_order_said_again_as_a_preference_is_refused():
    # guard (of this round's own reading): "I'd sooner V than W" now reads as a preference of V, and the withdrawn "do V"
    # is still the same order (fails with the reading of "rather / sooner" but without curation._one_move)
    book = PlanBook()
    first = _semantic("If Op_Server0 is being exploited, the right move is to Remove Op_Server0.", "user:pia")
    book.apply(first)
    book.withdraw(first.rule_id)
    plan = book.apply(_semantic("On reflection, an Op_Server0 under an exploit ought to be removed, and I'd sooner "
                                "remove it than watch.", "user:pia"))
    (outcome,) = plan.outcomes
    assert outcome.result == "refused"
