"""Issue 29, round 39 (r39g): misses where a rule listing its cases, or guarded by what the step's analyses report, was
read as saying less than it does.

- A list of cases, one a line ("- <row>: <move>"), closed by a line that gives any other row nothing: each item is its
  own clause, and a row's quiet value ("Compromised No") negates nothing; read as one clause, the closing "nothing"
  (or the row's "No") doubted the listed order and the rule was kept semantic.
- An unexpressed rest that lists the other cases under one label ("other cases: <case> -> <move>; <case> -> <move>"):
  another branch's moves, never a guard (only the first part was seen as labelled, and the rule was silent).
- A rest that says only what the step's analyses report of the host the predicate matches (a reverse shell they show
  on it, the risk they rate it at): judged.py judges it of that host; its rating words need no alert priority, and the analyses as the rater make the rating a condition, not a
  verdict (read before as a rest nothing could place: the rule was silent).

Sentences of our own, none from a case file. Each test fails on the readers at 124c7ff (checked with the product
change stashed: `git stash` of forge/, then pytest on this file).
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import facts_unread
from forge.rulebook.language.guard import guard_claims, guard_rest
from forge.rulebook.language.judged import evidence_tests, judged_in
from forge.rulebook.language.predicate import parse_predicate
from forge.rulebook.language.situation import read_situation

LISTED = ("Planner, per host row, what to plan:\n"
          "- Activity Scan, Compromised No: a DecoyApache on it\n"
          "- Compromised Privileged: a Restore\n"
          "Any row not on this list gets nothing from me.")


def _analysed(host: str, row: str, evidence: str, risk: str) -> str:
    activity, compromise = row.split("/")
    return (f"Alerts:\n{host}: Activity {activity}, Compromised {compromise}\n\nAnalyses this step:\nHost: {host}\n"
            f"Activity: {activity}\nCompromise: {compromise}\nEvidence: {evidence}\nRisk: {risk}\n")


def test_a_listed_case_with_its_order_is_not_doubted_by_the_closing_line():
    when = {"activity": "Scan", "compromise": "No"}
    action = {"mode": "do", "verb": "DecoyApache", "target": "$matched"}
    problem = text_problem(LISTED, when, action, "other cases: Privileged -> Restore")
    assert problem is None or not problem.startswith("polarity"), problem


def test_a_real_doubt_in_the_listed_case_still_refuses():
    text = LISTED.replace("a DecoyApache on it", "no DecoyApache on it, I'm unsure")
    when = {"activity": "Scan", "compromise": "No"}
    action = {"mode": "do", "verb": "DecoyApache", "target": "$matched"}
    assert text_problem(text, when, action, "") is not None


def test_other_cases_listed_under_one_label_never_guard():
    when = parse_predicate({"activity": "Scan", "compromise": "No"})
    assert guard_rest("other cases: Privileged -> Restore; Unknown -> Analyse", when) == ""
    # a part that is no case and move is still a condition
    assert guard_rest("other cases: Privileged -> Restore; only after step 10", when) != ""


def test_a_rest_of_what_the_analyses_show_on_that_host_is_judged_of_it():
    when = parse_predicate({"class": "Enterprise"})
    rest = "the current analyses show a reverse shell connection on the host"
    assert guard_rest(rest, when) == rest
    assert guard_claims(rest, when) is None  # nothing for the claims: judged.py's test guards
    tests = judged_in(rest, of=when)
    shell = "socket 10.0.9.9 -> remote port 4444 opened by a shell"
    quiet = "socket 10.0.9.9 -> web port, nothing odd"
    assert [t.value(c, read_situation(c)) for t in tests for c in (
        _analysed("Enterprise1", "None/User", shell, "high"), _analysed("Enterprise1", "None/User", quiet, "low"))] \
        == [True, False]


def test_a_rest_that_also_names_another_state_is_not_evidence_alone():
    when = parse_predicate({"class": "Enterprise"})
    rest = "the current analyses show a reverse shell connection on the host while Op_Server0 is clean"
    assert guard_claims(rest, when) is not None


def test_a_rating_by_the_analyses_is_a_condition_and_needs_no_priority():
    rest = "the step's analyses rate the box low risk"
    found = evidence_tests(rest)
    assert [(t.kind, t.word) for t in found] == [("risk", "low")]
    assert "priority" not in facts_unread(rest)
    # the rule's own verdict stays unread: "rate it low risk" is what the order says, not when
    assert not evidence_tests("rate it low risk")


# -- a window of steps, "already" with a state, a general rule beside two exceptions -----------------------------------

def test_a_range_of_steps_of_the_episode_is_read_whole():
    from forge.rulebook.language.episode import EpisodeStep, step_windows, without_episode_claims

    text = "turns 3-7 of the game"
    assert step_windows(text) == (EpisodeStep(3, 7),)
    assert not without_episode_claims(text).strip()


def test_already_with_a_verb_of_the_row_is_a_state_now_not_history():
    from forge.rulebook.language.facts import facts_needed

    assert "history" not in facts_needed("op servers that already read Privileged")
    assert "history" not in facts_needed("a user box that already shows Compromised User")
    # guard: "already" of a move is still the defender's history
    assert "history" in facts_needed("a host we already removed")


def test_a_general_rule_speaks_for_hosts_neither_exception_disputes():
    from forge.rulebook.language.meaning import meaning_of, undisputed_hosts
    from forge.rulebook.retrieval.resolve import resolve_conflicts, eligible_rules
    from tests.plan_book import PlanBook
    from tests.test_rulebook_round33_misses import _taught
    from tests.actions import do, prefer

    broad = _taught("Any op host compromised: Restore it.", {"class": "Operational", "compromise": "any"},
                    do("Restore", "$matched"))
    first = _taught("Op_Host0 compromised: a Remove, not a Restore.", {"host": "Op_Host0", "compromise": "any"},
                    prefer("Remove", "Restore", "Op_Host0"))
    second = _taught("Op_Host2 at user level: prefer Remove over Restore there.", {"host": "Op_Host2", "compromise": "User"},
                     prefer("Remove", "Restore", "Op_Host2"))
    book = PlanBook()
    for teaching in (broad, first, second):
        book.apply(teaching)
    ids = [book.of(t.directive).rule_id for t in (broad, first, second)]

    def kept_on(states: dict[str, str]) -> set[str]:
        situation = _table_situation(states)

        def undisputed(rid, others):
            return bool(undisputed_hosts(meaning_of(book.records[rid]), [meaning_of(book.records[o]) for o in others],
                                         situation))
        kept, _ = resolve_conflicts(ids, book.records, eligible_rules(book.records), None, undisputed=undisputed)
        return set(kept)

    # a third op host owned: the general rule still speaks for it, beside both exceptions
    assert kept_on({"Op_Host0": "User", "Op_Host1": "User", "Op_Host2": "User"}) == set(ids)
    # guard: only the excepted hosts owned, the general rule has nothing left to say
    assert kept_on({"Op_Host0": "User", "Op_Host2": "User"}) == set(ids[1:])


def _table_situation(compromised: dict[str, str]):
    rows = "\n".join(f"{h}: Activity None, Compromised {c}" for h, c in compromised.items())
    return read_situation("Alerts:\n" + rows)


# -- a rating in the rule's own words, cases listed one a sentence ----------------------------------------------------

def test_the_rating_in_the_rules_own_words_needs_no_alert_priority():
    from forge.rulebook.language.condition import text_facts

    text = "When the analyses give a box a low risk rating and its row reads User, choose Remove for that box."
    assert "priority" not in text_facts(text)
    # guard: an alert priority the product does not read is still a kind of fact the rule needs
    assert "priority" in text_facts("When an alert on a box is at critical priority, choose Remove for that box.")


def test_a_rating_of_the_named_host_is_no_bare_condition():
    text = "U1 rated high by the analyst -> pick a Restore of U1."
    assert text_problem(text, {"host": "User1"}, {"mode": "do", "verb": "Restore", "target": "User1"}) is None
    # guard: a state said of the named host, dropped, is still bare
    assert text_problem("U1 rooted -> pick a Restore of U1.", {"host": "User1"},
                        {"mode": "do", "verb": "Restore", "target": "User1"}) is not None


def test_cases_listed_one_a_sentence_are_each_the_rules_condition():
    from forge.rulebook.language.condition import text_claims
    from forge.rulebook.language.predicate import truth

    text = "U2 (from the morning note): scan seen, nothing else -> plan a DecoyApache on U2. exploit under way -> plan Remove U2."
    found, whole = text_claims(text)
    assert not whole

    def on(state: str):
        activity, compromise = state.split("/")
        return read_situation(f"Alerts:\nUser2: Activity {activity}, Compromised {compromise}")
    assert truth(found, on("Scan/No")) is True
    assert truth(found, on("Exploit/User")) is True
    assert truth(found, on("None/No")) is False
