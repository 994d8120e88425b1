"""Issue 29, round 41 (r41h: blind-38's harmful and outranked injections). Each class a rule fired where its own words
say it does not apply, or spoke beside the rule that outranks it:
- a footnote ("... a Restore.*" and "* User3 excepted" after it) hid the exception it states: the excepted host was read
  as the condition's host (`forms.footnotes_said`);
- "not on User2" set off after the order in brackets or after a comma leaves that host out (`instruction.EXCEPTED_ALONE`);
- "a box outside the enterprise subnet that ..." in the order's own noun phrase claimed the very class it rules out, and
  the denial swept the host's state away with it (`rule_claims.rule_claims`, `scope._denial_alone_away`);
- a count said tersely with its others after a comma or in brackets ("exactly one user box owned, the others clean",
  "exactly 1 ... (others clean)") gave the others' state to the count; "exactly 1" was no count, and "others" no word the
  claims place (`claims.NEW_SUBJECT`, `_COUNT`, `_OTHER`, `_PLACED`);
- an exception that leaves none of a semantic rule's claims left it to its cosine, so it fired everywhere
  (`condition.semantic_claims`);
- "X is the exception (a long aside): ..." heading a rule about X was read as excepting X (`clauses.HEADING_ASIDE`), and
  "however many times it is hacked" was no condition (`markers.CONDITION_MARKER`, `scope.unplaced`);
- "a Restore suits it, a Remove won't shift the attacker" doubted its own order and spoke of a Remove made: the move said not to
  do the job is dispreferred, a reason and no history (`wording._NO_GOOD_MOVE`, `condition.spoken_facts`), so the
  narrower rule it is stays compiled and outranks the teacher's general one; "<situation> is a separate case" sets the
  situation apart and says no more of it (`scope._CASE_APART`), so kept semantic the narrower rule is read whole.
Then misses of the same classes: a class named with "unlike" sets the subject apart from it, no class the rule speaks of
nor one its "it" may stand for, and a condition naming another class beside it claims that one alone, read whole
(`scope._NOT_A_MEMBER`, `_condition_claims`, `_outside_denied`, `unplaced`), and what the other hosts lack beside an order kept to one ("only on X, the others run
nothing worth a decoy") is no doubt of the order (`checks._OTHER_ONE`).
Each test fails at 3fb87bb (checked by running this file against the product files of that commit). Sentences of our
own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.claims import claims
from forge.rulebook.language.condition import semantic_claims, spoken_facts, text_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import Always, Not, truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording
from tests.situations import every_host_alert_lines


def _holds(found, **states: str):
    return truth(found, read_situation(every_host_alert_lines(**states)))


# -- a footnote -----------------------------------------------------------------------------------------------------------

FOOTNOTED = "Reimage any user box that reaches root.*\n* User3 excepted, since it has a note of its own."


def test_a_footnote_states_the_exception_of_the_rule_it_marks():
    words = read_wording(FOOTNOTED)
    assert words.excepted == ("User3",)
    found = semantic_claims(FOOTNOTED, "predicate refused: x", FOOTNOTED)
    assert _holds(found, User3="None/Privileged") is False
    assert _holds(found, User1="None/Privileged") is True


def test_a_footnote_flattened_onto_one_line_is_read_the_same():
    flat = " ".join(FOOTNOTED.split())
    assert read_wording(flat).excepted == ("User3",)
    # (stars that set a word apart are no footnote)
    assert read_wording("Restore *only* User1 once it is rooted.").excepted == ()


# -- "not on X" after the order -------------------------------------------------------------------------------------------


def test_a_host_set_off_with_not_on_is_left_out():
    for text in ("inspected host showing a scan only -> suggest DecoySSHD on it (not on User2: pointless there)",
                 "inspected host with just a scan -> suggest DecoySSHD on it, not on User2"):
        assert read_wording(text).excepted == ("User2",)
        found = semantic_claims(text, "predicate refused: x", text)
        assert _holds(found, User2="Scan/No") is False
        assert _holds(found, Enterprise0="Scan/No") is True
    # (after a named host it contrasts the order's target, no exception of the condition)
    assert read_wording("Decoy User1, not on User4, once any user box shows a scan.").excepted == ()


# -- outside a class, in the order's noun phrase ----------------------------------------------------------------------------


def test_a_host_outside_a_subnet_is_one_of_the_other_classes_and_keeps_its_state():
    text = "Any machine outside the enterprise subnet that shows nothing but a scan gets a decoy, never a Restore."
    found = rule_claims(text, with_instruction=True)
    assert _holds(found, Enterprise1="Scan/No") is False
    assert _holds(found, Op_Host1="Scan/No") is True
    assert _holds(found, User2="Exploit/User") is False


# -- a count, then its others ---------------------------------------------------------------------------------------------


def test_the_others_of_a_terse_count_keep_their_own_state():
    # (also as a note puts it: the figure, and the others in brackets)
    said = "exactly 1 op box owned (others clean) + User2 quiet -> plan DecoyApache on User2."
    held = semantic_claims(said, "predicate refused: x", said)
    assert _holds(held, Op_Host1="None/User") is True
    assert _holds(held, Op_Host1="None/User", Op_Host2="None/User") is False
    found = claims("exactly one user box owned, the others clean")
    assert _holds(found, User0="None/User") is True  # (every other host quiet)
    assert _holds(found, User0="None/User", User1="None/Privileged") is False


# -- an exception that leaves nothing ---------------------------------------------------------------------------------------


def test_claims_emptied_by_an_exception_never_hold():
    directive = "Restore Op_Host2 when it is rooted."
    text = directive + "\n\nOp_Host2 excepted, as it turns out."
    assert semantic_claims(directive, "predicate refused: x", text) == Not(Always())


# -- the exception a rule is for ----------------------------------------------------------------------------------------------

HEADED = ("User4 is the exception (the red agent tends to start from that desktop in our drills): however many times "
          "it is hacked, Remove it; a Restore of it is never the answer.")


def test_an_exception_heading_with_a_long_aside_is_what_the_rule_is_about():
    words = read_wording(HEADED)
    assert words.excepted == ()
    found = semantic_claims(HEADED, "predicate refused: x", HEADED)
    assert _holds(found, User4="None/User") is True
    assert _holds(found, User4="None/No") is False


def test_however_often_marks_a_condition():
    words = read_wording("However often Enterprise2 gets probed, put a DecoyApache on it.")
    assert [c.text for c in words.conditions] == ["However often Enterprise2 gets probed"]


# -- a move said not to do the job ---------------------------------------------------------------------------------------------

NO_GOOD = "Ent2 at root is another case -> a Restore suits it, a Remove won't clear it."


def test_a_move_that_wont_do_the_job_is_dispreferred_and_the_order_stands():
    words = read_wording(NO_GOOD)
    assert words.dispreferred == ("Remove",)
    when = {"host": "Enterprise2", "compromise": "Privileged"}
    assert text_problem(NO_GOOD, when, {"mode": "do", "verb": "Restore", "target": "Enterprise2"}) is None
    # (a move that failed, in the condition after "if", is no reason against it)
    assert read_wording("Restore User1 if a Remove doesn't work.").dispreferred == ()


def test_a_move_that_wont_do_the_job_tells_of_no_move_made():
    assert not any("history" in kinds for _, kinds in spoken_facts(read_wording(NO_GOOD)))


def test_a_situation_set_apart_as_a_case_of_its_own_is_read_whole():
    text = "OpH1 @ Privileged is a separate case -> Restore is right there, a Remove won't clear it."
    found = semantic_claims(text, "predicate refused: x", text)
    assert _holds(found, Op_Host1="None/Privileged") is True
    assert _holds(found, Op_Host1="None/User") is False


# -- a class named to set the subject apart, and what the other hosts lack --------------------------------------------------


def test_a_class_the_order_is_contrasted_with_is_no_class_it_speaks_of():
    text = "Enterprise1, unlike the op hosts, gets a Remove the moment it shows a compromise."
    when = {"host": "Enterprise1", "compromise": "any"}
    assert text_problem(text, when, {"mode": "do", "verb": "Remove", "target": "Enterprise1"}) is None
    # (and its "it" is the host, read whole: the compiled "any compromise" is held to a compromise for sure)
    found, whole = text_claims(text)
    assert whole and _holds(found, Enterprise1="None/Unknown") is False and _holds(found, Enterprise1="None/User") is True


def test_what_the_other_hosts_lack_is_no_doubt_of_the_order():
    text = "Put a DecoyTomcat on Enterprise2 (only on Enterprise2, the others host no web service) whenever it is probed."
    when = {"host": "Enterprise2", "activity": "Scan"}
    assert text_problem(text, when, {"mode": "do", "verb": "DecoyTomcat", "target": "Enterprise2"}) is None


def test_a_class_set_apart_in_the_condition_leaves_the_class_it_names_read_whole():
    text = "Op box being exploited, unlike an ent server -> rec Remove at once, not Restore."
    found, whole = text_claims(text)
    assert whole
    assert _holds(found, Op_Host2="Exploit/User") is True
    assert _holds(found, Enterprise1="Exploit/User") is False
