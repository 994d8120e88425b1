"""Issue 29, twenty-third round (r23m): readings that kept a rule silent where its own words say it applies
(blind20's missed injections with the default compiler that the reference compiler does not share), each class on
sentences written for these tests.

- *The host at hand, then what it is* ("for a box we are inspecting which shows an exploit, ..."): a relative clause
  opened right after the host noun was a condition ("a host that is scanned only"), but with "you analyse" / "we are
  inspecting" between the noun and "that"/"which" it was none: the whole sentence was then read as the condition, and
  a "no Restore" in the order negated it (the claims said the opposite of the words), so the rule was silent where it
  applies.
- *Both compromise levels named as one condition, compiled as one of them* ("restore Op_Host0 whenever it sits at user
  level or at root" compiled as "Op_Host0 at Privileged"): narrower than its words, the predicate was accepted (the
  "narrow" check refused only a history the story told, or a quiet network), so the rule was silent at the level the
  compiler left out. Refused, the rule is judged by its whole reading (any compromise, Unknown not counted); only where
  that reading is whole and asks any compromise ("at either level" is read as no state: no refusal there).
- *A host in shorthand beside another subject* ("U-boxes all clean + E1 quiet -> ...", "E1 quiet + OpH2 rooted -> ..."):
  a condition's shorthand names were written out as the table names them only where the rule names one host (its
  subject), so with a class or a second host beside it the shorthand host's state was not read, the reading was not
  whole, and a rule kept semantic was silent.
- *A scope singled out* ("for Op_Host1 specifically: when it is exploited, ..."): "specifically" (and "particular(ly)")
  was a word the reading did not place, so a whole reading was taken for a part and a rule kept semantic was silent;
  it says the scope is that host and no more.
- *A class heading, less what it excepts, and no state* ("ent boxes except Enterprise0 -> never Remove"): a class
  named bare claimed nothing (and "Op hosts other than Op_Server0" claimed Op_Server0 shown, excepted away after), so a
  rule kept semantic was silent; the rule is about any host of the class, less the excepted ones, that is shown, as a
  heading that names one host is about that host shown.
"""
from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.wording import read_wording
from tests.situations import alert_rows

REFUSED = "predicate refused: class: a test's refusal"


# -- the host at hand, then what it is ------------------------------------------------------------------------------------

def test_a_host_at_hand_then_its_state_is_a_condition() -> None:
    for text, state in (("For any box we are inspecting which shows an exploit, recommend a Remove and no Restore.",
                         "exploit"),
                        ("For a machine you examine that is only scanned, suggest a decoy on it and no Remove.", "scanned")):
        assert any(state in c.text for c in read_wording(text).conditions), text


def test_the_claims_of_a_host_at_hand_are_its_state_not_the_opposite() -> None:
    text = "For any box we are inspecting which shows an exploit, recommend a Remove and no Restore."
    claims = semantic_claims(text, REFUSED)
    assert truth(claims, alert_rows(("Op_Host2", "Exploit", "User"))) is True
    assert truth(claims, alert_rows(("Op_Host2", "None", "No"))) is not True
    text = "For a machine you examine that is only scanned, suggest a decoy on it and no Remove."
    claims = semantic_claims(text, REFUSED)
    assert truth(claims, alert_rows(("Enterprise1", "Scan", "No"))) is True
    assert truth(claims, alert_rows(("Enterprise1", "None", "No"))) is not True
    assert truth(claims, alert_rows(("Enterprise1", "Scan", "User"))) is not True


# -- both compromise levels named as one condition, compiled as one of them ------------------------------------------------

BOTH = ("Whenever Op_Host0 is at user level or root, restore it.",
        "Op_Host0 with root or user access: plan a Restore of Op_Host0.",
        "Op_Host0 owned, user or admin -> rec Restore")
RESTORE = {"mode": "do", "verb": "Restore", "target": "Op_Host0"}


def test_one_level_of_the_two_named_is_narrow() -> None:
    for text in BOTH:
        for level in ("User", "Privileged"):
            problem = text_problem(text, {"host": "Op_Host0", "compromise": level}, RESTORE)
            assert problem is not None and problem.startswith("narrow"), (text, level, problem)
        # both levels, or any compromise, is what the words say
        assert text_problem(text, {"any": [{"host": "Op_Host0", "compromise": "User"},
                                           {"host": "Op_Host0", "compromise": "Privileged"}]}, RESTORE) is None, text
    # one level named is that level
    assert text_problem("Whenever Op_Host0 is rooted, restore it.", {"host": "Op_Host0", "compromise": "Privileged"},
                        RESTORE) is None


def test_refused_it_applies_at_both_levels() -> None:
    for text in BOTH:
        claims = semantic_claims(text, "predicate refused: narrow: a test's refusal")
        assert truth(claims, alert_rows(("Op_Host0", "None", "User"))) is True, text
        assert truth(claims, alert_rows(("Op_Host0", "None", "Privileged"))) is True, text
        assert truth(claims, alert_rows(("Op_Host0", "Scan", "No"))) is not True, text
        assert truth(claims, alert_rows(("Op_Host1", "None", "User"))) is not True, text


# -- a host in shorthand beside another subject ----------------------------------------------------------------------------

def test_a_shorthand_host_beside_a_class_is_read() -> None:
    claims = semantic_claims("U-boxes all clean + E1 quiet -> plan Monitor", REFUSED)
    users_clean = [(f"User{n}", "None", "No") for n in range(5)]
    assert truth(claims, alert_rows(*users_clean, ("Enterprise1", "None", "No"))) is True
    assert truth(claims, alert_rows(*users_clean, ("Enterprise1", "Scan", "No"))) is not True
    assert truth(claims, alert_rows(*users_clean[1:], ("User0", "None", "User"), ("Enterprise1", "None", "No"))) is not True


def test_two_shorthand_hosts_each_with_its_state_are_read() -> None:
    claims = semantic_claims("E1 quiet + OpH2 rooted -> rec Restore OpH2", REFUSED)
    assert truth(claims, alert_rows(("Enterprise1", "None", "No"), ("Op_Host2", "None", "Privileged"))) is True
    assert truth(claims, alert_rows(("Enterprise1", "Scan", "No"), ("Op_Host2", "None", "Privileged"))) is not True
    assert truth(claims, alert_rows(("Enterprise1", "None", "No"), ("Op_Host2", "None", "User"))) is not True
    # (both owned, one state for two: read before too)
    claims = semantic_claims("OpH0 + U2 both owned -> rec Restore OpH0", REFUSED)
    assert truth(claims, alert_rows(("Op_Host0", "None", "User"), ("User2", "None", "Privileged"))) is True
    assert truth(claims, alert_rows(("Op_Host0", "None", "User"), ("User2", "None", "No"))) is not True


# -- a scope singled out ---------------------------------------------------------------------------------------------------

def test_a_scope_singled_out_is_read_whole() -> None:
    for text in ("For Op_Host1 specifically: when it is exploited, remove the attacker from it.",
                 "As for Op_Host1 in particular: once it shows an exploit, plan a Remove of Op_Host1."):
        assert complete_claims(text, rule_claims(text, with_instruction=True)), text
        claims = semantic_claims(text, REFUSED)
        assert truth(claims, alert_rows(("Op_Host1", "Exploit", "User"))) is True, text
        assert truth(claims, alert_rows(("Op_Host1", "Scan", "No"))) is not True, text
        assert truth(claims, alert_rows(("Op_Host2", "Exploit", "User"))) is not True, text


# -- a class heading, less what it excepts, and no state -------------------------------------------------------------------

def test_a_bare_class_heading_less_its_exception_is_the_scope() -> None:
    for text in ("ent boxes except Enterprise0 -> never Remove", "enterprise servers other than Enterprise0: no Remove"):
        assert complete_claims(text, rule_claims(text, with_instruction=True)), text
        claims = semantic_claims(text, REFUSED)
        assert truth(claims, alert_rows(("Enterprise1", "None", "User"))) is True, text
        assert truth(claims, alert_rows(("Enterprise0", "None", "User"))) is not True, text
        assert truth(claims, alert_rows(("User1", "None", "User"))) is not True, text


def test_a_class_heading_with_a_state_or_a_second_condition_is_not_bare() -> None:
    # a state in the heading is read as before, and a heading before a "when" is no bare scope
    claims = semantic_claims("ent boxes except Enterprise0, rooted -> Restore", REFUSED)
    assert truth(claims, alert_rows(("Enterprise1", "None", "User"))) is not True
    claims = semantic_claims("Enterprise hosts except Enterprise0: when exploited, Remove it", REFUSED)
    assert truth(claims, alert_rows(("Enterprise1", "None", "No"))) is not True
    # a heading with more than the class's name in it, in words the reading does not take for a state, is no bare scope
    claims = semantic_claims("ent box @ Unknown -> no Remove", REFUSED)
    assert truth(claims, alert_rows(("Enterprise1", "None", "User"))) is not True
