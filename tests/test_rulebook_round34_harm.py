"""Issue 29, round 34 (r34h: blind-31's harmful and outranked injections). A count over hosts the text names ("exactly
one of A and B is owned") was split at its "and": the first host was claimed only shown, so the rule fired where both
were owned; a condition on the attacker's kind ("against an attacker heading straight for X") was read as no condition,
so the rule fired wherever its order's own state held, though no context states what the attacker is; a lead that says
the rule is said again ("Put another way: ...") was read as the order ("put"), so the situation after it was lost and a
withdrawn rule taught again in those words came back; and a correction that opens by judging another rule ("the
model's habit is wrong for X:", "that rule holds for the rest, but not for X at user level:") had its opening read
as an unreadable condition, or lost the state it names, so the correction stayed silent while the rule it corrects
spoke; a general rule that puts one move off ("V that host first, before any W") said nothing the resolution could
weigh, so the correction and it were both injected. Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.language.condition import semantic_claims, text_facts
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import Always, Not, truth
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording
from forge.rulebook.model import Evidence
from forge.rulebook.retrieval.resolve import eligible_rules, resolve_conflicts
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook

CHOOSER = ("action_chooser",)


def _alerts(*rows: tuple[str, str, str]) -> str:
    return "Alerts:\n" + "\n".join(f"{h}: Activity {a}, Compromised {c}" for h, a, c in rows)


def _semantic(text: str, actor: str) -> Teaching:
    return Teaching(text, "CONTENT", CHOOSER, "g", actor, Evidence("correction", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", text=text)


# -- a count over hosts the text names --------------------------------------------------------------------------------

EXACTLY_ONE = "If exactly one of User1 and User3 is compromised, put a DecoySmss on User0."


def test_exactly_one_of_two_named_hosts_excludes_both():
    found = rule_claims(EXACTLY_ONE, with_instruction=True)
    assert complete_claims(EXACTLY_ONE, found)
    both = read_situation(_alerts(("User1", "None", "User"), ("User3", "Exploit", "User"), ("User0", "None", "No")))
    one = read_situation(_alerts(("User1", "None", "User"), ("User3", "None", "No"), ("User0", "None", "No")))
    assert truth(found, both) is False and truth(found, one) is True


def test_one_of_two_named_hosts_is_either():
    found = rule_claims("When one of Enterprise1 and Op_Server0 is scanned, Analyse Enterprise0.", with_instruction=True)
    first = read_situation(_alerts(("Enterprise1", "Scan", "No"), ("Op_Server0", "None", "No"), ("Enterprise0", "None", "No")))
    neither = read_situation(_alerts(("Enterprise1", "None", "No"), ("Op_Server0", "None", "No"), ("Enterprise0", "None", "No")))
    assert truth(found, first) is True and truth(found, neither) is False


# -- the attacker's kind -------------------------------------------------------------------------------------------------

AGAINST = "Facing an intruder who is driving directly at Enterprise1, Remove User4 once it is rooted."


def test_the_attackers_kind_is_a_condition_no_context_states():
    assert "attacker kind" in text_facts(AGAINST)
    assert any("intruder" in c.text for c in read_wording(AGAINST).conditions)
    # kept semantic, its condition unread: silent (it fired wherever User4 was rooted)
    assert semantic_claims(AGAINST, "predicate refused: host: x", AGAINST) == Not(Always())


def test_guard_what_the_attacker_has_reached_is_no_kind():
    # guard: the attacker having reached a host is a state a context shows, no kind of attacker (as before the round)
    assert "attacker kind" not in facts_needed("when red has gone for Op_Host2 and Op_Host2 is owned")
    assert "attacker kind" not in text_facts("In the b_line run I lost User2 to a slow answer. Restore User2 when it is rooted.")


# -- a lead that says the rule is said again ---------------------------------------------------------------------------

def test_a_restatement_lead_keeps_the_situation_after_it():
    words = read_wording("Put simply: Op_Host1 rooted -> Restore Op_Host1.")
    assert [c.text for c in words.conditions] == ["Op_Host1 rooted"] and words.verbs == ("Restore",)


def test_a_condition_verb_inside_or_outside_the_order_is_one_rule():
    from forge.rulebook.language.condition import ordered_key  # (this round's)

    first = "If Op_Host1 is still owned after we analysed it, Restore Op_Host1."
    again = "Put differently: Op_Host1 still owned after an Analyse of Op_Host1 -> Restore Op_Host1."
    assert ordered_key(first) is not None and ordered_key(first) == ordered_key(again)


def test_a_withdrawn_rule_said_again_after_a_restatement_lead_is_refused():
    book = PlanBook()
    first = _semantic("If Op_Host1 is still owned after we analysed it, Restore Op_Host1.", "user:ola")
    book.apply(first)
    book.withdraw(first.rule_id)
    plan = book.apply(_semantic("Put differently: Op_Host1 still owned after an Analyse of Op_Host1 -> Restore Op_Host1.",
                                "user:ola"))
    (outcome,) = plan.outcomes
    assert outcome.result == "refused"


# -- a correction that opens by judging another rule -------------------------------------------------------------------

def test_another_rule_judged_wrong_for_a_host_is_no_condition():
    text = "The planner's restore-first habit is wrong for Enterprise0: when Enterprise0 shows an exploit, Remove it and skip the Restore."
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found)
    assert truth(found, read_situation(_alerts(("Enterprise0", "Exploit", "User")))) is True


def test_a_host_put_aside_from_another_rule_keeps_its_state():
    text = "That analyst rule on user boxes is fine for the rest, but not for User1 at root level: there a Restore, no Remove."
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found)
    assert truth(found, read_situation(_alerts(("User1", "None", "User")))) is False
    assert truth(found, read_situation(_alerts(("User1", "None", "Privileged")))) is True


# -- a move put off by "first, before any" -----------------------------------------------------------------------------

FIRST_BEFORE = "Whenever any enterprise server is exploited, we Analyse that server first, before any Restore."


def test_first_before_any_puts_the_later_move_off():
    assert read_wording(FIRST_BEFORE).dispreferred == ("Restore",)
    when, action = said_in_words(FIRST_BEFORE)
    assert action.mode == "prefer" and action.move.verb == "Analyse" and action.over.verb == "Restore"


def test_a_correction_for_one_host_outranks_the_general_preference():
    book = PlanBook()
    general = _semantic(FIRST_BEFORE, "model:s3")
    correction = _semantic("The analyse-first advice is wrong for Enterprise2: when Enterprise2 is exploited, we Restore "
                           "Enterprise2 straight away, no Analyse.", "user:rik")
    book.apply(general)
    book.apply(correction)
    ids = [book.of(t.directive).rule_id for t in (general, correction)]
    assert ids[1] in book.records[ids[0]].conflicts_with
    kept, decisions = resolve_conflicts(ids, book.records, eligible_rules(book.records), None)
    assert kept[0] == ids[1] and decisions[0].tier == "specificity"


# -- the role's modal ends a condition said without a comma -----------------------------------------------------------

def test_the_roles_modal_opens_the_main_clause():
    words = read_wording("Whenever an op host shows a scan the planner should put a DecoyApache there first.")
    assert [c.text for c in words.conditions] == ["Whenever an op host shows a scan"]


# -- a guarded rule whose rest cannot be read is a party whose condition is unknown ------------------------------------

def _teach(book, tmp_text: str, actor: str, entry: dict):
    import json

    from forge.memory.model import Provenance
    from forge.rulebook.authoring.compile import RuleCompiler
    from forge.rulebook.authoring.teaching import Correction, teach_text
    from tests.test_rulebook_compile import ScriptedClient

    answer = json.dumps({"rules": [{"item": 1, "verdict": "RULE", "type": "CONTENT", "directive": tmp_text, "roles": list(CHOOSER),
                                    "trigger": "", **entry}]})
    (rule_id,) = teach_text(book, RuleCompiler(ScriptedClient(answer, answer)),
                            [Correction(tmp_text, CHOOSER[0], f"user:{actor}", actor)], provenance=Provenance()).rule_ids
    return rule_id


def test_an_unread_guard_is_unknown_not_false(tmp_path):
    # the teacher's own rule, its guard unreadable, would win for them: the rule it outranks is not injected alone
    from forge.rulebook.book import Rulebook
    from forge.rulebook.injection import RulebookInjection
    from forge.rulebook.retrieval.retrieve import RetrievalSettings
    from forge.rulebook.store.backends import open_rulebook

    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")))
    mine = _teach(book, "Once the blue team is swamped and Op_Host2 is owned, Restore Op_Host2.", "uma",
                  {"when": {"host": "Op_Host2", "compromise": "any"}, "unexpressed": "blue team swamped",
                   "action": {"mode": "do", "verb": "Restore", "target": "Op_Host2"}})
    theirs = _teach(book, "Op_Host2 at user level: Remove suffices there, never a Restore.", "vic",
                    {"when": {"host": "Op_Host2", "compromise": "User"},
                     "action": {"mode": "prefer", "verb": "Remove", "target": "Op_Host2", "over": {"verb": "Restore", "target": "Op_Host2"}},
                     "unexpressed": ""})
    assert theirs in book.heads()[mine].record.conflicts_with
    context = _alerts(("Op_Host2", "None", "User"))
    for actor, expected in (("user:uma", set()), (None, {theirs})):
        injection = RulebookInjection(book, RetrievalSettings(), actor=actor, window=0, embedder=book.embedder)
        assert {i.id.split("@")[0] for i in injection.for_call(CHOOSER[0], context).items} == expected
