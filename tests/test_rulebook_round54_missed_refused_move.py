"""Round 54 (r54m): a question that asks whether a move may be made in a situation, answered "no" and then with the
prohibition ("Q: may we ... once ...? A: No, never ... then."), left the question's words as the condition: the reading was
never whole and the prohibition stayed silent where it applies. The situation is now the prohibition's condition; a
prohibition of another move than the one asked after is left as it stands."""

from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording

REFUSED = "predicate refused: prohibition: the text forbids the move but the action orders it"
ASKED = "Q3: may we Analyse User2 once it is rooted? A: No, never Analyse it then."


def test_the_situation_asked_after_is_the_prohibition_s_condition():
    words = read_wording(ASKED)
    assert words.prohibitions and "Q3" not in words.instruction
    assert truth(semantic_claims(ASKED, REFUSED), read_situation("Alerts: User2: Activity None, Compromised Privileged")) is True
    assert truth(semantic_claims(ASKED, REFUSED), read_situation("Alerts: User2: Activity None, Compromised User")) is not True


def test_a_prohibition_of_another_move_is_left_as_it_stands():
    words = read_wording("Q: could I Restore User1 if it is probed? A: No, never Remove it then.")
    assert "Q:" in f"{words.situation} {words.instruction}"
