"""Round 59 (r59m): forms of words whose rules were kept semantic (missed) because a reader took an urging for a
question or a denial, though the compilation said what the text says.

Each test holds a compilation (or a reading) that says what its text says, and where it matters one that says more or
the opposite stays refused.
"""
from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.claims import claims
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.forms import moves_only_asked
from forge.rulebook.language.guard import guard_rest
from forge.rulebook.language.markers import negations_in
from forge.rulebook.language.predicate import Atom, describe
from forge.rulebook.language.wording import conditions_left_out, read_wording


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


# --- a question answered by "do it": the asked move is ordered -------------------------------------------------------

_ASKED_THEN_DONE = "Whenever Op_Host1 is probed, a DecoySSHD there is worth it, isn't it? Just do it."


def test_a_question_answered_by_do_it_orders_its_move():
    assert moves_only_asked(_ASKED_THEN_DONE) == frozenset()
    when = {"host": "Op_Host1", "activity": "Scan"}
    assert text_problem(_ASKED_THEN_DONE, when, _do("DecoySSHD", "Op_Host1")) is None
    # (an answer that turns it down, or asks again, leaves the move asked)
    assert moves_only_asked("Is a Restore of Op_Host1 worth it once it is probed? Do not.") == frozenset({"Restore"})
    assert moves_only_asked("Is a Restore of Op_Host1 worth it once it is probed? Do it?") == frozenset({"Restore"})


# --- advice said by denying its harm: no negation of the condition ---------------------------------------------------

_HARMLESS = "It can't hurt to plant a DecoyTomcat on Enterprise2 whenever it is probed."


def test_harm_denied_is_no_negation_of_the_condition():
    assert negations_in("it can't hurt to plant a DecoyTomcat on Enterprise2 whenever it is probed") == ()
    assert negations_in("it wouldnt hurt to plant one while Enterprise2 is not probed") == ("not",)
    when = {"host": "Enterprise2", "activity": "Scan"}
    assert text_problem(_HARMLESS, when, _do("DecoyTomcat", "Enterprise2")) is None


def test_harm_denied_as_a_rest_does_not_guard():
    when = {"host": "Enterprise2", "activity": "Scan"}
    assert guard_rest("can't hurt plant", when, _HARMLESS, _do("DecoyTomcat", "Enterprise2")) == ""
    # (a rest that also says when still guards)
    assert guard_rest("can't hurt plant while User3 is clean", when, _HARMLESS, _do("DecoyTomcat", "Enterprise2")) != ""


# --- emphasis said with a closing "no": no denial of the clause it closes --------------------------------------------

def test_a_closing_no_of_emphasis_denies_nothing():
    found = claims("an enterprise box at root level, no second thoughts")
    assert found is not None and describe(found) == "a Enterprise host shows Compromised Privileged"
    assert negations_in("an enterprise box at root level, no second thoughts") == ()
    # (a "no" of a state still denies it)
    assert "not" in describe(claims("an enterprise box at root level, no scan on User3"))


def test_an_order_with_a_closing_emphasis_keeps_its_condition():
    text = "Adding a word on the op side: an op host being exploited -> plan a Restore, no ifs or buts."
    found = semantic_claims(text, "predicate refused: a check", text)
    assert found is not None and describe(found) == "a Operational host shows Activity Exploit"


# --- a move denied as what the host gets: the ban, not the state ---------------------------------------------------

def test_gets_no_move_is_the_ban_not_a_denied_state():
    text = "Any enterprise server that is merely probed deserves no Remove from the chooser."
    (condition,) = read_wording(text).conditions
    assert "no" not in condition.negations
    found = semantic_claims(text, "predicate refused: a check", text)
    assert found == Atom(host_class="Enterprise", activity="Scan", compromise="No")


# --- a "once" that closes its sentence counts times; it opens no condition ------------------------------------------

def test_a_closing_once_is_no_condition_left_out():
    text = "Analyse is never the move while some op host is under exploit. Not once."
    assert conditions_left_out(text) == ()
    found = semantic_claims(text, "predicate refused: a check", text)
    assert found is not None and describe(found) == "a Operational host shows Activity Exploit"


# --- a label that adds to what came before is no situation -----------------------------------------------------------

def test_an_addition_label_is_no_situation():
    text = "Seconding the earlier lesson on quiet rows. plus: no Monitor while some user box shows root."
    assert read_wording(text).situation == ""
    found = semantic_claims(text, "predicate refused: a check", text)
    assert found == Atom(host_class="User", compromise="Privileged")


# --- slang for states: "poked at" is a scan, "got burned" a compromise ----------------------------------------------

def test_poked_at_is_a_scan():
    found = claims("once Op_Host2 has been poked at", "Op_Host2")
    assert found == Atom(host="Op_Host2", activity="Scan")
    text = "Op_Host0 getting poked? Put a DecoyHarakaSMPT on it."
    assert semantic_claims(text, "predicate refused: a check", text) == Atom(host="Op_Host0", activity="Scan")


def test_burned_after_a_verb_of_being_is_a_compromise_and_a_spent_reward_is_not():
    found = claims("once Enterprise1 got burned")
    assert found == Atom(host="Enterprise1", compromise="any")
    text = "We burned two turns on Analyse last game. Remove Enterprise1 when it is owned."
    assert "Enterprise1" in describe(semantic_claims(text, "predicate refused: a check", text))
    assert claims("we burned two turns") is None


# --- a host counted in the class just named is no second subject ----------------------------------------------------

def test_a_host_counted_in_its_own_class_restates_the_class():
    text = "I missed the probe on Op_Host1 last time. Every op box, Op_Server0 included, gets a DecoyApache the moment it is probed."
    assert semantic_claims(text, "predicate refused: a check", text) == Atom(host_class="Operational", activity="Scan")
    # (a host of another class widens what the class names: left as written, never read whole)
    wider = "Every op box, User3 included, gets a DecoyApache the moment it is probed."
    assert semantic_claims(wider, "predicate refused: a check", wider) != Atom(host_class="Operational", activity="Scan")
