"""Issue 29, round 43 (r43m): misses where the reader did not read how a rule was phrased, so a faithful compilation
was refused or a rule kept semantic stayed silent where its words apply.

- One of several named hosts picked with "and" ("whichever of A and B is ...", "either of A and B"): any of them, each
  in the state said (the first host was read bare and the state claimed of the last one only).
- A count of the hosts the alerts list ("the alerts name four or more hosts"): hosts whose row is not quiet, a row at
  Activity None with a compromise counted too (read as "alert" alone, some activity).
- A move kept for a case of its own ("...; hold a Restore back for once it is at root") is another branch of the note,
  and a first case said as what it is for ("for X at the user level a Remove suffices; ...") opens one.
- A label that says the note revises an earlier one ("Correction: ...") is no situation of the rule.
- Two named hosts compared by how deep the attacker is in ("X more compromised than Y", "X better off than Y"): the
  levels of the table compared, No < User < Privileged; a comparison with a class stays unread.

Sentences of our own, none from a case file. Each test fails at aa754d5 (checked by running this file with PYTHONPATH
at an export of aa754d5: `git archive aa754d5`)."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import AnyOf, positive_hosts, truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording


def _alerts(*rows: tuple[str, str, str]) -> str:
    """An action chooser's context whose alerts list `rows` (host, activity, compromise)."""
    said = ", ".join(f"{h} shows Activity {a}, Compromised {c}" for h, a, c in rows)
    listed = "\n".join(f"{h}: Activity {a}, Compromised {c}" for h, a, c in rows)
    return f"Situation (from the Planner): {said}\n\nAlerts:\n{listed}\n"


# -- one of several named hosts -------------------------------------------------------------------------------------------

def test_one_of_hosts_listed_with_and_is_any_of_them():
    found = rule_claims("Whichever of Op_Host1 and Op_Host2 gets exploited, evict the attacker with a Remove.")
    assert isinstance(found, AnyOf) and {h for p in found.parts for h in p.hosts()} == {"Op_Host1", "Op_Host2"}
    assert truth(found, read_situation(_alerts(("Op_Host1", "Exploit", "User")))) is True
    either = rule_claims("If either of E0 and E2 is at root, restore it.")
    assert truth(either, read_situation(_alerts(("Enterprise2", "None", "Privileged")))) is True


def test_a_compilation_of_any_of_the_listed_hosts_passes():
    text = "Whichever of Op_Host1 and Op_Host2 gets exploited, evict the attacker with a Remove."
    when = {"any": [{"host": "Op_Host1", "activity": "Exploit"}, {"host": "Op_Host2", "activity": "Exploit"}]}
    assert text_problem(text, when, {"mode": "do", "verb": "Remove", "target": "$matched"}) is None


# -- hosts the alerts list ------------------------------------------------------------------------------------------------

def test_a_count_of_hosts_the_alerts_list_counts_every_row_that_is_not_quiet():
    text = "Do not pick Monitor when the alerts name four or more hosts."
    found = rule_claims(text)
    assert complete_claims(text, found)
    four = _alerts(("User0", "None", "User"), ("User1", "None", "Unknown"), ("User2", "Scan", "No"),
                   ("Enterprise1", "None", "Privileged"))
    assert truth(found, read_situation(four)) is True
    two = _alerts(("User0", "None", "User"), ("User2", "Scan", "No"))
    assert truth(found, read_situation(two)) is not True


# -- a move kept for a case of its own --------------------------------------------------------------------------------------

def test_a_move_saved_for_another_case_is_a_branch_of_the_note():
    found = rule_claims("When Op_Host0 shows user level, Remove it; hold a Restore back for once it is at root.")
    assert isinstance(found, AnyOf) and len(found.parts) == 2
    first = "for Op_Host0 at the user level a Remove suffices; reserve a Restore for once it is at root."
    found = rule_claims(first)
    assert isinstance(found, AnyOf) and complete_claims(first, found)


def test_a_revision_label_is_no_situation():
    text = "Correction: when User4 is scanned, deploy DecoySSHD on User4."
    assert read_wording(text).situation == ""
    assert complete_claims(text, rule_claims(text))


# -- two named hosts compared ----------------------------------------------------------------------------------------------

def test_two_named_hosts_compared_by_their_levels():
    worse = rule_claims("If Op_Host2 is more compromised than Op_Host1, restore Op_Host2 first.")
    deeper = read_situation(_alerts(("Op_Host2", "None", "Privileged"), ("Op_Host1", "None", "User")))
    level = read_situation(_alerts(("Op_Host2", "None", "User"), ("Op_Host1", "None", "User")))
    assert truth(worse, deeper) is True and truth(worse, level) is False
    better = rule_claims("If Op_Host1 is better off than Op_Host2, restore Op_Host2 first.")
    assert truth(better, deeper) is True
    assert "comparison" not in facts_needed("Op_Host2 more compromised than Op_Host1")
    # (a class compared with a host is still not read)
    assert "comparison" in facts_needed("an op host in a worse state than Op_Server0")


# -- a class named where the order goes next ---------------------------------------------------------------------------------

def test_a_class_named_only_where_the_order_goes_next_is_no_condition():
    text = "When Op_Host1 gets exploited, Remove it, then deploy DecoyApache across the user subnet."
    found = rule_claims(text)
    assert positive_hosts(found) == {"Op_Host1"}
    assert text_problem(text, {"host": "Op_Host1", "activity": "Exploit"}, {"mode": "do", "verb": "Remove", "target": "Op_Host1"}) is None
    ahead = "If User1 has sat at root for two turns running, restore it ahead of anything on the op hosts."
    assert positive_hosts(rule_claims(ahead)) == {"User1"}
    before = "A Restore for Op_Host0 under exploit comes before any enterprise server is handled."
    assert "history" not in facts_needed(before)


# -- the hosts a class leaves out --------------------------------------------------------------------------------------------

def test_all_of_them_but_a_host_leaves_that_host_out():
    assert read_wording("Remove any op host at root, all of them but Op_Server0.").excepted == ("Op_Server0",)
    assert read_wording("Decoy every enterprise server but Enterprise1 when it is scanned.").excepted == ("Enterprise1",)
    # (a count is no host: "all but one" is left to the count's reading)
    assert read_wording("Remove every compromised op host, all but one.").excepted == ()


def test_what_the_hosts_of_a_class_do_is_said_of_the_class_not_of_the_host_left_out():
    text = "With Op_Server0 probed, schedule Restores on each op host except Op_Host2 that is at root."
    found = rule_claims(text)
    assert "Op_Host2" not in positive_hosts(found) and {"Op_Host0", "Op_Host1"} <= positive_hosts(found)


def test_a_heading_on_every_host_of_a_class_with_an_order_on_it_is_each_its_own_case():
    found = rule_claims("evry op host exept Op_Server0: exploit seen -> remove it")
    assert isinstance(found, AnyOf) and "Op_Server0" not in positive_hosts(found)
    assert truth(found, read_situation(_alerts(("Op_Host1", "Exploit", "User")))) is True
    together = rule_claims("every op host at root -> Restore all of them")
    assert truth(together, read_situation(_alerts(("Op_Host1", "None", "Privileged")))) is not True


# -- words written in haste ---------------------------------------------------------------------------------------------------

def test_quoted_words_and_misspelt_words_are_read_as_the_words_they_are():
    text = "'Monitor' is a poor pick while a box reads 'Scan'"
    assert complete_claims(text, rule_claims(text))
    slip = "op box at Privelaged -> Restor it"
    found = rule_claims(slip)
    assert truth(found, read_situation(_alerts(("Op_Host2", "None", "Privileged")))) is True
    assert "Restore" in read_wording(slip).verbs
    assert "Remove" in read_wording("U2 exploted -> remvoe it").verbs


def test_shown_unknown_for_some_steps_is_the_unknown_level():
    found = rule_claims("if Op_Host0 has shown Unknown three steps running, analyse it.")
    assert found.compromise == "Unknown" and found.unchanged_for == 3


# -- the analyst's verdict and evidence ------------------------------------------------------------------------------------

def test_a_verdict_order_after_an_evidence_heading_is_an_order_and_the_evidence_decides():
    from forge.rulebook.language.condition import claims_decide

    text = "evidence mentions a reverse shell => rate it critical, recommend Restore on it"
    words = read_wording(text)
    assert words.conditions and "Restore" in words.verbs
    assert claims_decide(text)


def test_a_host_left_out_of_the_hosts_outside_a_subnet_keeps_the_denial_of_that_subnet():
    found = rule_claims("Restore any box outside the op subnet showing a scan, except Enterprise0.", with_instruction=True)
    assert truth(found, read_situation(_alerts(("User1", "Scan", "No")))) is True
    assert truth(found, read_situation(_alerts(("Op_Host1", "Scan", "No")))) is not True
    assert truth(found, read_situation(_alerts(("Enterprise0", "Scan", "No")))) is not True


def test_a_window_after_the_defenders_move_is_read_after_a_labels_colon():
    text = "Restoring Op_Host1 twice got me nowhere. Lesson: after you restore Op_Host1, skip restoring it within the next three turns."
    found = rule_claims(text)
    assert found is not None and found.acted == "Restore" and found.within == 3


def test_the_attacker_owning_a_host_is_a_condition_read_whole():
    text = "Remove Op_Host2 whenever the attacker owns it."
    assert complete_claims(text, rule_claims(text))
