"""Round 55 audit (r55b) of r55m's reader of a meeting's minutes (minutes.py) and of a reply under a quoted note
(replies.py), probed with sentences of our own. Each test is a reading wider than the words, or their opposite, on e5304e9:
- minutes none of whose items agreed a move order nothing: a parked or rejected item compiled as the order passed the
  checks (the reading kept only the agreed items, so a move named only elsewhere was a word no check saw), and an agreed
  item with no move ("AGREED: nothing on X yet") left the rule holding on the host alone;
- a label that denies the agreement ("Not agreed:") and labels written on one line are items too;
- a reply's answer is read in the case of the note it answers: a clause of the verdict's sentence ("Ok, if ...") is a
  condition of the note agreed to, and an answer that turns the note down with no condition of its own is its move in the
  quoted note's case, not in every state of the host."""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.minutes import agreed_items
from forge.rulebook.language.predicate import Always, Atom, Not
from forge.rulebook.language.replies import reply_said

_REFUSED = "predicate refused: a check turned it down"


def _claims(text):
    return semantic_claims(text, _REFUSED, text)


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def test_minutes_that_agreed_no_move_order_nothing():
    shelved = "Ops minutes:\n- PARKED: Restore User3 once it is rooted.\n- REJECTED: Remove User3 when it is rooted."
    assert _claims(shelved) == Not(Always())
    assert text_problem(shelved, {"host": "User3", "compromise": "Privileged"}, _do("Restore", "User3")) is not None
    empty = "Ops minutes:\n- AGREED: nothing on Op_Server0 for now.\n- PARKED: Restore Op_Server0 when it is rooted."
    assert _claims(empty) == Not(Always())
    assert text_problem(empty, {"host": "Op_Server0", "compromise": "Privileged"}, _do("Restore", "Op_Server0")) is not None


def test_a_move_only_a_rejected_item_names_is_no_order_of_the_minutes():
    one_line = "Ops minutes: REJECTED: Restore User4 when it is exploited. AGREED: Remove User4 when it is exploited."
    assert agreed_items(one_line) == ("Remove User4 when it is exploited.",)
    exploited = {"host": "User4", "activity": "Exploit"}
    assert text_problem(one_line, exploited, _do("Restore", "User4")) is not None
    assert text_problem(one_line, exploited, _do("Remove", "User4")) is None


def test_a_label_that_denies_the_agreement_is_an_item_not_agreed():
    text = "Ops minutes:\n- AGREED: Analyse Op_Server0 each time a probe hits it.\n- Not agreed: Restore Op_Server0 each time a probe hits it."
    assert agreed_items(text) == ("Analyse Op_Server0 each time a probe hits it.",)
    nobody = "Ops minutes:\n- Agreed by nobody: Restore User2 when it is scanned.\n- PARKED: decoys on User2."
    assert _claims(nobody) == Not(Always())


def test_an_agreed_reply_s_condition_in_the_verdict_s_sentence_is_a_condition_of_the_note():
    text = "> Restore User3 when it is rooted.\nOk, if User3 is not the only box rooted."
    assert reply_said(text).startswith("Restore User3 when it is rooted, if")
    # (never the note's own condition alone: that held where User3 was the only box rooted)
    assert _claims(text) != Atom(host="User3", compromise="Privileged")
    assert text_problem(text, {"host": "User3", "compromise": "Privileged"}, _do("Restore", "User3")) is not None


def test_a_turned_down_note_s_answer_with_no_condition_is_its_move_in_the_note_s_case():
    for text in ("> Put a decoy on User2 when it is scanned.\nNope, Analyse User2.",
                 "> Put a decoy on User2 when it is scanned.\nDisagree. Analyse User2 instead."):
        assert _claims(text) == Atom(host="User2", activity="Scan"), text
        assert text_problem(text, {"host": "User2"}, _do("Analyse", "User2")) is not None, text
    # (the note lends its condition, none of its moves)
    assert "Remove" not in reply_said("> Restore User2 if it is rooted, or Remove it otherwise.\nNo, Analyse User2.")
    # an answer with a condition of its own is read as written
    own = "> Enterprise0 rooted: Remove it.\nDisagree. Restore Enterprise0 once it is rooted."
    assert reply_said(own) == "Restore Enterprise0 once it is rooted."
