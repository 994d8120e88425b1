"""Issue 29, round 33 (r33h: blind-30's harmful, inverted and outranked injections). A preference said "I'd rather X
than Y" or "the Y can wait, X first" was not read as putting Y aside, so a compiled "do Y" passed every check (the
rule inverted); a situation told in a sentence of its own before an order with "nothing else" was taken for a rule on
the reply's form (injected on every call); a class named before "under analysis" was lost ("enterprise server under
analysis" read as any host); a state said before a host's name ("a scanned Enterprise1 with ...") was left out of the
condition; a reason set off by commas ("X, because ..., should ...") took the order with it; a counterfactual's "if"
("might have worked if ...") and an emphasis ("Each time.") were read as conditions, so the rule's own words
were never read whole; a warning ("we'll regret a Remove of ...") forbade nothing; and an exception whose condition
is unknown did not keep the general rule from speaking again for the host it excepts. The last test is a guard of the
label error left on blind-30 (a rule that applies by its text). Sentences of our own, none from a case file."""

from __future__ import annotations

import json

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import format_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import atoms_of
from forge.rulebook.language.wording import conditions_left_out, read_wording
from forge.rulebook.model import Evidence
from forge.rulebook.retrieval.resolve import resolve_conflicts
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook

CHOOSER = "action_chooser"


def _states(found) -> list[tuple]:
    return [(a.host, a.host_class, a.activity, a.compromise) for a, _ in atoms_of(found)]


# -- a move put aside by a preference: "I'd rather X than Y", "the Y can wait, X first" ----------------------------------

RATHER = "My run went badly there. I'd rather Restore User3 than Analyse it once it is rooted."
CAN_WAIT = "If User4 shows an exploit, the Restore can wait; Remove User4 first."


def test_what_one_would_rather_not_do_is_dispreferred():
    assert "Analyse" in read_wording(RATHER).dispreferred
    problem = text_problem(RATHER, {"host": "User3", "compromise": "Privileged"},
                           {"mode": "do", "verb": "Analyse", "target": "User3"})
    assert problem is not None and problem.startswith("disprefer")


def test_a_move_that_can_wait_is_dispreferred():
    assert "Restore" in read_wording(CAN_WAIT).dispreferred
    problem = text_problem(CAN_WAIT, {"host": "User4", "activity": "Exploit"}, {"mode": "do", "verb": "Restore", "target": "User4"})
    assert problem is not None and problem.startswith("disprefer")


def test_guard_the_faithful_preference_still_passes():
    # guard: the author's own reading, Remove over Restore, passed before the round and still does
    assert text_problem(CAN_WAIT, {"host": "User4", "activity": "Exploit"},
                        {"mode": "prefer", "verb": "Remove", "target": "User4",
                         "over": {"verb": "Restore", "target": "User4"}}) is None


# -- a situation told in a sentence of its own, then an order with "nothing else" ---------------------------------------

def test_a_told_host_state_before_an_order_is_no_format_rule():
    assert format_problem("Op_Host1 is rooted. Then the chooser picks Restore Op_Host1 and nothing else.") is not None


def test_guard_a_rule_on_the_reply_is_still_format():
    # guard: no host, no state: the reply's form (a FORMAT rule before the round too)
    assert format_problem("Reply with the chosen action and nothing else.") is None


# -- a class named before the words that say it is the host at hand -----------------------------------------------------

def test_a_class_under_analysis_keeps_its_class():
    found = semantic_claims("usr box under analysis showing root -> rec Restore.", "predicate refused: verb: x",
                            "usr box under analysis showing root -> rec Restore.")
    assert _states(found) == [(None, "User", None, "Privileged")]


# -- a state said before the host's name ---------------------------------------------------------------------------------

def test_a_state_before_the_host_name_is_part_of_the_condition():
    text = "What I take from it: a probed Op_Host2 with no compromise gets a DecoyApache from the planner."
    assert _states(rule_claims(text, with_instruction=True)) == [("Op_Host2", None, "Scan", "No")]


# -- a reason set off by commas between the subject and its order --------------------------------------------------------

def test_a_reason_between_commas_leaves_the_order_and_its_condition():
    text = "User4, because the lab depends on it, must be planned for a Remove as soon as an exploit hits it."
    words = read_wording(text)
    assert "Remove" in words.verbs and [c.text for c in words.conditions] == ["as soon as an exploit hits it"]


# -- a counterfactual's "if", an emphasis after the order -------------------------------------------------------------

def test_what_might_have_been_states_no_condition():
    text = ("I held back on User1 at step 4. A Restore might have worked if it came earlier; my rule now: when User1 "
            "is rooted, Restore User1 at once.")
    assert conditions_left_out(text) == ()


def test_each_time_said_alone_is_no_condition():
    words = read_wording("User2 at root level? Remove it. Each time.")
    assert [c.text for c in words.conditions] == ["User2 at root level?"]


# -- a warning against a move -----------------------------------------------------------------------------------------

def test_a_regret_foretold_forbids_the_move():
    words = read_wording("We'll regret a Remove of Op_Host0 whilst a probe is all it has; plan a DecoyApache there first.")
    assert any(p.verb == "Remove" and p.hosts == ("Op_Host0",) for p in words.prohibitions)


# -- an exception whose condition is unknown keeps the general rule off the host it excepts -----------------------------

def _taught(text: str, actor: str, when=None, action=None) -> Teaching:
    return Teaching(text, "CONTENT", (CHOOSER,), "g", actor, Evidence("correction", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", text=text, when=when, action=action)


def test_an_unknown_exception_keeps_the_general_rule_off_its_host():
    book = PlanBook()
    exception = _taught("Never restore User1, whatever it shows.", "user:kim")
    narrow = _taught("For User2 owned at user level we Remove and skip any Restore.", "user:lee", {"host": "User2", "compromise": "User"},
                     {"mode": "prefer", "verb": "Remove", "target": "User2", "over": {"verb": "Restore", "target": "User2"}})
    general = _taught("Owned user boxes: Restore each of them.", "user:lee", {"class": "User", "compromise": "any"},
                      {"mode": "do", "verb": "Restore", "target": "$matched"})
    book.apply(exception, narrow, general)
    ids = {exception.rule_id, narrow.rule_id, general.rule_id}
    assert exception.rule_id in book.records[general.rule_id].conflicts_with

    def undisputed(rid, others):  # the general rule's hosts here: User1 (the exception's) and User2 (the narrow rule's)
        return rid != general.rule_id or not {narrow.rule_id, exception.rule_id} <= set(others)
    kept, _ = resolve_conflicts([narrow.rule_id, general.rule_id], book.records, ids, None, related=lambda a, b: True,
                                undisputed=undisputed, unknown={exception.rule_id})
    assert kept == [narrow.rule_id]


# -- guard: the label error left on blind-30 -------------------------------------------------------------------------------

def test_guard_a_rule_on_one_owned_host_applies_whoever_else_is_owned(tmp_path):
    # guard (label error, BL30-scope-3 c): "X quiet and clean, but User3 owned: decoy X" says nothing of the other
    # hosts, so it applies when User4 is owned as well (it did before the round, with both compilers)
    from forge.memory.model import Provenance
    from forge.rulebook.authoring.compile import RuleCompiler
    from forge.rulebook.authoring.teaching import Correction, teach_text
    from forge.rulebook.book import Rulebook
    from forge.rulebook.injection import RulebookInjection
    from forge.rulebook.retrieval.retrieve import RetrievalSettings
    from forge.rulebook.store.backends import open_rulebook
    from tests.test_rulebook_compile import ScriptedClient

    text = "Op_Host0 quiet and clean, but User3 owned: DecoyApache to Op_Host0 ahead of them."
    when = {"all": [{"host": "User3", "compromise": "any"}, {"host": "Op_Host0", "activity": "None", "compromise": "No"}]}
    answer = json.dumps({"rules": [{"item": 1, "verdict": "RULE", "type": "CONTENT", "directive": text, "roles": [CHOOSER],
                                    "when": when, "action": {"mode": "do", "verb": "DecoyApache", "target": "Op_Host0"},
                                    "unexpressed": "", "trigger": ""}]})
    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")))
    (rule_id,) = teach_text(book, RuleCompiler(ScriptedClient(answer, answer)),
                            [Correction(text, CHOOSER, "user:pat", "pat")], provenance=Provenance()).rule_ids
    rows = [("Op_Host0", "None", "No"), ("User3", "None", "User"), ("User4", "None", "User")]
    context = "Alerts:\n" + "\n".join(f"{h}: Activity {a}, Compromised {c}" for h, a, c in rows)
    injection = RulebookInjection(book, RetrievalSettings(), actor=None, window=0, embedder=book.embedder)
    assert rule_id in {i.id.split("@")[0] for i in injection.for_call(CHOOSER, context).items}
