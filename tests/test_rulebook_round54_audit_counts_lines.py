"""Round 54 (r54a): an audit of r54h's readers at their edges, with sentences of our own.

- a count over named hosts (claims._ONE_OF_NAMED, read since r54h above one and with "are" / verbless states) is read
  with the words that bound it: "no more than two of", "fewer than two of", "more than two of", "one or two of", "every
  one of" (claims.count_bounded); read as the count alone, the rule held where the bound excludes (two or three hosts
  for "no more than two", any one for "every one of"); words it cannot tell ("all but one of") leave the count unread;
  "any 2 of" two hosts is both of them, never either (it fell to the reading of the slash); "precisely" is "exactly";
  the counted state ends where another subject's clause begins ("... are held and Enterprise1 is scanned"); and a count
  whose state it does not read ("2 of E0/E1/E2 hit") leaves its words unplaced (claims.counts_of_named_placed);
- a pointer back at a quoted table line (forms.line_referred_back) that keeps the line out ("every step, except on that
  row"), that is said of another host ("such a line on Enterprise2") or that could point at either of two quoted lines
  is no condition of that line (forms.line_pointer_unclear): read as the line, the rule held on the one row its words
  except, or on a row it was not written for.
Each test fails on dd5adf5 and passes on r54a."""

from __future__ import annotations

from itertools import combinations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import text_claims
from forge.rulebook.language.predicate import truth
from tests.situations import every_host_alert_lines, refused_rule_holds_on
from forge.rulebook.language.situation import read_situation


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def _holds(text, **states):
    found, _ = text_claims(text)
    return None if found is None else truth(found, read_situation(every_host_alert_lines(**states)))


def _pairs(hosts, state="any"):
    return {"any": [{"all": [{"host": a, "compromise": state}, {"host": b, "compromise": state}]} for a, b in combinations(hosts, 2)]}


# -- a count over named hosts, with the words that bound it -----------------------------------------------------------

def test_no_more_than_two_never_holds_where_three_are_held():
    text = "Once no more than two of Op_Host0, Op_Host1 and Op_Host2 are compromised, Analyse Op_Host0."
    assert _holds(text, Op_Host0="None/User", Op_Host1="None/User", Op_Host2="None/Privileged") is not True
    assert _holds(text, Op_Host0="None/User") is True


def test_fewer_than_two_never_holds_where_two_are_held():
    text = "While fewer than two of Enterprise0, Enterprise1 and Enterprise2 are owned, keep Analysing Enterprise0."
    assert _holds(text, Enterprise0="None/User", Enterprise1="None/Privileged") is not True


def test_more_than_two_is_three_at_least():
    text = "If more than two of User1, User2, User3 and User4 are compromised, Restore User1."
    assert _holds(text, User1="None/User", User2="None/User") is not True
    assert text_problem(text, _pairs(["User1", "User2", "User3", "User4"]), _do("Restore", "User1")) is not None


def test_every_one_of_the_named_hosts_is_all_of_them():
    text = "Once every one of User2 / User3 / User4 is owned, plan a Restore of User2."
    assert _holds(text, User3="None/User") is not True
    assert text_problem(text, {"any": [{"host": h, "compromise": "any"} for h in ("User2", "User3", "User4")]},
                        _do("Restore", "User2")) is not None


def test_any_two_of_two_hosts_is_both():
    text = "any 2 of Op_Host1 / Op_Host2 rooted -> Restore Op_Host1"
    assert _holds(text, Op_Host2="None/Privileged") is not True
    assert _holds(text, Op_Host1="None/Privileged", Op_Host2="None/Privileged") is True
    # (the plain count, and one after "and", stay read as before)
    plain = "If at least two of Op_Host0, Op_Host1 and Op_Host2 are compromised, plan a Restore of Op_Host0."
    assert _holds(plain, Op_Host1="None/User") is not True and _holds(plain, Op_Host0="None/User", Op_Host2="None/User") is True
    after = "When Enterprise2 is owned and two of User1, User2, User3 are compromised, Restore Enterprise2."
    assert _holds(after, Enterprise2="None/User", User1="None/User") is not True
    assert _holds(after, Enterprise2="None/User", User1="None/User", User3="None/User") is True


def test_a_bound_it_cannot_tell_leaves_the_count_unread():
    text = "When all but one of User1, User2 and User3 are compromised, Remove User1."
    assert _holds(text, User2="None/User") is not True


def test_the_counted_state_ends_where_another_subject_begins():
    text = "If at least two of Op_Host0, Op_Host1 and Op_Host2 are held and Enterprise1 is scanned, Restore Op_Host0."
    # (Enterprise1's scan is the rule's condition too, never the counted hosts')
    assert _holds(text, Op_Host0="Scan/User", Op_Host1="Scan/User") is not True
    assert _holds(text, Op_Host0="None/User", Op_Host1="None/User", Enterprise1="Scan/No") is True


def test_precisely_two_of_is_exactly_two():
    text = "When precisely two of Enterprise0, Enterprise1 and Enterprise2 are held, Analyse Enterprise0."
    assert _holds(text, Enterprise0="None/User", Enterprise1="None/User", Enterprise2="None/User") is not True
    assert _holds(text, Enterprise0="None/User", Enterprise1="None/User") is True


def test_a_count_whose_state_is_not_read_leaves_its_words_unplaced():
    # ("hit" is no state the count reads: its "2 of" was taken as placed, and the slash read alone said any one of them)
    text = "once 2 of E0/E1/E2 hit -> Restore E0"
    assert text_claims(text)[1] is False
    assert refused_rule_holds_on(text, Enterprise1="None/User") is not True


# -- a pointer back at a quoted line ------------------------------------------------------------------------------------

_KEPT_OUT = "Early on the table showed 'User3: Activity Scan, Compromised No' for a while. Analyse User3 each step, except on that row."
_TWO_LINES = ("We saw 'Op_Host2: Activity Scan, Compromised No' at step 4 and 'Op_Host2: Activity Exploit, Compromised User' "
              "at step 11. When that row comes back, Remove Op_Host2.")


def test_a_line_the_pointer_keeps_out_is_no_condition_of_it():
    assert refused_rule_holds_on(_KEPT_OUT, User3="Scan/No") is not True
    assert text_problem(_KEPT_OUT, {"host": "User3", "activity": "Scan", "compromise": "No"}, _do("Analyse", "User3")) is not None


def test_a_pointer_at_one_of_two_quoted_lines_is_not_either():
    assert refused_rule_holds_on(_TWO_LINES, Op_Host2="Scan/No") is not True
    assert text_problem(_TWO_LINES, {"host": "Op_Host2", "activity": "Scan", "compromise": "No"}, _do("Remove", "Op_Host2")) is not None


def test_a_line_of_that_kind_on_another_host_is_not_the_quoted_line():
    text = ("A row such as 'Op_Host1: Activity Scan, Compromised No' means little by itself. "
            "When such a line appears on Enterprise2, Analyse Enterprise2.")
    assert refused_rule_holds_on(text, Op_Host1="Scan/No") is not True
    assert text_problem(text, {"host": "Op_Host1", "activity": "Scan", "compromise": "No"}, _do("Analyse", "Enterprise2")) is not None
