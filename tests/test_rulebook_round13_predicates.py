"""Issue 29, thirteenth round: compiled predicates injected where their own words say they do not apply, and a rule
injected although another teacher's rule outranks it. Each class on sentences written for these tests.

- A doubt about a move ("I can't be sure a Restore would have held", "I'm not certain the Analyse told us anything")
  was read as a prohibition (or a dispreference) of that verb: the checks then refused the rule's faithful predicate
  (a prohibition compiled as a "do"), and the rule, kept semantic with no words-meaning, was no party to the dispute
  another teacher's rule was in.
- Where the product reads only part of a rule's condition, what that part says is shown was not said for sure: "while
  Enterprise0 is compromised" was met by its row at Compromised Unknown.
- "it" in a condition that follows the order, in a sentence naming several hosts ("as long as Enterprise1 is clean,
  Remove User2 the moment it shows an Exploit") was left unresolved, so the gate held the predicate only to the
  first condition.
- A negated state after a comma ("User3 scanned, not exploited yet") was read as the whole condition, dropping the
  state before it; "&" was not read as "and" ("scanned & nothing compromised anywhere" became the host's own state).
- A piece of a condition that speaks of a state and that the reading places nowhere ("Exploit spotted, nothing
  compromised yet": read as "no host shows an exploit and a compromise") was taken for the whole condition.
"""

from __future__ import annotations

from forge.rulebook.language.condition import text_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording
from tests.test_rulebook_claims_scope import taught
from tests.test_rulebook_text_checks import entry, reply
from tests.actions import do
def _on(rows: str):
    return read_situation("Alerts:\n" + rows)


# -- a doubt about a move is no prohibition of it ----------------------------------------------------------------------

DOUBT = ("I can't be sure a Remove would have held. When Enterprise2 shows Exploit activity, Remove Enterprise2 "
         "rather than Restore it.")


def test_a_doubt_about_a_move_is_no_prohibition_of_it() -> None:
    words = read_wording(DOUBT)
    assert not words.prohibitions
    assert words.dispreferred == ("Restore",)
    unsure = read_wording("I'm not certain the Analyse told us anything, but when User3 is scanned, Analyse User3.")
    assert not unsure.prohibitions and not unsure.dispreferred
    assert read_wording("Never restore User1.").prohibitions  # a prohibition is still one


def test_a_rule_that_doubts_a_move_keeps_its_faithful_predicate(tmp_path) -> None:
    """The checks refused the faithful predicate ("the text forbids Remove but the action orders Remove", where the text
    only doubted it)."""
    prefer = {"mode": "prefer", "verb": "Remove", "target": "Enterprise2", "over": {"verb": "Restore", "target": "Enterprise2"}}
    faithful = reply(entry({"host": "Enterprise2", "activity": "Exploit"}, prefer))
    record, injected = taught(tmp_path, DOUBT, faithful, faithful)
    assert record.when is not None, record.semantic_reason
    assert injected("Enterprise2: Activity Exploit, Compromised User")
    assert not injected("Enterprise2: Activity Scan, Compromised No")


# -- a partial reading: what it says is shown is said for sure ---------------------------------------------------------

# The story's "the moment the workstation fell" is a condition the lesson does not hold: the reading is not whole.
PARTIAL = ("User2 was exploited at step 6 while I was still busy with Enterprise0; I thought the server mattered more. But "
           "the score dropped the moment the workstation fell. If User2 shows an Exploit while Enterprise0 is compromised, "
           "Restore User2 rather than Remove anything on Enterprise0.")


def test_a_partial_reading_is_not_met_by_an_unknown_row(tmp_path) -> None:
    assert text_claims(PARTIAL)[1] is False
    prefer = {"mode": "prefer", "verb": "Restore", "target": "User2", "over": {"verb": "Remove", "target": "Enterprise0"}}
    when = {"all": [{"host": "User2", "activity": "Exploit"}, {"host": "Enterprise0", "compromise": "any"}]}
    record, injected = taught(tmp_path, PARTIAL, reply(entry(when, prefer)), reply(entry(when, prefer)))
    assert record.when is not None
    assert injected("User2: Activity Exploit, Compromised User\nEnterprise0: Activity None, Compromised User")
    assert not injected("User2: Activity Exploit, Compromised User\nEnterprise0: Activity None, Compromised Unknown")


# -- "it" after the order: the host named last before it --------------------------------------------------------------

AFTER_ORDER = "As long as Enterprise1 is clean, Remove User2 the moment it shows an Exploit."


def test_it_in_a_condition_after_the_order_is_the_host_named_before_it(tmp_path) -> None:
    found, whole = text_claims(AFTER_ORDER)
    assert whole
    assert truth(found, _on("Enterprise1: Activity None, Compromised No\nUser2: Activity Exploit, Compromised User")) is True
    assert truth(found, _on("Enterprise1: Activity None, Compromised No\nUser2: Activity Scan, Compromised No")) is False
    # the compiler kept the first condition only: refused, and silent where User2 shows no exploit
    wide = reply(entry({"host": "Enterprise1", "compromise": "No"}, do("Remove", "User2")))
    record, injected = taught(tmp_path, AFTER_ORDER, wide, wide)
    assert record.when is None
    assert not injected("Enterprise1: Activity None, Compromised No\nUser2: Activity Scan, Compromised No")
    assert injected("Enterprise1: Activity None, Compromised No\nUser2: Activity Exploit, Compromised User")


# -- a negated state after a comma; "&" -------------------------------------------------------------------------------

COMMA = "User3 scanned, not exploited yet -> DecoyApache on User3."


def test_a_negated_state_after_a_comma_is_a_second_state_of_its_host(tmp_path) -> None:
    found, whole = text_claims(COMMA)
    assert whole
    assert truth(found, _on("User3: Activity Scan, Compromised No")) is True
    assert truth(found, _on("User3: Activity None, Compromised Unknown")) is False
    # the compiler kept the negation only: refused, and silent on a User3 that shows no scan
    wide = reply(entry({"not": {"host": "User3", "activity": "Exploit"}}, do("DecoyApache", "User3")))
    record, injected = taught(tmp_path, COMMA, wide, wide)
    assert record.when is None
    assert not injected("User3: Activity None, Compromised Unknown")


def test_an_ampersand_joins_two_states_like_and() -> None:
    found, whole = text_claims("Enterprise0 scanned & nothing compromised anywhere -> DecoyTomcat Enterprise0.")
    assert whole
    # (every host not shown: unknown whether nothing is compromised anywhere, never false)
    assert truth(found, _on("Enterprise0: Activity Scan, Compromised No\nUser1: Activity None, Compromised No")) is not False
    # read as Enterprise0's own state, it held where another host is compromised
    assert truth(found, _on("Enterprise0: Activity Scan, Compromised No\nUser1: Activity None, Compromised User")) is False


# -- a piece of a condition the reading places nowhere ----------------------------------------------------------------


def test_a_state_piece_the_reading_places_nowhere_leaves_it_not_whole(tmp_path) -> None:
    """"Exploit spotted, nothing compromised yet" was read as "no host shows an exploit and a compromise", whole: it
    held on a network where nothing happens at all."""
    text = "Exploit spotted, nothing compromised yet -> Analyse the exploited host."
    assert text_claims(text)[1] is False
    # the compiler kept the negation only: refused, and the claims cannot place "Exploit spotted": silent
    wide = reply(entry({"not": {"class": "any", "compromise": "any"}}, do("Analyse", "$matched")))
    record, injected = taught(tmp_path, text, wide, wide)
    assert record.when is None
    assert not injected("User1: Activity None, Compromised No\nEnterprise0: Activity None, Compromised No")


def test_the_scope_a_doubt_hands_over_to_stays_the_rules_situation() -> None:
    """Read as a doubt (no longer a prohibition), the opening "I'm not sure ..., but for Op_Host2" is the teacher's view;
    the host after its "but" is still what the order is about (dropped, the directive's "it" named no host)."""
    words = read_wording("I'm not sure Analyse is always useless elsewhere, but for Op_Host2: once it is compromised, "
                         "never Analyse it; Restore it instead.")
    assert words.situation == "for Op_Host2"
    # a view whose "but" hands over to a statement, not a scope, states no situation
    view = read_wording("I'm not sure whether that was luck, but Op_Host2 looks like the odd one: when Op_Host2 is "
                        "exploited, Analyse it rather than removing it.")
    assert "odd one" not in view.situation
