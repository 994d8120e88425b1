"""Issue 29, round 42 (r42m): misses where a check refused a compilation that says what its text says, or a reader
did not read how a rule was phrased.

- Polarity: a concession ("no matter what else happens") and a report of what has not been done yet ("no one has
  checked it yet") turn no order down; a denied hold in a table's heading ("a probed box, nothing owned on it") is the
  situation's quiet value.
- "without waiting for root" says how to act, at once: no state the host lacks, no condition.
- "<host> is the exception" heads the rule after a lead word too ("Still, ..."), and its reason in brackets names no
  scope of it.
- "instead of guessing with a Remove": the move tried is the one put aside.
- The table's "Compromised No" before a "but" denies nothing of the rating the analyses give.
- "right after we removed X" is a history condition; a move lately on a named host beside its row is one row.
- "no exploit running" is what runs now, no run of steps.
- A note's slash list of hosts ("U1/U3 exploited") is any of them.
- "warrants flagging it critical and recommending a Restore": the verdict beside the move, the order still read.
- A chain of branches ("...; failing that, if ...; if not, ...") is any branch's case; "failing that" is no move's
  outcome, and "if not" is the branch before failing, whose move the action gives.
- A table of cases under a heading, one bulleted line each, is any line's case, said with the heading.
- A guard rest that places what it reads "in the analysed host's evidence" is that evidence alone; a file listed with
  no density, the system a host runs, a foreign account's process are evidence readings.
- What the order concedes ("..., even if a shell turns up in the evidence") is no evidence condition at the gate.
- "E2 scan only, nothing owned": the "nothing owned" of that host, not of the whole network.
- A question that asks what good a move would do ("What would one more Remove fix?") puts that move aside.
- "an enterprise server such as Enterprise1": the class, the host only its example.

Sentences of our own, none from a case file. Each test fails at add6b84 (checked by running this file with PYTHONPATH
at an export of add6b84: `git archive add6b84`)."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language import condition
from forge.rulebook.language.claims import claims
from forge.rulebook.language.condition import text_claims
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.guard import guard_claims, guard_rest
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.judged import evidence_tests, judged_facts
from forge.rulebook.language.predicate import AnyOf, implies, parse_predicate
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording
from forge.rulebook.model import RuleRecord, RuleType
from forge.rulebook.retrieval.retrieve import _judged_of
from tests.actions import do, prefer


def _row(where: str, activity, compromise, key: str = "host") -> dict:
    return {key: where, **({"activity": activity} if activity else {}), **({"compromise": compromise} if compromise else {})}


# -- polarity ----------------------------------------------------------------------------------------------------------

def test_no_matter_what_is_a_concession_not_a_negation():
    text = "Should Op_Host0 be exploited, remove Op_Host0 no matter how busy other hosts are."
    assert text_problem(text, {"host": "Op_Host0", "activity": "Exploit"}, do("Remove", "Op_Host0")) is None


def test_what_nobody_has_done_yet_is_the_reason_not_a_turn_down():
    text = "Op_Host1 @ Unknown -> Analyse Op_Host1. no one has inspected it yet."
    assert text_problem(text, {"host": "Op_Host1", "compromise": "Unknown"}, do("Analyse", "Op_Host1")) is None
    # (a prohibition with "yet" is still one)
    text = "Reimage Op_Host2 once it is owned. nobody should restore it yet."
    assert text_problem(text, {"host": "Op_Host2", "compromise": "any"}, do("Restore", "Op_Host2")) is not None


def test_without_waiting_for_root_is_no_condition():
    text = "Once Op_Host0 is held at user level, reimage Op_Host0 without waiting for root."
    assert [c.text for c in read_wording(text).conditions] == ["Once Op_Host0 is held at user level"]
    assert text_problem(text, {"host": "Op_Host0", "compromise": "User"}, do("Restore", "Op_Host0")) is None


# -- exception heading ---------------------------------------------------------------------------------------------------

def test_exception_heading_after_a_lead_word_names_the_host_the_rule_is_for():
    text = ("Still, Op_Host2 is the exception (it guards the user subnet): when Op_Host2 shows a scan, plan DecoySSHD on "
            "Op_Host2 rather than a Restore.")
    words = read_wording(text)
    assert "Op_Host2" not in words.excepted and not words.classes
    assert text_problem(text, {"host": "Op_Host2", "activity": "Scan"}, prefer("DecoySSHD", "Restore", "Op_Host2")) is None
    # (an exception said inside the order still keeps its host out of a class order)
    text = "Reimage each owned user desktop, User1 is the exception."
    assert text_problem(text, {"class": "User", "compromise": "any"}, do("Restore", "$matched")) is not None


# -- dispreferred move ---------------------------------------------------------------------------------------------------

def test_the_move_gambled_on_after_rather_than_is_dispreferred():
    assert read_wording("plan an Analyse of User2 rather than gambling on a Remove.").dispreferred == ("Remove",)
    text = "While User2 reads Unknown, analyse User2 instead of guessing with a Remove."
    assert text_problem(text, {"host": "User2", "compromise": "Unknown"}, do("Remove", "User2")).startswith("disprefer")


# -- ratings, history, lists -------------------------------------------------------------------------------------------

def test_a_quiet_table_value_before_but_denies_no_rating():
    text = "If the row calls User4 clean (Compromised No) but the analyses of this step rate User4 at high risk, remove User4."
    assert judged_facts(text) == frozenset({"risk"})


def test_right_after_a_remove_is_a_history_condition():
    text = "Right after we removed User0, if it reads Unknown, choose Analyse User0 rather than another Remove."
    found = rule_claims(text)
    assert any(atom.acted == "Remove" for atom in getattr(found, "parts", (found,)))
    assert text_problem(text, {"host": "User0", "compromise": "Unknown", "acted": "Remove", "within": 1},
                        prefer("Analyse", "Remove", "User0")) is None
    assert text_problem(text, {"host": "User0", "compromise": "Unknown"}, prefer("Analyse", "Remove", "User0")) is not None


def test_a_move_lately_and_a_row_of_one_host_are_one_row():
    text = "User3 rmvd within last 2 steps + User3 scan now -> DecoySmss User3."
    merged = parse_predicate({"all": [{"host": "User3", "acted": "Remove", "within": 2}, {"host": "User3", "activity": "Scan"}]})
    assert implies(merged, rule_claims(text))
    apart = parse_predicate({"all": [{"host": "User3", "acted": "Remove", "within": 2}, {"host": "User1", "activity": "Scan"}]})
    assert not implies(apart, rule_claims(text))


def test_no_exploit_running_is_no_history():
    assert "history" not in facts_needed("Op_Host0 at user level, no exploit running")
    assert "history" in facts_needed("Op_Host0 at user level for 3 steps running")


def test_a_slash_list_of_hosts_is_any_of_them():
    found = rule_claims("U1/U3 exploited -> Remove that box.")
    assert isinstance(found, AnyOf) and len(found.parts) == 2


def test_a_verdict_before_the_proposal_leaves_the_order_read():
    text = ("The evidence on User1 at step 5 of seed 7 had a reverse shell on it, and I rated it low; the attacker stayed "
            "on. I think I misjudged it: for the box being analysed, a reverse shell among its evidence warrants flagging it "
            "critical and recommending a Restore.")
    words = read_wording(text)
    assert "Restore" in words.verbs and "User1" not in words.hosts


# -- branches -------------------------------------------------------------------------------------------------------------

_CHAIN = ("If Enterprise1 shows any compromise, choose Restore Enterprise1; failing that, if User2 is compromised, choose "
          "Remove User2; if not, when an op host is probed, pick DecoyVsftpd for that op host.")


def test_a_chain_of_branches_is_any_branch():
    found, whole = text_claims(_CHAIN)
    assert isinstance(found, AnyOf) and len(found.parts) == 3 and not whole
    assert "action outcome" not in facts_needed("failing that, if User2 is compromised")


def test_a_chain_compiled_as_its_branches_with_the_others_listed_passes():
    when = {"any": [{"host": "Enterprise1", "compromise": "any"}, {"host": "User2", "compromise": "any"},
                    _row("Operational", "Scan", None, "class")]}
    rest = "other cases: User2 owned -> Remove User2; an op host probed -> DecoyVsftpd for it"
    assert text_problem(_CHAIN, when, do("Restore", "Enterprise1"), rest) is None
    # ("if not" still refuses the move of the branch after it, said of the first branch's case)
    text = "If User1 is compromised, restore it; if not, plan DecoySSHD on User1."
    assert text_problem(text, {"host": "User1", "compromise": "any"}, do("DecoySSHD", "User1")) is not None


_TABLE = "op boxes:\n- scan only -> DecoyVsftpd it\n- being exploited -> Remove it\n- at root -> Restore it"
_MAP = "decoy map, a probed host with nothing held on it:\n- U3 -> DecoySSHD\n- E0 -> DecoyApache\nno other host: not this map."


def test_a_table_of_cases_is_any_lines_case():
    table = condition.listed_claims(_TABLE)
    assert isinstance(table, AnyOf) and len(table.parts) == 3
    mapped = condition.listed_claims(_MAP)
    assert isinstance(mapped, AnyOf) and {h for p in mapped.parts for h in p.hosts()} == {"User3", "Enterprise0"}
    assert condition.listed_claims(" ".join(_TABLE.split())) == table  # (its lines joined, the same table)


def test_a_table_compiled_as_its_lines_passes_and_a_wider_one_does_not():
    when = {"any": [_row("Operational", "Scan", "No", "class"), _row("Operational", "Exploit", None, "class"),
                    _row("Operational", None, "Privileged", "class")]}
    rest = "other cases: being exploited -> Remove it; at root -> Restore it"
    assert text_problem(_TABLE, when, do("DecoyVsftpd", "$matched"), rest) is None
    assert text_problem(_TABLE, {"class": "any", "activity": "Scan"}, do("DecoyVsftpd", "$matched")) is not None


def test_a_map_of_hosts_compiled_as_its_lines_passes():
    when = {"any": [_row("User3", "Scan", "No"), _row("Enterprise0", "Scan", "No")]}
    rest = "other cases: E0 probed -> DecoyApache on Enterprise0"
    assert text_problem(_MAP, when, do("DecoySSHD", "User3"), rest) is None
    # (a line's quiet value widened is read whole, and refused)
    wider = {"any": [_row("User3", "Scan", "No"), _row("Enterprise0", "Scan", "any")]}
    assert text_problem(_MAP, wider, do("DecoySSHD", "User3"), rest).startswith("claims")


def test_nothing_owned_on_it_is_that_hosts_quiet_compromise():
    found = claims("op host: a probed machine, nothing held on it")
    assert found.compromise == "No" and found.activity == "Scan" and found.host_class == "Operational"


# -- guards -------------------------------------------------------------------------------------------------------------

def test_a_guard_placed_in_the_analysed_hosts_evidence_is_that_evidence():
    when = parse_predicate({"class": "any"})
    rest = guard_rest("8+ conns to local port 445 in the analysed host's evidence", when)
    assert guard_claims(rest, when) is None


def test_evidence_readings_of_a_file_the_system_and_a_foreign_process():
    when = parse_predicate({"class": "any"})
    for rest, kind in (("its evidence lists svchost.exe", "file"), ("the analysed host runs Linux", "os"),
                       ("the analysed host's evidence has a process running as user svc9 missing from the baseline", "new user")):
        assert [t.kind for t in evidence_tests(rest, when)] == [kind]
        assert guard_claims(guard_rest(rest, when), when) is None


_ANALYST = "\n".join((f"Host {'User1'}: table Activity {'Exploit'}, Compromised {'User'}.", "Baseline: users SYSTEM; OS WINDOWS.",
                      "Current evidence (step 6):", "- file notes.txt density 0.2"))


def test_a_concession_in_the_order_is_no_evidence_condition():
    text = "Once User1 shows an exploit, recommend Remove over Restore, even if a reverse shell turns up in its evidence."
    when = {"host": "User1", "activity": "Exploit"}
    record = RuleRecord("r1", text, RuleType.CONTENT, ("analyst",), "g", text=text, compiled_by="model", when=when)
    assert all(test.value(_ANALYST, read_situation(_ANALYST)) is not False
               for test in _judged_of(record, False, "", parse_predicate(when)))


def test_nothing_owned_after_a_named_hosts_state_is_of_that_host():
    found = rule_claims("U4 probed only, nothing owned -> DecoySSHD on U4.")
    assert found.host == "User4" and found.compromise == "No"


def test_a_question_of_what_a_move_would_do_puts_it_aside():
    text = "Is Op_Host2 at root? Then plan Restore Op_Host2. What would one more Remove fix there that the last one did not?"
    assert "Remove" in read_wording(text).dispreferred
    assert text_problem(text, {"host": "Op_Host2", "compromise": "Privileged"}, prefer("Restore", "Remove", "Op_Host2")) is None
    assert read_wording("What about a Remove of Op_Host2?").dispreferred == ()


def test_a_host_given_as_an_example_of_a_class_is_no_subject():
    found = rule_claims("Whenever a user desktop such as User3 gets exploited, remove that desktop.")
    assert found.host is None and found.host_class == "User" and found.activity == "Exploit"
