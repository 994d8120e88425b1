"""Issue 29, round 43 (r43h: harm on blind-40, each class a reading the rule's own words already gave).
- a window of steps whose bound is a number in words ("from turn fifteen on", "before step twenty-two") was no window:
  the rule fired at any step (`episode._AT`, `count_of`);
- "but" after a word of every host ("each op box but Op_Host1", "all of them but User3") was no exception: the rule
  fired where the excepted host alone was in the state it asks (`instruction.EXCEPTED_ALONE`); and a relative clause
  after such an exception ("every user box but User0 that is rooted") was read of the excepted host, not of the class's
  other hosts (`forms._EXCEPT_BEFORE_WHICH`, r43m's reading kept at the merge);
- "outside the <class> subnet ..., except <Host>" was read as a state of that very class: the host the text excepts
  kept the denial of membership unread (`scope._HOSTS_EXCEPTED` in `_outside_denied`, r43m's kept at the merge);
- a hurried note's misspelt verb or state word ("remvoe", "exploted", "Privelaged") left its condition without its
  state: the rule fired on a quiet row of the host it names (`spelling.misspellings_mended` in `forms.written_out`).
- an opening that revises the teacher's earlier note on some hosts ("forget my previous rule about <A> and <B>:") was
  dropped with its hosts, so "both" in the order spoke of no host and the compiled predicate was held to nothing
  (`instruction._earlier_note_hosts`);
- evidence glossed before the order ("<a file> in the evidence means <verdict>, so <order>") lost its condition, and a
  file named in quotes ("a file called '<x>.sh'") was not read as a listed file (`instruction._glossed_state`,
  `judged._EVIDENCE_READINGS`, `condition._EVIDENCE_FRAME`);
- a note that takes part of its condition from another it points to ("ditto the <host> note, but for <host>", "my spin
  on <someone>'s note: the same <Verb>, but only while ...") was judged by its own words alone (`order.condition_elsewhere`
  in `condition.semantic_claims`; checks `reference`: a predicate of the added part alone is refused).
Each test fails on the product files of aa754d5 (checked: this file run in a `git archive aa754d5` tree), but the guards
(what the change must keep), which pass there unless they call a function new in this round. Sentences of our own, none
from a case file."""

from __future__ import annotations

import pytest

from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.episode import EpisodeStep, step_windows
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording
from tests.situations import every_host_alert_lines, refused_rule_holds

REFUSED = "predicate refused: host: the check's reason"


# -- a window of steps said in words ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, window", [
    ("From turn fifteen on, put a decoy on Enterprise1 if a scan shows there.", EpisodeStep(15)),
    ("After step twelve, restore Op_Server0 whenever it is rooted.", EpisodeStep(13)),
    ("Before step twenty-two, never remove User2.", EpisodeStep(None, 21)),
    ("Step thirty or later: analyse every host at Unknown.", EpisodeStep(30)),
])
def test_a_step_said_in_words_bounds_the_window(text, window):
    assert step_windows(text) == (window,)


def test_a_compound_number_is_not_a_range():
    # "twenty-two" is one step, not the steps twenty to two
    assert step_windows("until step twenty-two") == (EpisodeStep(None, 21),)


def test_guard_digits_and_ranges_read_as_before():
    assert step_windows("steps 4-9") == (EpisodeStep(4, 9),)
    assert step_windows("from step 20 onward") == (EpisodeStep(20),)
    assert step_windows("I did it at step one hundred") == ()


def test_a_window_in_words_keeps_the_rule_silent_before_it():
    text = "From turn sixteen onwards, Op_Server0 is to be restored once compromised."
    found = semantic_claims(text, REFUSED, text)
    early = f"Step 9 of 30.\n{every_host_alert_lines(Op_Server0='None/User')}"
    late = f"Step 20 of 30.\n{every_host_alert_lines(Op_Server0='None/User')}"
    assert truth(found, read_situation(early)) is False
    assert truth(found, read_situation(late)) is True


# -- "but" after a word of every host -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, host", [
    ("Reimage each op box that is rooted, all of them but Op_Host1.", "Op_Host1"),
    ("Remove every enterprise server but Enterprise2 once it shows an exploit.", "Enterprise2"),
    ("Analyse all but User3 when they read Unknown.", "User3"),
])
def test_but_after_every_host_excepts_the_host(text, host):
    assert read_wording(text).excepted == (host,)


def test_the_excepted_host_alone_does_not_make_the_rule_apply():
    text = "Reimage each user box at root level, all of them but User3."
    assert refused_rule_holds(text, every_host_alert_lines(User3="None/Privileged")) is False
    assert refused_rule_holds(text, every_host_alert_lines(User1="None/Privileged")) is True


def test_guard_but_joining_two_orders_excepts_nothing():
    assert read_wording("Restore every rooted server, but Enterprise0 gets a Remove first.").excepted == ()


def test_a_clause_after_the_exception_is_said_of_the_other_hosts():
    text = "When Op_Server0 shows a scan, remove every user box but User0 that is rooted."
    assert refused_rule_holds(text, every_host_alert_lines(Op_Server0="Scan/No", User0="None/Privileged")) is False
    assert refused_rule_holds(text, every_host_alert_lines(Op_Server0="Scan/No", User4="None/Privileged")) is True


# -- outside a subnet, with a host excepted -----------------------------------------------------------------------------

def test_outside_a_subnet_with_an_exception_is_the_other_classes():
    text = "Any box outside the enterprise subnet with a live exploit, except User1, should be removed."
    assert refused_rule_holds(text, every_host_alert_lines(Enterprise2="Exploit/User")) is False
    assert refused_rule_holds(text, every_host_alert_lines(User1="Exploit/User")) is False
    assert refused_rule_holds(text, every_host_alert_lines(User3="Exploit/User")) is True
    assert refused_rule_holds(text, every_host_alert_lines(Op_Host2="Exploit/User")) is True


# -- a hurried note's misspellings ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("typed, meant", [
    ("ent1 exploted so remvoe it", "ent1 exploited so remove it"),
    ("Restor U2 once it is Privelaged", "Restore U2 once it is Privileged"),
    ("op srv scaned: analize it", "op srv scanned: analyze it"),
])
def test_misspelt_words_of_the_rule_language_are_mended(typed, meant):
    from forge.rulebook.language.spelling import misspellings_mended  # (new in r43h)
    assert misspellings_mended(typed) == meant


@pytest.mark.parametrize("text", [
    "the remote port seen by the analyst",
    "a scanner spanned the subnet, as explained",
    "exploration of the exceptions",
])
def test_guard_english_words_near_them_are_left_alone(text):
    from forge.rulebook.language.spelling import misspellings_mended  # (new in r43h)
    assert misspellings_mended(text) == text


def test_a_misspelt_state_keeps_its_condition():
    text = "usr2 exploted -> remvoe it, no need to wait"
    assert refused_rule_holds(text, every_host_alert_lines(User2="None/User")) is False
    assert refused_rule_holds(text, every_host_alert_lines(User2="Scan/No")) is False
    assert refused_rule_holds(text, every_host_alert_lines(User2="Exploit/User")) is True


# -- a revision that names the hosts of the earlier note ----------------------------------------------------------------

def test_the_hosts_a_revision_names_are_what_both_speaks_of():
    text = "forget my previous rule about E0 and E1: once both are owned, Restore them, no Remove"
    assert set(read_wording(text).hosts) == {"Enterprise0", "Enterprise1"}
    # owned is not the row a Remove leaves (Unknown): both must be shown at a level
    assert refused_rule_holds(text, every_host_alert_lines(Enterprise0="None/User", Enterprise1="None/Unknown")) is False
    assert refused_rule_holds(text, every_host_alert_lines(Enterprise0="None/User", Enterprise1="None/Privileged")) is True


# -- the evidence glossed before the order -------------------------------------------------------------------------------

def test_a_file_named_in_quotes_is_what_the_evidence_lists():
    from forge.rulebook.language.judged import evidence_tests
    found = evidence_tests("a file called 'drop.sh' or 'drop.exe' in its evidence")
    assert [(t.kind, t.word) for t in found] == [("file", "drop.sh|drop.exe")]


def test_evidence_glossed_before_so_is_the_condition():
    text = "Takeaway: for the box being analysed, a file called 'drop.sh' in the evidence means a root foothold, so recommend a Restore."
    words = read_wording(text)
    assert "drop.sh" in words.situation and words.gives_order
    assert semantic_claims(text, "the compiler gave no predicate", text) is not None


# -- a note that takes part of its condition from another ----------------------------------------------------------------

@pytest.mark.parametrize("text, elsewhere", [
    ("ditto the Op_Host1 note, but for Op_Host2", True),
    ("Same as the restore note above, but Enterprise1 gets a Remove instead, unless User0 is rooted.", True),
    ("My spin on Kim's user-box note: the same Remove, but only while Op_Server0 is quiet.", True),
    ("U4: same as the U1 remove note, i.e. exploited -> Remove U4.", False),  # guard: it says its own condition
    ("I like that rule, but remove User3 first.", False),  # guard: no note pointed to
])
def test_a_note_that_points_to_another_for_its_condition(text, elsewhere):
    from forge.rulebook.language.order import condition_elsewhere
    assert condition_elsewhere(text) is elsewhere


def test_a_semantic_note_pointing_elsewhere_stays_silent():
    text = "ditto the Op_Host1 note, but for Op_Host2"
    assert refused_rule_holds(text, every_host_alert_lines(Op_Host2="Exploit/User")) is False  # never true: the other note's condition is not here
    assert refused_rule_holds(text, every_host_alert_lines()) is False


def test_a_predicate_of_the_added_part_alone_is_refused():
    from forge.rulebook.authoring.checks import text_problem
    text = "My spin on Kim's user-box note: the same Remove, but only while Op_Server0 is quiet."
    action = {"mode": "do", "verb": "Remove", "target": "User2"}
    own = {"host": "Op_Server0", "activity": "None", "compromise": "No"}
    assert (text_problem(text, own, action) or "").startswith("reference:")
    both = {"all": [{"host": "User2", "compromise": "any"}, own]}
    assert not (text_problem(text, both, action) or "").startswith("reference:")  # guard: the other note's part is in it
