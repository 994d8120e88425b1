"""Round 58 (coordinator, from r58a's report): a ban carried on by a negative inversion.

"Nor should anyone <move> ...", "Neither do we <move> ..." forbid the move as "never" does. Read as no prohibition, the
surrogate stored the move as an order and the checks accepted it: the opposite of the words. "Neither ... nor" that
joins two hosts of a condition, with no auxiliary after it, forbids nothing.
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.forbidding import forbids_verb

_INVERTED_BANS = ("Nor should anybody reimage Op_Host1 while it shows a probe.",
                  "Neither do we ever pick Remove for User2 once it is scanned.",
                  "Nor may the chooser Restore Enterprise1 if it is merely probed.",
                  "And nor would I Remove Op_Server0 at user level.")


def test_a_negative_inversion_forbids_its_move() -> None:
    for said in _INVERTED_BANS:
        assert forbids_verb(said), said


def test_an_order_is_refused_for_a_ban_said_by_inversion_and_a_never_passes() -> None:
    text = "Nor should anybody reimage Op_Host1 while it shows a probe."
    trigger = {"host": "Op_Host1", "activity": "Scan"}
    assert text_problem(text, trigger, {"mode": "do", "verb": "Restore", "target": "Op_Host1"}) is not None
    assert text_problem(text, trigger, {"mode": "never", "verb": "Restore", "target": "Op_Host1"}) is None


def test_neither_nor_joining_the_hosts_of_a_condition_forbids_nothing() -> None:
    assert not forbids_verb("When neither User3 nor User4 is probed any more, Restore Op_Server0.")


# -- a proposal told in prose and turned down in its last clause orders nothing (from r58a's report) ---------------

_TURNED_DOWN = ("A teammate floated reimaging User1 each time it gets probed; the lead vetoed it.",
                "It has been suggested that Op_Host0 be removed at the first exploit. Nobody agreed.",
                "Somebody put forward a Remove of Enterprise2 on every scan, and the idea was shot down.")


def test_a_proposal_turned_down_in_its_last_clause_orders_nothing() -> None:
    from forge.rulebook.language.condition import decides_nothing
    from forge.rulebook.language.minutes import request_turned_down

    for said in _TURNED_DOWN:
        assert request_turned_down(said) and decides_nothing(said), said
    assert text_problem(_TURNED_DOWN[0], {"host": "User1", "activity": "Scan"},
                        {"mode": "do", "verb": "Restore", "target": "User1"}) is not None


def test_a_proposal_agreed_or_followed_by_an_order_is_read_as_before() -> None:
    from forge.rulebook.language.minutes import request_turned_down

    assert not request_turned_down("A teammate floated reimaging User1 each time it gets probed, and we all agreed.")
    assert not request_turned_down("We vetoed the idea of sleeping. Restore User1 each time it gets probed.")
