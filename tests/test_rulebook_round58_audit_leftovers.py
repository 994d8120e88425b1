"""Round 58, r58d audits r58l: a reason said first that tells of a state.

- "Because User1 is rooted: Restore User1": the reason before the colon tells of the state the order rests on. Cut away as
  a justification (r58l's `_REASON_FIRST`, the surrogate's `_REASON_BEFORE_COLON`), the order was compiled on User1 in any
  state, a Restore of a clean host. The checks hold the predicate to that state; neither reader cuts such a reason.
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem


def _do(verb: str, host: str) -> dict:
    return {"mode": "do", "verb": verb, "target": host}


def _surrogate_compiled(text: str):
    from forge.config import load_config
    from forge.rulebook.authoring.compile import RuleCompiler, SourceItem
    from forge.wiring import build_clients

    clients, _ = build_clients(load_config())
    (compiled,) = RuleCompiler(clients["compiler"]).compile([SourceItem("correction", "action_chooser", text, "user:erin")]).rules
    return compiled


_TOLD = (("Because Enterprise0 sits at root now: Restore Enterprise0.", "Enterprise0", "Restore"),
         ("Since Op_Host1 got exploited again: Remove Op_Host1.", "Op_Host1", "Remove"),
         ("Given that User4 is owned by the red side: Restore User4.", "User4", "Restore"))


def test_a_reason_said_first_that_tells_of_a_state_is_held_to_that_state() -> None:
    for text, host, verb in _TOLD:
        assert text_problem(text, {"host": host}, _do(verb, host)) is not None, text
    assert text_problem("Because Enterprise0 sits at root now: Restore Enterprise0.",
                        {"host": "Enterprise0", "compromise": "Privileged"}, _do("Restore", "Enterprise0")) is None
    # (a reason that tells of no state is still cut: the order after the colon is the rule)
    assert text_problem("Because points are lost on that side: Restore Op_Host1 once it reads Privileged.",
                        {"host": "Op_Host1", "compromise": "Privileged"}, _do("Restore", "Op_Host1")) is None


def test_a_reason_that_tells_of_a_state_is_not_cut_from_the_order() -> None:
    from forge.rulebook.authoring.compile import strip_justification

    for text, host, _ in _TOLD:
        assert not strip_justification(text).startswith(("Restore", "Remove")), text
        compiled = _surrogate_compiled(text)
        assert compiled.when is None or compiled.when != {"host": host}, (text, compiled)


# An exception an "until" ends, whose state says more than the claims read: a time, a hedge, a second condition, a move of
# its own. Lifted on the state alone (r58l's `exceptions_lifted`), the order came back to the host sooner than its words.
_LIFT = "Deploy a decoy on every enterprise box as soon as it is probed, Enterprise2 aside until "
_PROBED = [{"host": h, "activity": "Scan"} for h in ("Enterprise0", "Enterprise1")]


def test_an_exception_is_lifted_only_on_a_state_said_plainly() -> None:
    from forge.rulebook.language.rule_claims import exceptions_lifted

    back = {"any": [*_PROBED, {"host": "Enterprise2", "activity": "Scan", "compromise": "Privileged"}]}
    decoy = _do("DecoyApache", "$matched")
    for state in ("Enterprise2 sits at root in the following episode.", "Enterprise2 has sat at root past step 40.",
                  "Enterprise2 was rooted and then cleaned up.", "Enterprise2 may perhaps be at root.",
                  "Enterprise2 has been rooted -- check with the lead first."):
        assert exceptions_lifted(_LIFT + state) == {}, state
        assert text_problem(_LIFT + state, back, decoy) is not None, state
    # (said plainly, the host comes back into the order in that state)
    for state in ("Enterprise2 sits at root.", "it is at root."):
        assert set(exceptions_lifted(_LIFT + state)) == {"Enterprise2"}, state


def test_a_move_praised_by_others_who_close_the_clause_and_are_called_wrong_is_no_order() -> None:
    # ("..., they say; they are wrong": the speaker named after the words, before the verb; read as said of nothing,
    # the praise the writer turns down stood as the writer's order)
    for text, host, verb in (("Removing Op_Host2 is the right call, people say; they are wrong.", "Op_Host2", "Remove"),
                             ("Restore Enterprise1 at once, the old hands say. I disagree.", "Enterprise1", "Restore")):
        assert text_problem(text, {"host": host}, _do(verb, host)) is not None, text
    agreed = "Pull Op_Host2 off the network as soon as it is probed, my colleagues reckon; I agree."
    assert text_problem(agreed, {"host": "Op_Host2", "activity": "Scan"}, _do("Remove", "Op_Host2")) is None


def test_a_level_by_its_place_turned_or_hedged_before_it_is_no_reading_of_its_clause() -> None:
    # ("anything but below root" is root; "seldom", "might" hedge it: r58l's `levels_by_place_read` read the level
    # phrase alone, and a predicate of user level passed as the reading)
    user = {"host": "Enterprise1", "compromise": "User"}
    for text in ("Remove Enterprise1 whenever it is anything but below root.",
                 "Remove Enterprise1 whenever it might be below root.",
                 "Remove Enterprise1 whenever it is seldom below root."):
        assert text_problem(text, user, _do("Remove", "Enterprise1")) is not None, text
    # (said plainly, in a ban too, the place is read: anything but root)
    assert text_problem("Remove Enterprise1 whenever it is below root.", user, _do("Remove", "Enterprise1")) is None
    assert text_problem("Never Remove Enterprise1 whenever it is below root.", user,
                        {"mode": "never", "verb": "Remove", "target": "Enterprise1"}) is None


def test_a_merit_fronted_then_a_fault_denied_is_no_answer_that_turns_the_move_down() -> None:
    from forge.rulebook.language.forms import moves_answered

    # ("A smart move, it is not a gamble at all": the fault is denied, the move praised; r58l's merit fronted and
    # denied read its "it is not" as the answer no)
    for text in ("Decoy Enterprise2? A smart move, it is not a gamble at all.",
                 "Remove User3? Worth the step, that was not wasted."):
        assert moves_answered(text)[0] == frozenset(), text
    assert moves_answered("Decoy Enterprise2? A smart move it is not.")[0] == frozenset({"Decoy"})
