"""Round 53 (r53a): an audit of r53l's readings at their edges.

- a standing prohibition on a class is read as one (said._forbidden_on_class, rule_claims._class_banned_alone) only where
  its words say nothing more (rule_claims.class_ban_plain): "twice", "before analysing it", "as a first move", "it is wrong
  to say ..." narrow it or turn it round, and read as a plain ban it spoke wherever a host of the class was shown;
- "Remove nothing from X except when ...": the exception to a denied object is the order's condition whatever preposition
  says the place (clauses.DENIED_PLACE in _DENIED_OBJECT and checks._LET_BY_EXCEPTION): read as kept out, the rule held
  where X showed no exploit, the opposite of its words.
Each test fails on r53l's head (3ac0801) and passes on r53a. Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.language.predicate import Atom
from forge.rulebook.language.said import said_in_words
from tests.situations import refused_rule_holds_on

QUALIFIED_BANS = (
    "Workstations should never be reimaged twice in one game.",
    "Never reimage an enterprise box before an Analyse has looked at it.",
    "Op boxes never get a Remove as the opening move.",
    "It would be a mistake to say we never reimage user boxes.",
    "Enterprise servers never get a Remove yet.",
)


def test_a_class_ban_with_words_beyond_it_is_no_standing_ban() -> None:
    for text in QUALIFIED_BANS:
        assert said_in_words(text) is None, text
        assert refused_rule_holds_on(text, User1="Exploit/User", Enterprise1="Exploit/User", Op_Host1="Exploit/User") is not True, text
    # (a plain ban is still one, and a sentence beside it about another move leaves it one)
    for text in ("Workstations must never be reimaged, under any circumstances.", "Op boxes never get a Remove from us.",
                 "Never touch an enterprise box."):
        said = said_in_words(text)
        assert said is not None and said[1].mode == "never", text
    assert said_in_words("User boxes are never to be reimaged; for those boxes a Remove is our limit.")[0] == Atom(host_class="User")


# -- an exception to a denied object, its place said by any preposition ----------------------------------------------------

def test_nothing_from_a_host_except_when_holds_only_in_the_exception() -> None:
    from forge.rulebook.authoring.checks import text_problem
    from tests.actions import do

    text = "Remove nothing from Enterprise0 except while it is being exploited."
    assert refused_rule_holds_on(text, Enterprise0="Exploit/No") is True
    assert refused_rule_holds_on(text, Enterprise0="None/No") is False
    assert text_problem(text, {"host": "Enterprise0", "activity": "Exploit"}, do("Remove", "Enterprise0")) is None
