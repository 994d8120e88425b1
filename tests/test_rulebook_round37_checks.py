"""Round 37 (r37y): the checks refuse compilations that widen a rule's target, turn its order around or turn its
history around, and keep accepting the faithful compilation of the same text. Sentences are this file's own."""

from forge.rulebook.authoring.checks import text_problem


def _check(text, when, action):
    problem = text_problem(text, when, action)
    return (problem or "").split(":", 1)[0] or None


# -- reach: the action's target no wider than the text names --------------------------------------------


def test_named_host_widened_to_its_class_is_refused():
    text = "Whenever User2 shows an exploit, take the attacker off User2."
    when = {"host": "User2", "activity": "Exploit"}
    assert _check(text, when, {"mode": "do", "verb": "Remove", "target": "User"}) == "reach"
    assert _check(text, when, {"mode": "do", "verb": "Remove", "target": "User2"}) is None


def test_matched_host_widened_to_every_host_is_refused():
    text = "If some box is rooted, reimage that very box."
    when = {"class": "any", "compromise": "Privileged"}
    assert _check(text, when, {"mode": "do", "verb": "Restore", "target": "any"}) == "reach"
    assert _check(text, when, {"mode": "do", "verb": "Restore", "target": "$matched"}) is None


def test_a_prohibition_on_every_host_stays_accepted_where_the_text_says_so():
    text = "So long as no box shows a compromise, plan no Restore anywhere at all."
    when = {"not": {"class": "any", "compromise": "any"}}
    assert _check(text, when, {"mode": "never", "verb": "Restore", "target": "any"}) is None


# -- an order turned around ----------------------------------------------------------------------------------


def test_the_verb_put_second_prescribed_first_is_refused():
    text = "Once Enterprise1 sits at user level, my habit would be to Analyse Enterprise1 before removing it."
    when = {"host": "Enterprise1", "compromise": "User"}
    wrong = {"mode": "do", "verb": "Remove", "target": "Enterprise1"}
    right = {"mode": "prefer", "verb": "Analyse", "target": "Enterprise1",
             "over": {"verb": "Remove", "target": "Enterprise1"}}
    assert _check(text, when, wrong) == "inverted"
    assert _check(text, when, right) is None


def test_the_other_verb_of_a_first_order_prescribed_is_refused():
    text = "Once Op_Server0 is owned, put a Remove first -- a Restore there costs us too much as an opening move."
    when = {"host": "Op_Server0", "compromise": "any"}
    assert _check(text, when, {"mode": "do", "verb": "Restore", "target": "Op_Server0"}) == "inverted"


def test_the_place_put_second_prescribed_is_refused():
    text = "If Op_Server0 and some user host are owned at once, reimage Op_Server0 before reimaging that user host."
    when = {"all": [{"host": "Op_Server0", "compromise": "any"}, {"class": "User", "compromise": "any"}]}
    wrong = {"mode": "do", "verb": "Restore", "target": "User"}
    right = {"mode": "prefer", "verb": "Restore", "target": "Op_Server0", "over": {"verb": "Restore", "target": "User"}}
    assert _check(text, when, wrong) == "inverted"
    assert _check(text, when, right) is None


def test_a_never_of_a_verb_the_text_only_orders_is_refused():
    text = ("Last run User3 was hit at step 5 and I picked an Analyse; the intruder was on Enterprise1 soon after. I might be "
            "mistaken, but whenever User3 is under exploit and Enterprise1 is still clean, the intruder likely means to climb; "
            "I'd Remove User3 and then set a DecoyTomcat on Enterprise1.")
    when = {"all": [{"host": "User3", "activity": "Exploit"}, {"host": "Enterprise1", "compromise": "No"}]}
    right = {"mode": "do", "verb": "Remove", "target": "User3", "then": [{"verb": "DecoyTomcat", "target": "Enterprise1"}]}
    assert _check(text, when, {"mode": "never", "verb": "Remove", "target": "User3"}) == "inverted"
    assert _check(text, when, right) is None


# -- a history turned around ---------------------------------------------------------------------------------


def test_a_fresh_compromise_read_as_an_old_one_is_refused():
    text = "Ent2 freshly owned (was clean last step) -> Remove Ent2."
    action = {"mode": "do", "verb": "Remove", "target": "Enterprise2"}
    assert _check(text, {"host": "Enterprise2", "newly_compromised": False}, action) == "history"
    assert _check(text, {"host": "Enterprise2", "newly_compromised": True}, action) is None


def test_a_move_that_changed_nothing_read_as_a_change_is_refused():
    text = "If some host keeps showing a compromise one step after you removed it, that removal did nothing: reimage the host."
    when = {"class": "any", "compromise": "any", "acted": "Remove", "within": 1}
    action = {"mode": "do", "verb": "Restore", "target": "$matched"}
    assert _check(text, {**when, "changed": True}, action) == "history"
    assert _check(text, {**when, "changed": False}, action) is None


def test_an_exploit_with_no_scan_first_read_as_one_scanned_first_is_refused():
    text = "An exploit on User1 that arrived with no scan ahead of it is strange; Analyse User1 when you see one."
    action = {"mode": "do", "verb": "Analyse", "target": "User1"}
    assert _check(text, {"host": "User1", "activity": "Exploit", "scan_before_exploit": True}, action) == "history"
    assert _check(text, {"host": "User1", "activity": "Exploit", "scan_before_exploit": False}, action) is None


# -- a named host kept in the trigger, the story's words kept out, a placed state kept ----------------------------


def test_a_host_the_condition_names_must_restrict_the_trigger():
    text = "Chooser: once User2 is compromised, plan its Remove."
    action = {"mode": "do", "verb": "Remove", "target": "User2"}
    # (r39m: "Chooser:" is an address, no situation, so the product reads the whole condition and the claims check may
    # refuse first; either way the trigger not kept to User2 is refused)
    assert _check(text, {"class": "any", "compromise": "any"}, action) in ("host", "claims")
    assert _check(text, {"class": "User", "compromise": "any"}, action) in ("host", "claims")
    assert _check(text, {"host": "User2", "compromise": "any"}, action) is None


def test_a_relative_word_of_the_story_lets_no_order_move_to_a_neighbour():
    text = ("I lost User1 to a slow attacker who then moved through the rest of that subnet. If Enterprise0 is scanned, "
            "put a DecoyApache on Enterprise0.")
    when = {"host": "Enterprise0", "activity": "Scan"}
    assert _check(text, when, {"mode": "do", "verb": "DecoyApache", "target": "Enterprise1"}) == "grounding"
    assert _check(text, when, {"mode": "do", "verb": "DecoyApache", "target": "Enterprise0"}) is None


def test_a_state_the_partial_reading_places_is_not_widened():
    text = "if Ent2 gets exploited pls take the attacker off it quick"
    action = {"mode": "do", "verb": "Remove", "target": "Enterprise2"}
    assert _check(text, {"host": "Enterprise2", "activity": "any"}, action) == "claims"
    assert _check(text, {"host": "Enterprise2", "activity": "Exploit"}, action) is None
