"""Issue 29, round 30 (blind-27's harmful and outranked injections): a count of a class's hosts with a host excepted
("three or more user boxes besides User2") lost its count (each group less its excepted host was one host short, so one
host was enough); a clause about "another" / "no other" host / "the rest of the machines" after one that picks a host of a
class ("exactly one enterprise server is owned and no other machine shows any activity") was dropped or read of every host, so
the rule fired where other hosts were busy (and its teacher's preference was never read, so it outranked nothing); a
heading that opens with a count ("only one machine owned -> ...") was read as an order ("only ..."), so no condition was
checked, and "network-wide" was a word the reading did not place; a preference of one verb over another on a class's
hosts whose condition counts them was not read as refusing the other verb. Sentences of our own, none from a case
file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import AllOf, Atom, Not, atoms_of, may_overlap
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.wording import read_wording


def _quiet(host: str):
    return AllOf((Not(Atom(host=host, activity="any")), Not(Atom(host=host, compromise="any"))))


# -- a count with an excepted host: the count among the others ---------------------------------------------------------

COUNT_BESIDES = "If three or more user boxes other than User2 get owned, reimage each one; keep User2 out."


def test_a_count_with_an_exception_counts_the_other_hosts():
    found = rule_claims(COUNT_BESIDES, with_instruction=True, bare=False)
    groups = found.parts
    assert groups and all(isinstance(g, AllOf) and len(g.parts) == 3 for g in groups)
    assert all(a.host != "User2" for g in groups for a in g.parts)


def test_a_compiled_trigger_without_the_count_is_refused():
    text = "When two or more user machines other than User4 get owned, restore them all; User4 stays as it is."
    when = {"any": [{"host": h, "compromise": "any"} for h in ("User0", "User1", "User2", "User3")]}
    problem = text_problem(text, when, {"mode": "do", "verb": "Restore", "target": "$matched"})
    assert problem is not None and problem.startswith("claims:")


# -- "another" / "no other" / "the rest of" after a clause that picks one host of a class -------------------------------

def test_no_other_host_after_one_picked_host_keeps_the_others_quiet():
    found = rule_claims("Whenever exactly one enterprise server is owned and no other machine shows any activity, "
                        "reimage it.", with_instruction=True)
    busy = AllOf((Atom(host="Enterprise0", compromise="User"), Atom(host="User3", activity="Scan")))
    assert not may_overlap(found, busy)
    assert may_overlap(found, AllOf((Atom(host="Enterprise0", compromise="User"), _quiet("User3"))))


def test_the_rest_of_the_machines_after_one_picked_host():
    found = rule_claims("When exactly one enterprise server is owned and the rest of the machines show no activity, evict the "
                        "attacker from it.", with_instruction=True)
    assert not may_overlap(found, AllOf((Atom(host="Enterprise1", compromise="User"), Atom(host="Op_Host2", activity="Scan"))))
    assert may_overlap(found, Atom(host="Enterprise1", compromise="User"))  # (the one picked host is compromised)


def test_another_host_of_the_class_is_a_second_host():
    found = rule_claims("when one enterprise server is already owned and another enterprise server is being exploited, "
                        "remove the exploited one first", with_instruction=True)
    alone = AllOf((Atom(host="Enterprise1", activity="Exploit", compromise="User"), _quiet("Enterprise0"), _quiet("Enterprise2")))
    assert not may_overlap(found, alone)
    assert may_overlap(found, AllOf((Atom(host="Enterprise1", activity="Exploit"), Atom(host="Enterprise2", compromise="User"))))


def test_guard_another_host_after_a_named_host_reads_as_before():
    # guard: after a named host, "another" was read before this round (the besides path)
    found = rule_claims("When Enterprise2 is owned and another enterprise server gets scanned, restore Enterprise2.",
                        with_instruction=True)
    assert not may_overlap(found, AllOf((Atom(host="Enterprise2", activity="Scan", compromise="User"),
                                         _quiet("Enterprise0"), _quiet("Enterprise1"))))


# -- a heading that opens with a count is a condition --------------------------------------------------------------------

def test_a_heading_opening_with_only_one_is_a_condition():
    text = "only one machine owned network-wide -> evict the attacker from that machine"
    assert [c.text for c in read_wording(text).conditions] == ["only one machine owned network-wide"]
    assert complete_claims(text, rule_claims(text, with_instruction=True))
    assert text_problem(text, {"class": "any", "compromise": "any"}, {"mode": "do", "verb": "Remove", "target": "$matched"})


def test_guard_only_before_a_verb_still_orders():
    # guard: "only" before a verb is still the order it was
    assert read_wording("only decoy Enterprise0 when it is scanned").gives_order


# -- a preference on a class's counted hosts refuses the other verb -------------------------------------------------------

def test_a_preference_on_counted_hosts_refuses_the_other_verb():
    said = said_in_words("When exactly one enterprise server is owned and the rest of the machines show no activity, Remove it; "
                         "a Restore there is overkill.")
    assert said is not None
    assert said[1].mode == "never" and said[1].move.verb == "Restore"


# -- an exception said in a sentence of its own, cut from a semantic rule's directive ------------------------------------

def test_an_exception_cut_from_the_directive_still_excepts():
    from forge.rulebook.language.condition import semantic_claims

    text = ("I looked at User3 during one episode after a scan and asked for a Remove that achieved nothing. Lesson: for "
            "the box being analysed, a scan with no compromise means recommend a decoy, not Remove; User1 is the exception.")
    directive = read_wording(text).instruction
    assert "User1" not in directive
    found = semantic_claims(directive, "predicate refused: always: the predicate holds on every context", text)
    hosts = {atom.host for atom, _ in atoms_of(found)}
    assert "User1" not in hosts and "User2" in hosts


# -- a note's opening statement said with a word of taking over; a count said "3+"; "nothing owned" after a comma -------

def test_an_opening_statement_of_an_owned_host_is_the_condition():
    words = read_wording("Enterprise0 pwned. Reimage Enterprise0 at once.")
    assert [c.text for c in words.conditions] == ["Enterprise0 pwned"]


def test_a_count_said_with_a_plus():
    text = "3+ user boxes owned -> Remove them"
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found)
    assert all(isinstance(g, AllOf) and len(g.parts) == 3 for g in found.parts)


def test_nothing_owned_after_a_comma_is_a_clause_of_its_own():
    text = "recon stage (scans, nothing owned anywhere) -> Sleep, no Remove"
    found = rule_claims(text, with_instruction=True)
    assert not may_overlap(found, AllOf((Atom(host="User1", activity="Scan"), Atom(host="Enterprise2", compromise="User"))))
    when = {"class": "any", "activity": "Scan", "compromise": "No"}
    assert text_problem(text, when, {"mode": "prefer", "verb": "Sleep", "target": "any", "over": {"verb": "Remove", "target": "any"}})


# -- what reconnaissance reaches is scanned, not compromised -------------------------------------------------------------

def test_reconnaissance_reaching_a_subnet_is_a_scan_there():
    found = rule_claims("As soon as the recon reaches the enterprise subnet, put a DecoyTomcat on whichever server is "
                        "probed.", with_instruction=True)
    assert found == Atom(host_class="Enterprise", activity="Scan")


def test_guard_the_attacker_reaching_a_host_is_still_a_compromise():
    # guard: "red reaches Enterprise2" is read as it was
    assert rule_claims("once red reaches Enterprise2, restore it", with_instruction=True) == \
        Atom(host="Enterprise2", compromise="any")


def test_guard_a_plus_before_steps_is_no_count_of_hosts():
    # guard: "4+ steps" is a history's length, left as it was written
    from forge.rulebook.language.shorthand import plus_as_or_more

    assert plus_as_or_more("Enterprise0 owned, no change for 4+ steps") == "Enterprise0 owned, no change for 4+ steps"
