"""Issue 29, round 48 (r48m): rules the product kept silent where their words apply (blind-45's missed and outranked
injections), each class a reading the product lacked, so its check refused a compilation that says what the words say:
- polarity: a negation in the order's clause that is another move's or the writer's, not the order's: a "2nd look"
  (an Analyse, `names.VERB_FORMS`), "even with no <state>" (a concession, `rule_claims.CONCESSION`), "leave <another
  move> for later" (put off), "doesn't second-guess that" (`checks._URGING`), "no, strike that:" (the writer taking
  back what came before), "never <one move> ahead of <another>" (the other first) (`checks._unplaced_negation`);
- prefer: the move an order is given "instead" of, named in its reason, the move saved "for the end", and a move the
  attacker undoes ("red returns right after every <move>") are what `prefer ... over` puts second
  (`checks._replaced_instead`, `checks._put_off`); a "before" after a "never" puts nothing off;
- facts: a rating the order asks for in the third person or after its move ("..., high risk") is the answer, no
  condition (`condition.verdict_away`); another move kept for a case of what was done ("keep a Restore for when the
  Remove did not take") is no condition of the note, for the check as for the gate (`rule_claims._NARROWER_CASE`,
  `checks._history`);
- openings and notes: an opening that grants another teacher's note ("You were right about <host>, but ..."), a claim
  before a colon when the order states its own condition ("<host> is the keystone, not a spare brick: when ..."), a
  bracketed "(only <host>, not the other ...)", "<host> gets no <move>", "we never <moved> it" (told, no prohibition),
  "before the user boxes get attention" (`instruction.GRANTED`, `instruction._claim_before`, `checks._only_named_kept`,
  `forbidding._said_of_subject`, `forbidding._told_never`, `forbidding._SEQUENCED_CLASS`); "Lesson drawn:" heads the order
  (`instruction._HEADING_ONLY`);
- time and state words: "Since episode 9 (<date>), ..." opens the order in time, no reason to cut
  (`compile._JUSTIFICATION`, `order.JUSTIFICATION`); "once <case>, that <move> stops being <what>" is where the order
  ends (`rule_claims.ORDER_ENDED`), with no fact to state; "already shows a compromise" is the state now, no history
  (`facts.FACTS`); a scope of up to 120 characters before the order's comma (`order.gives_order`); "each of the
  latest two logged steps" quantifies steps, not hosts, and is history (`general_claims._EVERY`, `facts.FACTS`); the
  claims of a condition with an "(only <host>, not the other ...)" note are those of that host (`instruction.only_named_away`);
- format: the reply's form said of the reply ("the analysis opens with ..."), with a sign ("< 40 words"), or in the
  letters or lines it is written in ("in CAPS", "on 1 line") (`order.OPENS_REPLY`, `compile._FORMAT_WORDS`).
Each test fails on the product files of aad7623 (checked: the product tree of `git archive aad7623` with this file run
against it). Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import looks_like_format, strip_justification
from forge.rulebook.language.claims import claims
from forge.rulebook.language.condition import text_claims, text_facts, verdict_away
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.rule_claims import narrower_cases_away
from forge.rulebook.language.predicate import describe
from forge.rulebook.language.wording import read_wording
from tests.actions import do, prefer

EXPLOITED_USER = {"class": "User", "activity": "Exploit"}


def test_a_second_look_is_an_analyse() -> None:
    text = "exploit on a user box => evict the intruder at once, no 2nd look beforehand."
    assert "Analyse" in read_wording(text).verbs
    assert text_problem(text, EXPLOITED_USER, prefer("Remove", "Analyse")) is None


def test_even_with_no_activity_is_a_concession_not_a_negation_of_the_order() -> None:
    text = "A user machine whose row says Compromised User gets a Remove, even with no activity listed."
    assert text_problem(text, {"class": "User", "compromise": "User"}, do("Remove")) is None


def test_another_move_left_for_later_is_no_negation_of_the_order() -> None:
    text = "If an exploit hits User4, evict the attacker from User4 straight off and leave every decoy for later."
    assert text_problem(text, {"host": "User4", "activity": "Exploit"}, do("Remove", "User4")) is None
    # "leave it for later" is the order's own host put off: still a doubt on the order
    doubted = "If an exploit hits User4, evict the attacker from User4, or leave it for later."
    assert text_problem(doubted, {"host": "User4", "activity": "Exploit"}, do("Remove", "User4")) is not None


def test_not_second_guessing_an_order_keeps_it() -> None:
    text = ("Our split of work: a machine found at Compromised Privileged is reimaged first by the planner's plan; the "
            "chooser doesn't second-guess that call.")
    assert text_problem(text, {"class": "any", "compromise": "Privileged"}, do("Restore")) is None


def test_the_writer_taking_back_what_they_said_is_no_negation_of_what_follows() -> None:
    text = "With Enterprise1 at Compromised User, decoy it - no, strike that: evict the intruder from Enterprise1 now."
    assert text_problem(text, {"host": "Enterprise1", "compromise": "User"}, do("Remove", "Enterprise1")) is None


def test_never_one_move_before_another_puts_the_other_first() -> None:
    text = "Once User4 is owned, the planner saves any Restore for the end and the chooser never takes it ahead of a Remove."
    when = {"host": "User4", "compromise": "any"}
    assert text_problem(text, when, prefer("Remove", "Restore", "User4")) is None
    assert text_problem(text, when, prefer("Restore", "Remove", "User4")) is not None  # the other way round: refused


def test_an_order_given_instead_prefers_it_over_the_move_its_reason_names() -> None:
    text = "Second version: should User4 read Compromised User, reimage User4 instead, since evicting it never held."
    when = {"host": "User4", "compromise": "User"}
    assert text_problem(text, when, prefer("Restore", "Remove", "User4")) is None
    assert text_problem(text, when, prefer("Remove", "Restore", "User4")) is not None
    # without "instead", a move named only in a reason is no part of the order
    plain = "Second version: should User4 read Compromised User, reimage User4, since evicting it was slow."
    assert text_problem(plain, when, prefer("Restore", "Remove", "User4")) is not None


def test_a_move_the_attacker_undoes_is_put_second() -> None:
    text = "Should Enterprise0 read Compromised User, reimage Enterprise0; red returns to the box right after every Remove."
    when = {"host": "Enterprise0", "compromise": "User"}
    assert text_problem(text, when, prefer("Restore", "Remove", "Enterprise0")) is None
    assert text_problem(text, when, prefer("Remove", "Restore", "Enterprise0")) is not None


def test_a_rating_the_order_asks_for_is_no_condition() -> None:
    text = ("Op_Server0 owned: planner lists a reimage of it, chooser takes that reimage over evicting, the analyst "
            "rates it critical.")
    assert text_problem(text, {"host": "Op_Server0", "compromise": "any"}, prefer("Restore", "Remove", "Op_Server0")) is None
    assert "high risk" not in verdict_away("a listener on port 5555 in its evidence means recommend Remove, high risk.")
    # a rating after a word of condition is the case the order is for
    assert "rates it high" in verdict_away("when the analysis rates it high risk, recommend a Remove")


def test_another_move_kept_for_what_was_done_is_no_condition() -> None:
    text = "Should Enterprise1 read Compromised User, evict the intruder from Enterprise1 and keep a Restore for when the Remove did not take."
    assert "did not take" not in narrower_cases_away(text)
    assert text_problem(text, {"host": "Enterprise1", "compromise": "User"}, do("Remove", "Enterprise1")) is None


def test_an_opening_that_grants_another_note_names_no_host_of_this_one() -> None:
    text = "You were right about User1, bob, but you missed a box: should User2 get exploited, evict the attacker from User2 too."
    assert text_problem(text, {"host": "User2", "activity": "Exploit"}, do("Remove", "User2")) is None
    classes = ("You drew the right moral for the user machines, but it stops at the op side: should an op host show "
               "nothing but a scan, a DecoyApache goes onto it.")
    assert text_problem(classes, {"class": "Operational", "activity": "Scan", "compromise": "No"}, do("DecoyApache")) is None


def test_a_claim_before_the_colon_is_no_condition_where_the_order_states_its_own() -> None:
    text = "Enterprise2 is the vault door, not a side window: when Enterprise2 is compromised, Restore Enterprise2."
    assert read_wording(text).situation == ""
    assert text_problem(text, {"host": "Enterprise2", "compromise": "any"}, do("Restore", "Enterprise2")) is None


def test_a_bracketed_only_this_host_note_is_kept_by_a_trigger_on_that_host() -> None:
    text = "E1 w/ Activity Exploit (only E1, not the other ent servers) -> Remove E1."
    assert text_problem(text, {"host": "Enterprise1", "activity": "Exploit"}, do("Remove", "Enterprise1")) is None
    assert text_problem(text, {"class": "Enterprise", "activity": "Exploit"}, do("Remove")) is not None  # wider: refused


def test_a_host_that_gets_no_move_is_kept_out_by_the_trigger() -> None:
    text = "Put a DecoyVsftpd on each enterprise server that is scanned and not compromised; Enterprise2 gets no decoy from me."
    assert any(p.verb == "Decoy" and "Enterprise2" in p.hosts for p in read_wording(text).prohibitions)
    some = {"any": [{"host": h, "activity": "Scan", "compromise": "No"} for h in ("Enterprise0", "Enterprise1")]}
    assert text_problem(text, some, do("DecoyVsftpd")) is None
    whole_class = {"class": "Enterprise", "activity": "Scan", "compromise": "No"}
    assert text_problem(text, whole_class, do("DecoyVsftpd")) is not None  # Enterprise2 matched: refused


def test_what_the_teacher_never_did_is_told_not_forbidden() -> None:
    text = "For three turns Enterprise1 sat at Unknown and we never inspected it. Takeaway: should Enterprise1 read Unknown, inspect Enterprise1 next."
    assert not read_wording(text).prohibitions
    assert text_problem(text, {"host": "Enterprise1", "compromise": "Unknown"}, do("Analyse", "Enterprise1")) is None


def test_a_lesson_drawn_heads_the_order_and_states_no_condition() -> None:
    words = read_wording("Op_Host2 went unchecked at Unknown for a while. Lesson drawn: should Op_Host2 read Unknown, inspect it.")
    assert words.situation == ""
    assert [c.text for c in words.conditions] == ["should Op_Host2 read Unknown"]


def test_a_class_named_as_what_waits_for_attention_is_no_scope() -> None:
    text = "The moment Op_Server0 is owned, reimage Op_Server0 before the user boxes get attention."
    assert text_problem(text, {"host": "Op_Server0", "compromise": "any"}, do("Restore", "Op_Server0")) is None


def test_the_replys_form_said_of_the_reply_is_a_format_rule() -> None:
    assert looks_like_format("each summary opens w/ the step number, then the verdict.")
    assert looks_like_format("keep reports < 40 words.")
    assert looks_like_format("verdict first, in CAPS; the reasons on 1 line below it.")
    assert not looks_like_format("the plan opens with a Remove of User3")  # a move: what to decide


def test_since_an_episode_is_a_time_not_a_reason() -> None:
    text = "Since episode 9 (14 March), when any user box gets owned, evict the intruder from it first."
    assert strip_justification(text) == text
    assert text_problem(text, {"class": "User", "compromise": "any"}, do("Remove")) is None


def test_where_a_move_stops_being_worth_it_is_where_the_order_ends() -> None:
    text = ("Unless Enterprise2 is already owned, a user box under exploit gets a Remove; once Enterprise2 is owned, "
            "that Remove stops being our top priority.")
    when = {"all": [{"class": "User", "activity": "Exploit"}, {"not": {"host": "Enterprise2", "compromise": "any"}}]}
    assert text_problem(text, when, do("Remove")) is None
    assert not text_facts(text)


def test_already_showing_a_compromise_is_the_state_now() -> None:
    assert "history" not in facts_needed("a machine that already shows a compromise")
    assert "history" not in facts_needed("a box that already has a foothold")
    assert "history" in facts_needed("a box that was already cleaned once")
    found, _ = text_claims("Where a box already shows a compromise, put up no decoy there; evict the intruder.")
    assert found is not None


def test_a_long_scope_before_the_orders_comma_still_leads_the_order() -> None:
    text = ("Op_Host0 sat at Unknown through three steps and I kept removing it. For a machine whose row has shown one "
            "and the same compromise level across the latest three steps on record, reimage it rather than evict it again.")
    words = read_wording(text)
    assert "Op_Host0" not in words.hosts
    when = {"class": "any", "compromise": "any", "unchanged_for": 3}
    assert text_problem(text, when, prefer("Restore", "Remove")) is None


def test_each_of_the_last_steps_is_a_run_of_steps_not_every_host() -> None:
    condition = "a machine showing one compromise level in each of the last two logged steps"
    assert "history" in facts_needed(condition)
    found = claims(condition)
    assert found is None or "Op_Host2" not in describe(found)  # (not every host of the network compromised)


def test_an_only_this_host_note_asks_nothing_of_the_other_hosts() -> None:
    assert claims("Enterprise1 with Activity Exploit (only Enterprise1, not the other servers)") \
        == claims("Enterprise1 with Activity Exploit")
    found, _ = text_claims("E1 w/ Activity Exploit (only E1, not the other ent servers) -> Remove E1.")
    assert found is None or "Enterprise0" not in describe(found)  # (never "another server exploited as well")
