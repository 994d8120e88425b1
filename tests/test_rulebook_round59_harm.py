"""Round 59, r59h: blind-56's harmful and outranked injections.

- a name the note gives to hosts it lists ("I'll refer to User1 and User3 as the pair", "we call Op_Host0 and Op_Host1
  'the twins'") and then uses in its rule: the rule speaks of those hosts alone, so a trigger that asks the state of any
  host (read from "a machine in the pair") is wider than the words and refused, while one kept to the listed hosts passes;
- another's note reported in words of its own ("Kim's rule says op boxes never get a Remove.") and granted in general
  with one case set aside ("Sound in general, but once Op_Host2 is rooted: Remove Op_Host2") is the rule the text
  excepts from, not its order: the case's faithful compilation passes (refused, the rule stayed without a meaning and was
  injected beside the note it outranks);
- a note granted by pointing at it ("Agreed with the rule above, but Op_Host2 is the exception: ...") is likewise not
  the order: the exception's own order on its host passes;
- a preference contrasted with a class ("Restore that op host rather than any user machine") puts that class aside:
  "prefer ... over <move> User" passes (refused, the general rule was kept without a meaning, and the exception taught
  for one of its hosts could not outrank it), and a class the text does not contrast stays refused.
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem

_ANY_SCAN = {"class": "any", "activity": "Scan"}
_DECOY = {"mode": "do", "verb": "DecoyApache", "target": "$matched"}


def test_a_name_given_to_listed_hosts_is_written_out() -> None:
    from forge.rulebook.language.glossary import group_named_said  # lazy: new in this round

    said = group_named_said("My shorthand: I'll refer to User1 and User3 as the pair (User2 stays out of it). "
                            "Should a machine in the pair get probed, DecoyApache it.")
    assert said == "Should one of User1 or User3 get probed, DecoyApache it."
    said = group_named_said('We call Op_Host0 and Op_Host1 "the twins". The twins get no Restore from us.')
    assert said == "Op_Host0 or Op_Host1 get no Restore from us."
    # a judgement of a host is no name: "call User2 clean" names nothing
    judged = "I would call User2 clean at this point. DecoyApache it when probed."
    assert group_named_said(judged) == judged


def test_a_trigger_on_any_host_is_wider_than_the_named_hosts() -> None:
    text = ("My shorthand: I'll refer to User1 and User3 as the pair (User2 stays out of it). "
            "Should a machine in the pair get probed, DecoyApache it.")
    assert text_problem(text, _ANY_SCAN, _DECOY) is not None
    kept = {"any": [{"host": "User1", "activity": "Scan"}, {"host": "User3", "activity": "Scan"}]}
    assert text_problem(text, kept, _DECOY) is None


def test_a_reported_note_granted_in_general_is_not_the_order() -> None:
    remove = {"mode": "do", "verb": "Remove", "target": "Op_Host2"}
    rooted = {"host": "Op_Host2", "compromise": "Privileged"}
    for text in ("Kim's rule says op boxes never get a Remove. Sound in general, but once Op_Host2 is rooted: Remove Op_Host2.",
                 "Kim said the op boxes never get a Remove; fair enough as a rule, but once Op_Host2 is rooted, Remove Op_Host2."):
        assert text_problem(text, rooted, remove) is None, text
        # (still held to the case it sets aside: Op_Host2 in any state is wider)
        assert text_problem(text, {"host": "Op_Host2"}, remove) is not None, text


def test_a_note_granted_by_pointing_at_it_is_not_the_order() -> None:
    text = "Agreed with the rule above, but Op_Host2 is the exception: if it's Op_Host2 that gets rooted, Remove it instead."
    assert text_problem(text, {"host": "Op_Host2", "compromise": "Privileged"},
                        {"mode": "do", "verb": "Remove", "target": "Op_Host2"}) is None


def test_a_preference_contrasted_with_a_class_puts_the_class_aside() -> None:
    text = "Whenever an op host is rooted, Restore that op host rather than any user machine."
    when = {"class": "Operational", "compromise": "Privileged"}
    over_users = {"mode": "prefer", "verb": "Restore", "target": "$matched", "over": {"verb": "Restore", "target": "User"}}
    assert text_problem(text, when, over_users) is None
    over_servers = {"mode": "prefer", "verb": "Restore", "target": "$matched", "over": {"verb": "Restore", "target": "Enterprise"}}
    assert text_problem(text, when, over_servers) is not None
