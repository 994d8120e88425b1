"""Round 59 (r59q, from the audit of r59h): a preference the text negates ("never <move> X rather than Y") forbids the
move on X and keeps the one on Y, so a `prefer <move> X over <move> Y` is the text turned around and is refused; the
preference the words give, and the same sentence without its negation, still pass."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem

_ROOTED_OP = {"class": "Operational", "compromise": "Privileged"}
_OP_OVER_USERS = {"mode": "prefer", "verb": "Restore", "target": "$matched", "over": {"verb": "Restore", "target": "User"}}
_USERS_OVER_OP = {"mode": "prefer", "verb": "Restore", "target": "User", "over": {"verb": "Restore", "target": "Operational"}}


def test_a_negated_preference_is_never_stored_as_that_preference() -> None:
    for text in ("Once an op box is rooted, never reimage that op box rather than a user workstation.",
                 "Don't Restore a rooted operational host in preference to a user machine.",
                 "We do not restore a rooted op host instead of a user box."):
        problem = text_problem(text, _ROOTED_OP, _OP_OVER_USERS)
        assert problem is not None and problem.startswith("inverted"), (text, problem)
        assert text_problem(text, _ROOTED_OP, _USERS_OVER_OP) is None, text


def test_the_same_preference_said_plainly_still_passes() -> None:
    for text in ("Once an op box is rooted, reimage it rather than a user workstation.",
                 "Restore a rooted operational host in preference to a user machine; never Remove an op host though."):
        assert text_problem(text, _ROOTED_OP, _OP_OVER_USERS) is None, text


def test_a_ban_with_its_alternative_on_the_same_host_still_prefers_the_alternative() -> None:
    rooted_user1 = {"host": "User1", "compromise": "Privileged"}
    restore_over_remove = {"mode": "prefer", "verb": "Restore", "target": "User1", "over": {"verb": "Remove", "target": "User1"}}
    assert text_problem("Never Remove User1 once it is rooted; restore it instead.", rooted_user1,
                        restore_over_remove) is None
