"""Issue 29, ninth round, harm: rules injected where their own words say they do not apply. Each class on sentences
written for these tests.

- A learner's lesson named inside a sentence after a hedge or a story ("..., but the rule I'd take away is to ...",
  "what I would take from this is that ..."): the order is what follows; the story before it (verbs it tells, classes
  it names) is none of the rule. Without it, a learner re-teaching a withdrawn rule was not recognised (its story
  added verbs and classes to the comparison) and the withdrawn rule was injected again; and the lead before a colon
  ("but the rule I would give myself is simple: when ...") was read as the note's opening situation, a condition.
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import words_key
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.wording import read_wording

STORY_THEN_LESSON = ("Enterprise2 got a foothold at step 9 and I decided to Analyse the user hosts first. That was a "
                     "mistake; the foothold grew. I may be reading too much into one episode, but the rule I'd take "
                     "away is to Restore Enterprise2 once it is compromised.")


def test_the_lesson_named_after_a_hedge_is_the_order() -> None:
    words = read_wording(STORY_THEN_LESSON)
    assert words.instruction.startswith("Restore Enterprise2")
    assert words.verbs == ("Restore",) and words.classes == ()


def test_what_i_would_take_from_this_opens_the_lesson() -> None:
    words = read_wording("I waited on User3 for five steps and it escalated. What I would take from this is that "
                         "you should Remove User3 as soon as it is compromised.")
    assert "Remove User3" in words.instruction and "waited" not in words.instruction


def test_a_relearned_lesson_has_the_key_of_the_plain_rule() -> None:
    assert words_key(STORY_THEN_LESSON)[:4] == words_key("Enterprise2 compromised -> Restore Enterprise2.")[:4]


def test_a_rule_word_that_orders_nothing_after_it_is_left_alone() -> None:
    # "the rule is" followed by a statement, not an order: the sentence stays as it was
    text = "The rule is unclear to me when User1 is compromised."
    assert _lesson_of(text) == text


def _lesson_of(part: str) -> str:
    from forge.rulebook.language.instruction import lesson_of
    return lesson_of(part)


def test_the_rule_i_would_give_myself_is_simple_opens_the_lesson() -> None:
    # the story says Op_Server0 stayed compromised; the lesson is about an exploit on it, nothing else
    text = ("I never thought of Op_Server0 as in reach, so when it showed a scan I kept restoring the user hosts. "
            "Op_Server0 stayed compromised for ten steps. I can't say what it cost, but the one rule I'd give myself "
            "is short: when Op_Server0 shows an exploit, Restore Op_Server0.")
    assert repr(rule_claims(text, with_instruction=True)) == repr(rule_claims(
        "When Op_Server0 shows an exploit, Restore Op_Server0.", with_instruction=True))
    words = read_wording(text)
    assert words.classes == () and words.situation == ""  # the lead "the rule I'd give myself is short:" states no situation


# A condition that speaks of a state the reading turns into no state at all (only "the context shows the host"):
# not read whole, so a rule kept semantic stays silent rather than firing wherever the host is shown.
def test_a_state_read_as_a_bare_host_is_not_the_whole_condition() -> None:
    for text in ("lateral stage (Enterprise1 hit) -> Restore Enterprise1 before anything else.",
                 # ("is hit" is a compromise since the sixteenth round: tests/test_rulebook_round16_harm.py)
                 # (r59m: "is burned" is a compromise since the fifty-ninth round: tests/test_rulebook_round59_misses.py)
                 "Once Enterprise1 is toast, Restore Enterprise1."):
        found = rule_claims(text, with_instruction=True)
        assert found is not None and found.bare()  # what the reading makes of it: the host, shown
        assert not complete_claims(text, found)


def test_a_state_read_in_full_is_still_whole() -> None:
    text = "When Enterprise1 is compromised, Restore Enterprise1."
    assert complete_claims(text, rule_claims(text, with_instruction=True))


def test_a_semantic_rule_on_a_compromised_host_is_silent_at_unknown() -> None:
    from forge.rulebook.language.condition import semantic_claims
    from forge.rulebook.language.predicate import truth
    from forge.rulebook.language.situation import read_situation
    found = semantic_claims("Enterprise1 compromised, nothing active on it -> Analyse it first.")
    unknown = read_situation("Alerts:\nEnterprise1: Activity None, Compromised Unknown")
    user = read_situation("Alerts:\nEnterprise1: Activity None, Compromised User")
    assert truth(found, user) is True
    assert truth(found, unknown) is not True


def test_a_long_reflection_keeps_its_lesson_not_its_opening() -> None:
    from forge.rulebook.authoring.compile import MAX_DIRECTIVE_CHARS, fitted
    from forge.rulebook.language.condition import semantic_claims
    story = ("I deployed DecoyApache on User1 as soon as it was scanned, and again two steps later, and both times it "
             "caught nothing at all; this attacker always lands on User1 first in these runs, it is simply where the "
             "episode begins for them. Decoys on the enterprise servers, by contrast, seemed to slow the attacker "
             "down in the handful of runs I can recall. So, cautiously: when an enterprise server is scanned and "
             "still clean, put DecoyApache on it.")
    assert len(story) > MAX_DIRECTIVE_CHARS
    kept = fitted(story)
    assert kept.startswith("when an enterprise server is scanned")
    found = semantic_claims(kept)
    assert all(atom.host != "User1" for atom in _atoms(found))  # the story's User1 is no part of the rule


def test_a_short_directive_is_kept_whole() -> None:
    from forge.rulebook.authoring.compile import fitted
    text = "I waited too long on User2. Remove User2 as soon as it is exploited."
    assert fitted(text) == text


def _atoms(found):
    from forge.rulebook.language.predicate import atoms_of
    return [atom for atom, _ in atoms_of(found)]


# Notes' shorthand and headings: "w/o" is "without" (a negation the reading must place), the role "analyst" is no
# verb, and a heading before the situation ("planner / Enterprise2: ...: ORDER") leaves the situation as the condition.
def test_w_slash_o_is_a_negation_the_checks_see() -> None:
    problem = text_problem("Enterprise2: Compromised Privileged w/o any activity -> Restore Enterprise2.",
                           {"host": "Enterprise2", "compromise": "Privileged"},
                           {"mode": "do", "verb": "Restore", "target": "Enterprise2"})
    assert problem is not None and problem.startswith("negation")


def test_a_role_heading_is_no_order_and_no_situation() -> None:
    words = read_wording("analyst / Op_Server0: Compromised User with no activity -> recommend Restore Op_Server0.")
    assert words.situation == "Op_Server0: Compromised User with no activity"  # (its host kept: round 15)
    assert words.verbs == ("Restore",)
    problem = text_problem("analyst / Op_Server0: Compromised User w/o any activity -> recommend Restore Op_Server0.",
                           {"host": "Op_Server0", "compromise": "User"},
                           {"mode": "do", "verb": "Restore", "target": "Op_Server0"})
    assert problem is not None and problem.startswith("negation")


def test_a_number_the_reading_cannot_place_leaves_the_condition_unread():
    """Issue 29, tenth round: a port, a score or a threshold in a condition ("a shell to port 4444") says more than
    the state words around it, so what the product reads of the condition is not the whole of it."""
    from forge.rulebook.language.guard import complete_claims
    from forge.rulebook.language.rule_claims import rule_claims
    from forge.rulebook.language.scope import unplaced

    text = "A linux box with a session back to 8080 in its evidence: recommend Remove."
    assert "8080" in unplaced("box with a session back to 8080 in its evidence")
    assert not complete_claims(text, rule_claims(text, with_instruction=True))
    # a host's number is its name's
    assert unplaced("User3 and Op_Server0 are compromised") == []
