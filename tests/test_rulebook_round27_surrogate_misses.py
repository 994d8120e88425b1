"""Issue 29, twenty-seventh round (r27m, blind24's misses with the surrogate compiler): readings of the product that left
a rule silent where its words apply. A host falling back into a state after the move ("it gets re-exploited at once"),
said after a dash or a colon, is the order's reason, no condition of it; "priv" is the privileged level; "=" between
words says what a state means; a note's next order in lower case after a full stop is a sentence of its own; "for next
time:" heads a lesson drawn after a story. Sentences of our own, not the case files'."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import truth as value_of
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording

REFUSED = "predicate refused: always: the predicate holds on every context, but the text states a condition"


def _holds(claim, context: str):
    return value_of(claim, read_situation(context))


def test_a_host_taken_again_after_the_move_is_the_reason_not_a_condition():
    text = "Do not restore Op_Host2 -- it hosts our lab tools and would be compromised again within a step."
    assert read_wording(text).instruction == "Do not restore Op_Host2"
    # the prohibition on the host, whatever it shows, is what the words say: no history to express
    assert text_problem(text, {"host": "Op_Host2"}, {"mode": "never", "verb": "Restore", "target": "Op_Host2"}) is None
    colon = "Never Restore Op_Host1: the red agent gets re-infected there at once."
    assert read_wording(colon).instruction == "Never Restore Op_Host1"


def test_a_state_the_host_shows_now_after_a_dash_stays_with_the_order():
    # guard: "it is compromised" is the host's state now, so the tail stays a part of the order's words
    assert "compromised" in read_wording("Remove Op_Host2 -- it is compromised.").instruction


def test_priv_is_the_privileged_level():
    found = semantic_claims("Op_Host1 priv -> plan a Restore of Op_Host1", REFUSED)
    assert _holds(found, "Alerts:\nOp_Host1: Activity None, Compromised Privileged") is True
    assert _holds(found, "Alerts:\nOp_Host1: Activity None, Compromised User") is not True
    assert _holds(semantic_claims("Ent2 at priv level -> Restore Ent2", REFUSED),
                  "Alerts:\nEnterprise2: Activity None, Compromised Privileged") is True


def test_an_equals_sign_between_words_glosses_the_state():
    found = semantic_claims("Op_Host1 hit = impact soon. Plan Restore Op_Host1 first.", REFUSED)
    assert _holds(found, "Alerts:\nOp_Host1: Activity None, Compromised User") is True
    assert _holds(found, "Alerts:\nOp_Host1: Activity Scan, Compromised No") is not True
    found = semantic_claims("Op_Host0 scanned = they map us -> DecoyTomcat on Op_Host0", REFUSED)
    assert _holds(found, "Alerts:\nOp_Host0: Activity Scan, Compromised No") is True
    assert _holds(found, "Alerts:\nOp_Host2: Activity Scan, Compromised No") is not True


def test_a_lower_case_order_after_a_full_stop_is_its_own_sentence():
    words = read_wording("Op_Host0 compromised means trouble. plan Remove Op_Host0 at once.")
    assert words.instruction.startswith("plan Remove Op_Host0")
    assert [c.text for c in words.conditions] == ["Op_Host0 compromised"]


def test_an_abbreviation_before_a_lower_case_word_splits_no_sentence():
    # guard: "e.g." ends no sentence, whatever follows it
    words = read_wording("Put a decoy on a scanned ops host, e.g. restore-proof DecoyTomcat on Op_Host1.")
    assert "e.g." in words.instruction


def test_for_next_time_heads_the_lesson_after_a_story():
    text = ("When Op_Host2 got probed in my run I picked Sleep, and it was taken two steps on. Could be chance, but for "
            "next time: if Op_Host2 is scanned but not yet owned, a DecoyTomcat on Op_Host2 will do.")
    words = read_wording(text)
    assert words.instruction.startswith("If Op_Host2 is scanned")
    found = semantic_claims(text, REFUSED)
    assert _holds(found, "Alerts:\nOp_Host2: Activity Scan, Compromised No") is True
    assert _holds(found, "Alerts:\nOp_Host2: Activity Exploit, Compromised User") is not True


def test_an_equals_sign_after_a_name_of_no_host_keeps_the_definition():
    # guard: "quiet spell = ..." names no host, so what follows "=" is the condition itself, never a gloss dropped
    words = read_wording("quiet spell = every box idle, nothing owned -> plan Sleep")
    assert " means " not in words.text and "idle" in " ".join(c.text for c in words.conditions)
