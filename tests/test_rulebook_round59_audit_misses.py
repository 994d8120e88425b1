"""Round 59 audit (r59b) of r59m's readers: forms of words those readers took for more than they say, or their
opposite, on sentences they were not written from.

- a question answered by "do it / go ahead" orders the asked move only where the answer is the whole sentence: an
  answer that goes on ("Do it only if ...", "Do that when ... instead", "Go ahead and forget it", "Do that and red
  wins") says when or whether, and the asked move stays only asked (forms._ANSWER_ORDERS_IT);
- a ban that names no move, "Don't do it, though.", "...; never do that.", "so don't.", takes back the order before it:
  no compiled order of that text passes (forbidding._TAKEN_BACK, checks._move_taken_back);
- advice said by denying its harm ("no harm in a Restore", "can't hurt to Analyse") forbids nothing: its "no" / "can't"
  opens no ban, and a compiled "never" of the urged move is the opposite of the words (forbidding.HARM_DENIED);
- "burned" is a compromise only of a host (by its name, its class's noun or a pronoun): "a turn is burned on it" spends
  what the defender has (situation._PROSE_COMPROMISE);
- a window of steps right after "not" / "never" ("PS: not on the first step", "Never in the first two steps.") is the
  steps the rule does not reach, as after "but not" (episode._EXCEPTED_BEFORE).
"""
from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.episode import step_windows
from forge.rulebook.language.forbidding import prohibitions_in
from forge.rulebook.language.forms import moves_only_asked
from tests.situations import every_host_alert_lines, refused_rule_holds, refused_rule_holds_on


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


# --- a question answered by an order that goes on: no assent to the asked move ---------------------------------------

def test_an_answer_that_narrows_moves_or_turns_down_orders_nothing_asked():
    for text in ("Ought we to Remove User4 as soon as it gets scanned? Do it only if Enterprise1 shows a root as well.",
                 "Would a Restore on User3 help when it gets scanned? Do that once it is rooted instead.",
                 "Restore Enterprise0 the moment a scan shows up? Go ahead and forget about it.",
                 "Is a Remove of Op_Host2 wise on a mere scan? Do that and the red agent wins.",
                 "Plant a decoy on Op_Host0 when User2 gets scanned? Do so next episode, not in this one."):
        assert moves_only_asked(text), text
    when = {"host": "User4", "activity": "Scan"}
    found = text_problem("Ought we to Remove User4 as soon as it gets scanned? Do it only if Enterprise1 shows a root "
                         "as well.", when, _do("Remove", "User4"))
    assert found is not None and found.startswith("polarity")
    # (an answer that is the whole sentence still orders the asked move)
    for text in ("Ought we to Remove User4 as soon as it gets scanned? Do it.",
                 "Would a Restore on User3 help when it gets rooted? Yes, go ahead!",
                 "A decoy on Op_Host0 when it gets scanned is worth it, isn't it? Just do it now."):
        assert moves_only_asked(text) == frozenset(), text


# --- advice said by denying its harm: no ban of the move it urges --------------------------------------------------

def test_a_denied_harm_urges_its_move_and_forbids_nothing():
    for text, when, verb, host in (
            ("There is no harm in restoring Enterprise0 so long as it shows no scan.", {"host": "Enterprise0", "activity": "None"},
             "Restore", "Enterprise0"),
            ("It surely can't hurt to Analyse User4 the moment it gets scanned.", {"host": "User4", "activity": "Scan"},
             "Analyse", "User4"),
            ("It never hurts to plant a DecoyTomcat on Op_Host2 once it gets scanned.", {"host": "Op_Host2", "activity": "Scan"},
             "DecoyTomcat", "Op_Host2")):
        assert prohibitions_in(text)[0] == (), text
        # a "never" of the move urged is its opposite; its order says what the words say
        found = text_problem(text, when, {"mode": "never", "verb": verb, "target": host})
        assert found is not None and found.startswith("inverted"), text
        assert text_problem(text, when, _do(verb, host)) is None, text
    # (advice to hold off stays a ban of the move held off)
    assert [p.verb for p in prohibitions_in("It can't hurt to hold off on a Remove of User4 while it is scanned.")[0]] \
        == ["Remove"]


# --- a move taken back by a ban that names none: no order ----------------------------------------------------------

def test_a_ban_that_names_no_move_takes_back_the_order_before_it():
    for text, when, verb, host in (
            ("It can't hurt to Restore Op_Host2 when it gets exploited. Don't do it, though.",
             {"host": "Op_Host2", "activity": "Exploit"}, "Restore", "Op_Host2"),
            ("Decoy Enterprise0 the moment it gets scanned - or rather, don't.",
             {"host": "Enterprise0", "activity": "Scan"}, "DecoyApache", "Enterprise0"),
            ("Some teams Remove User4 once it gets scanned; never do that.",
             {"host": "User4", "activity": "Scan"}, "Remove", "User4"),
            ("Is a Remove of User4 risky once it gets scanned? Yes, never do that.",
             {"host": "User4", "activity": "Scan"}, "Remove", "User4")):
        found = text_problem(text, when, _do(verb, host))
        assert found is not None and found.startswith("polarity"), text


# --- "burned" of what the defender spends: no compromise of a host --------------------------------------------------

def test_burned_said_of_a_turn_or_a_budget_is_no_compromise():
    # a turn or a step spent on a host is no attacker's hold of it: the rule holds nowhere it can place
    for text in ("Restore Op_Host2 when a turn is burned on it.", "Restore Op_Host2 once a whole turn is burned on it.",
                 "Analyse Enterprise0 when a step has been burnt on a pointless Remove."):
        assert refused_rule_holds_on(text, Op_Host2="None/User", Enterprise0="None/User") is not True, text
    # (the host given away, by a pronoun or its name, still reads as its compromise)
    for text in ("Restore Op_Host2 as soon as it has been burnt.", "Restore Op_Host2 once Op_Host2 got burned."):
        assert refused_rule_holds_on(text, Op_Host2="None/User") is True, text
        assert refused_rule_holds_on(text, Op_Host2="Scan/No") is False, text


# --- a window of steps denied by the "not" / "never" before it: the steps ruled out ---------------------------------

def test_a_window_denied_by_not_or_never_is_where_the_rule_does_not_hold():
    for text in ("Decoy Op_Host2 whenever it gets scanned. PS: not on the first step.",
                 "Decoy Op_Host2 whenever it gets scanned. Plus: not before step 6.",
                 "Decoy Op_Host2 whenever it gets scanned; never during the opening three steps."):
        # scanned at step 1: the words rule the step out (read as the window, the rule held there alone)
        assert refused_rule_holds(text, "Step 1 of 30.\n" + every_host_alert_lines(Op_Host2="Scan/No")) is not True, text
    assert refused_rule_holds("Decoy Op_Host2 whenever it gets scanned. PS: not on the first step.",
                              "Step 9 of 30.\n" + every_host_alert_lines(Op_Host2="Scan/No")) is True
    # (a window after "not only" is no denial of it)
    assert step_windows("Decoy Op_Host2 whenever it gets scanned, not only in the first two steps.")[0].outside is False
