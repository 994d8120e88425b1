"""Issue 29, round 42 (r42m): misses where a check refused a compilation that says what its text says, or a reader
did not read how a rule was phrased.

- Polarity: a concession ("no matter what else happens") and a report of what has not been done yet ("no one has
  checked it yet") turn no order down; a denied hold in a table's heading ("a probed box, nothing owned on it") is the
  situation's quiet value.
- "without waiting for root" says how to act, at once: no state the host lacks, no condition.
- "<host> is the exception" heads the rule after a lead word too ("Still, ..."), and its reason in brackets names no
  scope of it.
- "rather than guessing with a Restore": the move tried is the one put aside.
- The table's "Compromised No" before a "but" denies nothing of the rating the analyses give.
- "right after we removed X" is a history condition; a move lately on a named host beside its row is one row.
- "no exploit running" is what runs now, no run of steps.
- A note's slash list of hosts ("U1/U3 exploited") is any of them.
- "calls for rating it high and recommending a Remove": the verdict beside the move, the order still read.
- A chain of branches ("...; failing that, if ...; if not, ...") is any branch's case; "failing that" is no move's
  outcome, and "if not" is the branch before failing, whose move the action gives.
- A table of cases under a heading, one bulleted line each, is any line's case, said with the heading.
- A guard rest that places what it reads "in the analysed host's evidence" is that evidence alone.

Sentences of our own, none from a case file. Each test fails at add6b84 (checked by running this file with PYTHONPATH
at an export of add6b84: `git archive add6b84`)."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language import condition
from forge.rulebook.language.condition import claims, facts_needed, guard_claims, guard_rest, rule_claims, text_claims
from forge.rulebook.language.judged import judged_facts
from forge.rulebook.language.predicate import AnyOf, implies, parse_predicate
from forge.rulebook.language.wording import read_wording


def _do(verb: str, host: str) -> dict:
    return {"mode": "do", "verb": verb, "target": host}


def _prefer(verb: str, over: str, host: str) -> dict:
    return {"mode": "prefer", "verb": verb, "target": host, "over": {"verb": over, "target": host}}


# -- polarity ----------------------------------------------------------------------------------------------------------

def test_no_matter_what_is_a_concession_not_a_negation():
    text = "If User3 shows an exploit, plan a Remove of User3 no matter how busy the rest of the network is."
    assert text_problem(text, {"host": "User3", "activity": "Exploit"}, _do("Remove", "User3")) is None


def test_what_nobody_has_done_yet_is_the_reason_not_a_turn_down():
    text = "Op_Host1 @ Unknown -> Analyse Op_Host1. no one has inspected it yet."
    assert text_problem(text, {"host": "Op_Host1", "compromise": "Unknown"}, _do("Analyse", "Op_Host1")) is None
    # (a prohibition with "yet" is still one)
    text = "Restore User1 when it is compromised. nobody should restore it yet."
    assert text_problem(text, {"host": "User1", "compromise": "any"}, _do("Restore", "User1")) is not None


def test_without_waiting_for_root_is_no_condition():
    words = read_wording("When Enterprise1 sits at user level, plan a Restore of Enterprise1 without waiting for root.")
    assert [c.text for c in words.conditions] == ["When Enterprise1 sits at user level"]
    text = "When Enterprise1 sits at user level, plan a Restore of Enterprise1 without waiting for root."
    assert text_problem(text, {"host": "Enterprise1", "compromise": "User"}, _do("Restore", "Enterprise1")) is None


# -- exception heading ---------------------------------------------------------------------------------------------------

def test_exception_heading_after_a_lead_word_names_the_host_the_rule_is_for():
    text = ("Still, Op_Host2 is the exception (it guards the user subnet): when Op_Host2 shows a scan, plan DecoySSHD on "
            "Op_Host2 rather than a Restore.")
    words = read_wording(text)
    assert "Op_Host2" not in words.excepted and not words.classes
    assert text_problem(text, {"host": "Op_Host2", "activity": "Scan"}, _prefer("DecoySSHD", "Restore", "Op_Host2")) is None
    # (an exception said inside the order still keeps its host out of a class order)
    text = "Restore every user host that is compromised, User1 is the exception."
    assert text_problem(text, {"class": "User", "compromise": "any"}, _do("Restore", "$matched")) is not None


# -- dispreferred move ---------------------------------------------------------------------------------------------------

def test_the_move_gambled_on_after_rather_than_is_dispreferred():
    assert read_wording("plan an Analyse of User2 rather than gambling on a Remove.").dispreferred == ("Remove",)
    text = "When User2 reads Unknown, plan an Analyse of User2 rather than guessing with a Remove."
    assert text_problem(text, {"host": "User2", "compromise": "Unknown"}, _do("Remove", "User2")).startswith("disprefer")


# -- ratings, history, lists -------------------------------------------------------------------------------------------

def test_a_quiet_table_value_before_but_denies_no_rating():
    text = "If the table calls User4 clean (Compromised No) but this step's analyses rate User4 high risk, remove User4."
    assert judged_facts(text) == frozenset({"risk"})


def test_right_after_a_remove_is_a_history_condition():
    text = "Right after we removed User0, if it reads Unknown, choose Analyse User0 rather than another Remove."
    found = rule_claims(text)
    assert any(atom.acted == "Remove" for atom in getattr(found, "parts", (found,)))
    assert text_problem(text, {"host": "User0", "compromise": "Unknown", "acted": "Remove", "within": 1},
                        _prefer("Analyse", "Remove", "User0")) is None
    assert text_problem(text, {"host": "User0", "compromise": "Unknown"}, _prefer("Analyse", "Remove", "User0")) is not None


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
            "on. I think I misjudged it: for the host under analysis, a reverse shell in its evidence calls for rating it "
            "high and recommending a Restore.")
    words = read_wording(text)
    assert "Restore" in words.verbs and "User1" not in words.hosts


# -- branches -------------------------------------------------------------------------------------------------------------

_CHAIN = ("If Enterprise1 shows any compromise, choose Restore Enterprise1; failing that, if User2 is compromised, choose "
          "Remove User2; if not, when an op host shows a scan, choose DecoyApache on that op host.")


def test_a_chain_of_branches_is_any_branch():
    found, whole = text_claims(_CHAIN)
    assert isinstance(found, AnyOf) and len(found.parts) == 3 and not whole
    assert "action outcome" not in facts_needed("failing that, if User2 is compromised")


def test_a_chain_compiled_as_its_branches_with_the_others_listed_passes():
    when = {"any": [{"host": "Enterprise1", "compromise": "any"}, {"host": "User2", "compromise": "any"},
                    {"class": "Operational", "activity": "Scan"}]}
    rest = "other cases: User2 compromised -> Remove User2; an op host scanned -> DecoyApache on it"
    assert text_problem(_CHAIN, when, _do("Restore", "Enterprise1"), rest) is None
    # ("if not" still refuses the move of the branch after it, said of the first branch's case)
    text = "If User1 is compromised, restore it; if not, plan DecoySSHD on User1."
    assert text_problem(text, {"host": "User1", "compromise": "any"}, _do("DecoySSHD", "User1")) is not None




_TABLE = "op boxes:\n- scan only -> DecoyVsftpd it\n- exploit under way -> Remove it\n- root -> Restore it"
_MAP = "decoy map, a probed host with nothing held on it:\n- U3 -> DecoySSHD\n- E0 -> DecoyApache\nno other host: not this map."


def test_a_table_of_cases_is_any_lines_case():
    table = condition.listed_claims(_TABLE)
    assert isinstance(table, AnyOf) and len(table.parts) == 3
    mapped = condition.listed_claims(_MAP)
    assert isinstance(mapped, AnyOf) and {h for p in mapped.parts for h in p.hosts()} == {"User3", "Enterprise0"}


def test_a_table_compiled_as_its_lines_passes_and_a_wider_one_does_not():
    when = {"any": [{"class": "Operational", "activity": "Scan", "compromise": "No"}, {"class": "Operational", "activity": "Exploit"},
                    {"class": "Operational", "compromise": "Privileged"}]}
    rest = "other cases: exploit under way -> Remove it; root -> Restore it"
    assert text_problem(_TABLE, when, _do("DecoyVsftpd", "$matched"), rest) is None
    assert text_problem(_TABLE, {"class": "any", "activity": "Scan"}, _do("DecoyVsftpd", "$matched")) is not None


def test_a_map_of_hosts_compiled_as_its_lines_passes():
    when = {"any": [{"host": "User3", "activity": "Scan", "compromise": "No"}, {"host": "Enterprise0", "activity": "Scan", "compromise": "No"}]}
    rest = "other cases: E0 probed -> DecoyApache on Enterprise0"
    assert text_problem(_MAP, when, _do("DecoySSHD", "User3"), rest) is None


def test_nothing_owned_on_it_is_that_hosts_quiet_compromise():
    found = claims("op host: a probed machine, nothing held on it")
    assert found.compromise == "No" and found.activity == "Scan" and found.host_class == "Operational"


# -- guards -------------------------------------------------------------------------------------------------------------

def test_a_guard_placed_in_the_analysed_hosts_evidence_is_that_evidence():
    when = parse_predicate({"class": "any"})
    rest = guard_rest("8 or more connections on local port 445 in the analysed host's evidence", when)
    assert guard_claims(rest, when) is None
