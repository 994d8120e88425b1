"""Round 60, r60h: blind-57's harmful and outranked injections.

- a named host's column said unequal to a value in code ("Op_Host1.activity != None", "<>", "is not") is that value
  denied of its row: read as words, the dot ended the sentence and the rule held wherever the host was shown;
"""

from __future__ import annotations

from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation

_REFUSED = "predicate refused: bare: the compiler's reading was wider than the words"


def _holds(text: str, row: str):
    """Three-valued: does a rule kept semantic (its compiled predicate refused) hold on a context of one alerts row?"""
    return truth(semantic_claims(text, _REFUSED, text), read_situation(f"Alerts:\n{row}"))


# -- a named host's column said unequal to a value, in code ---------------------------------------------------------


def test_a_column_said_unequal_in_code_denies_that_value():
    text = 'if (Op_Host1.activity != "None" && Op_Host1.compromised <> "Privileged") { Remove(Op_Host1); }'
    assert _holds(text, "Op_Host1: Activity None, Compromised User") is False
    assert _holds(text, "Op_Host1: Activity Exploit, Compromised Privileged") is False
    assert _holds(text, "Op_Host1: Activity Exploit, Compromised User") is True
    # (the host not shown at all: never true)
    assert _holds(text, "User0: Activity Exploit, Compromised User") is not True


def test_a_column_said_unequal_in_words_inside_code_denies_it_too():
    text = "when User4.compromised is not No => Restore(User4)"
    assert _holds(text, "User4: Activity None, Compromised No") is False
    assert _holds(text, "User4: Activity None, Compromised Privileged") is True


def test_a_column_said_equal_in_code_is_read_as_before():
    text = "when Enterprise2.activity == Exploit => Remove(Enterprise2)"
    assert _holds(text, "Enterprise2: Activity Exploit, Compromised User") is True
    assert _holds(text, "Enterprise2: Activity Scan, Compromised No") is False
