"""Issue 29, sixteenth round (i29r): readings that let a rule fire where its own words say it does not apply, let an
inverted predicate through, or let a rule the resolution should have outranked speak (blind13's harms and outranked
injections), each class on sentences written for these tests.

- *A concession before the order* ("Even so, when ..., put ..."; "That said, ...", "Nonetheless, ..."): the order was
  not found, so the whole story was the rule: its words carried the story's verbs, and a withdrawn rule taught again in
  other words was not recognised (curation let it back in).
- *A restrictive "which" right after a host noun* ("a host which is scanned and nothing more should never get a Restore"):
  it was cut as a reason ("which is ..."), so the prohibition was lost and a predicate ordering Restore passed.
  "should never get a VERB" (an article before the verb) ends the condition as "should never be VERBed" does.
- *A history claim at Compromised Unknown* ("once it has been compromised, unchanged, for three steps"): a row that read
  Unknown all along met it; "compromised" said for sure is not met at Unknown, with a history as without.
- *"a VERB will do (for that)"*: an order of that verb (it was dropped with the clause, so a compilation naming the verb
  was refused).
- *"whose row reads Unknown"*: the host's row is its state (the words "whose row" were left unplaced, so a wrong
  predicate, "some host shows activity", was not held to the condition).
- *"Ent1 hit"*: a compromise, as "got hit".
- *What a semantic prohibition says, where its condition is read whole*: "Ent1 hit -> Remove. Restoring Ent1 is a waste"
  disputes a Restore of Enterprise1 where Enterprise1 is compromised (not in every state: that made the other teacher's
  "restore it when compromised" the narrower rule); "Do not restore a host whose row reads Unknown" disputes "restore
  anything at Unknown" (it named no host, so it disputed nothing and both were injected).
"""
from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims, text_claims, words_key
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording
from forge.rulebook.model import Evidence
from forge.rulebook.store.curation import Teaching
from tests.test_rulebook_exception_words import injected
from tests.situations import alert_rows


REFUSED = "predicate refused: verb: a test's refusal"


# -- a concession before the order --------------------------------------------------------------------------------------

CONCEDED = ("Enterprise2 showed a scan at step 5 and I sat on a Monitor, then an Analyse; by step 6 the attacker was in. "
            "Perhaps nothing would have held it. {lead} when Enterprise2 shows a scan and no compromise yet, put a "
            "DecoyTomcat on Enterprise2.")


def test_a_concession_before_the_order_leads_to_it() -> None:
    for lead in ("Even so,", "That said,", "Nonetheless,", "All the same,"):
        text = CONCEDED.format(lead=lead)
        words = read_wording(text)
        assert words.instruction.lower().startswith("when enterprise2 shows a scan"), (lead, words.instruction)
        assert "Monitor" not in words.verbs and "Analyse" not in words.verbs, (lead, words.verbs)


def test_a_withdrawn_lesson_taught_again_in_short_is_the_same_words() -> None:
    # (curation refuses a teaching whose words_key equals a withdrawn rule's: the story's verbs made them differ)
    short = "E2 scanned, not compromised -> DecoyTomcat E2"
    assert words_key(CONCEDED.format(lead="Even so,"))[:4] == words_key(short)[:4]


# -- a restrictive "which" after a host noun ----------------------------------------------------------------------------

WHICH = ("Op_Server0 showed a scan at step 9 and nothing else, and I recommended a Remove that found nothing to remove. "
         "I suspect the fair takeaway is that a server which is scanned and nothing more should never get a Remove from me.")


def test_which_after_a_host_noun_opens_the_condition_not_a_reason() -> None:
    words = read_wording(WHICH)
    assert [p.verb for p in words.prohibitions] == ["Remove"]
    assert [c.text for c in words.conditions] == ["server which is scanned and nothing more"]
    # a compilation that orders what the text forbids (the story's move) is refused
    problem = text_problem(WHICH, {"host": "Op_Server0", "activity": "Scan", "compromise": "No"},
                           {"mode": "do", "verb": "Remove", "target": "Op_Server0"})
    assert problem is not None and problem.startswith("prohibition"), problem
    # ", which is ..." after a named host is still the reason
    assert read_wording("Restore User2, which is cheap.").instruction == "Restore User2"


def test_should_never_get_a_verb_ends_the_condition() -> None:
    words = read_wording("A box that shows only a scan should never get a Restore.")
    assert [c.text for c in words.conditions] == ["box that shows only a scan"]


# -- a history claim at Compromised Unknown -----------------------------------------------------------------------------

HELD = ("Plan a Restore on User3 once it has been compromised, unchanged, for three steps.")


def _history(level: str) -> object:
    return read_situation(
        "Step 12 of 30.\n"
        "Recent steps: step 8: Monitor -> reward -0.1 | step 9: Monitor -> reward -0.1 | step 10: Monitor -> reward -0.1 | "
        "step 11: Monitor -> reward -0.1\n"
        f"Host history (last 4 steps): User3: step 8 None/{level}, step 9 None/{level}, step 10 None/{level}, "
        f"step 11 None/{level}; every other host: None/No\n"
        f"Alerts:\nUser3: Activity None, Compromised {level}")


def test_a_history_claim_of_a_compromise_is_not_met_at_unknown() -> None:
    found = semantic_claims(HELD, REFUSED, HELD)
    assert truth(found, _history("User")) is True
    assert truth(found, _history("Unknown")) is not True
    found, whole = text_claims(HELD)
    assert whole and truth(found, _history("Unknown")) is not True and truth(found, _history("Privileged")) is True


# -- "a VERB will do" ---------------------------------------------------------------------------------------------------


def test_a_verb_that_will_do_is_an_order() -> None:
    for said in ("a Remove will do for that.", "a DecoyApache would do.", "a Remove suffices.", "an Analyse does the job."):
        assert gives_order(said), said
    text = "Don't plan a Restore of Enterprise1 while it is only at user level; a Remove will do for that."
    assert "a Remove will do" in read_wording(text).instruction
    # the compilation that prefers the Remove over the Restore the text forbids is no stray verb
    problem = text_problem(text, {"host": "Enterprise1", "compromise": "User"},
                           {"mode": "prefer", "verb": "Remove", "target": "Enterprise1",
                            "over": {"verb": "Restore", "target": "Enterprise1"}})
    assert problem is None, problem
    assert not gives_order("The Monitor on Tuesday would do nothing.")


# -- "whose row reads Unknown" ------------------------------------------------------------------------------------------

ROW = "Never recommend a Remove for a host whose row reads Unknown; recommend an Analyse on it instead."


def test_whose_row_reads_is_the_hosts_state() -> None:
    found, whole = text_claims(ROW)
    assert whole
    assert truth(found, alert_rows(("User1", "None", "Unknown"))) is True
    assert truth(found, alert_rows(("User1", "Exploit", "User"))) is not True
    # a predicate that says something else ("some host shows activity") is held to the condition
    problem = text_problem(ROW, {"class": "any", "activity": "any"},
                           {"mode": "prefer", "verb": "Analyse", "target": "$matched", "over": {"verb": "Remove", "target": "$matched"}})
    assert problem is not None and problem.startswith("claims"), problem


# -- "Ent1 hit" ---------------------------------------------------------------------------------------------------------


def test_a_host_hit_is_compromised() -> None:
    for text in ("Op_Server0 hit -> Restore Op_Server0.", "If User4 is hit, Remove User4."):
        found, whole = text_claims(text)
        host = "Op_Server0" if "Op_Server0" in text else "User4"
        assert whole, text
        assert truth(found, alert_rows((host, "None", "User"))) is True, text
        assert truth(found, alert_rows((host, "Scan", "No"))) is False, text


# -- what a semantic prohibition says, where its condition is read whole ------------------------------------------------

CHOOSER = ("action_chooser",)


def _rule(text: str, actor: str, when=None, action=None) -> Teaching:
    return Teaching(text, "CONTENT", CHOOSER, "g", actor, Evidence("correction", actor, text[:40], 1), trigger="dn-x",
                    compiled_by="model", when=when, action=action, text=text,
                    semantic_reason="" if when is not None else REFUSED)


def test_a_prohibition_with_its_own_condition_disputes_there_not_everywhere() -> None:
    when, action = said_in_words("E0 hit -> Remove, nothing more. Restoring E0 is a waste of a step.")
    assert (action.mode, action.move.verb) == ("never", "Restore")
    assert truth(when, alert_rows(("Enterprise0", "None", "User"))) is True
    assert truth(when, alert_rows(("Enterprise0", "Scan", "No"))) is False
    # a standing prohibition states no condition: its host, whatever its state
    when, _ = said_in_words("Do not restore User3, even when it's rooted: the lab runs on it.")
    assert truth(when, alert_rows(("User3", "Scan", "No"))) is True
    # so two teachers on one situation are a dispute (nobody asks: nobody speaks), not an exception of the order
    restore = _rule("When Enterprise0 is compromised, restore it.", "user:tam",
                    {"host": "Enterprise0", "compromise": "any"}, {"mode": "do", "verb": "Restore", "target": "Enterprise0"})
    waste = _rule("E0 hit -> Remove, nothing more. Restoring E0 is a waste of a step.", "user:uma")
    context = "Alerts:\nEnterprise0: Activity None, Compromised User"
    assert injected([restore, waste], context) == []
    assert injected([restore, waste], context, actor="user:tam") == [restore.directive]
    assert injected([restore, waste], context, actor="user:uma") == [waste.directive]


def test_a_prohibition_on_the_host_its_condition_describes_disputes_an_order_there() -> None:
    when, action = said_in_words(ROW)
    assert (action.mode, action.move.verb, action.move.target) == ("never", "Remove", "$matched")
    assert truth(when, alert_rows(("User1", "None", "Unknown"))) is True
    order = _rule("Anything sitting at Compromised Unknown: recommend a Remove.", "user:vic",
                  {"compromise": "Unknown"}, {"mode": "do", "verb": "Remove", "target": "$matched"})
    against = _rule(ROW, "user:wyn")
    context = "Alerts:\nUser1: Activity None, Compromised Unknown"
    assert injected([order, against], context) == []
    assert injected([order, against], context, actor="user:vic") == [order.directive]
    assert injected([order, against], context, actor="user:wyn") == [against.directive]
    # a prohibition with no condition and no host says nothing it could dispute by
    assert said_in_words("Never recommend a Remove; recommend an Analyse instead.") is None


# -- a range of hosts in shorthand (the largest class of blind13's reference misses) ------------------------------------


def test_a_range_in_shorthand_names_each_host_in_it() -> None:
    from forge.rulebook.language.names import hosts_in
    assert hosts_in("E0-E2 rooted -> Restore that host.") == ("Enterprise0", "Enterprise1", "Enterprise2")
    assert hosts_in("usr2 to usr4 scanned -> DecoyApache there") == ("User2", "User3", "User4")
    text = "U2-U4 exploited -> Remove that host."
    found, whole = text_claims(text)
    assert whole
    assert truth(found, alert_rows(("User3", "Exploit", "User"))) is True
    assert truth(found, alert_rows(("User1", "Exploit", "User"), ("User2", "None", "No"), ("User3", "None", "No"),
                              ("User4", "None", "No"))) is False
    # a compilation on the middle host of the range is grounded in the text
    assert text_problem(text, {"any": [{"host": h, "activity": "Exploit"} for h in ("User2", "User3", "User4")]},
                        {"mode": "do", "verb": "Remove", "target": "$matched"}) is None
    assert hosts_in("steps 1-3 were quiet") == ()


# -- "X needs a VERB" ---------------------------------------------------------------------------------------------------


def test_a_host_that_needs_a_verb_is_an_order_of_it() -> None:
    text = ("Enterprise2 was rooted at step 14, two steps after I had removed it, and I removed it again. I am pretty sure "
            "that an enterprise host rooted right after a Remove needs a Restore rather than one more Remove.")
    words = read_wording(text)
    assert words.instruction.lower().startswith("an enterprise host rooted right after a remove needs a restore")
    assert "Enterprise2" not in words.hosts  # (the story's host is no part of the lesson)
    assert words.dispreferred == ("Remove",)
    # "needs no VERB" stays what it was: no order of that verb
    words = read_wording("A user host that shows only a scan needs no Restore; a DecoyApache on it is enough.")
    assert [p.verb for p in words.prohibitions] == ["Restore"]
    assert [c.text for c in words.conditions] == ["user host that shows only a scan"]
