"""Round 59, second wave (r59n): a reply that turns a quoted note down in one case, and a move kept for another case.

A teacher answers another's note the way mail does ("Dana wrote: > ... / I don't agree for a shallow foothold: ..."): the
answer's order is the rule, in the case the answer states. A move the answer keeps for another case ("..., keep the
Restore for once it is at root") is put aside in the order's case (a preference over it holds there), its case no
condition of the order; and a trigger that reaches the kept case is refused, whatever the compiler, so the preference
never stands where the text keeps the other move.
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.predicate import Atom
from forge.rulebook.language.replies import reply_said
from forge.rulebook.language.rule_claims import rule_claims

_REPLY = ("Dana wrote:\n> Enterprise1 compromised -> Restore it straight away.\n\n"
          "I don't agree for a shallow foothold: Enterprise1 at user level needs only a Remove, keep the Restore for "
          "once it is at root.")
_ANSWER = "Enterprise1 at user level needs only a Remove, keep the Restore for once it is at root."


def _prefer(verb: str, over: str, host: str) -> dict:
    return {"mode": "prefer", "verb": verb, "target": host, "over": {"verb": over, "target": host}}


def _at(host: str, compromise: str) -> dict:
    return {"host": host, "compromise": compromise}


def test_a_reply_turning_the_note_down_in_one_case_is_its_answer():
    said = reply_said(_REPLY)
    assert said.startswith("Enterprise1 at user level") and "straight away" not in said
    # (turned down in a case the answer never states: left as written)
    vague = "Dana wrote:\n> Enterprise1 compromised -> Restore it.\n\nI don't agree for the quiet nights: Remove it."
    assert reply_said(vague) == vague


def test_the_preference_holds_in_the_answers_own_case_only():
    prefer = _prefer("Remove", "Restore", "Enterprise1")
    assert text_problem(_REPLY, _at("Enterprise1", "User"), prefer) is None
    # (over the kept case too: the opposite of the words when Enterprise1 is at root)
    assert text_problem(_REPLY, _at("Enterprise1", "any"), prefer) is not None
    assert text_problem(_REPLY, _at("Enterprise1", "Privileged"), prefer) is not None
    assert text_problem(_REPLY, _at("Enterprise1", "any"), {"mode": "do", "verb": "Restore", "target": "Enterprise1"}) \
        is not None


def test_a_move_kept_for_another_case_in_the_orders_clause_is_no_condition():
    found = rule_claims(_ANSWER)
    assert isinstance(found, Atom) and found.host == "Enterprise1" and found.compromise == "User"
    prefer = _prefer("Remove", "Restore", "Enterprise1")
    assert text_problem(_ANSWER, _at("Enterprise1", "User"), prefer) is None
    # (said in the order's clause, the kept case is no branch: a trigger that reaches it is refused even with a rest)
    assert text_problem("Take Enterprise1 back with a Remove when it is compromised, keep the Restore for once it is at "
                        "root.", _at("Enterprise1", "any"), {"mode": "do", "verb": "Remove", "target": "Enterprise1"},
                        "other case: Enterprise1 at root -> Restore it") is not None


def test_a_kept_case_set_apart_is_a_branch_but_never_under_a_preference_over_its_move():
    text = "User2 at user level: Remove it from there; save the Restore for once it is at root."
    both = {"any": [_at("User2", "User"), _at("User2", "Privileged")]}
    rest = "other case: User2 at root -> Restore User2"
    # (round 43: the branch's own order told in the rest passes)
    assert text_problem(text, both, {"mode": "do", "verb": "Remove", "target": "User2"}, rest) is None
    assert text_problem(text, both, _prefer("Remove", "Restore", "User2"), rest) is not None
    assert text_problem(text, _at("User2", "User"), _prefer("Remove", "Restore", "User2")) is None
