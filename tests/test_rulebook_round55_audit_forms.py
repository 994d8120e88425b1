"""Round 55 audit (r55b) of r55m's sentence readers (forms.py, scope.py), probed with sentences of our own. Each test is a
reading wider than the words, or their opposite, on e5304e9:
- "not until <host> is clean again" waits for the clean state: read as "until" (while not clean), the opposite;
- a time to the episode's end with a restriction after it ("... till the end of the game unless ..."): left out, the
  time's start went with it and the restriction alone was the condition;
- a description of a host that tells what befell it ("the box red owns", "our owned box") is no description: read as the
  host alone, the order held in every state;
- what a move is good for, before a move ordered ("A Restore only works on a rooted host: Restore User2"), is the order's
  condition; dropped, the order held in every state;
- "respectively" at the end of a list of three orders pairs its states with other hosts than the last two;
- an every/each heading with a further clause ("each user host, once all are scanned: Analyse") waits for the class."""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import Always, AnyOf, Atom, Not
from forge.rulebook.language.wording import read_wording

_REFUSED = "predicate refused: a check turned it down"


def _claims(text):
    return semantic_claims(text, _REFUSED, text)


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def test_not_until_a_host_is_clean_again_is_never_while_it_is_not_clean():
    for text in ("Not until Enterprise1 is clean again: Restore User1.",
                 "Restore User1, but not until Enterprise1 is clean again."):
        assert _claims(text) != Not(Atom(host="Enterprise1", compromise="No")), text
    # the plain order still reads its time
    assert _claims("Until Enterprise1 is clean again, Remove Enterprise1 every step.") == \
        Not(Atom(host="Enterprise1", compromise="No"))


def test_the_episode_s_end_with_a_restriction_after_it_keeps_its_start():
    for text in ("From the first probe of User3 until the very end of the match unless Op_Server0 is rooted, never Sleep.",
                 "From the first probe of User3 until the very end of the match, unless Op_Server0 is rooted, never Sleep."):
        assert _claims(text) != Not(Atom(host="Op_Server0", compromise="Privileged")), text


def test_a_description_that_tells_what_befell_the_host_is_no_description():
    for text in ("User2 is the box red owns: Restore it.", "Enterprise2 is the server red took: Restore it.",
                 "User3 is a lost cause: Restore it.", "Op_Server0 is the one being hammered: decoy it."):
        assert not read_wording(text).text.startswith(text.split()[0] + ":"), text
        assert _claims(text) != Atom(host=text.split()[0]), text
    assert _claims("When the owned box, User3, is probed, Remove it.") != Atom(host="User3", activity="Scan")
    # a description that only says who the host is still names the host alone
    assert read_wording("User0 is the CEO's laptop: never reimage it.").text == "User0: never reimage it."
    # (and a noun that only ends like a participle, "crown", is no state)
    assert read_wording("Once the crown asset, Op_Server0, gets probed, decoy it.").text.startswith("Once Op_Server0 gets probed")


def test_what_a_move_is_good_for_before_a_move_ordered_is_its_condition():
    text = "A Restore only works on a rooted host: Restore User2."
    assert _claims(text) != Atom(host="User2")
    assert text_problem(text, {"class": "any", "compromise": "Privileged"}, _do("Restore", "User2")) is not None


def test_respectively_at_the_end_of_a_longer_list_pairs_nothing():
    text = "Remove E1, Restore E2 and Analyse E0 once they get rooted and probed respectively."
    assert "respectively" in read_wording(text).text


def test_an_each_heading_that_waits_for_the_whole_class_is_no_host_s_own_case():
    found = _claims("each user host, once all are scanned: Analyse")
    assert not isinstance(found, AnyOf)
    assert found != Not(Always())


def test_respectively_after_a_word_that_bears_on_both_orders_pairs_nothing():
    for text in ("Never Remove User1 and Restore User2 when they are scanned and rooted respectively.",
                 "I would Remove User1 and Restore User2 when they are scanned and rooted respectively? Not sure."):
        assert "respectively" in read_wording(text).text, text


def test_a_host_that_comes_first_then_another_move_is_no_order_of_that_move():
    # (the priority stays in the condition, where the compiler leaves it unexpressed and the rule silent: read as the
    # order's rank, the rule restored User1 while Op_Server0, the host that comes first, was being exploited)
    text = "Once Op_Server0 is being exploited it goes first, then Restore User1."
    assert [c.text for c in read_wording(text).conditions] != ["Once Op_Server0 is being exploited"]
    assert [c.text for c in read_wording("If User4 shows an exploit that takes priority: Remove User4.").conditions] == \
        ["If User4 shows an exploit"]


def test_a_wait_until_a_host_is_clean_again_then_an_order_is_no_order_while_it_is_not_clean():
    for text in ("Wait until Enterprise1 is clean again, then Restore User1.",
                 "Hold off on User1 until Enterprise1 is clean again; then Restore User1."):
        assert _claims(text) != Not(Atom(host="Enterprise1", compromise="No")), text
        assert text_problem(text, {"not": {"host": "Enterprise1", "compromise": "No"}}, _do("Restore", "User1")) is not None, text


def test_a_priority_before_a_restriction_of_the_condition_keeps_it():
    text = "If Enterprise2 is owned it gets top priority, unless User4 is owned as well: Remove Enterprise2."
    assert [c.text for c in read_wording(text).conditions] != ["If Enterprise2 is owned"]
    assert text_problem(text, {"host": "Enterprise2", "compromise": "any"}, _do("Remove", "Enterprise2")) is not None


def test_not_until_a_state_opens_the_order_once_the_state_holds():
    # (the plain form read before r55m's reader came: "not until" was read as "until", while not clean: the opposite)
    for text in ("Not until Enterprise2 is quiet: Remove User4.", "Remove User4, but not till Enterprise2 is quiet."):
        assert _claims(text) == Atom(host="Enterprise2", activity="None", compromise="No"), text
    # a ban "until" stays a ban while the state does not hold
    assert _claims("Do not Remove User4 until Enterprise2 is quiet.") != Atom(host="Enterprise2", activity="None", compromise="No")
