"""Issue 29, second round, item 5 (recall without harm): history said in words ("clean at the previous step", "for two
steps straight", "still compromised after a Remove", "scanned before it was exploited") is read as the rule language's
history atoms, so a rule judged by its claims (a compilation the checks refused, a guard, a semantic rule) applies
where the context's history lines show it, and stays silent where they do not, or where there are none."""

from __future__ import annotations

import pytest

from forge.rulebook.language.history_words import history_conditions
from forge.rulebook.language.predicate import implies, parse_predicate

E2_HELD = ("Situation (from the Planner): Enterprise2 shows Activity None, Compromised User\n\nRecent steps: step 10: Monitor "
           "-> reward -1.0 | step 11: Analyse Enterprise2 -> reward -1.0 | step 12: Monitor -> reward -1.0\nHost history (last 3 "
           "steps): Enterprise2: step 10 Exploit/User, step 11 None/User, step 12 None/User; every other host: None/No\n\n"
           "Alerts:\nEnterprise2: Activity None, Compromised User")
E2_FRESH = E2_HELD.replace("step 10 Exploit/User, step 11 None/User, step 12 None/User",
                           "step 10 None/No, step 11 Scan/No, step 12 Exploit/User")
E2_NEW = E2_HELD.replace("step 10 Exploit/User, step 11 None/User, step 12 None/User", "step 10 None/No, step 11 Scan/No, step 12 Scan/No")
NO_HISTORY = "Enterprise2: Activity None, Compromised User"


@pytest.mark.parametrize("clause, keys", [
    ("if Enterprise2 has sat at a user-level compromise for two steps straight", {"unchanged_for": 2}),
    ("when it stays compromised for three steps in a row", {"unchanged_for": 3}),
    ("a host that was clean at the previous step", {"newly_compromised": True}),
    ("when User3 is newly compromised", {"newly_compromised": True}),
    ("if Enterprise1 is compromised since before", {"newly_compromised": False}),
    ("if it is still compromised after a Remove", {"acted": "Remove", "within": 4, "changed": False}),
    ("when a Remove did not clear it", {"acted": "Remove", "within": 4, "changed": False}),
    ("once we have reimaged it within the last 2 steps", {"acted": "Restore", "within": 2}),
    ("when a user host was scanned before it was exploited", {"scan_before_exploit": True}),
    ("when it keeps coming back", {}),  # history this reading cannot place: nothing read
    ("should you remove Enterprise1", {}),  # an order, not what was done
])
def test_history_in_words_is_read_as_history_conditions(clause, keys):
    assert history_conditions(clause) == keys


@pytest.mark.parametrize("text, fires, silent", [
    ("If Enterprise2 has sat at a user-level compromise for two steps straight, reimage it.", E2_HELD, E2_FRESH),
    ("When Enterprise2 was clean a step ago and is compromised now, analyse it.", E2_NEW, E2_HELD),
])
def test_a_rule_judged_by_its_claims_applies_where_the_history_lines_show_its_condition(tmp_path, text, fires, silent):
    """Kept back by the checks (the compiler dropped the history), the rule is judged by its words: true where the
    history lines show the condition, false where they show otherwise, unknown (silent) with no history lines."""
    from tests.test_rulebook_claims_scope import taught
    from tests.test_rulebook_text_checks import entry, reply
    from tests.actions import do
    wide = reply(entry({"host": "Enterprise2", "compromise": "any"}, do("Restore", "Enterprise2")))
    record, injected = taught(tmp_path, text, wide, wide)
    assert record.when is None and record.semantic_reason.startswith("predicate refused")
    assert injected(fires) and not injected(silent) and not injected(NO_HISTORY)


def test_a_semantic_rule_whose_claims_read_its_whole_condition_needs_no_cosine(tmp_path):
    """A compiler that gave no predicate: the rule's claims are the whole of its condition, so they decide (its
    cosine to the context, under any floor, adds nothing)."""
    from forge.memory.model import Provenance
    from forge.rulebook.authoring.compile import RuleCompiler
    from forge.rulebook.authoring.teaching import Correction, teach_text
    from forge.rulebook.book import Rulebook
    from forge.rulebook.injection import RulebookInjection
    from forge.rulebook.retrieval.retrieve import RetrievalSettings
    from forge.rulebook.store.backends import open_rulebook
    from tests.test_rulebook_compile import ScriptedClient
    from tests.test_rulebook_text_checks import CHOOSER, entry, reply
    text = "If Enterprise2 has sat at a user-level compromise for two steps straight, reimage it."
    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")))
    (rule_id,) = teach_text(book, RuleCompiler(ScriptedClient(reply(entry(None, None)))),
                            [Correction(text, CHOOSER, "user:rosa", "t")], provenance=Provenance()).rule_ids
    assert book.store.head(rule_id).record.when is None
    injection = RulebookInjection(book, RetrievalSettings(relevance_floor=0.99), window=0, embedder=book.embedder)
    ids = lambda context: {i.id.split("@")[0] for i in injection.for_call(CHOOSER, context).items}  # noqa: E731
    assert ids(E2_HELD) == {rule_id} and ids(E2_FRESH) == set() and ids(NO_HISTORY) == set()


def test_history_conditions_imply_their_wider_forms():
    """An action within fewer steps implies it within more; a longer unchanged run a shorter one; a compromise held
    unchanged is one from before (so a compilation to the narrower form passes the claims check)."""
    assert implies(parse_predicate({"host": "User1", "acted": "Remove", "within": 1}),
                   parse_predicate({"host": "User1", "acted": "Remove", "within": 4}))
    assert not implies(parse_predicate({"host": "User1", "acted": "Remove", "within": 4}),
                       parse_predicate({"host": "User1", "acted": "Remove", "within": 1}))
    assert implies(parse_predicate({"host": "User1", "compromise": "any", "unchanged_for": 3}),
                   parse_predicate({"host": "User1", "compromise": "any", "unchanged_for": 2}))
    assert implies(parse_predicate({"host": "User1", "compromise": "any", "unchanged_for": 2}),
                   parse_predicate({"host": "User1", "newly_compromised": False}))
    assert not implies(parse_predicate({"host": "User1", "compromise": "any", "unchanged_for": 2}),
                       parse_predicate({"host": "User1", "newly_compromised": True}))
