"""(r60p, prepared after round 59 from the mutation bench's survivors) An order aimed at the class a preference is
contrasted with (a move on an enterprise machine "in preference to" the user class) is the move the text puts aside: refused,
while the preference itself and the order on the class the text orders stay accepted."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem

_EXPLOITED_SERVER = {"class": "Enterprise", "activity": "Exploit"}
_TEXT = "Once any enterprise box reports an Exploit, do a Remove on the box in preference to any user workstation."


def test_an_order_on_the_class_a_preference_puts_aside_is_refused() -> None:
    problem = text_problem(_TEXT, _EXPLOITED_SERVER, {"mode": "do", "verb": "Remove", "target": "User"})
    assert problem is not None and problem.startswith("target"), problem


def test_the_preference_the_words_give_still_passes() -> None:
    preference = {"mode": "prefer", "verb": "Remove", "target": "$matched", "over": {"verb": "Remove", "target": "User"}}
    assert text_problem(_TEXT, _EXPLOITED_SERVER, preference) is None
