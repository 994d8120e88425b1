"""Issue 29, fifteenth round (i29m): readings the product lacked, so rules whose own text applies stayed silent (blind12's
missed injections), each class on sentences written for these tests.

- *The lesson a reflection draws, in words the reader did not know*: "the safest habit is:", "what I'd tell myself next
  time is:", "my rule from now on is that", "the lesson for the busy case is:", "the wiser habit is probably this:".
  The story before it was taken for the rule (a past "When X showed ..., I chose ..." reads like an order), and "lesson
  for <scope>:" was taken for a label.
- *A reason inside the lesson's sentence* ("I may be too cautious, since ..., but the lesson is: ..."): cutting the
  sentence at its reason cut the lesson with it.
- *"needs no VERB"* ends a condition ("a user host that shows only a scan needs no Restore"), and "a decoy on it is
  enough" is an order.
- *A lesson the reader drew starts with a capital*: the condition it states was taken for one left out of it.
"""
from __future__ import annotations

from forge.rulebook.authoring.compile import fitted, strip_justification
from forge.rulebook.language.condition import text_claims
from forge.rulebook.language.guard import guard_rest
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import conditions_left_out, read_wording
from tests.situations import alert_rows


# -- the lesson a reflection draws --------------------------------------------------------------------------------------


def test_a_lesson_named_in_words_the_reader_did_not_know_is_the_order() -> None:
    for lead in ("the safest habit is:", "what I'd tell myself next time is:", "the wiser habit is probably this:",
                 "what I would recommend now is:", "the lesson for the busy case is:"):
        text = (f"When Enterprise2 first showed a scan I chose Monitor, as I had all day, and looked elsewhere. I could be "
                f"misreading one run, but {lead} when Enterprise2 is scanned, put a DecoyApache on it.")
        words = read_wording(text)
        assert words.instruction.lower().startswith("when enterprise2 is scanned"), (lead, words.instruction)
        assert [c.text.lower() for c in words.conditions] == ["when enterprise2 is scanned"], (lead, words.conditions)
        assert words.situation == "", (lead, words.situation)
    words = read_wording("User1 kept its foothold while I chased alerts. I can't say for sure, but my rule from now on is that "
                         "when User1 shows Compromised User, I remove it.")
    assert words.instruction.lower().startswith("when user1 shows compromised user, i remove it")


def test_a_story_that_reads_like_an_order_is_no_part_of_the_lesson() -> None:
    text = ("When User2 first showed an exploit I chose Monitor, the way I had all morning, and waited; the attacker moved on "
            "the next step. I might be wrong about it, but the right lesson is that when User2 is exploited, I should remove it.")
    words = read_wording(text)
    assert "Monitor" not in words.instruction
    assert [c.text.lower() for c in words.conditions] == ["when user2 is exploited"]
    found, whole = text_claims(text)
    assert whole and truth(found, alert_rows(("User2", "Exploit", "User"))) is True
    assert truth(found, alert_rows(("User2", "Scan", "No"))) is False


def test_an_order_before_a_drawn_lesson_is_kept() -> None:
    # (only a story, told in the first person, gives way to the lesson after it)
    words = read_wording("Restore User1 when it is compromised. I may be wrong, but the better rule is to Analyse it first as well.")
    assert "Restore User1" in words.instruction and "Analyse" in words.instruction


def test_a_lesson_label_still_heads_its_scope() -> None:
    # ("Lesson for every user workstation: ..." is still a label before the scope)
    words = read_wording("Lesson for the enterprise servers: restore them when they are rooted.")
    assert words.classes == ("Enterprise",)


# -- a reason inside the lesson's sentence ------------------------------------------------------------------------------


def test_cutting_a_reason_never_cuts_the_lesson_after_it() -> None:
    text = ("User1 held out for a while and I waited because I wanted proof. I may be too cautious, since the alerts were "
            "noisy that day, but the lesson for next time is: when User1 shows Compromised User, Remove User1.")
    directive = fitted(strip_justification(text))
    assert "Remove User1" in directive
    assert "when User1 shows Compromised User" in directive
    # a plain reason is still cut
    assert strip_justification("Restore User2 because the attacker is on it.") == "Restore User2"


# -- "needs no VERB", "a decoy on it is enough" -------------------------------------------------------------------------


def test_needs_no_ends_the_condition_and_enough_orders() -> None:
    words = read_wording("An enterprise host that shows only a scan needs no Restore; a DecoyTomcat on it is enough.")
    assert [c.text for c in words.conditions] == ["enterprise host that shows only a scan"]
    assert "DecoyTomcat" in words.instruction
    assert gives_order("a Monitor on it is enough.")
    assert not gives_order("The Monitor on Tuesday was enough for me.")


# -- a lesson the reader drew starts with a capital ---------------------------------------------------------------------


def test_a_drawn_lesson_keeps_its_conditions() -> None:
    text = ("User3 was hit at step 4 and I froze. I can't be sure, but the rule I'd take away is: as long as Enterprise0 is "
            "clean, Remove User3 the moment it shows an exploit.")
    assert conditions_left_out(text) == ()
    found, whole = text_claims(text)
    assert whole
    assert truth(found, alert_rows(("User3", "Exploit", "User"), ("Enterprise0", "None", "No"))) is True
    assert truth(found, alert_rows(("User3", "Exploit", "User"), ("Enterprise0", "None", "User"))) is False


# -- "only Unknown and no confirmed compromise" -------------------------------------------------------------------------


def test_unknown_and_no_confirmed_compromise_is_the_level_unknown() -> None:
    text = "While Enterprise2 reads only Unknown and no real compromise, keep analysing it; do not restore it."
    found, whole = text_claims(text)
    assert whole
    assert truth(found, alert_rows(("Enterprise2", "None", "Unknown"))) is True
    assert truth(found, alert_rows(("Enterprise2", "Scan", "No"))) is False
    assert truth(found, alert_rows(("Enterprise2", "None", "User"))) is False
    found, whole = text_claims("If Op_Host1 shows just Unknown, Analyse it.")
    assert whole and truth(found, alert_rows(("Op_Host1", "None", "Unknown"))) is True
    # "no confirmed compromise" alone still says the host is clean
    found, _ = text_claims("If User2 shows no confirmed compromise, put a DecoyApache on it.")
    assert truth(found, alert_rows(("User2", "None", "Unknown"))) is not True


# -- a class's host that shows one state and denies another -------------------------------------------------------------


def test_a_denial_after_a_class_is_said_of_the_same_host() -> None:
    for text in ("When an enterprise host is exploited but not rooted, Remove it.",
                 "enterprise box w/ an exploit, no root yet -> Remove, not Restore."):
        found, whole = text_claims(text)
        assert whole, text
        quiet = [("Enterprise0", "None", "No"), ("Enterprise2", "None", "No"), ("Defender", "None", "No")]
        assert truth(found, alert_rows(("Enterprise1", "Exploit", "User"), *quiet)) is True, text
        assert truth(found, alert_rows(("Enterprise1", "Exploit", "Privileged"), *quiet)) is False, text
        # one host exploited and rooted, another exploited only: that other one
        assert truth(found, alert_rows(("Enterprise1", "Exploit", "Privileged"), ("Enterprise0", "Exploit", "User"),
                                  ("Enterprise2", "None", "No"), ("Defender", "None", "No"))) is True, text


# -- class shorthand, "in progress", "scanned and nothing more" ---------------------------------------------------------


def test_class_shorthand_and_a_bare_participle_are_read_whole() -> None:
    found, whole = text_claims("ent srv scanned and nothing more -> DecoyTomcat on it.")
    assert whole
    quiet = [("Enterprise0", "None", "No"), ("Enterprise1", "None", "No"), ("Defender", "None", "No")]
    assert truth(found, alert_rows(("Enterprise2", "Scan", "No"), *quiet)) is True
    assert truth(found, alert_rows(("Enterprise2", "Scan", "User"), *quiet)) is False
    found, whole = text_claims("usr box with an exploit in progress -> Remove it.")
    assert whole and truth(found, alert_rows(("User3", "Exploit", "User"))) is True


def test_a_count_of_a_class_is_still_placed() -> None:
    # (class words are blanked after the count is read: "two user hosts" stays one placed phrase)
    found, whole = text_claims("When two user hosts are compromised, restore Enterprise0.")
    assert whole


# -- two levels joined by "or" ------------------------------------------------------------------------------------------


def test_two_levels_joined_by_or_are_read_whole_as_either() -> None:
    found, whole = text_claims("OpS0 at user level or root -> plan Restore OpS0 first.")
    assert whole
    assert truth(found, alert_rows(("Op_Server0", "None", "User"))) is True
    assert truth(found, alert_rows(("Op_Server0", "None", "Privileged"))) is True
    assert truth(found, alert_rows(("Op_Server0", "None", "Unknown"))) is False
    assert truth(found, alert_rows(("Op_Server0", "Scan", "No"))) is False
    found, whole = text_claims("When User2 is scanned or exploited, Analyse it.")
    assert whole and truth(found, alert_rows(("User2", "Scan", "No"))) is True and truth(found, alert_rows(("User2", "None", "No"))) is False
    # a state and a level joined by "or" are still not read whole
    assert not text_claims("When User2 is scanned or compromised, Analyse it.")[1]


# -- "the host you analyse is X" ----------------------------------------------------------------------------------------


def test_the_analysed_host_named_is_that_host() -> None:
    found, whole = text_claims("If the box you are analysing is Enterprise2 and it is rooted, recommend Restore.")
    assert whole
    assert truth(found, alert_rows(("Enterprise2", "None", "Privileged"))) is True
    assert truth(found, alert_rows(("Enterprise2", "None", "User"))) is False
    assert truth(found, alert_rows(("User1", "None", "Privileged"))) is not True


# -- a rest that is the order itself never guards -----------------------------------------------------------------------


def test_leave_out_as_a_rest_is_no_guard() -> None:
    from forge.rulebook.language.predicate import parse_predicate

    when = parse_predicate({"host": "Op_Host2"})
    assert guard_rest("leave out", when) == ""
    assert guard_rest("keep away", when) == ""
    assert guard_rest("at critical priority", when) != ""


# -- a condition told in the past, in the story --------------------------------------------------------------------------


def test_a_told_condition_in_the_story_is_not_left_out() -> None:
    text = ("Early on a user host was scanned while Enterprise1 was already compromised, and I split my attention between "
            "them. I might be wrong, but what I'd tell myself now is: when a user host is scanned while Enterprise1 is "
            "compromised, put a DecoyApache on the scanned host.")
    assert conditions_left_out(text) == ()


# -- headings before a note's situation ---------------------------------------------------------------------------------


def test_a_role_or_host_heading_before_the_situation() -> None:
    found, whole = text_claims("analyst: E1 at user level 2+ steps straight -> recommend Remove.")
    assert whole
    assert found is not None and "Enterprise1" in repr(found) and "unchanged_for=2" in repr(found)
    found, whole = text_claims("Ent2: exploit w/o root -> Remove.")
    assert whole
    assert truth(found, alert_rows(("Enterprise2", "Exploit", "User"))) is True
    assert truth(found, alert_rows(("Enterprise2", "Exploit", "Privileged"))) is False
    assert truth(found, alert_rows(("Enterprise1", "Exploit", "User"))) is not True


# -- the rule's one host in shorthand, inside its condition -------------------------------------------------------------


def test_the_one_host_in_shorthand_is_read_in_its_condition() -> None:
    found, whole = text_claims("U3 Unknown -> Analyse U3, nothing more.")
    assert whole
    assert truth(found, alert_rows(("User3", "None", "Unknown"))) is True
    assert truth(found, alert_rows(("User3", "None", "User"))) is False
    found, whole = text_claims("OpS0 exploited -> Restore it at once.")
    assert whole and truth(found, alert_rows(("Op_Server0", "Exploit", "User"))) is True
    # "@ Unknown" was a state the reader did not place (the reading was not whole); since round 31 (r31h) it is the level
    found, whole = text_claims("OpH1 @ Unknown -> one Analyse on OpH1, no Restore yet.")
    assert whole and truth(found, alert_rows(("Op_Host1", "None", "Unknown"))) is True
    assert truth(found, alert_rows(("Op_Host1", "None", "User"))) is False
