"""Issue 29, eighth round, misses: the checks refused correct compilations (a refused rule is kept semantic, and silent
where the product's reading of its words is not whole), and an action people write was not a verb. Each class on
sentences written for these tests; beside each, a wider compilation the checks must still refuse.

- CybORG spells its mail decoy `DecoyHarakaSMPT`; people and models write `DecoyHarakaSMTP`: the same verb.
- A compiled predicate that spells out what the reading says in one word: every non-quiet value listed (`not any of
  User, Privileged, Unknown` is "not compromised"), one host's two fields asked apart (`User4 shows a scan` and `User4
  shows Compromised No` is "only scanned"), a negated class (no operational host active) for each of its hosts quiet.
- "nothing on the network is compromised" was read as "some host shows Compromised No".
- The order was taken from a story: a sentence that opens at a step ("At step 4 User1 was exploited and I removed it
  without checking ..."), a "when" told in the past at a step ("When Enterprise2 was scanned at step 7 I was ..."), and
  an order that opens with "Right after you ..." was not read as one.
- "COND, STATEMENT, so ORDER": the order after ", so" was cut as a justification.
- A verb judged "never the right move" / "never acceptable" is forbidden (it was read as ordered).
- A priority: "plan an Analyse first -- a Remove ..." prefers it over the other verb the text names; "before any
  Restore of a user host" puts that Restore after (but "as before the Analyse", a condition's, still does not).
- A note on the teacher's own rules ("This updates my earlier rule on User2: ...") is no situation.
"""

from __future__ import annotations

from forge.env.catalog import action_id, parse_action
from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.action import parse_rule_action
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import implies, parse_predicate
from forge.rulebook.language.wording import read_wording

ANY_COMPROMISE = [{"compromise": "User"}, {"compromise": "Privileged"}, {"compromise": "Unknown"}]


def check(text: str, when, action) -> str | None:
    return text_problem(text, when, action)


# -- the verb people write --------------------------------------------------------------------------------------------

def test_the_smtp_spelling_is_the_catalog_mail_decoy() -> None:
    assert parse_action("DecoyHarakaSMTP Enterprise1") == action_id("DecoyHarakaSMPT", "Enterprise1")
    assert parse_rule_action({"mode": "do", "verb": "DecoyHarakaSMTP", "target": "User3"}).moves[0].verb == "DecoyHarakaSMPT"
    text = "If User3 shows a scan, put a DecoyHarakaSMTP on User3."
    assert check(text, {"host": "User3", "activity": "Scan"}, {"mode": "do", "verb": "DecoyHarakaSMTP", "target": "User3"}) is None
    # another decoy than the one the text orders is still refused
    assert check(text, {"host": "User3", "activity": "Scan"}, {"mode": "do", "verb": "DecoyTomcat", "target": "User3"})


# -- spelt-out predicates ---------------------------------------------------------------------------------------------

def test_every_value_listed_is_any_and_one_hosts_fields_are_one_row() -> None:
    spelt = parse_predicate({"not": {"any": [{"host": "Enterprise1", **c} for c in ANY_COMPROMISE]}})
    assert implies(spelt, parse_predicate({"not": {"host": "Enterprise1", "compromise": "any"}}))
    # a value left out is wider: "not User or Privileged" holds on a host at Unknown
    short = parse_predicate({"not": {"any": [{"host": "Enterprise1", "compromise": "User"}, {"host": "Enterprise1", "compromise": "Privileged"}]}})
    assert not implies(short, parse_predicate({"not": {"host": "Enterprise1", "compromise": "any"}}))
    row = parse_predicate({"all": [{"host": "User4", "activity": "Scan"}, {"host": "User4", "compromise": "No"}]})
    assert implies(row, parse_predicate({"host": "User4", "activity": "Scan", "compromise": "No"}))
    apart = parse_predicate({"all": [{"host": "User4", "activity": "Scan"}, {"host": "User3", "compromise": "No"}]})
    assert not implies(apart, parse_predicate({"host": "User4", "activity": "Scan", "compromise": "No"}))


def test_a_quiet_class_is_each_of_its_hosts_quiet() -> None:
    quiet_user = parse_predicate({"not": {"any": [{"class": "User", "activity": "Scan"}, {"class": "User", "activity": "Exploit"}]}})
    assert implies(quiet_user, parse_predicate({"host": "User2", "activity": "None"}))
    assert not implies(quiet_user, parse_predicate({"host": "Enterprise2", "activity": "None"}))


def test_only_scanned_said_as_two_conditions_on_the_host_passes() -> None:
    text = "Do not analyse User4 while it is only being scanned."
    action = {"mode": "never", "verb": "Analyse", "target": "User4"}
    assert check(text, {"all": [{"host": "User4", "activity": "Scan"}, {"host": "User4", "compromise": "No"}]}, action) is None
    assert check(text, {"host": "User4", "activity": "Scan"}, action)  # "only" dropped: wider


def test_not_yet_compromised_spelt_out_passes() -> None:
    text = "Put nothing on the enterprise subnet until Enterprise1 has been compromised."
    action = {"mode": "never", "verb": "any", "target": "Enterprise"}
    assert check(text, {"not": {"any": [{"host": "Enterprise1", **c} for c in ANY_COMPROMISE]}}, action) is None
    assert check(text, {"host": "Enterprise1", "compromise": "any"}, action)  # the opposite


def test_a_quiet_subnet_spelt_out_passes() -> None:
    text = "As long as the user subnet is quiet, keep User1 out of the plan."
    action = {"mode": "never", "verb": "any", "target": "User1"}
    # (a quiet subnet shows no activity and no compromise on any of its hosts: round 15, as every case author reads it)
    quiet = {"not": {"any": [{"class": "User", "activity": "Scan"}, {"class": "User", "activity": "Exploit"},
                             *({"class": "User", "compromise": level} for level in ("User", "Privileged", "Unknown"))]}}
    assert check(text, quiet, action) is None
    assert check(text, {"not": {"class": "User", "activity": "Exploit"}}, action)  # a scan allowed: wider


def test_nothing_on_the_network_is_every_host() -> None:
    found = rule_claims("If nothing in the whole network is compromised, plan a DecoyApache on Enterprise0.", bare=False)
    assert found == parse_predicate({"not": {"class": "any", "compromise": "any"}})
    text = "When nothing on the network is compromised, put a DecoyFemitter on User2."
    action = {"mode": "do", "verb": "DecoyFemitter", "target": "User2"}
    assert check(text, {"not": {"any": ANY_COMPROMISE}}, action) is None
    assert check(text, {"not": {"host": "User2", "compromise": "any"}}, action)  # one host clean: wider


# -- the order, not the story -----------------------------------------------------------------------------------------

def test_an_order_right_after_an_action_is_the_order() -> None:
    text = ("I removed User1 and the attacker came straight back, because nothing else had changed. Right after you Remove "
            "a host, Analyse it on the next turn.")
    assert read_wording(text).instruction.startswith("Right after you Remove")
    assert check(text, {"acted": "Remove", "within": 1}, {"mode": "do", "verb": "Analyse", "target": "$matched"}) is None


def test_a_story_at_a_step_is_no_order() -> None:
    text = ("At step 4 User1 was exploited and I removed it without looking at it first. When a user host is exploited, "
            "Restore it.")
    assert read_wording(text).instruction.startswith("When a user host is exploited")
    told = ("When Enterprise2 was scanned at step 7 I was busy removing User1, and it got exploited. Whenever Enterprise2 "
            "shows a scan, put a DecoyTomcat on it.")
    assert read_wording(told).instruction.startswith("Whenever Enterprise2 shows a scan")
    assert check(told, {"host": "Enterprise2", "activity": "Scan"}, {"mode": "do", "verb": "DecoyTomcat", "target": "Enterprise2"}) is None
    # a condition at a step that orders is still an order
    assert read_wording("When Enterprise2 was scanned at step 7, restore it.").instruction.startswith("When Enterprise2")


def test_an_order_after_so_is_the_order() -> None:
    words = read_wording("When a user host is exploited, the attacker already has a shell there, so Remove it.")
    assert words.instruction.rstrip(".") == "Remove it"
    assert [c.text for c in words.conditions] == ["When a user host is exploited"]


def test_a_verb_judged_never_right_is_forbidden() -> None:
    for text in ("Monitor is never the right call while Op_Server0 is exploited.",
                 "Sleep is never acceptable while a host shows an exploit."):
        verb = "Monitor" if text.startswith("Monitor") else "Sleep"
        assert [p.verb for p in read_wording(text).prohibitions] == [verb]
        when = {"host": "Op_Server0", "activity": "Exploit"} if verb == "Monitor" else {"activity": "Exploit"}
        assert check(text, when, {"mode": "never", "verb": verb, "target": "any"}) is None
        assert check(text, when, {"mode": "do", "verb": verb})  # the opposite


# -- priorities -------------------------------------------------------------------------------------------------------

def test_a_verb_ordered_first_is_preferred_over_the_other_verb_named() -> None:
    text = "When Enterprise1 is compromised, plan an Analyse first -- a Remove without it is guesswork."
    when = {"host": "Enterprise1", "compromise": "any"}
    over = {"mode": "prefer", "verb": "Analyse", "target": "Enterprise1", "over": {"verb": "Remove", "target": "Enterprise1"}}
    assert check(text, when, over) is None
    invented = {**over, "over": {"verb": "Restore", "target": "Enterprise1"}}  # a verb the text never names
    assert check(text, when, invented)


def test_before_any_move_of_a_verb_puts_it_after() -> None:
    text = "When an op host is compromised, plan its Restore before any Restore of an enterprise host."
    when = {"class": "Operational", "compromise": "any"}
    action = {"mode": "prefer", "verb": "Restore", "target": "$matched", "over": {"verb": "Restore", "target": "Enterprise"}}
    assert check(text, when, action) is None
    # "as before the Analyse" is a condition's, no priority
    said = "When the host you analysed last step is at the same level as before the Analyse, Restore it."
    assert check(said, {"all": [{"acted": "Analyse", "within": 1, "changed": False}, {"compromise": "any"}]},
                 {"mode": "prefer", "verb": "Restore", "target": "$matched", "over": {"verb": "Analyse", "target": "$matched"}})


def test_a_note_on_the_teachers_rules_is_no_situation() -> None:
    words = read_wording("This updates my earlier rule on User2: when it is exploited, plan a Restore first.")
    assert words.situation == ""
    assert [c.text for c in words.conditions] == ["when it is exploited"]


# -- names the order does not act on ----------------------------------------------------------------------------------

def test_a_class_named_in_a_concession_or_the_attackers_next_move_is_no_scope() -> None:
    text = "When Op_Server0 shows a scan, Analyse it that turn, even if enterprise hosts are also compromised."
    when, action = {"host": "Op_Server0", "activity": "Scan"}, {"mode": "do", "verb": "Analyse", "target": "Op_Server0"}
    assert check(text, when, action) is None
    forestalled = "If User2 is exploited, Restore it before the attacker moves on to the operational subnet."
    assert check(forestalled, {"host": "User2", "activity": "Exploit"}, {"mode": "do", "verb": "Restore", "target": "User2"}) is None
    # a class the condition names is still scope
    named = "When enterprise hosts are compromised, Analyse Op_Server0."
    assert check(named, {"host": "Op_Server0"}, {"mode": "do", "verb": "Analyse", "target": "Op_Server0"})


def test_a_host_included_in_the_class_is_the_class() -> None:
    text = "Every user host, User0 included, that shows an exploit gets a Remove."
    assert check(text, {"class": "User", "activity": "Exploit"}, {"mode": "do", "verb": "Remove", "target": "$matched"}) is None
    # a class that does not hold the host leaves it out
    assert check(text, {"class": "Enterprise", "activity": "Exploit"}, {"mode": "do", "verb": "Remove", "target": "$matched"})


def test_a_story_that_opens_with_first_step_is_no_order() -> None:
    text = ("First step, nothing showing, and I planned a Remove on User3 just in case; it cost reward. When no host shows "
            "any activity, plan Monitor and no Remove.")
    words = read_wording(text)
    assert "User3" not in words.hosts and words.instruction.startswith("When no host shows")


def test_a_reason_after_a_dash_is_no_condition() -> None:
    text = "An exploited User1 must not be analysed -- it is the way in and it comes straight back. Remove it instead."
    assert "straight back" not in read_wording(text).instruction
    when = {"host": "User1", "activity": "Exploit"}
    action = {"mode": "prefer", "verb": "Remove", "target": "User1", "over": {"verb": "Analyse", "target": "User1"}}
    assert check(text, when, action) is None


def test_already_compromised_is_compromised_now() -> None:
    text = "If any enterprise host is already compromised, do not choose Sleep."
    action = {"mode": "never", "verb": "Sleep", "target": "any"}
    assert check(text, {"class": "Enterprise", "compromise": "any"}, action) is None
    assert rule_claims(text, bare=False) == parse_predicate({"class": "Enterprise", "compromise": "any"})
    # "still compromised" is history
    assert check("If Enterprise2 is still compromised, do not choose Sleep.", {"host": "Enterprise2", "compromise": "any"}, action)


# -- guarded rests that are no condition ------------------------------------------------------------------------------

def test_a_rest_said_aside_of_the_condition_does_not_guard() -> None:
    from forge.rulebook.language.guard import guard_rest

    when = parse_predicate({"host": "Enterprise1", "compromise": "any"})
    # what a dash adds after the condition, a reason
    text = "When triaging Enterprise1, call it critical whenever it is compromised -- even a shell there endangers the plant."
    assert guard_rest("shell endangers plant", when, text) == ""
    # the teacher's view ("I think the lesson is ...") and the table and its reader
    view = "I think the lesson is that when Enterprise1 is compromised, a Restore of it comes first."
    assert guard_rest("think lesson", when, view) == ""
    assert guard_rest("table you", parse_predicate({"activity": "Scan"}),
                      "Whenever the table shows a scan on the host you are triaging, call it low risk.") == ""
    # a condition after the dash, or words of the condition, still guard
    assert guard_rest("only while Op_Server0 is clean", when, "Restore Enterprise1 -- only while Op_Server0 is clean.")
    assert guard_rest("plant", when, "Restore Enterprise1 when the plant is down -- even a shell there endangers it.")


def test_the_lesson_after_the_teachers_view_keeps_its_condition() -> None:
    text = "I think the lesson is that when User3 is scanned, the decoy on it matters most: DecoySSHD on User3 first."
    words = read_wording(text)
    assert [c.text for c in words.conditions] == ["when User3 is scanned"]
    # the host merely shown is wider than "scanned"
    assert check(text, {"host": "User3"}, {"mode": "do", "verb": "DecoySSHD", "target": "User3"})
    assert check(text, {"host": "User3", "activity": "Scan"}, {"mode": "do", "verb": "DecoySSHD", "target": "User3"}) is None


# -- the reply's form -------------------------------------------------------------------------------------------------

def test_a_rule_on_the_replys_length_or_layout_is_format() -> None:
    from forge.rulebook.authoring.compile import looks_like_format

    for text in ("Answer in four lines: host, level, evidence, advice.", "Keep each plan under 40 words.",
                 "Give the plan as a numbered list.", "Say the verdict in a single word.", "Two sentences at most, please."):
        assert looks_like_format(text), text
    for text in ("Restore User1 if it stays compromised for three steps.", "Put a decoy on every user host in the list.",
                 "When User2 is scanned, answer in two lines."):  # (a condition on a host: no format rule)
        assert not looks_like_format(text), text


def test_a_format_rule_the_compiler_took_for_content_is_format() -> None:
    from forge.rulebook.authoring.compile import _entry
    from forge.rulebook.model import RuleType, SourceItem

    item = SourceItem("correction", "analyst", "Answer in four lines: host, level, evidence, advice.", "op")
    compiled, problem = _entry(item, {"verdict": "RULE", "type": "CONTENT", "directive": item.text, "roles": ["analyst"]})
    assert problem is None and compiled.type == RuleType.FORMAT
    # a content rule the compiler gave no predicate stays content (semantic)
    content = SourceItem("correction", "analyst", "Call the host compromised if the evidence lists a reverse shell.", "op")
    compiled, _ = _entry(content, {"verdict": "RULE", "type": "CONTENT", "directive": content.text, "roles": ["analyst"]})
    assert compiled.type == RuleType.CONTENT


def test_a_reason_in_the_story_does_not_cut_the_order_after_it() -> None:
    from forge.rulebook.authoring.compile import strip_justification

    text = ("At step 9 User2 was scanned and I chose Monitor because nothing else was going on. That was a mistake. "
            "Monitor is never the right call while a user host is being scanned.")
    kept = strip_justification(text)
    assert "Monitor is never the right call while a user host is being scanned" in kept and "because" not in kept
    assert [p.verb for p in read_wording(kept).prohibitions] == ["Monitor"]
    # one sentence: its reason is cut as before
    assert strip_justification("Restore User4 at once because red pivots through it.") == "Restore User4 at once"


def test_at_the_same_time_is_read_as_one_context() -> None:
    from forge.rulebook.language.guard import complete_claims, guard_claims

    text = "When two or more enterprise hosts are scanned at the same time, put a DecoyApache on each of them."
    found = rule_claims(text, bare=False)
    assert found is not None and complete_claims(text, found)
    # the count is read: one scanned enterprise host is wider (kept semantic, judged by the count)
    assert check(text, {"class": "Enterprise", "activity": "Scan"}, {"mode": "do", "verb": "DecoyApache", "target": "$matched"})
    one = parse_predicate({"class": "Enterprise", "activity": "Scan"})
    guard = guard_claims("two or more enterprise hosts scanned simultaneously", one)
    assert implies(parse_predicate({"all": [{"host": "Enterprise0", "activity": "Scan"}, {"host": "Enterprise1", "activity": "Scan"}]}), guard)
    assert not implies(one, guard)


def test_one_said_of_the_class_the_order_names_is_one_of_that_class() -> None:
    text = "On the user hosts, Analyse the box as soon as one shows an exploit."
    found = rule_claims(text, with_instruction=True, bare=False)
    assert found == parse_predicate({"class": "User", "activity": "Exploit"})
    action = {"mode": "do", "verb": "Analyse", "target": "$matched"}
    assert check(text, {"class": "User", "activity": "Exploit"}, action) is None
    assert check(text, {"class": "User", "activity": "any"}, action)  # a scan too: wider


def test_no_other_host_of_the_class_said_short_is_read() -> None:
    text = "When User3 is exploited and no other user host is, Restore User3."
    found = rule_claims(text, bare=False)
    others = [{"host": h, "activity": "Exploit"} for h in ("User0", "User1", "User2", "User4")]
    assert found == parse_predicate({"all": [{"host": "User3", "activity": "Exploit"}, {"not": {"any": others}}]})
    action = {"mode": "do", "verb": "Restore", "target": "User3"}
    # the others' quiet rows, asked each apart, together say that none of them is exploited
    quiet = [{"host": h, "activity": "None"} for h in ("User0", "User1", "User2", "User4")]
    assert check(text, {"all": [{"host": "User3", "activity": "Exploit"}, *quiet]}, action) is None
    assert check(text, {"all": [{"host": "User3", "activity": "Exploit"}, *quiet[:3]]}, action)  # User4 left out: wider


def test_parts_of_a_conjunction_together_imply_a_negation() -> None:
    both = parse_predicate({"all": [{"not": {"class": "any", "activity": "any"}}, {"not": {"class": "any", "compromise": "any"}}]})
    assert implies(both, parse_predicate({"not": {"any": [{"class": "any", "activity": "any"}, {"class": "any", "compromise": "any"}]}}))
    one = parse_predicate({"all": [{"not": {"class": "any", "activity": "any"}}, {"host": "User1", "compromise": "User"}]})
    assert not implies(one, parse_predicate({"not": {"class": "any", "compromise": "any"}}))
