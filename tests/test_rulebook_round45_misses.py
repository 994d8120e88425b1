"""Issue 29, round 45 (misses on blind-42): readings the product lacked, so a faithful compilation was refused, or a rule
kept semantic stayed silent where its own words apply. One test per class; every sentence here is written for the test."""

from forge.rulebook.authoring.checks import completed_action, text_problem
from forge.rulebook.authoring.compile import looks_like_format
from forge.rulebook.language.claims import claims
from forge.rulebook.language.condition import listed_claims, semantic_claims
from forge.rulebook.language.guard import guard_rest
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.wording import conditions_left_out
from forge.rulebook.language.predicate import implies, parse_predicate
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording

REFUSED = "predicate refused: a check"


def _read(text: str):
    """The claims a semantic rule whose predicate was refused is held to (None: none)."""
    return semantic_claims(text, REFUSED, text)


def _is(found, when: dict) -> bool:
    """Whether claims say exactly `when` (each implies the other)."""
    other = parse_predicate(when)
    return found is not None and implies(found, other) and implies(other, found)


def test_a_checklist_of_states_referred_to_as_a_whole_is_the_condition():
    # numbered items, then "when both items hold"; a bulleted one, then "if all of the above are true"
    numbered = ("Runbook for Op_Host2, chooser:\n1. Op_Host2 shows Activity Scan.\n2. User4 is not compromised.\n"
                "When both items hold, put a DecoyApache on Op_Host2.")
    found = _read(numbered)
    assert _is(found, {"all": [{"host": "Op_Host2", "activity": "Scan"}, {"host": "User4", "compromise": "No"}]})
    bulleted = "User1 check:\n- it shows an exploit\n- it is at user level\nIf all of the above are true, remove User1."
    assert _is(_read(bulleted), {"host": "User1", "activity": "Exploit", "compromise": "User"})
    assert text_problem(numbered, {"all": [{"host": "Op_Host2", "activity": "Scan"}, {"not": {"host": "User4", "compromise": "any"}}]},
                        {"mode": "do", "verb": "DecoyApache", "target": "Op_Host2"}) is None


def test_a_table_of_cases_under_a_labelled_heading_applies_in_any_case():
    text = "op boxes - our short list:\n- probe only -> DecoyTomcat on it\n- exploit under way -> Remove it"
    found = listed_claims(text)
    assert found is not None and _read(text) is not None
    assert implies(parse_predicate({"class": "Operational", "activity": "Exploit"}), found)
    assert implies(parse_predicate({"class": "Operational", "activity": "Scan", "compromise": "No"}), found)


def test_neither_nor_in_shorthand_and_two_levels_with_their_articles():
    assert _is(claims("neither E1 nor E2 owned"), {"all": [{"host": "Enterprise1", "compromise": "No"},
                                                           {"host": "Enterprise2", "compromise": "No"}]})
    text = "Restore User4 the moment it shows either a root-level or a user-level compromise."
    assert _is(rule_claims(text), {"host": "User4", "compromise": "any"})
    # the one level of the two is narrower than the text: refused (kept semantic, read whole)
    assert text_problem(text, {"host": "User4", "compromise": "any"}, {"mode": "do", "verb": "Restore", "target": "User4"}) is None
    assert text_problem(text, {"host": "User4", "compromise": "Privileged"},
                        {"mode": "do", "verb": "Restore", "target": "User4"}, "either level").startswith("narrow")


def test_a_prohibition_word_itself_denied_is_an_order():
    text = "Never skip the Analyse of User3 when it shows a scan."
    assert not read_wording(text).prohibitions
    assert text_problem(text, {"host": "User3", "activity": "Scan"}, {"mode": "do", "verb": "Analyse", "target": "User3"}) is None
    assert read_wording("Do not hold off on a Remove of User3 when it is exploited.").prohibitions == ()


def test_hedges_and_defaults_before_the_order_are_no_condition_and_no_story():
    for lead in ("As a rule of thumb,", "By default,", "Usually,", "Generally,"):
        assert gives_order(f"{lead} remove Op_Host1 while it is being exploited.")
    text = "I waited on Op_Host1 last time. As a rule of thumb, where possible, remove Op_Host1 while it is being exploited."
    assert _is(_read(text), {"host": "Op_Host1", "activity": "Exploit"})
    assert _is(_read("Where possible, restore Enterprise2 once it is at root."), {"host": "Enterprise2", "compromise": "Privileged"})


def test_a_situation_said_with_with_or_after_a_comma_is_part_of_the_condition():
    text = "While red is still in reconnaissance, with just probes and nothing owned anywhere, decoy the probed box."
    found = _read(text)
    assert found is not None and implies(found, parse_predicate({"not": {"class": "any", "compromise": "any"}}))
    assert implies(found, parse_predicate({"class": "any", "activity": "Scan"}))
    said = "Once red is in reconnaissance, scans seen and no host owned anywhere, decoy the scanned box."
    assert len(read_wording(said).conditions) == 1 and "no host owned" in read_wording(said).conditions[0].text
    # a story that opens with "with" stays a story
    story = "With Enterprise2 owned we removed it twice, to no avail. When Enterprise2 is owned, restore it."
    assert [c.text for c in read_wording(story).conditions] == ["When Enterprise2 is owned"]


def test_the_teachers_resolve_after_next_time_and_the_lesson_lead_are_the_order():
    text = ("My grade for Op_Host0 was low, though the box had a user-level foothold. Next time, for any op host under "
            "analysis whose compromise has reached user level, I should grade it high and propose its Remove.")
    assert read_wording(text).gives_order
    assert text_problem(text, {"class": "Operational", "compromise": "User"}, {"mode": "do", "verb": "Remove", "target": "$matched"}) is None
    lesson = "I restored User4 during an exploit and wasted a step. My takeaway is that User4 under exploit calls for a Remove of User4."
    assert conditions_left_out(lesson) == ()
    assert _is(_read(lesson), {"host": "User4", "activity": "Exploit"})


def test_the_others_of_an_exact_count_are_each_of_the_rest_it_counts():
    found = claims("exactly one user host is owned and the other four are clean")
    assert found is not None and not implies(found, parse_predicate({"host": "Op_Server0", "compromise": "No"}))
    assert implies(parse_predicate({"all": [{"host": "User2", "compromise": "User"}] + [
        {"host": h, "compromise": "No"} for h in ("User0", "User1", "User3", "User4")]}), found)
    text = "When exactly one op host is owned and the other three are clean, plan a Restore for that host."
    assert text_problem(text, {"class": "Operational", "compromise": "any"}, {"mode": "do", "verb": "Restore", "target": "$matched"},
                        "exactly one op host owned, the other three clean") is None


def test_counts_said_as_a_share_of_a_class():
    found = _read("Once most of the user boxes are owned, plan a Restore of User1.")
    three = {"all": [{"host": h, "compromise": "User"} for h in ("User0", "User2", "User3")]}
    two = {"all": [{"host": h, "compromise": "User"} for h in ("User0", "User2")]}
    assert implies(parse_predicate(three), found) and not implies(parse_predicate(two), found)


def test_a_class_the_order_goes_ahead_of_and_a_plans_second_move():
    text = "When Op_Server0 is owned, restore it before touching any enterprise server."
    assert text_problem(text, {"host": "Op_Server0", "compromise": "any"}, {"mode": "do", "verb": "Restore", "target": "Op_Server0"}) is None
    plan = "If User2 is being exploited, plan a Remove of User2 first and an Analyse on it after."
    assert text_problem(plan, {"host": "User2", "activity": "Exploit"},
                        {"mode": "do", "verb": "Remove", "target": "User2", "then": [{"verb": "Analyse", "target": "User2"}]}) is None
    assert text_problem(plan, {"host": "User2", "activity": "Exploit"}, {"mode": "do", "verb": "Analyse", "target": "User2"}) is not None


def test_history_and_time_in_more_words():
    fresh = _read("E2 newly owned (clean at the prev step) -> Remove E2 at once")
    assert fresh is not None and implies(fresh, parse_predicate({"host": "Enterprise2", "newly_compromised": True}))
    assert implies(parse_predicate({"host": "Enterprise2", "compromise": "User", "newly_compromised": True}), fresh)
    found = _read("My plan kept removing the same box. Any host owned since before the previous step should be restored.")
    assert found is not None and implies(found, parse_predicate({"class": "any", "compromise": "any", "newly_compromised": False}))
    assert implies(parse_predicate({"host": "Op_Host2", "compromise": "User", "newly_compromised": False}), found)
    windowed = _read("Until step 8, plan a DecoySmss on whichever enterprise server is scanned.")
    assert windowed is not None and windowed != parse_predicate({"not": {"always": True}})
    # newly compromised is compromised now: a predicate that says so states the text's condition
    assert implies(parse_predicate({"host": "User3", "newly_compromised": True}), parse_predicate({"host": "User3", "compromise": "any"}))


def test_a_condition_ends_before_the_inaction_it_replaces():
    found = _read("What I'd take from this: Analyse Op_Host1 whenever it shows a scan instead of leaving it be.")
    assert _is(found, {"host": "Op_Host1", "activity": "Scan"})


def test_cases_of_a_check_after_a_heading_apply_in_either_case():
    text = ("Steps to follow when an op host is owned: first, whether Enterprise0 is clean; if so, plan a DecoyApache on "
            "Enterprise0, and if Enterprise0 is already owned, plan its Restore instead.")
    found = _read(text)
    owned = {"all": [{"host": "Op_Host1", "compromise": "User"}, {"host": "Enterprise0", "compromise": "User"}]}
    clean = {"all": [{"host": "Op_Host1", "compromise": "User"}, {"host": "Enterprise0", "compromise": "No"}]}
    assert implies(parse_predicate(owned), found) and implies(parse_predicate(clean), found)
    assert not implies(parse_predicate({"host": "Enterprise0", "compromise": "No"}), found)  # an op host owned, still


def test_the_role_addressed_and_its_own_words_and_the_plans_length():
    text = "Planner, not chooser: when Op_Host0 is exploited you plan Restore Op_Host0 yourself, whatever else is going on."
    assert [c.text for c in read_wording(text).conditions] == ["when Op_Host0 is exploited"]
    assert guard_rest("you plan", parse_predicate({"host": "Op_Host0", "activity": "Exploit"}), text) == ""
    assert gives_order("Analyst: cap every answer at two lines.") and looks_like_format("Planner: cap every plan at two actions.")


def test_an_order_beside_a_prohibition_of_another_verb_is_preferred_over_it():
    done = completed_action("User4 at user level: Remove User4, never Restore it.", {"mode": "do", "verb": "Remove", "target": "User4"})
    assert done == {"mode": "prefer", "verb": "Remove", "target": "User4", "over": {"verb": "Restore", "target": "User4"}}
    apart = completed_action("Remove User4 when it is exploited. Never restore it while it is only scanned.",
                             {"mode": "do", "verb": "Remove", "target": "User4"})
    assert apart["mode"] == "do"
