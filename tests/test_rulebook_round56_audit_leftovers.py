"""Round 56 audit (r56d) of r56l's readers: where they read more than the words, or the opposite.

1. guard._orders_other_moves dropped a rest whose case limits the rule's own case ("unless User2 is rooted: Restore
   it", "provided ... -> Restore it otherwise", "Op_Server0 clean only: otherwise ..."), whose other case holds the rule's
   own move off its target ("Restore Op_Server0, skip User2"), or that puts the other move before the rule's in words
   `_SEQUENCE` missed ("beforehand", "in advance"): each is a condition on the rule's own move, and the rule spoke
   without it.
2. forms.first_event_said rewrote a first-event time the text denies ("not from the first probe of X on, but ...") as the
   rule's condition: the opposite of the words.
3. forms.moves_only_asked took an order or a ban closed by an assent tag ("..., OK?", "..., is that clear?") for a
   question: a plain ban was read as none. And `_REQUEST` took "will we ...?" for a request.
4. forbidding._STEPS_ON_MOVE missed a run of steps ("three steps in a row restoring X"), read as an order of the move.
"""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import content_meaning
from forge.rulebook.language.guard import guard_rest
from forge.rulebook.language.predicate import parse_predicate
from forge.rulebook.language.said import said_in_words


def test_a_rest_that_limits_the_rules_own_case_still_guards():
    when = parse_predicate({"host": "Enterprise1", "activity": "Exploit"})
    own = {"mode": "do", "verb": "Remove", "target": "Enterprise1"}
    for rest in ("unless Enterprise1 is at root: Restore Enterprise1",
                 "except when Enterprise1 is rooted -> Restore Enterprise1",
                 "but not when Enterprise1 is privileged: a Restore of Enterprise1",
                 "provided Enterprise1 is not rooted -> Restore it otherwise",
                 "Op_Host0 clean only: otherwise Restore Op_Host0",
                 "Enterprise1 not rooted: else Restore Enterprise1"):
        assert guard_rest(rest, when, "", own) == rest, rest
    # (the other case alone, with its own move, still never guards: r56l's reading)
    for rest in ("Enterprise1 rooted: Restore Enterprise1", "Op_Host2 rooted: Restore Op_Host2 instead",
                 "Enterprise1 rooted: Restore Enterprise1, not Analyse"):
        assert guard_rest(rest, when, "", own) == "", rest


def test_an_other_case_that_holds_off_the_rules_target_still_guards():
    when = parse_predicate({"host": "User1", "activity": "Exploit"})
    own = {"mode": "do", "verb": "Remove", "target": "User1"}
    for rest in ("Op_Host2 rooted: Restore Op_Host2 and leave User1 alone",
                 "Op_Host2 rooted: Restore Op_Host2, skip User1",
                 "Op_Host2 owned: hold off on User1, Restore Op_Host2",
                 "Op_Host2 owned: Restore Op_Host2, no move on User1"):
        assert guard_rest(rest, when, "", own) == rest, rest
    # (a rule's action aimed at the hosts its trigger matched: its target is the trigger's host)
    matched = {"mode": "do", "verb": "Remove", "target": "$matched"}
    assert guard_rest("Op_Host2 rooted: Restore Op_Host2, skip User1", when, "", matched)


def test_an_other_move_put_before_the_rules_own_still_guards():
    when = parse_predicate({"host": "User1", "activity": "Exploit"})
    own = {"mode": "do", "verb": "Remove", "target": "User1"}
    for rest in ("User1 exploited: Analyse User1 beforehand", "Analyse User1 in advance whenever it is exploited",
                 "User1 exploited: an Analyse of User1 to begin with", "User1 exploited: Analyse it prior"):
        assert guard_rest(rest, when, "", own) == rest, rest


def test_a_limit_said_as_the_other_case_is_kept_in_the_stored_rule():
    text = "Remove Enterprise1 on an exploit.\nNot at root, though -> at root it gets a Restore."
    meaning = content_meaning(text, {"host": "Enterprise1", "activity": "Exploit"},
                              {"mode": "do", "verb": "Remove", "target": "Enterprise1"}, "not at root -> Restore Enterprise1 otherwise")
    assert meaning.when is None or meaning.unexpressed, meaning


def test_a_denied_time_from_a_first_event_is_no_condition():
    from forge.rulebook.language.predicate import atoms_of

    for text in ("Not from the first scan of Op_Host1 on, but only from its first exploit on, Remove Op_Host1.",
                 "Never from Op_Host1's first probe onwards; Remove Op_Host1 from its first exploit on."):
        said = said_in_words(text)
        assert said is None or not any(a.activity == "Scan" and not n for a, n in atoms_of(said[0])), (text, said)
    text = "Not from the first scan of Op_Host1 on, but only from its first exploit on, Remove Op_Host1."
    assert text_problem(text, {"host": "Op_Host1", "activity": "Exploit"},
                        {"mode": "do", "verb": "Remove", "target": "Op_Host1"}) is None


def test_an_order_closed_by_an_assent_tag_is_an_order():
    for text, when, mode, verb, host in (
            ("Never Analyse Enterprise2 while it is being scanned, is that clear?", {"host": "Enterprise2", "activity": "Scan"},
             "never", "Analyse", "Enterprise2"),
            ("Restore Op_Host0 once it is rooted, okay?", {"host": "Op_Host0", "compromise": "Privileged"}, "do", "Restore", "Op_Host0"),
            ("Once Enterprise2 is exploited, Remove Enterprise2, got it?", {"host": "Enterprise2", "activity": "Exploit"},
             "do", "Remove", "Enterprise2"),
            ("Don't Restore Op_Host0 at user level - why would you?", {"host": "Op_Host0", "compromise": "User"},
             "never", "Restore", "Op_Host0")):
        said = said_in_words(text)
        assert said is not None and said[1].mode == mode and said[1].move.verb == verb, (text, said)
        assert text_problem(text, when, {"mode": mode, "verb": verb, "target": host}) is None, text
    # (a question with a tag, or a mocking tag after an order, still orders nothing)
    for text in ("Should we Restore Op_Host0 once it is rooted, do you think?",
                 "Restore Op_Host0 once it is rooted - why would you?",
                 "Remove Op_Host0 once it is owned, or Restore it?"):
        said = said_in_words(text)
        assert said is None or said[1].mode != "do" or said[1].move.verb not in ("Restore", "Remove"), (text, said)


def test_will_we_asks_and_orders_nothing():
    text = "Will we Restore Op_Host0 once it is rooted? We will not."
    assert said_in_words(text) is None
    assert text_problem(text, {"host": "Op_Host0", "compromise": "Privileged"},
                        {"mode": "do", "verb": "Restore", "target": "Op_Host0"}) is not None


def test_a_run_of_steps_spent_on_a_move_is_a_count():
    for text in ("Never spend two steps in a row restoring Op_Host2 while it is rooted.",
                 "Don't burn three turns back to back on a Remove of Op_Host2 once it is owned."):
        assert said_in_words(text) is None, text
        verb = "Restore" if "restor" in text else "Remove"
        assert text_problem(text, {"host": "Op_Host2", "compromise": "Privileged"},
                            {"mode": "never", "verb": verb, "target": "Op_Host2"}) is not None, text
