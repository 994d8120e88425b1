"""Issue 29, twenty-third round (r23m): readings that kept a rule silent where its own words say it applies
(blind20's missed injections with the default compiler that the reference compiler does not share), each class on
sentences written for these tests.

- *The host at hand, then what it is* ("for a box we are inspecting which shows an exploit, ..."): a relative clause
  opened right after the host noun was a condition ("a host that is scanned only"), but with "you analyse" / "we are
  inspecting" between the noun and "that"/"which" it was none: the whole sentence was then read as the condition, and
  a "no Restore" in the order negated it (the claims said the opposite of the words), so the rule was silent where it
  applies.
"""
from __future__ import annotations

from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording

REFUSED = "predicate refused: class: a test's refusal"


def _rows(*rows: tuple[str, str, str]):
    return read_situation("Alerts:\n" + "\n".join(f"{h}: Activity {a}, Compromised {c}" for h, a, c in rows))


# -- the host at hand, then what it is ------------------------------------------------------------------------------------

def test_a_host_at_hand_then_its_state_is_a_condition() -> None:
    for text, state in (("For any box we are inspecting which shows an exploit, recommend a Remove and no Restore.",
                         "exploit"),
                        ("For a machine you examine that is only scanned, suggest a decoy on it and no Remove.", "scanned")):
        assert any(state in c.text for c in read_wording(text).conditions), text


def test_the_claims_of_a_host_at_hand_are_its_state_not_the_opposite() -> None:
    text = "For any box we are inspecting which shows an exploit, recommend a Remove and no Restore."
    claims = semantic_claims(text, REFUSED)
    assert truth(claims, _rows(("Op_Host2", "Exploit", "User"))) is True
    assert truth(claims, _rows(("Op_Host2", "None", "No"))) is not True
    text = "For a machine you examine that is only scanned, suggest a decoy on it and no Remove."
    claims = semantic_claims(text, REFUSED)
    assert truth(claims, _rows(("Enterprise1", "Scan", "No"))) is True
    assert truth(claims, _rows(("Enterprise1", "None", "No"))) is not True
    assert truth(claims, _rows(("Enterprise1", "Scan", "User"))) is not True
