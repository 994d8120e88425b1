"""Round 55, second wave (r55e): wrong readings the first wave's auditors found and left, each probed with sentences of
our own. Each test fails on 2351291:
- a wait until a state, then an order ("wait until Enterprise1 is clean, then Restore User1"): the order is for once the
  state holds, read as "until" it held while the state did not (the opposite);
- "without" a move in a clause a negation opens ("do not close the turn without a Restore"): two negations demand the
  move, read as "no Restore" the text was a "never" of it;
- "why not <move>?" proposes the move: read as "not <move>", a ban;
- an action aimed at a whole class the text leaves a host of out ("never Restore a user box, not User2 though"): the
  check looked at `$matched` only, and the class target took the host in;
- a quoted note with no verdict under it (only "Agreed?", or nothing): a proposal, read as the note's order;
- a ban that names no host, with a clause that ends or lifts it ("never touch it until User3 is restored"): read as a ban
  on the host waited on; a ban whose condition only says what must not hold kept no host of the ban;
- a ban limited to some steps ("don't spend two steps on ...") or to a window at the end ("during the last 5 steps"):
  disputed as a plain "never";
- a question whether a move is a fault, answered "yes": disputed as an order of the move;
- a class that only names the source of an order ("per the usr side team, Remove User3"): disputed as the scope."""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.forbidding import prohibitions_in


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def _never(verb, target):
    return {"mode": "never", "verb": verb, "target": target}


def test_a_wait_until_a_state_then_an_order_is_the_order_once_the_state_holds():
    for text, host, verb, target in (("Wait until Enterprise1 is clean, then Restore User1.", "Enterprise1", "Restore", "User1"),
                                     ("Please hold off till User4 is uncompromised and then Remove Op_Host2.", "User4", "Remove", "Op_Host2"),
                                     ("Sit tight until Enterprise0 is quiet; then decoy Enterprise2.", "Enterprise0", "DeployDecoy", "Enterprise2")):
        assert text_problem(text, {"not": {"host": host, "compromise": "No"}}, _do(verb, target)) is not None, text
    # the reading once the state holds passes
    assert text_problem("Wait until Enterprise1 is clean, then Restore User1.", {"host": "Enterprise1", "compromise": "No"},
                        _do("Restore", "User1")) is None


def test_without_a_move_after_a_negation_demands_the_move():
    for text, host in (("Do not close the turn without a Restore of User1.", "User1"),
                       ("Never let a step go by without restoring Enterprise2.", "Enterprise2"),
                       ("You can't end your move without a Remove on User3.", "User3")):
        assert not [p for p in prohibitions_in(text)[0] if p.verb in ("Restore", "Remove")], text
        verb = "Remove" if "Remove" in text else "Restore"
        assert text_problem(text, {"host": host}, _never(verb, host)) is not None, text
    # "without" alone still forbids its move
    assert prohibitions_in("Act on User1 without a Restore.")[0]


def test_why_not_a_move_proposes_it_and_bans_nothing():
    for text, host, verb in (("Why not Restore User2 when it is rooted?", "User2", "Restore"),
                             ("Why don't we Remove User3 the moment it gets owned?", "User3", "Remove"),
                             ("why shouldn't we analyse Enterprise1 while it is being scanned?", "Enterprise1", "Analyse")):
        assert not prohibitions_in(text)[0], text
        assert text_problem(text, {"host": host}, _never(verb, host)) is not None, text
    # a ban beside the question stays a ban
    assert prohibitions_in("Never restore User2; why not Remove it?")[0]


def test_an_order_on_a_class_with_a_host_left_out_is_not_aimed_at_the_whole_class():
    for text, verb, mode in (("Never Restore a user box (e.g. User0, but except User2).", "Restore", "never"),
                             ("Never Restore a user box, not User2 though.", "Restore", "never"),
                             ("Decoy the user machines once scanned, save for User2.", "DeployDecoy", "do")):
        action = {"mode": mode, "verb": verb, "target": "User"}
        assert text_problem(text, {"class": "User"}, action) is not None, text
        # aimed at the matched host, with the host left out of the trigger, it passes
        kept = {"all": [{"class": "User"}, {"not": {"host": "User2"}}]}
        if mode == "never":
            assert text_problem(text, kept, {"mode": mode, "verb": verb, "target": "$matched"}) is None, text


def test_a_quoted_note_only_asked_about_or_left_unanswered_orders_nothing():
    from forge.rulebook.language.condition import semantic_claims
    from forge.rulebook.language.predicate import Not, Always
    for text, when, verb, host in (("> Put a decoy on Enterprise1 as soon as it is probed.\nAgreed?",
                                    {"host": "Enterprise1", "activity": "Scan"}, "DeployDecoy", "Enterprise1"),
                                   ("> Remove Op_Host1 whenever it shows a user foothold.",
                                    {"host": "Op_Host1", "compromise": "User"}, "Remove", "Op_Host1"),
                                   ("Re: cleanup\n> Restore Enterprise0 the moment it gets rooted.\nThoughts? Anyone?",
                                    {"host": "Enterprise0", "compromise": "Privileged"}, "Restore", "Enterprise0")):
        assert text_problem(text, when, _do(verb, host)) is not None, text
        assert semantic_claims(text, "predicate refused: x", text) == Not(Always()), text
    # agreed, the note is the rule
    agreed = "> Remove Op_Host1 whenever it shows a user foothold.\nAgreed."
    assert text_problem(agreed, {"host": "Op_Host1", "compromise": "User"}, _do("Remove", "Op_Host1")) is None


def test_a_ban_s_condition_on_another_host_is_no_place_of_the_ban_and_keeps_the_banned_host():
    from forge.rulebook.language.predicate import positive_hosts
    from forge.rulebook.language.said import forbidden_in_words
    for text, waited in (("Op_Host2 was probed. Do not touch it till Enterprise0 is restored.", "Enterprise0"),
                         ("Keep your hands off it until User1 gets restored.", "User1")):
        assert forbidden_in_words(text) is None, text
        assert text_problem(text, {"not": {"host": waited, "compromise": "No"}}, _never("any", waited)) is not None, text
    for text, banned in (("Leave Enterprise2 alone unless Op_Server0 gets rooted.", "Enterprise2"),
                         ("Leave User4 be until Enterprise1 is clean.", "User4")):
        said = forbidden_in_words(text)
        assert said is None or banned in positive_hosts(said[0]), text


def test_a_ban_limited_to_some_steps_or_a_window_at_the_end_is_no_plain_never():
    from forge.rulebook.language.predicate import Atom
    from forge.rulebook.language.said import said_in_words
    for text in ("Do not burn three turns on an Analyse of Enterprise1.",
                 "Never Remove Op_Host1 during the final 4 steps.",
                 "You shouldn't restore User4 over the last ten turns."):
        said = said_in_words(text)
        assert said is None or said[1].mode != "never" or not (isinstance(said[0], Atom) and said[0].bare()), text
    # a plain ban is still one
    assert said_in_words("Never Remove Op_Host1.")[1].mode == "never"


def test_a_fault_question_answered_yes_turns_the_move_down():
    from forge.rulebook.language.said import said_in_words
    for text, host, verb in (("Would a Remove be a mistake on Op_Host1? Yes.", "Op_Host1", "Remove"),
                             ("Is a Restore of Enterprise2 overkill? Yeah, sadly.", "Enterprise2", "Restore")):
        said = said_in_words(text)
        assert said is None or said[1].mode != "do", text
        assert text_problem(text, {"host": host}, _do(verb, host)) is not None, text


def test_a_class_that_only_names_the_order_s_source_is_no_scope():
    from forge.rulebook.language.predicate import positive_hosts
    from forge.rulebook.language.said import said_in_words
    for text, host in (("Per the usr side team, Remove User3.", "User3"),
                       ("According to the ent tier admins: Restore Enterprise1 at root.", "Enterprise1")):
        said = said_in_words(text)
        assert said is None or positive_hosts(said[0]) == {host}, text
