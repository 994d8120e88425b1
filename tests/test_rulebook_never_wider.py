"""Issue 18, item 2: a compiled rule is never wider than its text. The compiler lists what its predicate
leaves out (the rule is then guarded), the validator refuses a dropped negation and an always-true
predicate for a text that states a condition (one corrective re-prompt, then semantic with the reason),
and `rulebook show` prints the unexpressed part."""

from __future__ import annotations

import json

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import RuleCompiler, SourceItem
from tests.test_rulebook_compile import ScriptedClient

NEGATED = "When no alert fires during a step, then deploy DecoyApache on the Enterprise hosts."
PERSIST = "When a host's alerts persist across repeated Analyse actions at critical priority, then Remove or Restore it."
ANY_ACTIVITY = {"class": "any", "activity": "any"}
QUIET = {"not": {"any": [{"class": "any", "activity": "any"}, {"class": "any", "compromise": "any"}]}}
DECOY = {"mode": "do", "verb": "DecoyApache", "target": "Enterprise"}


def entry(when, unexpressed="", action=DECOY, item=1):
    return {"item": item, "verdict": "RULE", "type": "CONTENT", "directive": NEGATED, "roles": ["action_chooser"],
            "when": when, "action": action, "unexpressed": unexpressed, "trigger": ""}


def test_a_dropped_negation_and_an_always_true_predicate_are_refused():
    assert "negated" in text_problem(NEGATED, ANY_ACTIVITY, DECOY)
    assert text_problem(NEGATED, QUIET, DECOY) is None
    never_restore = {"mode": "never", "verb": "Restore", "target": "User0"}
    assert text_problem("If User0 is not compromised, do not restore it.", {"host": "User0", "compromise": "No"},
                        never_restore) is None
    assert "every context" in text_problem(PERSIST, {"always": True}, None)
    assert text_problem("Always answer with one action.", {"always": True}, None) is None  # no condition stated
    # a rest that leaves out a kind of fact the condition speaks of (the priority) does not cover it
    assert text_problem(PERSIST, ANY_ACTIVITY, None, "alerts persist across repeated Analyse actions").startswith("facts")
    assert text_problem(PERSIST, ANY_ACTIVITY, None, "alerts persist across repeated Analyse actions at critical priority") \
        is None


def test_a_refused_predicate_gets_one_corrective_reprompt_that_can_fix_it():
    client = ScriptedClient(json.dumps({"rules": [entry(ANY_ACTIVITY)]}), json.dumps({"rules": [entry(QUIET)]}))
    report = RuleCompiler(client).compile([SourceItem("rule", "action_chooser", NEGATED, "s2/i03")])
    (rule,) = report.rules
    assert rule.when == QUIET and not rule.semantic_reason
    assert len(client.prompts) == 2 and "negated" in client.prompts[1][-1].content


def test_still_refused_after_the_reprompt_the_rule_stays_semantic_with_the_reason():
    wide = json.dumps({"rules": [entry(ANY_ACTIVITY)]})
    report = RuleCompiler(ScriptedClient(wide, wide)).compile([SourceItem("rule", "action_chooser", NEGATED, "s2/i03")])
    (rule,) = report.rules
    assert rule.kept and rule.when is None and rule.action is None
    assert rule.semantic_reason.startswith("predicate refused: negation: the condition is negated")


def test_the_unexpressed_rest_is_kept_with_the_expressible_predicate():
    reply = json.dumps({"rules": [entry({"class": "any", "compromise": "any"},
                                        "alerts persist across repeated Analyse actions at critical priority",
                                        {"mode": "do", "verb": "Restore", "target": "$matched"})]})
    report = RuleCompiler(ScriptedClient(reply)).compile([SourceItem("rule", "action_chooser", PERSIST, "s2/i07")])
    (rule,) = report.rules
    assert rule.when == {"class": "any", "compromise": "any"}
    assert rule.unexpressed == "alerts persist across repeated Analyse actions at critical priority"


def test_a_guarded_rule_is_not_injected_where_only_its_expressible_part_holds(tmp_path):
    """The issue's rule with an inexpressible condition: never injected where its predicate alone holds, nor where
    the context states the rest's very words (persistence across steps, a priority): the product cannot judge them,
    so the guard is unknown and the rule silent, whatever its cosine (it used to be injected there)."""
    from forge.memory.model import Provenance
    from forge.rulebook.store.backends import open_rulebook
    from forge.rulebook.book import Rulebook
    from forge.rulebook.retrieval.embed import local_embedder
    from forge.rulebook.injection import RulebookInjection
    from forge.rulebook.retrieval.retrieve import RetrievalSettings
    from forge.rulebook.authoring.teaching import Correction, teach_text

    rest = "alerts persist across repeated Analyse actions at critical priority"
    reply = json.dumps({"rules": [entry({"class": "any", "compromise": "any"}, rest,
                                        {"mode": "do", "verb": "Restore", "target": "$matched"})]})
    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")), local_embedder())
    taught = teach_text(book, RuleCompiler(ScriptedClient(reply)),
                        [Correction(PERSIST, "action_chooser", "s2/i07", "t1", kind="rule")], provenance=Provenance())
    (rule_id,) = taught.rule_ids
    assert book.store.head(rule_id).record.unexpressed == rest
    injection = RulebookInjection(book, RetrievalSettings(), window=0, embedder=book.embedder)

    def injected(context: str) -> bool:
        return any(i.id.split("@")[0] == rule_id for i in injection.for_call("action_chooser", context).items)

    assert not injected("Alerts:\nEnterprise1: Activity None, Compromised User")  # the predicate alone holds
    assert not injected("Alerts:\nEnterprise2: Activity Exploit, Compromised User")
    assert not injected("Recent steps: step 5: Analyse Enterprise1 | step 6: Analyse Enterprise1\nThe alerts on Enterprise1 "
                    "persist across repeated Analyse actions at critical priority.\nAlerts:\nEnterprise1: Activity None, "
                    "Compromised User")
    assert not injected("The alerts persist across repeated Analyse actions at critical priority.")  # nothing compromised


def test_negated_rules_compiled_by_the_surrogate_fire_only_where_their_negation_holds():
    from forge.config import load_config
    from forge.rulebook.language.predicate import holds, parse_predicate
    from forge.rulebook.language.situation import read_situation
    from forge.wiring import build_clients

    clients, _ = build_clients(load_config())
    texts = [NEGATED, "If User0 is not compromised, do not restore it."]
    report = RuleCompiler(clients["compiler"]).compile([SourceItem("rule", "action_chooser", t, "s2/i03") for t in texts])
    quiet_rule, clean_rule = (parse_predicate(r.when) for r in report.rules)
    fires = lambda p, context: holds(p, read_situation(context))  # noqa: E731
    assert fires(quiet_rule, "Alerts:\nNo host shows activity or compromise.")
    assert not fires(quiet_rule, "Alerts:\nUser1: Activity Scan, Compromised No")
    assert not fires(quiet_rule, "Alerts:\nUser1: Activity None, Compromised User")
    assert not fires(quiet_rule, "Choose the next action.")  # says nothing: unknown, silent
    assert fires(clean_rule, "Alerts:\nUser0: Activity Scan, Compromised No")
    assert not fires(clean_rule, "Alerts:\nUser0: Activity Exploit, Compromised User")
    assert not fires(clean_rule, "Alerts:\nEnterprise2: Activity Exploit, Compromised User")  # User0 not stated


def test_rulebook_show_prints_what_was_left_unexpressed():
    from forge.commands.rulebook import _meaning_lines
    from forge.rulebook.model import RuleRecord

    record = RuleRecord("r1", "Remove or Restore a host whose alerts persist.", "CONTENT", ("action_chooser",), "g",
                        when={"class": "any", "compromise": "any"}, action={"mode": "do", "verb": "Restore", "target": "$matched"},
                        unexpressed="alerts persist across repeated Analyse actions at critical priority")
    lines = _meaning_lines(record)
    assert any(line.startswith("unexpressed: alerts persist across repeated Analyse actions") for line in lines)
    assert RuleRecord.from_dict(record.to_dict()) == record
    plain = record.with_(unexpressed="")
    assert "unexpressed" not in plain.to_dict()  # records without one keep the digest they always had
    assert not any(line.startswith("unexpressed") for line in _meaning_lines(plain))


# What SmolLM2-135M answered through llama.cpp for three operator texts: the prompt's own example entry.
EXAMPLE_COPY = {"item": 1, "verdict": "RULE", "type": "CONTENT", "roles": ["action_chooser"],
                "directive": "Restore a User host that shows a privileged compromise.",
                "when": {"class": "User", "compromise": "Privileged"},
                "action": {"mode": "do", "verb": "Restore", "target": "$matched"}, "unexpressed": "",
                "trigger": "User1: Activity Exploit, Compromised Privileged"}


def test_an_entry_about_places_the_text_does_not_name_is_refused_and_the_rule_keeps_its_authors_words():
    text = "Restore Op_Server0 as soon as it is compromised"
    restore = {"mode": "do", "verb": "Restore", "target": "Op_Server0"}
    assert "Op_Server0" in text_problem(text, EXAMPLE_COPY["when"], EXAMPLE_COPY["action"])
    assert "names User1" in text_problem(text, {"all": [{"host": "User1", "compromise": "any"},
                                                         {"host": "Op_Server0", "compromise": "any"}]}, restore)
    assert text_problem(text, {"host": "Op_Server0", "compromise": "any"}, restore) is None
    assert text_problem("Restore any workstation with a compromise.", EXAMPLE_COPY["when"], EXAMPLE_COPY["action"]) is None
    assert text_problem("If Op_Server0 is quiet but a user host is exploited, restore the user host",
                        # (a host "quiet" shows no activity and no compromise: round 15)
                        {"all": [{"class": "User", "activity": "Exploit"},
                                 {"host": "Op_Server0", "activity": "None", "compromise": "No"}]},
                        EXAMPLE_COPY["action"]) is None
    copied = json.dumps({"rules": [EXAMPLE_COPY]})
    report = RuleCompiler(ScriptedClient(copied, copied)).compile([SourceItem("rule", "action_chooser", text, "user:ops")])
    (rule,) = report.rules
    assert rule.when is None and rule.semantic_reason.startswith("predicate refused: host: the text names Op_Server0")
    assert rule.directive == text and rule.trigger == text  # a semantic rule is matched by its author's words


def test_a_semantic_entry_keeps_its_authors_words_not_the_models_rewrite():
    text = "If User2 is scanned but nothing is compromised yet, deploy a decoy on User2 rather than restoring it"
    copied = json.dumps({"rules": [dict(EXAMPLE_COPY, when=None, action=None)]})
    report = RuleCompiler(ScriptedClient(copied)).compile([SourceItem("rule", "action_chooser", text, "user:ops")])
    (rule,) = report.rules
    assert rule.when is None and rule.directive == text
