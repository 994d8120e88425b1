"""Issue 29, round 53 (r53d): a review of r53h's readings at their edges, with sentences of our own. Each test is a reading
r53h widened, turned or silenced, fixed as a class:
- the words before "gets a <move>" are a case only when they are a plain noun phrase: a negated getting ("never gets",
  "no longer gets") or a frame of doubt is no situation (clauses._GETS_NOT_PLAIN);
- an edit in a chat log keeps the situation of its own speaker's earlier message only (transcript._speaker reads the
  speaker after the time, not the time's hour), and an edit that states its own case of a host it names stands alone;
- "as well as" inside a note's own condition is no "too" pointing to the earlier note (order._CONDITION_ELSEWHERE);
- ", not while <case>" after a prohibition with no case of its own repeats the denial: the case is the prohibition's
  (forms._DENIED_ORDER_ALONE), so its inversion is refused."""

from __future__ import annotations

from forge.rulebook.authoring.teaching import taught_words
from tests.situations import refused_rule_holds_on


def test_a_level_that_never_gets_a_move_is_still_the_case_of_the_prohibition() -> None:
    note = "A root on Enterprise2 never gets a Remove, whatever the queue says."
    # the prohibition speaks where Enterprise2 is rooted (r53h read "a root on Enterprise2 never" as a denied case: nowhere)
    assert refused_rule_holds_on(note, Enterprise2="None/Privileged") is True
    assert refused_rule_holds_on(note, Enterprise2="None/User") is not True


def test_an_edit_by_another_speaker_takes_no_situation_from_the_first() -> None:
    log = "[14:20] mia: Op_Host1 probed -> DecoyApache on Op_Host1\n[14:22] raj: edit: Remove Op_Host1"
    # both messages fall in the same hour: the hour is no speaker
    assert taught_words(log)[1] == "Remove Op_Host1"
    same = "[14:20] mia: Op_Host1 probed -> DecoyApache on Op_Host1\n[14:22] mia: edit: Remove Op_Host1"
    assert taught_words(same)[1] == "Op_Host1 probed -> Remove Op_Host1"


def test_an_edit_stating_its_own_case_replaces_the_earlier_case() -> None:
    log = "[14:20] mia: Op_Host1 probed -> DecoyApache on Op_Host1\n[14:23] mia: edit: once Op_Host1 is rooted, Restore Op_Host1"
    assert taught_words(log)[1] == "once Op_Host1 is rooted, Restore Op_Host1"
    # a case said of no host narrows the earlier message's case: joined to it
    narrowed = "[14:20] mia: Op_Host1 probed -> DecoyApache on Op_Host1\n[14:23] mia: edit: Remove instead, but only once it is rooted"
    assert taught_words(narrowed)[1].startswith("Op_Host1 probed -> ")


def test_as_well_as_inside_the_notes_own_condition_is_no_too() -> None:
    from forge.rulebook.language.order import condition_elsewhere

    note = "My previous rule, in full: when Op_Host2 shows an exploit as well as a scan, Remove Op_Host2."
    # "as well as" joins two states of its own condition: read here, not left to the earlier note (r53h: unknown, silent)
    assert not condition_elsewhere(note)
    assert refused_rule_holds_on(note, Op_Host2="Exploit/User") is True
    # a state said to hold "as well", after the note that holds the other, is still partly the earlier note's
    assert condition_elsewhere("Exception to the rule above: if Op_Host0 is rooted as well, Restore Op_Host0.")


def test_not_while_after_a_bare_prohibition_is_that_prohibitions_case() -> None:
    from forge.rulebook.authoring.checks import text_problem
    from forge.rulebook.language.wording import read_wording
    from tests.actions import never

    note = "Don't Restore Op_Host1, not while Op_Server0 shows a scan"
    # the "not" repeats the denial: the prohibition holds while Op_Server0 is scanned, and only then
    assert text_problem(note, {"host": "Op_Server0", "activity": "Scan"}, never("Restore", "Op_Host1")) is None
    assert text_problem(note, {"not": {"host": "Op_Server0", "activity": "Scan"}}, never("Restore", "Op_Host1")) is not None
    # beside a case of its own, the "not" still sets the other case apart
    contrast = read_wording("Never Remove Enterprise1 when it is rooted, not when it is only at user level")
    assert "but not when it is only at user level" in [c.text for c in contrast.conditions]
