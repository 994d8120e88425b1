"""Round 56 (r56l): readings the fifty-fifth round left wrong.

1. A compiler's `unexpressed` rest that only orders another move in another case of the text ("the other box, once
   rooted: Restore it") is no condition on the rule's own move: it never guards (the rule was silent in its own case).
   A rest that speaks of the rule's own move, or of a sequence, still guards.
2. A time that starts at a host's first event ("from the first probe of X on") is the condition that the host has shown
   that state: with a restriction after it ("..., unless Y is rooted"), the restriction alone had been the condition.
3. A statement after a condition that ends in a restriction ("if X is rooted, it takes priority, unless ...: <order>"):
   the statement is the order's reason, but its restriction restricts the condition (dropped with the reason, a predicate
   without the exception passed the checks).
4. A ban limited by a count of steps ("don't sink more than one turn into a Remove") is no plain "never", and no order
   of the move either: said_in_words reads neither, and a compiled "never" is refused.
5. A move named only in a question nothing answers ("Ought we to Remove Op_Host0 once it is owned?") is no order and no
   ban: a compiled "do" or "never" of it is refused, and said_in_words reads none. (A request, "could you ...?", and a
   question its answer or order follows are read as before.)"""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import content_meaning
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.guard import guard_rest
from forge.rulebook.language.predicate import parse_predicate


def test_a_rest_that_orders_another_case_move_does_not_guard():
    for text, when, action, rest in (
            ("Put a DecoyApache on User2 while it is probed; when User2 is rooted we Restore it instead.",
             {"host": "User2", "activity": "Scan"}, {"mode": "do", "verb": "DecoyApache", "target": "User2"},
             "User2 rooted: Restore User2"),
            ("Remove Enterprise1 if it shows an exploit; Restore the box instead whenever it ends up owned.",
             {"host": "Enterprise1", "activity": "Exploit"}, {"mode": "do", "verb": "Remove", "target": "Enterprise1"},
             "Restore Enterprise1 whenever Enterprise1 is owned"),
            ("Scanned user boxes get a decoy; any box past the scan stage is simply Removed.",
             {"class": "User", "activity": "Scan"}, {"mode": "do", "verb": "DecoyApache", "target": "$matched"},
             "a box past the scan stage gets Remove rather than the decoy")):
        meaning = content_meaning(text, when, action, rest)
        assert meaning.when is not None and meaning.unexpressed == "", (text, meaning)


def test_a_rest_on_the_rules_own_move_still_guards():
    when = parse_predicate({"host": "User3", "activity": "Exploit"})
    own = {"mode": "do", "verb": "Remove", "target": "User3"}
    for rest in ("User0 rooted: no Remove on User3", "User1 probed: Analyse User3 first",
                 "Remove User3 only when the alert sits at critical priority"):
        assert guard_rest(rest, when, "", own) == rest, rest


def _claims(text):
    return semantic_claims(text, "predicate refused: a check turned it down", text)


def test_a_time_from_a_hosts_first_event_keeps_its_start():
    from forge.rulebook.language.predicate import AllOf, Atom

    for text, start in (
            ("From the first probe of Enterprise2 on, unless Op_Host2 is rooted, keep a decoy on Enterprise2.",
             Atom(host="Enterprise2", activity="Scan")),
            ("From Enterprise0's first exploit onwards, Restore Enterprise0 each turn unless Op_Host2 is rooted.",
             Atom(host="Enterprise0", activity="Exploit"))):
        found = _claims(text)
        assert isinstance(found, AllOf) and start in found.parts, (text, found)
    text = "From the first probe of Enterprise2 on, unless Op_Host2 is rooted, Remove Enterprise2."
    action = {"mode": "do", "verb": "Remove", "target": "Enterprise2"}
    assert text_problem(text, {"not": {"host": "Op_Host2", "compromise": "Privileged"}}, action) is not None
    assert text_problem(text, {"all": [{"host": "Enterprise2", "activity": "Scan"},
                                       {"not": {"host": "Op_Host2", "compromise": "Privileged"}}]}, action) is None


def test_a_restriction_after_a_stated_priority_stays_with_the_condition():
    action = {"mode": "do", "verb": "Restore", "target": "User4"}
    plain = {"host": "User4", "compromise": "Privileged"}
    kept = {"all": [plain, {"not": {"host": "Enterprise2", "activity": "Exploit"}}]}
    for text in ("If User4 is rooted, it takes priority, unless Enterprise2 is under exploit: Restore User4.",
                 "If U4 is rooted, that one has priority over the rest, unless E2 is under exploit: Restore U4."):
        assert text_problem(text, plain, action) is not None, text
        assert text_problem(text, kept, action) is None, text


def test_a_ban_limited_by_steps_spent_is_neither_never_nor_an_order():
    from forge.rulebook.language.said import said_in_words

    when = {"host": "Op_Host1", "compromise": "User"}
    for text in ("Once Op_Host1 is owned, do not sink more than one turn into a Remove.",
                 "Never burn three moves removing Op_Host1 while it is owned."):
        assert said_in_words(text) is None, text
        assert text_problem(text, when, {"mode": "never", "verb": "Remove", "target": "Op_Host1"}) is not None, text


def test_a_move_only_asked_about_is_no_order():
    from forge.rulebook.language.said import said_in_words

    when = {"host": "Op_Host0", "compromise": "User"}
    for text in ("Ought we to Remove Op_Host0 once it is owned?",
                 "What about a Remove on Op_Host0 whenever it ends up owned?",
                 "Op_Host0 owned. Who in their right mind would Remove it then?"):
        for mode in ("do", "never"):
            assert text_problem(text, when, {"mode": mode, "verb": "Remove", "target": "Op_Host0"}) is not None, (text, mode)
        assert said_in_words(text) is None, text
    for text in ("Could you Remove Op_Host0 once it is owned?", "Ought we to Remove Op_Host0 once it is owned? Yes, always."):
        assert text_problem(text, when, {"mode": "do", "verb": "Remove", "target": "Op_Host0"}) is None, text
