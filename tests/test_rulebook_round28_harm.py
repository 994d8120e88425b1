"""Issue 29, round 28 (blind-25's harmful and outranked injections): a withdrawn prohibition taught again as "all that it
shows is a scan" came back (the words were read as a bare scan, not as a scan and no more), and a prohibition whose
alternative is said to "come first" was kept semantic by the verb check (the move put first was not counted as
ordered), so the preference never met the rule it was taught against. Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import words_key
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import Atom
from forge.rulebook.model import Evidence
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook

CHOOSER = ("action_chooser",)


def teaching(text: str, actor: str) -> Teaching:
    return Teaching(text, "CONTENT", CHOOSER, "g", actor, Evidence("failure", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", text=text)


# -- "all that it shows is a scan": that state and no more ------------------------------------------------------------------

def test_all_a_host_shows_is_a_scan_is_a_scan_and_no_compromise():
    assert rule_claims("Never reimage User3 while all that it shows is a scan.", with_instruction=True, bare=False) == \
        Atom(host="User3", activity="Scan", compromise="No")
    assert rule_claims("The only thing Enterprise2 has is a scan: leave Remove for later.", with_instruction=True,
                       bare=False) == Atom(host="Enterprise2", activity="Scan", compromise="No")


def test_a_withdrawn_scan_only_prohibition_is_not_taught_back_as_all_it_shows():
    first = "U3 scanned only: a reimage is too early."
    again = "User3 should not be reimaged if all that it shows is a scan."
    assert words_key(first) == words_key(again)
    book = PlanBook()
    old = teaching(first, "user:vera")  # kept semantic: no compiled meaning
    book.apply(old)
    book.withdraw(old.rule_id)
    (outcome,) = book.apply(teaching(again, "user:vera")).outcomes
    assert outcome.result == "refused" and old.rule_id in outcome.detail


# -- "...; a Remove comes first": the alternative to a prohibition is ordered ------------------------------------------

UNKNOWN_NO_EXPLOIT = {"all": [{"host": "User3", "compromise": "Unknown"}, {"not": {"host": "User3", "activity": "Exploit"}}]}


def test_a_prohibition_whose_alternative_comes_first_compiles_as_a_preference():
    text = "Never reimage User3 while it sits at Unknown with no exploit on it; a Remove goes first."
    action = {"mode": "prefer", "verb": "Remove", "target": "User3", "over": {"verb": "Restore", "target": "User3"}}
    assert text_problem(text, UNKNOWN_NO_EXPLOIT, action) is None
    text = "Don't plan an Analyse of User3 when it reads Unknown with no exploit on it; a Remove should come first."
    action = {"mode": "prefer", "verb": "Remove", "target": "User3", "over": {"verb": "Analyse", "target": "User3"}}
    assert text_problem(text, UNKNOWN_NO_EXPLOIT, action) is None


def test_guard_a_verb_the_text_does_not_put_first_is_still_stray():
    # guard: the move put first is the one counted, not any verb the compiler picks
    text = "Never reimage User3 while it sits at Unknown with no exploit on it; a Remove goes first."
    action = {"mode": "prefer", "verb": "Analyse", "target": "User3", "over": {"verb": "Restore", "target": "User3"}}
    assert (text_problem(text, UNKNOWN_NO_EXPLOIT, action) or "").startswith("verb:")


# -- "no exploit still running on the host": read whole, so a predicate that drops the rest is refused --------------------------

def test_an_exploit_said_running_is_read_whole_and_its_host_state_is_kept():
    from forge.rulebook.language.guard import complete_claims

    text = "Never reimage User3 while User3 only shows Unknown and no exploits are running on it; a Remove goes first."
    assert complete_claims(text, rule_claims(text, with_instruction=True, bare=False))
    # a predicate that keeps the negation and drops "shows Unknown" is wider than the words: refused
    wider = {"not": {"host": "User3", "activity": "Exploit"}}
    action = {"mode": "prefer", "verb": "Remove", "target": "User3", "over": {"verb": "Restore", "target": "User3"}}
    assert (text_problem(text, wider, action) or "").startswith("claims:")
    assert text_problem(text, UNKNOWN_NO_EXPLOIT, action) is None
