"""Issue 29, round 6: disagreeing teachers when one rule was kept without a compiled meaning, and the parties that
side with the winner. The product's checks keep a rule semantic when its compilation says more than its text; an
exception so kept ("Do not restore User3, even when it's rooted") still forbids its verb on the hosts it names, so
it conflicts with the general rule ("Restore any user host that shows a privileged compromise") and, on fewer
hosts, outranks it there as a compiled exception would, while the general rule still speaks for the other hosts.
A loser that disagrees only with other losers (it sides with the winner) is injected with the winner. Pure: plans
over head records, resolution as retrieve.py calls it."""

from __future__ import annotations

from forge.rulebook.language.meaning import conflict_in, meaning_of, undisputed_hosts
from forge.rulebook.language.predicate import holds
from forge.rulebook.language.said import forbidden_in_words, said_in_words
from forge.rulebook.language.situation import read_situation
from forge.rulebook.model import Evidence
from forge.rulebook.retrieval.resolve import narrower_first, resolve_conflicts
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook

PLANNER = ("planner",)


def rule(text: str, actor: str, when=None, action=None) -> Teaching:
    return Teaching(text, "CONTENT", PLANNER, "g", actor, Evidence("correction", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", when=when, action=action, text=text)


LAB = rule("Do not restore User3, even when it's rooted: the lab runs on it. Remove is as far as we go there.",
           "user:grace")  # kept semantic
ROOTED = rule("Any user host that shows a privileged compromise gets restored.", "user:erin",
              {"class": "User", "compromise": "Privileged"}, {"mode": "do", "verb": "Restore", "target": "$matched"})
USER3 = "Alerts:\nUser3: Activity None, Compromised Privileged"
USER3_AND_USER1 = "Alerts:\nUser3: Activity None, Compromised Privileged\nUser1: Activity None, Compromised Privileged"


def injected(teachings, context: str, actor=None, semantic_apply=True) -> list[str]:
    """What resolution keeps of the rules that apply to `context` (a semantic rule applies when
    `semantic_apply`: its own three-valued reading is not what these tests are about), by directive, in order."""
    book = PlanBook()
    for teaching in teachings:
        book.apply(teaching)
    records, situation = book.records, read_situation(context)
    meanings = {rid: meaning_of(r) for rid, r in records.items()}
    applying = sorted(rid for rid, m in meanings.items() if (semantic_apply if m.semantic else holds(m.when, situation)))

    def related(a: str, b: str) -> bool:  # as retrieve.py: a semantic party by its words; an edge without them stands
        ma, mb = (getattr(m, "said", None) or m if m.semantic else m for m in (meanings[a], meanings[b]))
        return ma.semantic or mb.semantic or conflict_in(ma, mb, situation)
    kept, _ = resolve_conflicts(
        applying, records, set(applying), actor, related=related,
        undisputed=lambda rid, others: bool(undisputed_hosts(meanings[rid], [meanings[o] for o in others], situation)))
    kept = narrower_first(kept, {rid: meanings[rid].when for rid in kept})
    return [records[rid].directive for rid in kept]


def test_what_a_rule_forbids_in_so_many_words():
    when, action = forbidden_in_words(LAB.text)
    assert (when.host, action.mode, action.move.verb) == ("User3", "never", "Restore")
    when, action = forbidden_in_words("Spend no actions at all on User0; it is a honeypot we watch.")
    assert (when.host, action.move.verb) == ("User0", "any")
    assert forbidden_in_words("When User0 is compromised, remove the attacker from it rather than restoring it.")[1].move.verb == "Restore"
    for text in ("Restore any user host that is compromised.",  # orders, forbids nothing
                 "Never restore a user host that is only scanned.",  # a class: a general rule, not an exception
                 "Do not restore User2. Do not remove User2."):  # two verbs: not one prohibition
        assert forbidden_in_words(text) is None, text


def test_a_semantic_exception_conflicts_with_the_general_rule_it_names_a_host_of():
    book = PlanBook()
    book.apply(LAB)
    book.apply(ROOTED)
    lab, rooted = book.of(LAB.directive), book.of(ROOTED.directive)
    assert meaning_of(lab).semantic and meaning_of(lab).said is not None
    assert lab.conflicts_with == (rooted.rule_id,) and rooted.conflicts_with == (lab.rule_id,)


def test_the_semantic_exception_outranks_the_general_rule_on_its_host_only():
    assert injected((LAB, ROOTED), USER3) == [LAB.directive]
    assert injected((LAB, ROOTED), USER3, "user:heidi") == [LAB.directive]
    # the general rule still speaks for User1
    assert injected((LAB, ROOTED), USER3_AND_USER1) == [LAB.directive, ROOTED.directive]
    # its teacher's own rule wins for them
    assert injected((LAB, ROOTED), USER3, "user:erin") == [ROOTED.directive]


def test_one_teachers_semantic_exception_taught_after_the_general_rule():
    general = rule("Restore compromised user hosts.", "user:judy", {"class": "User", "compromise": "any"},
                   {"mode": "do", "verb": "Restore", "target": "$matched"})
    exception = rule("User3 is the exception: when it is compromised, do not restore it. It runs the grading agent.",
                     "user:judy")
    context = "Alerts:\nUser3: Activity None, Compromised User"
    assert injected((general, exception), context) == [exception.directive]
    assert injected((general, exception), context + "\nUser1: Activity None, Compromised User") == \
        [exception.directive, general.directive]


def test_on_the_same_host_the_narrower_trigger_wins_as_between_compiled_rules():
    """"Do not restore User3" speaks wherever User3 is shown; "When User3 is rooted, restore User3" only where it is
    rooted: the narrower one wins for a third actor, as "Never restore User0" against "When User0 is compromised,
    restore User0" does when both are compiled (dev D29-two-1); each teacher gets their own."""
    same_host = rule("When User3 is rooted, restore User3.", "user:erin", {"host": "User3", "compromise": "Privileged"},
                     {"mode": "do", "verb": "Restore", "target": "User3"})
    assert injected((LAB, same_host), USER3) == [same_host.directive]
    assert injected((LAB, same_host), USER3, "user:grace") == [LAB.directive]


def test_a_general_rule_kept_semantic_yields_to_a_compiled_exception_on_its_host():
    """The reverse: the general rule is the one kept semantic ("Restore user hosts as soon as they're compromised": its
    words order Restore on a user host that shows a compromise), the exception is compiled (never Restore User3 when
    it is compromised). The exception speaks on User3; the general rule still speaks for User2."""
    general = rule("Restore user hosts as soon as they're compromised.", "user:frank")
    exception = rule("When User3 is compromised, don't restore it, Remove it instead: restoring User3 kills the green "
                     "agents' sessions.", "user:grace", {"host": "User3", "compromise": "any"},
                     {"mode": "never", "verb": "Restore", "target": "User3"})
    when, action = said_in_words(general.text)
    assert (action.mode, action.move.verb, when.host_class) == ("do", "Restore", "User")
    user3 = "Alerts:\nUser3: Activity None, Compromised User"
    assert injected((general, exception), user3) == [exception.directive]
    assert injected((general, exception), user3 + "\nUser2: Activity None, Compromised User") == \
        [exception.directive, general.directive]
    assert injected((general, exception), user3, "user:frank") == [general.directive]


def test_rules_that_act_on_different_hosts_here_do_not_disagree_here_whatever_was_flagged():
    """A semantic rule's words say which hosts it acts on: "remove a user host that was clean at the previous step and
    shows a compromise now" and "restore a user host unchanged at Compromised User for three steps" were flagged (they
    may meet on one host) but here act on different hosts: both are injected."""
    fresh = rule("If a user host was clean at the previous step and shows a compromise now, have it removed right away.",
                 "user:erin")
    stale = rule("If a user host has shown Compromised User for three steps in a row, restore it rather than analyse it.",
                 "s2/i05", {"class": "User", "compromise": "User", "unchanged_for": 3},
                 {"mode": "prefer", "verb": "Restore", "target": "$matched", "over": {"verb": "Analyse", "target": "$matched"}})
    context = ("Host history (last 4 steps): User1: step 8 None/User, step 9 None/User, step 10 None/User, step 11 None/User; "
               "User0: step 8 None/No, step 9 None/No, step 10 None/No, step 11 None/No\n"
               "Alerts:\nUser1: Activity None, Compromised User\nUser0: Activity Exploit, Compromised User")
    book = PlanBook()
    book.apply(fresh, stale)
    assert book.of(fresh.directive).conflicts_with == (book.of(stale.directive).rule_id,)  # flagged: they may meet
    assert sorted(injected((fresh, stale), context)) == sorted([fresh.directive, stale.directive])


def test_a_loser_that_sides_with_the_winner_is_injected_with_it():
    """Three teachers on Enterprise1: restore when compromised (alice), stop restoring it and remove instead (bob),
    restore it when rooted, removing is pointless there (carol). For alice, alice's rule wins; carol's disagrees
    only with bob's, which lost, so it is injected too. For bob, neither of the others."""
    def on_e1(level: str) -> dict:
        return {"host": "Enterprise1", "compromise": level}

    def prefer(verb: str, over: str) -> dict:
        return {"mode": "prefer", "verb": verb, "target": "Enterprise1", "over": {"verb": over, "target": "Enterprise1"}}
    alice = rule("Whenever Enterprise1 is compromised, restore it.", "user:alice", on_e1("any"),
                 {"mode": "do", "verb": "Restore", "target": "Enterprise1"})
    bob = rule("Stop restoring Enterprise1 when it's compromised - remove the attacker instead.", "user:bob",
               on_e1("any"), prefer("Remove", "Restore"))
    carol = rule("If Enterprise1 is rooted (Privileged), there's no point removing it: restore it.", "user:carol",
                 on_e1("Privileged"), prefer("Restore", "Remove"))
    context = "Alerts:\nEnterprise1: Activity None, Compromised Privileged"
    assert injected((alice, bob, carol), context, "user:alice") == [carol.directive, alice.directive]
    assert injected((alice, bob, carol), context, "user:bob") == [bob.directive]


def test_conflict_edges_do_not_depend_on_the_order_of_teaching():
    """Whether two rules are flagged depends on who backs each, not on who taught last: a rule another teacher
    joins later (a merge) is flagged against the first teacher's own rule it disagrees with, whatever the order
    (`allies` reads the edges, so an order-dependent edge would make the injected set order-dependent)."""
    import random

    from tests.test_rulebook_order import TEACHINGS

    def edges(order):
        book, ended = PlanBook(), {}
        for index in order:
            ended[index] = book.apply(TEACHINGS[index]).outcomes[0].rule_id
        back: dict[str, set] = {}
        for index, rid in ended.items():
            back.setdefault(rid, set()).add(index)
        return {frozenset(back[rid]): frozenset(i for other in record.conflicts_with for i in back[other])
                for rid, record in book.records.items()}
    reference = edges(range(len(TEACHINGS)))
    rng = random.Random(29)
    for _ in range(30):
        order = list(range(len(TEACHINGS)))
        rng.shuffle(order)
        assert edges(order) == reference, order
