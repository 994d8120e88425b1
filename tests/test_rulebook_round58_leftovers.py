"""Round 58 (r58l): readings earlier rounds' audits found wrong and left.

1. A lead that only stresses an answer ("No discussion, no.") is no answer of its own: the "no" after it turns the move
   asked down, and an order of that move is refused.
"""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.said import said_in_words


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def _never(verb, target):
    return {"mode": "never", "verb": verb, "target": target}


def test_a_stressed_no_after_a_question_turns_the_move_down():
    for text, when, verb, host in (
            ("Q: Restore User2 once it is rooted? A: No discussion, no.", {"host": "User2", "compromise": "Privileged"},
             "Restore", "User2"),
            ("Remove Enterprise1 on an exploit? No debate about it: nope.", {"host": "Enterprise1", "activity": "Exploit"},
             "Remove", "Enterprise1")):
        assert text_problem(text, when, _do(verb, host)) is not None, text
        said = said_in_words(text)
        assert said is None or said[1].mode != "do", (text, said)
    # (a lead that urges the move, with no denial after it, still orders it)
    urged = "Remove Enterprise1 on an exploit? No question, Remove it."
    assert text_problem(urged, {"host": "Enterprise1", "activity": "Exploit"}, _do("Remove", "Enterprise1")) is None


def test_a_reason_said_first_before_a_colon_leaves_the_order_after_it():
    from forge.config import load_config
    from forge.rulebook.authoring.compile import RuleCompiler, SourceItem, strip_justification
    from forge.wiring import build_clients

    text = "Because the ops side is where points are lost: Restore Op_Host2 once it reads Privileged."
    assert strip_justification(text) == "Restore Op_Host2 once it reads Privileged."
    # (a condition before the colon stays: no reason)
    assert strip_justification("When Op_Host2 reads Privileged: Restore it.").startswith("When Op_Host2")
    clients, _ = build_clients(load_config())
    (compiled,) = RuleCompiler(clients["compiler"]).compile([SourceItem("correction", "planner", text, "user:dana")]).rules
    assert compiled.verdict == "RULE" and compiled.when == {"host": "Op_Host2", "compromise": "Privileged"}, compiled


def test_a_claim_whose_speakers_the_writer_calls_wrong_is_no_ban_of_the_writer():
    for text, host, verb in (
            ("Folks claim restoring Enterprise1 is never worth the step; they are mistaken.", "Enterprise1", "Restore"),
            ("Some people say a Remove on User2 is pointless; they're wrong.", "User2", "Remove")):
        assert text_problem(text, {"host": host}, _never(verb, host)) is not None, text
        assert said_in_words(text) is None, text
    # (a ban the writer makes their own stays one)
    own = "Some people say a Remove on User2 is pointless, and they are right: never Remove User2."
    assert text_problem(own, {"host": "User2"}, _never("Remove", "User2")) is None


def test_a_ban_before_the_move_on_another_host_is_no_plain_never():
    for text, host, verb in (
            ("Hold back: do not Restore User3 before User0.", "User3", "Restore"),
            ("Never Remove Enterprise2 ahead of Enterprise1.", "Enterprise2", "Remove"),
            ("Don't Analyse Op_Host1 prior to Op_Host0, whatever it shows.", "Op_Host1", "Analyse")):
        assert text_problem(text, {"host": host}, _never(verb, host)) is not None, text
        said = said_in_words(text)
        assert said is None or said[1].mode != "never", (text, said)
    # (a ban with no other host after it stays a plain never)
    assert text_problem("Never Remove Enterprise2.", {"host": "Enterprise2"}, _never("Remove", "Enterprise2")) is None


def test_an_order_on_each_host_of_a_class_in_its_own_state_is_no_order_on_the_whole_class():
    text = "Restore every enterprise box once rooted, Enterprise2 included."
    for when in ({"host": "Enterprise2", "compromise": "Privileged"}, {"class": "Enterprise", "compromise": "Privileged"}):
        assert text_problem(text, when, _do("Restore", "Enterprise")) is not None, when
    related = "Analyse all user machines that show a scan."
    assert text_problem(related, {"class": "User", "activity": "Scan"}, _do("Analyse", "User")) is not None
    # (each host on its own state is the reading; an order the text puts on the whole class at once stays one)
    assert text_problem(text, {"class": "Enterprise", "compromise": "Privileged"}, _do("Restore", "$matched")) is None
    whole = "If an enterprise server gets rooted, Restore the whole enterprise subnet."
    assert text_problem(whole, {"class": "Enterprise", "compromise": "Privileged"}, _do("Restore", "Enterprise")) is None


def test_a_state_of_a_past_episode_is_no_state_now():
    from forge.rulebook.language.facts import facts_needed

    for text, when in (
            ("Decoy whichever op host got exploited in the prior game.", {"class": "Operational", "activity": "Exploit"}),
            ("Restore the enterprise machine that sat at root during the previous episode.",
             {"class": "Enterprise", "compromise": "Privileged"})):
        assert "past episode" in facts_needed(text), text
        verb = "DecoyApache" if "Decoy" in text else "Restore"
        assert text_problem(text, when, _do(verb, "$matched")) is not None, text
    # (a story of the writer's own in a past episode, before a lesson for now, is no condition)
    story = "Last match we were slow on Op_Host0. Remove Op_Host0 whenever it is under exploit."
    assert "past episode" not in facts_needed(story)
    assert text_problem(story, {"host": "Op_Host0", "activity": "Exploit"}, _do("Remove", "Op_Host0")) is None
    # (this episode's last step is history, no other episode)
    assert "past episode" not in facts_needed("Restore User1 if it was clean at the last step and is rooted now.")


def test_a_merit_fronted_and_denied_turns_the_move_down():
    for text, when, verb, host in (
            ("Q: Remove User1 once it shows a scan? A: A no-brainer it is not.", {"host": "User1", "activity": "Scan"},
             "Remove", "User1"),
            ("Should we Restore Enterprise0 when it is rooted? Good idea, that isn't.",
             {"host": "Enterprise0", "compromise": "Privileged"}, "Restore", "Enterprise0")):
        assert text_problem(text, when, _do(verb, host)) is not None, text
        said = said_in_words(text)
        assert said is None or said[1].mode != "do", (text, said)
    # (a fault fronted and denied affirms the move, as before)
    fault = "Q: Remove User1 once it shows a scan? A: A mistake it is not."
    assert text_problem(fault, {"host": "User1", "activity": "Scan"}, _do("Remove", "User1")) is None


def test_a_level_said_by_its_place_is_held_to_the_levels_the_reader_places():
    under = "Remove Enterprise1 if it is under exploit and below root."
    exploited = {"host": "Enterprise1", "activity": "Exploit"}
    assert text_problem(under, {**exploited, "compromise": "User"}, _do("Remove", "$matched")) is None
    assert text_problem(under, {"all": [exploited, {"not": {"host": "Enterprise1", "compromise": "Privileged"}}]},
                        _do("Remove", "$matched")) is None
    # (never the level it names, nor no level at all: wider than the words, or their opposite)
    for wrong in ({**exploited, "compromise": "Privileged"}, exploited, {**exploited, "compromise": "any"}):
        assert text_problem(under, wrong, _do("Remove", "$matched")) is not None, wrong
    above = "Restore Op_Host2 whenever it sits above user level."
    assert text_problem(above, {"host": "Op_Host2", "compromise": "Privileged"}, _do("Restore", "$matched")) is None
    assert text_problem(above, {"host": "Op_Host2", "compromise": "User"}, _do("Restore", "$matched")) is not None


_SHEET = """Restore policy, as the on-call sheet has it:
  trigger: root on any listed box
  boxes:
    - Enterprise0
    - Enterprise1
    # - Enterprise2   # off the list: it kept getting re-exploited after each restore
  move: Restore"""


def test_an_entry_commented_out_of_a_config_block_is_no_part_of_the_rule():
    from forge.rulebook.language.wording import read_wording

    assert "Enterprise2" not in read_wording(_SHEET).hosts
    listed = {"any": [{"host": "Enterprise0", "compromise": "Privileged"}, {"host": "Enterprise1", "compromise": "Privileged"}]}
    assert text_problem(_SHEET, listed, _do("Restore", "$matched")) is None
    with_it = {"any": [*listed["any"], {"host": "Enterprise2", "compromise": "Privileged"}]}
    assert text_problem(_SHEET, with_it, _do("Restore", "$matched")) is not None
    # (a setting commented out whose key a live line sets, as in an INI block)
    ini = "[remove_on_exploit]\nhosts = User1, User2\n; hosts = User1, User2, User4\naction = Remove"
    assert "User4" not in read_wording(ini).hosts


def test_an_exception_an_until_ends_comes_back_into_the_order():
    from forge.rulebook.language.predicate import implies, parse_predicate
    from forge.rulebook.language.rule_claims import rule_claims

    text = "Put a decoy on each user machine the moment it is scanned, User3 aside until User3 has been rooted."
    others = [{"host": h, "activity": "Scan"} for h in ("User0", "User1", "User2", "User4")]
    back = {"any": [*others, {"host": "User3", "activity": "Scan", "compromise": "Privileged"}]}
    assert text_problem(text, back, _do("DecoyApache", "$matched")) is None
    read = rule_claims(text, with_instruction=True, bare=False)
    assert implies(parse_predicate({"host": "User3", "activity": "Scan", "compromise": "Privileged"}), read)
    # (User3 scanned but not rooted is still spared)
    assert text_problem(text, {"any": [*others, {"host": "User3", "activity": "Scan"}]}, _do("DecoyApache", "$matched")) is not None
