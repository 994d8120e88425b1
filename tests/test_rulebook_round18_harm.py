"""Issue 29, eighteenth round (i29t): readings that let a rule fire where its own words say it does not apply (blind15's
harms, both compilers) or refused a correct compilation (the reference compiler's misses), each class on sentences
written for these tests.

- *A class said in the shorthand of notes* ("no usr box infected + ent srvs probed"): the clause splitter knew only
  the full class words, so the two clauses were read as one, each subject given both states, and the "no" given to
  both ("no user box and no enterprise server probed"): the claims called themselves whole and the rule fired where
  an enterprise server was not probed. Now the shorthand is written in full before the clauses are split; and, as a
  safety, a clause still read as one that names two subjects joined by "and", each with a state of its own, makes the
  claims not whole (silent, never judged by a mixed reading).
- *A level put aside after the level stated* ("at user level rather than privileged", "user-level instead of root"):
  the level after "rather than" was read as the level claimed (inverted), and the reference's exact level was refused
  as leaving a negation unexpressed.
- *A scope that opens the order and states its host's state* ("for Enterprise2 at Unknown, plan a Monitor rather than
  an Analyse"): read as no condition at all, so a compiled predicate that only asked the host be shown passed every
  check and fired on any row of that host.
"""
from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.claims import claims
from forge.rulebook.language.condition import semantic_claims, text_claims
from forge.rulebook.language.predicate import Atom, truth
from forge.rulebook.language.wording import read_wording
from tests.situations import table_rows

REFUSED = "predicate refused: negation: a test's refusal"


# -- a class said in shorthand -------------------------------------------------------------------------------------------


def test_a_class_in_shorthand_splits_its_clauses() -> None:
    text = "no usr box infected + ent srvs probed -> DecoyApache on the probed ent srv"
    found, whole = text_claims(text)
    assert whole
    # nothing probed on the enterprise servers: the condition is false, however quiet the user boxes are
    assert truth(found, table_rows()) is False
    assert truth(semantic_claims(text, REFUSED), table_rows()) is False
    # an enterprise server probed and no user box infected: true
    assert truth(found, table_rows(("Enterprise1", "Scan", "No"))) is True
    # a user box infected: false
    assert truth(found, table_rows(("Enterprise1", "Scan", "No"), ("User2", "None", "User"))) is False


def test_two_subjects_each_with_its_own_state_in_one_clause_are_not_read_whole(monkeypatch) -> None:
    # the safety: a clause read as one whose two subjects each carry a state is not read whole (unresolved), while a
    # state shared by a list of subjects is
    unresolved: list = []
    claims("User3 infected and Enterprise0 probed", None, unresolved)  # (split: each clause has one subject)
    assert unresolved == []
    from forge.rulebook.language.claims import _states_apart
    assert _states_apart("no usr box infected and ent srvs probed")
    assert not _states_apart("User3 and User4 infected")
    assert not _states_apart("a user box infected")
    # with the shorthand left unread by the splitter, the clause read as one is not whole: silent, never judged by it
    import forge.rulebook.language.shorthand as shorthand
    monkeypatch.setattr(shorthand, "_CLASS_SHORTHAND", ())
    text = "no usr machines infected + entp boxes probed -> DecoySSHD on the probed entp box"
    assert text_claims(text)[1] is False
    assert truth(semantic_claims(text, REFUSED), table_rows()) is False and \
        truth(semantic_claims(text, REFUSED), table_rows(("Enterprise1", "Scan", "No"))) is False


# -- a level put aside after the level stated ----------------------------------------------------------------------------


def test_a_level_put_aside_after_the_level_stated_is_not_the_level_claimed() -> None:
    for condition in ("an enterprise box compromised at user level rather than privileged",
                      "an enterprise box with a user-level compromise instead of root"):
        found = claims(condition)
        assert isinstance(found, Atom) and found.compromise == "User", condition
        assert truth(found, table_rows(("Enterprise1", "None", "Privileged"))) is False
        assert truth(found, table_rows(("Enterprise1", "None", "User"))) is True
    # the reference's exact level is what the text says: no negation left unexpressed
    text = "Prefer an Analyse over a Restore on any enterprise server that is compromised at user level rather than privileged."
    assert text_problem(text, {"class": "Enterprise", "compromise": "User"},
                        {"mode": "prefer", "verb": "Analyse", "target": "$matched",
                         "over": {"verb": "Restore", "target": "$matched"}}) is None


# -- a scope that opens the order and states its host's state -------------------------------------------------------------


def test_a_scope_that_states_its_hosts_state_is_the_condition() -> None:
    text = ("Enterprise2 sat at Unknown after my Remove and I analysed it twice for nothing. The lesson I'd keep: for "
            "Enterprise2 at Unknown, plan a Monitor rather than an Analyse.")
    words = read_wording(text)
    assert [c.hosts for c in words.conditions] == [("Enterprise2",)]
    found, whole = text_claims(text)
    assert whole
    assert truth(found, table_rows(("Enterprise2", "None", "Unknown"))) is True
    assert truth(found, table_rows(("Enterprise2", "Exploit", "User"))) is False
    # a compiled predicate that only asks that Enterprise2 be shown says nothing of its state: refused
    assert text_problem(text, {"host": "Enterprise2"},
                        {"mode": "prefer", "verb": "Monitor", "target": "Enterprise2",
                         "over": {"verb": "Analyse", "target": "Enterprise2"}}) is not None
    assert text_problem(text, {"host": "Enterprise2", "compromise": "Unknown"},
                        {"mode": "prefer", "verb": "Monitor", "target": "Enterprise2",
                         "over": {"verb": "Analyse", "target": "Enterprise2"}}) is None


# -- the reference's misses ------------------------------------------------------------------------------------------------


def test_a_heading_class_other_than_a_host_is_what_the_prohibition_is_about() -> None:
    # "User hosts other than User4: never Remove them": the prohibition is on User0..User3, not on User4
    for text in ("User hosts other than User4 -> never Remove, even if rooted",
                 "User boxes other than User4: never Remove them, even when rooted"):
        words = read_wording(text)
        assert [(p.verb, set(p.hosts)) for p in words.prohibitions] == [("Remove", {"User0", "User1", "User2", "User3"})], text
        assert text_problem(text, {"any": [{"host": h} for h in ("User0", "User1", "User2", "User3")]},
                            {"mode": "never", "verb": "Remove", "target": "$matched"}) is None, text
    # the exception inside the order stays what the prohibition is about
    words = read_wording("Restore the enterprise hosts, except Enterprise2, which we never reimage.")
    assert [set(p.hosts) for p in words.prohibitions] == [{"Enterprise2"}]


def test_a_host_then_that_same_step_is_no_relative_clause() -> None:
    text = "When Enterprise1 shows an exploit, Remove Enterprise1 that very turn without waiting for a Monitor."
    words = read_wording(text)
    assert [c.text for c in words.conditions] == ["When Enterprise1 shows an exploit"]
    found, whole = text_claims(text)
    assert whole and truth(found, table_rows(("Enterprise1", "Exploit", "User"))) is True
    assert text_problem(text, {"host": "Enterprise1", "activity": "Exploit"},
                        {"mode": "prefer", "verb": "Remove", "target": "Enterprise1",
                         "over": {"verb": "Monitor", "target": "Enterprise1"}}) is None


def test_a_host_that_gets_a_verb_is_given_that_move() -> None:
    text = "An enterprise server that shows an exploit and nothing more gets a Remove rather than a Restore."
    words = read_wording(text)
    assert [c.text for c in words.conditions] == ["enterprise server that shows an exploit and nothing more"]
    found, whole = text_claims(text)
    assert whole
    assert truth(found, table_rows(("Enterprise0", "Exploit", "No"))) is True
    assert text_problem(text, {"class": "Enterprise", "activity": "Exploit", "compromise": "No"},
                        {"mode": "prefer", "verb": "Remove", "target": "$matched",
                         "over": {"verb": "Restore", "target": "$matched"}}) is None


def test_a_story_that_opens_with_for_or_on_is_no_scope() -> None:
    # the scope is short (a host or class, then its state) and told by no "I" or "we": a story that opens with "For" /
    # "On" gives no condition
    for text in ("For User2 and User3 both compromised I removed them one at a time: remove both in one step instead.",
                 "On User2 and User3 both rooted we removed them one at a time: remove both in one step instead."):
        words = read_wording(text)
        assert not any("removed" in c.text for c in words.conditions), text
