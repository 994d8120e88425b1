"""Issue 29, eleventh round: the three-valued gate on rules kept semantic, and disputes where one party is unknown.
Each class on sentences written for these tests.

- A long text cut to a directive (compile.fitted) that lost the text's condition: the gate read the cut (a story's
  first sentence, which names a host and nothing of its state) and the rule fired wherever that host was shown.
- A compromise level said in a condition ("shown Unknown") read as any compromise: wider than the words, yet taken as
  the whole condition.
- "A user host is compromised" said of a class met by a row at Compromised Unknown (the named-host case already was
  not).
"""

from __future__ import annotations

from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from tests.test_rulebook_claims_scope import taught
from tests.test_rulebook_text_checks import entry, reply
from tests.actions import do
REFUSED = "predicate refused: verb: the action uses Restore, but the text's order names DecoyApache"


def _on(rows: str):
    return read_situation("Alerts:\n" + rows)


# -- a directive cut from a long text ----------------------------------------------------------------------------------

STORY = ("At step 9 I watched User2 turn yellow and, without properly checking the row, I used a Restore on it. The row "
         "only had a scan on it and nothing beyond; the attacker was not in yet, so the Restore cost a turn and the score "
         "dropped for nothing. I believe, though I am not completely sure it carries over, that when User2 is scanned but "
         "not compromised I should deploy an Apache decoy on it instead of reimaging it.")
ANY_SCAN_DECOY = reply(entry({"class": "any", "activity": "Scan"}, do("DecoyApache", "$matched")))


def test_a_condition_the_directive_cut_left_out_keeps_the_rule_silent(tmp_path) -> None:
    """The compiler's predicate is wider than the text (any host), so the rule is kept semantic; its directive was the
    story's first sentence (the reader took it for the order), which names User2 and nothing of its state. The gate
    read that and the rule fired wherever User2 was shown; the text's condition, left out of the cut, is unread.
    (Since the thirteenth round the reader finds this story's lesson, so the directive holds the condition; the cut
    itself is checked on the story's first sentence.)"""
    record, injected = taught(tmp_path, STORY, ANY_SCAN_DECOY, ANY_SCAN_DECOY)
    assert record.when is None and record.semantic_reason.startswith("predicate refused")
    assert not injected("User2: Activity None, Compromised No")  # not scanned
    assert not injected("User2: Activity Exploit, Compromised User")  # compromised
    cut = STORY.split(". ")[0] + "."  # what the reader took for the order before
    assert "scanned but not compromised" not in cut
    for rows in ("User2: Activity None, Compromised No", "User2: Activity Exploit, Compromised User"):
        assert truth(semantic_claims(cut, REFUSED, STORY), _on(rows)) is not True


def test_a_directive_that_is_the_whole_text_is_judged_as_before() -> None:
    text = "When User2 is scanned but not compromised, deploy DecoyApache on User2."
    found = semantic_claims(text, REFUSED, text)
    assert truth(found, _on("User2: Activity Scan, Compromised No")) is True
    assert truth(found, _on("User2: Activity Exploit, Compromised User")) is not True


def test_a_heading_outside_the_directive_is_no_condition() -> None:
    # "Takeaway:" read as the note's opening situation says nothing of any host: the lesson is still read
    text = ("User4 sat compromised for a while and I only watched it. Takeaway: when User4 shows an exploit, "
            "Remove User4 at once.")
    directive = "when User4 shows an exploit, Remove User4 at once."
    found = semantic_claims(directive, REFUSED, text)
    assert truth(found, _on("User4: Activity Exploit, Compromised User")) is True


# -- a compromise level read as any compromise -------------------------------------------------------------------------

def test_a_level_said_but_read_as_any_compromise_is_not_the_whole_condition() -> None:
    text = "Stop analysing a machine that has shown Unknown for three steps running; nothing is left to find."
    found = rule_claims(text, with_instruction=True)
    # (r43m: "has shown Unknown" is read as that level now; whole only where it is the level, never any compromise)
    assert getattr(found, "compromise", None) == "Unknown" or not complete_claims(text, found)
    claims = semantic_claims(text, REFUSED)
    history = ("Alerts:\nEnterprise1: Activity None, Compromised Privileged\n"
               "Host history (last 3 steps): Enterprise1: step 4 None/Privileged, step 5 None/Privileged, "
               "step 6 None/Privileged")
    assert truth(claims, read_situation(history)) is not True


def test_a_level_read_as_another_level_that_excludes_it_is_whole() -> None:
    # "at user level (not root)": read as User, which excludes root; the reading stays whole
    text = "When a user workstation is compromised at user level (not root), Remove it."
    assert complete_claims(text, rule_claims(text, with_instruction=True))


# -- a class compromised, met only by Unknown --------------------------------------------------------------------------

def test_a_class_said_compromised_is_not_met_by_an_unknown_row() -> None:
    text = "When an operational host and a user host are both compromised, deploy DecoySSHD on Enterprise2."
    found = semantic_claims(text, REFUSED)
    only_unknown = "Op_Host1: Activity None, Compromised User\nUser3: Activity None, Compromised Unknown"
    assert truth(found, _on(only_unknown)) is not True
    for_sure = "Op_Host1: Activity None, Compromised User\nUser3: Activity None, Compromised Privileged"
    assert truth(found, _on(for_sure)) is True


# -- a dispute where the opposing teacher's rule is unknown here ---------------------------------------------------------

RESTORE_E1 = "When Enterprise1 is compromised, restore Enterprise1."
KEEP_E1 = "Never restore Enterprise1 once it has stayed compromised for two steps running."
STILL = ("Step 14 of 30.\nRecent steps: step 12: Monitor -> reward -1.0 | step 13: Monitor -> reward -1.0\n"
         "Host history (last 2 steps): Enterprise1: step 12 None/User, step 13 None/User; every other host: None/No\n"
         "Alerts:\nEnterprise1: Activity None, Compromised User")
FRESH = STILL.replace("step 12 None/User", "step 12 None/No")
NO_HISTORY = "Alerts:\nEnterprise1: Activity None, Compromised User"


BOB = (KEEP_E1, {"host": "Enterprise1", "compromise": "any", "unchanged_for": 2})
# not nested with alice's trigger (another host's history): neither is the narrower, their support ties
CAROL = ("Never restore Enterprise1 while User2 has stayed compromised for two steps running.",
         {"host": "User2", "compromise": "any", "unchanged_for": 2})


def _two_teachers(tmp_path, against=BOB, name="bob", refused=False):
    """alice orders Restore on Enterprise1 when it is compromised; bob forbids it once it has stayed compromised for two
    steps (a history condition: unknown on a context without history lines). Returns who gets what injected. `against`:
    the other teacher's (text, compiled trigger); `refused`: the checks refuse that trigger (the rule is kept semantic)."""
    from forge.memory.model import Provenance
    from forge.rulebook.authoring.compile import RuleCompiler
    from forge.rulebook.authoring.teaching import Correction, teach_text
    from forge.rulebook.book import Rulebook
    from forge.rulebook.injection import RulebookInjection
    from forge.rulebook.retrieval.retrieve import RetrievalSettings
    from forge.rulebook.store.backends import open_rulebook
    from tests.test_rulebook_compile import ScriptedClient
    from tests.test_rulebook_text_checks import CHOOSER
    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")))
    ids = {}
    for name, text, when, action in (
            ("alice", RESTORE_E1, {"host": "Enterprise1", "compromise": "any"}, do("Restore", "Enterprise1")),
            (name, *against, {"mode": "never", "verb": "Restore", "target": "Enterprise1"})):
        answer = reply(entry(when, action))
        (ids[name],) = teach_text(book, RuleCompiler(ScriptedClient(answer, answer)),
                                  [Correction(text, CHOOSER, f"user:{name}", name)], provenance=Provenance()).rule_ids
    assert all((book.store.head(rid).record.when is None) == (refused and who == name) for who, rid in ids.items())
    names = {rid: name for name, rid in ids.items()}

    def injected(context: str, actor) -> set[str]:
        injection = RulebookInjection(book, RetrievalSettings(), actor=actor, window=0, embedder=book.embedder)
        return {names.get(i.id.split("@")[0]) for i in injection.for_call(CHOOSER, context).items}
    return injected


def test_a_rule_does_not_speak_alone_where_the_rule_against_it_is_unknown(tmp_path) -> None:
    injected = _two_teachers(tmp_path)
    # without history lines bob's condition is unknown: for bob (his own rule would win) and for a third actor (his is
    # the narrower) alice's order does not speak as if nobody disputed it
    assert injected(NO_HISTORY, "user:bob") == set()
    assert injected(NO_HISTORY, None) == set()
    # alice's own rule wins for alice whatever bob's condition is
    assert injected(NO_HISTORY, "user:alice") == {"alice"}


def test_a_dispute_decided_by_the_context_is_settled_as_before(tmp_path) -> None:
    injected = _two_teachers(tmp_path)
    assert injected(STILL, "user:bob") == {"bob"}  # both apply: bob's own
    assert injected(STILL, None) == {"bob"}  # both apply: bob's is the narrower
    assert injected(FRESH, "user:bob") == {"alice"}  # bob's is false here: alice's speaks alone
    assert injected(FRESH, None) == {"alice"}


def test_an_unknown_party_that_would_not_win_leaves_the_others_settled_as_before(tmp_path) -> None:
    # carol's condition is unknown without history lines; her rule would only tie with alice's (abstain): it does not
    # silence alice's for a third actor, nor for alice
    injected = _two_teachers(tmp_path, CAROL, "carol")
    assert injected(NO_HISTORY, None) == {"alice"}
    assert injected(NO_HISTORY, "user:alice") == {"alice"}
    assert injected(NO_HISTORY, "user:carol") == set()  # her own rule would win for her
