"""Issue 29, round 52 (r52m): classes of missed injections, where a rule the text makes apply stayed silent.
- "the host" that a condition speaks of ("when the host reads Privileged", "for the box I inspect: if it ..."), with no
  host named after it, is the host at hand: the order's "it" is that host, never the one a story before it named
  (wording._host_at_hand_last);
- a compiler's unexpressed rest that is the wording of the role's answer ("the opening word of the report") or which
  moves of a kind the order means ("any decoy verb on Op_Host1") never guards: it is what is done, not when
  (guard._answer_or_move_kind).
Each test fails on a664cfe's product files and passes on the branch. Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.guard import guard_rest
from forge.rulebook.language.predicate import parse_predicate
from forge.rulebook.language.wording import pronoun_hosts, read_wording
from tests.actions import do


def test_the_host_of_a_condition_is_the_host_at_hand_not_the_storys() -> None:
    text = ("Last night I rated Op_Host2 low although its record read root. If the host reads Compromised Privileged, "
            "rate it critical and recommend that it be restored.")
    assert read_wording(text).referent is None
    assert pronoun_hosts(text) == ()
    # a compilation about any host that reads root keeps to the words
    assert text_problem(text, {"class": "any", "compromise": "Privileged"}, do("Restore")) is None


def test_the_host_being_inspected_before_a_colon_is_the_host_at_hand() -> None:
    text = ("My report on User2 at step 9 called a probe an intrusion. For the box I inspect: if it is merely probed, "
            "advise a decoy; if it is exploited, advise a Remove.")
    assert read_wording(text).referent is None
    # (the class stays as it was: an order with "it" and only the story's host is about that host)
    told = "I was too slow to restore Enterprise0 on Tuesday. Restore it the moment it reads root."
    assert read_wording(told).referent == "Enterprise0"
    # ... and where the story names a host after "the host", that host may be the one meant: no reading of ours
    later = "When the host reads root I hesitated over Enterprise0 again. Restore it right away."
    assert read_wording(later).referent == "Enterprise0"


def test_the_wording_of_the_answer_never_guards() -> None:
    when = parse_predicate({"host": "Op_Host1", "compromise": "Privileged"})
    text = "When Op_Host1 reads root, open your report with the word ALARM and recommend a Restore."
    for rest in ("the opening word of the report", "the report's top line wording", "a one-line plan"):
        assert guard_rest(rest, when, text) == "", rest
    # (two parts: another branch's move, then the wording)
    two = parse_predicate({"host": "Op_Host1", "activity": "Exploit"})
    assert guard_rest("second branch (probe only): suggest a decoy; the wording of the last line", two) == ""


def test_which_moves_of_a_kind_never_guards_on_the_predicates_hosts() -> None:
    when = parse_predicate({"class": "Enterprise", "activity": "Scan"})
    assert guard_rest("every decoy verb on the enterprise subnet", when) == ""
    host = parse_predicate({"host": "Op_Host1", "activity": "Scan"})
    assert guard_rest("any decoy verb on Op_Host1", host) == ""
    root = parse_predicate({"host": "Op_Host1", "compromise": "Privileged"})
    # evidence the analyst reads is a condition, wording words or not
    assert guard_rest("the first line names the port of the reverse shell", root) != ""
    # a kind of move on a host the predicate is not about says where, and the product cannot read it
    assert guard_rest("any decoy verb on Enterprise0", root) != ""
    # a state is a condition
    assert guard_rest("the report's wording while Enterprise0 is compromised", root) != ""


def test_a_rule_on_the_replys_wording_is_format() -> None:
    from forge.rulebook.authoring.compile import looks_like_format

    for text in ("Closing sentence of each report: the risk you rate.",
                 "Put each plan line in the imperative mood: 'Analyse Op_Host1', not 'perhaps analyse it'.",
                 "Inside the summary, spell each machine name out in full, no abbreviations.",
                 "A plan should never exceed three lines.", "Up to two moves per plan, please."):
        assert looks_like_format(text), text
    # a decision in a condition is not, whatever its words of the reply
    assert not looks_like_format("When User2 reads root, write the plan in the imperative: Restore User2.")


def test_a_dropped_order_on_the_replys_form_is_refused() -> None:
    from forge.rulebook.authoring.compile import _drop_problem
    from forge.rulebook.model import SourceItem

    item = SourceItem("correction", "analyst", "In every report, spell each machine name out in full.", "user:kim")
    assert _drop_problem(item, {"verdict": "DROP", "reason": "not an instruction"}) is not None
    # a story of what was written stays droppable
    told = SourceItem("correction", "planner", "Yesterday my plan put every machine name in full and spelled them out.", "user:kim")
    assert _drop_problem(told, {"verdict": "DROP", "reason": "a story"}) is None


def test_a_notes_own_names_are_written_out() -> None:
    from forge.rulebook.language.glossary import glossary_said

    text = ("Legend: 'the barn' = Op_Host1, OH2 = Op_Host2, 'rig' = any op host. Rule: a rooted rig gets a Restore; "
            "the barn never gets a Remove while OH2 sits quiet.")
    said = glossary_said(text)
    assert "Legend" not in said and "'the barn'" not in said
    assert said.startswith("A rooted op host gets a Restore")
    assert "Op_Host1 never gets a Remove while Op_Host2 sits quiet" in said
    words = read_wording(text)
    assert "Op_Host1" in words.hosts and "Op_Host2" in words.hosts
    # "that same box" is the host defined before it
    assert glossary_said("Key: H1 = Op_Host1, and 'the gate' = that same box. Never Restore the gate.") == \
        "Never Restore Op_Host1."
    # no heading, or no definition of a host or hosts: the text as written
    assert glossary_said("H1 = Op_Host1 is what I call it. Never Restore H1.") == \
        "H1 = Op_Host1 is what I call it. Never Restore H1."
    assert glossary_said("Key: 'calm' = nothing at all. Sleep when calm.") == "Key: 'calm' = nothing at all. Sleep when calm."


def test_a_host_that_goes_into_the_plan_as_a_move_gets_it() -> None:
    from forge.rulebook.language.wording import plan_entry_said

    assert plan_entry_said("Op_Host1 never goes into the plan as a Remove.") == "Op_Host1 never gets a Remove."
    assert plan_entry_said("A rooted op box goes in a plan as 'Restore <box>'.") == "A rooted op box gets a Restore <box>'."
    # as a sentence before a colon, it is the order, no situation of it
    words = read_wording("Op_Host1 must never go into any plan as an Analyse: when it reads root, plan its Restore.")
    assert words.situation == "" and any(p.verb == "Analyse" for p in words.prohibitions)


def test_a_level_with_another_level_denied_beside_it_is_no_restriction() -> None:
    from forge.rulebook.language.markers import negations_in

    # the level is exact: denying another level beside it restricts nothing more
    assert negations_in("once an op box reads root (Privileged, not Unknown)") == ()
    assert negations_in("when Op_Host1 sits at Unknown, not at user level") == ()
    # a doubt about the host, "can't be sure", is no absence of anything
    assert negations_in("if a row reads Unknown and we can't be sure the box is held") == ()
    # a denial of another thing than a level still restricts
    assert negations_in("once an op box reads root and not scanned") == ("not",)
    text = "Once an op box reads root (Privileged, not Unknown), plan its Restore."
    assert text_problem(text, {"class": "Operational", "compromise": "Privileged"}, do("Restore")) is None


def test_a_range_said_with_the_kind_in_the_plural_names_each_host() -> None:
    from forge.rulebook.language.names import expand_ranges

    assert expand_ranges("Op hosts 0-2 get a decoy as soon as one is probed.").startswith("Op_Host0, Op_Host1 and Op_Host2")
    assert expand_ranges("never restore enterprises 1 to 2") == "never restore Enterprise1 and Enterprise2"
    # a compilation that names a host of the range names one the text names
    text = "Users 2-4 get a Remove once they show an exploit; User0 stays out of this."
    assert "User3" in read_wording(text).hosts


def test_a_question_asked_to_argue_states_no_condition_of_the_order() -> None:
    from forge.rulebook.language.wording import conditions_left_out

    text = "Why bother restoring User2 while only User3 is being exploited? When User3 is exploited, Remove User3."
    assert conditions_left_out(text) == ()
    # a question that is the order itself keeps its condition as the instruction's
    asked = "Why would anyone restore a host that only shows a scan?"
    assert read_wording(asked).conditions


def test_once_as_a_count_of_times_opens_no_condition() -> None:
    from forge.rulebook.language.wording import conditions_left_out

    text = "Op_Host1 never needs a Restore from us; it has not been touched once all month."
    assert conditions_left_out(text) == ()
    for said in ("it got probed once in a while", "we analyse it once per shift"):
        assert not read_wording(f"Never Restore Op_Host1; {said}.").conditions, said
    # "once" that opens a clause is still its condition
    assert read_wording("Once Op_Host1 reads root, Restore it.").conditions


def test_a_prohibition_on_listed_hosts_holds_where_any_of_them_is_shown() -> None:
    from forge.rulebook.language.condition import semantic_claims
    from forge.rulebook.language.predicate import truth
    from forge.rulebook.language.situation import read_situation

    text = "Enterprise0 and Op_Host2 never need a Restore from us."
    found = semantic_claims(text, "predicate refused: prohibition", text)
    alone = read_situation("Alerts:\nOp_Host2: Activity Scan, Compromised No")
    assert truth(found, alone) is True
    # an order to act on both is still about both
    both = semantic_claims("Restore Enterprise0 and Op_Host2.", "predicate refused: x", "Restore Enterprise0 and Op_Host2.")
    assert truth(both, alone) is not True


def test_a_likelihood_said_of_a_state_is_that_state() -> None:
    from forge.rulebook.language.claims import claims
    from forge.rulebook.language.guard import reads_whole

    for condition in ("Op_Host2 probably owned at user level", "as long as the attacker holds Op_Host2",
                      "Op_Host2 apparently at root"):
        found = claims(condition)
        assert found is not None and reads_whole(condition, found), condition
    # a doubt is no state: "maybe" leaves the reading short of the whole
    doubt = "Op_Host2 maybe owned"
    assert not reads_whole(doubt, claims(doubt))


def test_the_teachers_own_doubt_beside_unknown_is_placed() -> None:
    from forge.rulebook.language.scope import unplaced

    assert unplaced("when a row reads Unknown and we cannot be sure the box is held") == []
    assert unplaced("if Op_Host2 sits at Unknown and I'm not certain it is owned") == []
    # a doubt of another kind is still unread
    assert unplaced("if Op_Host2 sits at Unknown and I cannot reach it") != []


def test_the_record_an_analyst_reads_is_the_host_at_hand() -> None:
    from forge.rulebook.language.guard import complete_claims
    from forge.rulebook.language.rule_claims import rule_claims

    text = "Whenever the record reads Unknown, open the report with the word UNSURE."
    found = rule_claims(text, with_instruction=True)
    assert found is not None and found.host_class == "any" and found.compromise == "Unknown"
    assert complete_claims(text, found)
