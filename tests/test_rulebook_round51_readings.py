"""Issue 29, round 51 (r51m): rules written in registers the reader did not read as wide as their words, whose faithful
compilation the checks then refused (the rule was kept semantic and its gate stayed silent), or whose form was lost.
Each class is what the words mean in general:
- "the only time/case/occasion ... may/is okay ... is when ...": one reader (forms.ONLY_TIME_ALLOWED with
  `only_time_permitted`) for the rewrite into "never <move> unless" and for the check that a permission was not compiled
  as an order;
- "the Defender shall/must <move>": the party that acts, named as a contract names it, not the Defender host
  (names.HOST_FORMS);
- a host described by what the alerts or the table show of it ("any box the alerts show with Activity Scan"): the host's
  state, no state of the alerts (forms._SHOWN_BY_EVIDENCE);
- an exception's host described, then named in brackets ("apart from the last one (that is Op_Host2)"): "except <host>"
  (forms._EXCEPT_DESCRIBED);
- a host said to be no host of a class ("any machine that is not an enterprise host"): the class denied
  (scope._NOT_A_MEMBER);
- a question asking what to do in a situation, and a dialogue that turns a move down and then asks what instead: the
  situation is the condition, the last answer the order (forms.what_to_do_said);
- a note on the reply's form in shorthand ("fmt", "answer style", "max 2 short lines"): FORMAT (compile._FORMAT_WORDS);
- a condition run into the order's party with no comma ("where ... the Planner shall not ..."): the condition ends before
  the party (forms._CONDITION_RUN_INTO_PARTY);
- what a rule leaves to another provision ("save as provided in clause 4 for <host>"): no condition, no host of it
  (forms._PROVIDED_ELSEWHERE);
- a deliberation ("For: ... Against: ... Verdict: ..."): the verdict is the rule (forms._verdict_alone);
- the order put late, after what the note is not about ("Not about X. Here it is: ..."): the order alone, where the
  denials name nothing it covers (forms._not_about_away);
- a restriction put late as a sentence of its own ("<order>. Not if ..."): ", but not if ..." (forms._NOT_WHEN_LATE);
- a decoy dropped on a host ("drop DecoyTomcat on it"): put there, a step of the order (forms.written_out);
- a host that "gets <Move>" by the move's catalog name: the move it is given, which ends the condition
  (markers._JUDGED_VERB).
Each test fails on the product files of 91cc4f7 (checked: this file run in a `git archive 91cc4f7` tree). Sentences of
our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import format_problem, looks_like_format
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.forms import written_out
from forge.rulebook.language.predicate import describe
from tests.actions import do, never, prefer


def test_the_sole_occasion_a_move_is_fine_permits_it_and_orders_it_nowhere() -> None:
    text = "Looking back, the sole occasion a Sleep is fine for us is when no machine shows any activity."
    problem = text_problem(text, {"not": {"activity": "Scan"}}, do("Sleep", "any"))
    assert problem is not None and problem.startswith("permission")
    # said with "the only time ... may": rewritten into a "never" the check accepts, as before
    allowed = "The only time we may Restore Op_Host1 is when its row reads Compromised Privileged."
    elsewhere = {"all": [{"host": "Op_Host1"}, {"not": {"host": "Op_Host1", "compromise": "Privileged"}}]}
    assert text_problem(allowed, elsewhere, never("Restore", "Op_Host1")) is None


def test_the_defender_that_shall_act_is_the_party_not_the_host() -> None:
    text = "Under the service terms the Defender must carry out a Remove on every op host that reads Compromised User."
    assert text_problem(text, {"class": "Operational", "compromise": "User"}, do("Remove")) is None
    # the host still, where it is what is restored or what shows a state
    host = "The Defender shall be restored whenever the Defender host reads Compromised User."
    assert text_problem(host, {"class": "Operational", "compromise": "User"}, do("Restore")) is not None


def test_a_host_described_by_what_the_alerts_show_has_that_state() -> None:
    text = "Put DecoySSHD on any box the alerts show with Activity Scan, and on nothing else."
    assert text_problem(text, {"activity": "Scan"}, do("DecoySSHD")) is None
    rooted = "Restore every enterprise server that the alerts show rooted."
    assert text_problem(rooted, {"class": "Enterprise", "compromise": "Privileged"}, do("Restore")) is None


def test_an_exception_described_then_named_in_brackets_leaves_that_host_out() -> None:
    text = "Every op host apart from the last one (that is Op_Host2, it runs the backups): when it is scanned, DecoyApache on it."
    either = {"any": [{"host": "Op_Host0", "activity": "Scan"}, {"host": "Op_Host1", "activity": "Scan"}]}
    assert text_problem(text, either, do("DecoyApache")) is None
    problem = text_problem(text, {"class": "Operational", "activity": "Scan"}, do("DecoyApache"))
    assert problem is not None and "Op_Host2" in problem


def test_a_host_said_to_be_no_host_of_a_class_denies_the_class() -> None:
    text = "Anything that is not an op host and shows Activity Exploit: Remove it there and then."
    others = {"any": [{"class": "User", "activity": "Exploit"}, {"class": "Enterprise", "activity": "Exploit"}]}
    assert text_problem(text, others, do("Remove")) is None
    assert text_problem(text, {"class": "Operational", "activity": "Exploit"}, do("Remove")) is not None


def test_a_question_of_what_to_do_in_a_situation_is_its_condition() -> None:
    text = "Night shift FAQ. Q: What should we do if Op_Host1 shows a scan? A: DecoySmss on Op_Host1; skip any Remove there."
    assert text_problem(text, {"host": "Op_Host1", "activity": "Scan"}, do("DecoySmss", "Op_Host1")) is None
    dialogue = ("Q: should I Restore User1 again when its row reads Unknown? A: no, that burns a turn for nothing. "
                "Q: what then? A: Analyse User1 first, rather than a second Restore.")
    assert text_problem(dialogue, {"host": "User1", "compromise": "Unknown"}, prefer("Analyse", "Restore", "User1")) is None


def test_a_note_on_the_replys_form_in_shorthand_is_format() -> None:
    for text in ("planner fmt: the moves first, the why after, no prose between",
                 "Answer style for the analyst: the verdict, then the evidence, then a single caveat.",
                 "summaries: max 2 short lines, hosts by their full names"):
        assert looks_like_format(text) and format_problem(text) is None, text


def test_a_condition_run_into_the_party_that_acts_ends_before_it() -> None:
    text = "Where Op_Host0 reads Compromised User the Planner shall not plan a Remove of it but shall plan a Restore of Op_Host0."
    assert text_problem(text, {"host": "Op_Host0", "compromise": "User"}, prefer("Restore", "Remove", "Op_Host0")) is None


def _claims_of_kept_semantic(text: str) -> str:
    """What a rule kept semantic (its compiled predicate refused) must meet, described ("not (always)": never read)."""
    found = semantic_claims(text, "predicate refused: always: no condition", text)
    return describe(found) if found is not None else ""


def test_what_a_rule_leaves_to_another_provision_is_no_condition_of_it() -> None:
    text = ("Rule 7. Every user box the table shows at root level shall get a Restore, save as provided in the older "
            "exception already filed for User4.")
    assert text_problem(text, {"class": "User", "compromise": "Privileged"}, do("Restore")) is None


def test_a_verdict_after_a_deliberation_is_read_alone() -> None:
    text = ("Weighing it up. For: a Restore of Op_Host2 while it only sits at Unknown wipes whatever hides there. Against: "
            "it costs a turn. Verdict: whenever Op_Host2 reads Compromised Unknown, plan Restore Op_Host2.")
    assert _claims_of_kept_semantic(text) == "Op_Host2 shows Compromised Unknown"


def test_an_order_put_after_what_the_note_is_not_about_is_read_alone() -> None:
    text = "Not about probes. Not about the op hosts either. Here it is: an enterprise server at Compromised Privileged gets a Restore."
    assert _claims_of_kept_semantic(text) != "not (always)"
    # a denial of what the rule covers is an exception, never dropped
    kept = "Not about Enterprise1. Here it is: an enterprise server at Compromised Privileged gets a Restore."
    assert "Not about Enterprise1" in written_out(kept)


def test_a_restriction_put_late_denies_the_order_there() -> None:
    text = "Restore Op_Host1 once it is rooted. Not if Op_Server0 reads Compromised User as well."
    assert _claims_of_kept_semantic(text).startswith("(Op_Host1 shows Compromised Privileged) and ((not (Op_Server0 shows "
                                                     "Compromised User))")


def test_a_decoy_dropped_on_a_host_is_put_there() -> None:
    text = "Steps for an op host at Compromised User: first Remove it; then drop DecoyTomcat on the same host."
    action = {**do("Remove"), "then": [{"verb": "DecoyTomcat", "target": "$matched"}]}
    assert text_problem(text, {"class": "Operational", "compromise": "User"}, action) is None


def test_a_host_that_gets_a_move_by_its_name_is_given_that_move() -> None:
    text = "From here on, a user host that reads Compromised Unknown gets Analyse from me, not a Restore."
    assert text_problem(text, {"class": "User", "compromise": "Unknown"}, prefer("Analyse", "Restore")) is None


def test_a_state_glossed_in_brackets_stays_in_its_condition() -> None:
    text = "Art. 2: every plan drawn up while an enterprise server is only probed (scan, no foothold) shall contain DecoySvchost on it."
    assert text_problem(text, {"class": "Enterprise", "activity": "Scan", "compromise": "No"}, do("DecoySvchost")) is None


def test_the_lesson_headed_next_time_then_is_the_order() -> None:
    text = ("I rated Op_Host0 fine this turn since its files looked normal, yet the row read Privileged. Next time, then: "
            "if a host I analyse has a row saying Compromised Privileged, suggest Restore on it.")
    assert text_problem(text, {"compromise": "Privileged"}, do("Restore")) is None


def test_a_clause_in_french_german_or_spanish_leaves_a_host_out_or_turns_a_move_down() -> None:
    french = "Si un poste de travail est compromis au niveau User, fais un Restore dessus, sauf User3 qui sert aux tests."
    three_left = {"any": [{"host": h, "compromise": "User"} for h in ("User0", "User1", "User2", "User4")]}
    assert text_problem(french, three_left, do("Restore")) is None
    assert text_problem(french, {"class": "User", "compromise": "User"}, do("Restore")) is not None
    spanish = "Op_Host1 comprometido (Compromised Privileged) -> Restore Op_Host1, nada de Remove"
    assert text_problem(spanish, {"host": "Op_Host1", "compromise": "Privileged"}, prefer("Restore", "Remove", "Op_Host1")) is None
