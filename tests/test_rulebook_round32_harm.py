"""Issue 29, round 32 (blind-29's harmful injections): a host put aside after the order ("..., Enterprise0 excepted") or
in a sentence of its own after it ("Not U2 though") was not read as an exception, so the reading made it part of the
condition (or kept it among the hosts of a range) and the faithful predicate, which leaves it out, was refused as not
about a host the text names; a level by its bare name after the verb that reads the table ("row says User", "reads
User", "says Unknown") was not read, so the condition was read as the host shown at any level; an opening that states a
host's state since the defender's own move ("Ent1 still compromised after we restored it -> ...") was taken for a story
told in the first person, so the note's condition was dropped and its order read as unconditional on the host. The two
harms left on blind-29 (with both compilers) are label errors, each rule applying by its text and its author's own
compilation: the last two tests are guards of that side. Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import atoms_of
from forge.rulebook.language.wording import read_wording


def _hosts(found) -> set[str]:
    return {atom.host for atom, _ in atoms_of(found) if atom.host}


# -- a host put aside after the order --------------------------------------------------------------------------------

AFTER_COMMA = "Looking back, my habit would be this: restore each compromised user box, User3 excepted."


def test_a_host_excepted_after_a_comma_is_an_exception():
    assert read_wording(AFTER_COMMA).excepted == ("User3",)
    assert "User3" not in _hosts(rule_claims(AFTER_COMMA, with_instruction=True))


def test_the_predicate_that_leaves_the_excepted_host_out_passes():
    when = {"any": [{"host": h, "compromise": "User"} for h in ("User0", "User1", "User2", "User4")]}
    assert text_problem(AFTER_COMMA, when, {"mode": "do", "verb": "Restore", "target": "$matched"}) is None


def test_a_host_excluded_in_brackets_is_an_exception():
    text = "Analyse every enterprise box that gets scanned (Enterprise2 excluded)."
    assert read_wording(text).excepted == ("Enterprise2",)


def test_a_sentence_that_only_denies_a_host_excepts_it_from_a_range():
    text = "E0-E2 rooted -> plan a Remove on that box. Not E1 though, it carries our decoys."
    assert read_wording(text).excepted == ("Enterprise1",)
    assert _hosts(rule_claims(text, with_instruction=True)) == {"Enterprise0", "Enterprise2"}


def test_guard_a_host_that_heads_the_rule_is_no_exception():
    # guard: "Not User2:" before the order is what the rule is about (read so before the round too)
    assert read_wording("Not User2: restore it only once it is rooted.").excepted == ()


# -- a level by its bare name after the verb that reads the table -----------------------------------------------------

def test_a_row_that_reads_user_is_at_user_level():
    found = rule_claims("Op_Server0 row reads User -> recommend Remove; a Restore is overkill there", with_instruction=True)
    assert [(a.host, a.compromise) for a, _ in atoms_of(found)] == [("Op_Server0", "User")]


def test_a_row_that_says_unknown_is_unknown():
    found = rule_claims("Enterprise1 row says Unknown -> Analyse it", with_instruction=True)
    assert [(a.host, a.compromise) for a, _ in atoms_of(found)] == [("Enterprise1", "Unknown")]


def test_guard_user_activity_is_no_level():
    # guard: "shows user activity" names activity, no compromise level (read so before the round too)
    found = rule_claims("If Defender shows user activity, Analyse it", with_instruction=True)
    assert all(atom.compromise is None for atom, _ in atoms_of(found))


# -- a state since the defender's own move, before the order -----------------------------------------------------------

SINCE_MOVE = "Ent1 still compromised after we restored it -> Remove Ent1 now, no third Restore."


def test_a_state_since_our_move_is_the_situation_not_a_story():
    assert read_wording(SINCE_MOVE).situation.startswith("Ent1 still compromised")


def test_a_refused_rule_kept_semantic_is_held_to_the_move_it_names():
    found = semantic_claims(SINCE_MOVE, "predicate refused: prohibition: the text forbids Restore")
    assert [(a.host, a.acted) for a, _ in atoms_of(found)] == [("Enterprise1", "Restore")]


def test_guard_what_happened_after_our_move_is_still_a_story():
    # guard: "after we removed User1 it came right back" tells what happened (read so before the round too)
    assert read_wording("After we removed User1 it came right back: never remove User1 again.").situation == ""


# -- the two harms left on blind-29 are label errors: these guards pin the product's side ---------------------------------

def _holds(text: str, reason: str, context: str):
    from forge.rulebook.language.predicate import truth
    from forge.rulebook.language.situation import read_situation

    return truth(semantic_claims(text, reason), read_situation(context))


def test_guard_a_restore_order_on_a_host_at_user_or_root_holds_at_user():
    # guard (a label error, not a reading to narrow): "user-level or rooted" holds where the row says Compromised User
    text = "Op_Server0 keeps the plant running. Whenever that server is user-level or rooted, Restore it first."
    context = "Op_Server0: Activity None, Compromised User\nUser1: Activity Scan, Compromised No"
    assert _holds(text, "predicate refused: host: the text means by 'it' Op_Server0", context) is True


def test_guard_no_decoy_while_only_scanned_holds_on_a_scan_alone():
    # guard (a label error, not a reading to narrow): "as long as it is merely scanned" holds on Activity Scan, Compromised No
    text = "Never put a decoy on Enterprise1 as long as it is merely being scanned."
    context = "Enterprise1: Activity Scan, Compromised No\nUser3: Activity None, Compromised Unknown"
    assert _holds(text, "predicate refused: negation: the condition is negated or restricted", context) is True
