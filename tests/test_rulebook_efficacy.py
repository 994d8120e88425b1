"""Aftermath of injections, efficacy verdicts, efficacy evidence and correction chains: pure parts."""

from __future__ import annotations

import pytest

from forge.rulebook.outcomes.aftermath import Aftermath, StepSeen, episode_aftermath, failure_ahead
from forge.rulebook.store.chains import chain_members
from forge.rulebook.outcomes.efficacy import RuleEfficacy, RuleVerdict, TraceAftermath, aggregate
from forge.rulebook.store.curation import plan_assess
from forge.rulebook.language.meaning import meaning_of
from forge.rulebook.model import Evidence, RuleRecord, RulebookError

OP = "Alerts:\nOp_Server0: Activity Exploit, Compromised User\nUser1: Activity Scan, Compromised No"
QUIET = "Alerts:\nAll 13 hosts: Activity None, Compromised No."


def record(rule_id: str, when: dict | None, action: dict | None, **kw) -> RuleRecord:
    return RuleRecord(rule_id, f"directive {rule_id}", "CONTENT", ("action_chooser",), "g", when=when, action=action, **kw)


RESTORE_OP = record("op", {"host": "Op_Server0", "compromise": "any"}, {"mode": "do", "verb": "Restore", "target": "Op_Server0"})
NEVER_RESTORE_USER1 = record("nu1", {"host": "User1"}, {"mode": "never", "verb": "Restore", "target": "User1"})
SEMANTIC = record("sem", None, None)


def meanings():
    return {"op@v1": meaning_of(RESTORE_OP), "nu1@v1": meaning_of(NEVER_RESTORE_USER1), "sem@v1": meaning_of(SEMANTIC)}


def test_aftermath_judges_each_injected_rule_on_the_steps_context():
    steps = [
        StepSeen(1, OP, "Restore Op_Server0", -1.0, ("op@v1", "nu1@v1")),
        StepSeen(2, OP, "Restore User1", -1.0, ("op@v1", "nu1@v1", "sem@v1")),
        StepSeen(3, QUIET, "Monitor", -12.0, ("op@v1",)),  # a stage-1 rule still in the prompt, trigger gone
        StepSeen(4, OP, "Remove Op_Server0", 0.0, ()),
    ]
    got = {(a.step, a.rule): a for a in episode_aftermath(steps, meanings(), window=2, threshold=-1.1)}
    assert got[(1, "op@v1")].judged == "followed" and got[(1, "op@v1")].held is True
    assert got[(1, "nu1@v1")].judged == "followed"  # avoided what it prohibits
    assert got[(2, "op@v1")].judged == "ignored"
    assert got[(2, "nu1@v1")].judged == "contradicted"
    assert got[(2, "sem@v1")].held is None and got[(2, "sem@v1")].judged is None
    assert got[(3, "op@v1")].held is False and got[(3, "op@v1")].judged is None
    # outcome: a failure (reward < -1.1) in the next 2 steps; step 3's own -12 counts for steps 1 and 2 only
    assert got[(1, "op@v1")].failure is True and got[(2, "op@v1")].failure is True
    assert got[(3, "op@v1")].failure is False
    assert (4, "op@v1") not in got
    assert got[(1, "op@v1")].reward == -1.0


def test_window_return_sums_the_step_and_the_next_k_and_is_unknown_past_the_end():
    steps = [StepSeen(i, OP, "Monitor", r, ("op@v1",)) for i, r in enumerate([-1.0, -10.0, -0.5, -2.0], 1)]
    got = [a.window_return for a in episode_aftermath(steps, meanings(), window=2, threshold=-1.1)]
    assert got == [-11.5, -12.5, None, None]


def test_when_failures_saturate_the_window_return_still_tells_them_apart_but_decides_nothing():
    # Every judged point is followed by a failure on both sides (a late CAGE-2 episode), so the failure
    # rate cannot separate; the window return can (descriptive: without ablation pairs, no verdict).
    def entries(rule, followed_return, not_return):
        return ([Aftermath(i, f"{rule}@v1", True, "followed", -1.0, True, followed_return + i % 3) for i in range(12)]
                + [Aftermath(i, f"{rule}@v1", True, "ignored", -1.0, True, not_return + i % 3) for i in range(12)])
    trace = TraceAftermath("t", "evaluate-rulebook-0", ("good", "waste", "flat"),
                           tuple(entries("good", -5.0, -25.0) + entries("waste", -9.0, -6.0) + entries("flat", -7.0, -7.0)))
    eff = aggregate([trace])
    assert eff["good"].difference()[0] == 0.0  # the failure rate alone sees nothing
    assert eff["good"].return_difference()[0] == pytest.approx(20.0) and eff["waste"].return_difference()[0] == pytest.approx(-3.0)
    # One trace: one episode, so the episode-clustered interval has nothing to resample.
    assert eff["good"].return_difference()[1] is None
    assert [eff[r].verdict(5, 5) for r in ("good", "waste", "flat")] == [RuleVerdict.INSUFFICIENT] * 3


def test_failure_window_is_unknown_when_an_aborted_trace_stops_short():
    assert failure_ahead([0.0, 0.0], 0, 3, -1.1, complete=False) is None
    assert failure_ahead([0.0, 0.0], 0, 3, -1.1, complete=True) is False
    assert failure_ahead([0.0, -5.0], 0, 3, -1.1, complete=False) is True


def _entries(rule: str, followed: tuple[int, int], not_followed: tuple[int, int]) -> list[Aftermath]:
    """(failures, n) after followed / after ignored."""
    out = []
    for judged, (failures, n) in (("followed", followed), ("ignored", not_followed)):
        out += [Aftermath(i, f"{rule}@v1", True, judged, 0.0, i < failures) for i in range(n)]
    return out


def test_decision_points_are_descriptive_with_intervals_clustered_by_episode():
    # The same 40 judged points, each in an episode of its own or crowded into 4 episodes of neighbouring
    # (alike) points: the difference is the same, but resampling whole episodes gives the crowded one
    # (correlated points) the wider interval.
    entries = _entries("good", (1, 20), (15, 20))
    followed, ignored = entries[:20], entries[20:]

    def episodes(size):
        groups = [followed[k:k + size] + ignored[k:k + size] for k in range(0, 20, size)]
        return [TraceAftermath(f"run/traces/e{k}.json", "evaluate-rulebook-0", ("good",), tuple(g))
                for k, g in enumerate(groups)]

    def spread(n_episodes):
        return episodes(20 // n_episodes)

    wide, narrow = aggregate(spread(4))["good"], aggregate(spread(20))["good"]
    assert wide.difference()[0] == pytest.approx(narrow.difference()[0]) == pytest.approx(0.05 - 0.75)
    assert wide.difference()[2] - wide.difference()[1] > narrow.difference()[2] - narrow.difference()[1]
    assert narrow.difference()[2] < 0
    rate = narrow.rate_followed()
    assert rate.failures == 1 and rate.n == 20 and rate.low < 0.05 < rate.high < 0.3
    assert narrow.verdict(5, 5) == RuleVerdict.INSUFFICIENT  # no ablation pairs: the decision points decide nothing


def test_held_false_and_unknown_outcomes_do_not_count_as_judged():
    eff = RuleEfficacy("r")
    eff.add(Aftermath(1, "r@v1", False, None, 0.0, True))
    eff.add(Aftermath(2, "r@v1", True, "followed", 0.0, None))
    assert (eff.injected, eff.triggered, eff.followed) == (2, 1, 1)
    assert eff.after_followed == [] and eff.followed_rate == 1.0


def test_efficacy_is_evidence_never_an_edit_of_the_directive():
    heads = {"op": RESTORE_OP.with_(evidence=("ev-a",), support=1)}
    base = {"ev-a": Evidence("correction", "user:alice", "cli", 1)}
    good = Evidence("efficacy", "user:bob", "stats:abc", 1, "helpful")
    bad = Evidence("efficacy", "user:bob", "stats:def", 1, "harmful")
    changes = plan_assess(heads, [("op", good, True)], base)
    assert len(changes) == 1 and changes[0].op == "assess"
    after = changes[0].record
    assert after.evidence == ("ev-a", good.id) and after.support == 2
    assert (after.directive, after.when, after.action, after.status) == (RESTORE_OP.directive, RESTORE_OP.when,
                                                                         RESTORE_OP.action, "active")
    assert plan_assess({"op": after}, [("op", good, True)], {**base, good.id: good}) == []  # recorded once
    countered = plan_assess({"op": after}, [("op", bad, False)], {**base, good.id: good})[0].record
    assert countered.counter_evidence == (bad.id,) and countered.support == 2
    assert ("op", "COUNTERED_BY", bad.id) in countered.edges()
    with pytest.raises(RulebookError, match="no rule 'zz'"):
        plan_assess(heads, [("zz", good, True)], base)


def test_chain_members_follow_supersedes_and_corrects_both_ways():
    a = record("a", None, None, status="superseded")
    b = record("b", None, None, supersedes=("a",), status="superseded")
    c = record("c", None, None, supersedes=("b",))
    learned = record("l", None, None)
    fix = record("f", None, None, corrects=("l",))
    other = record("o", None, None)
    records = {r.rule_id: r for r in (a, b, c, learned, fix, other)}
    assert chain_members(records, "b") == {"a", "b", "c"}
    assert chain_members(records, "l") == {"l", "f"}
    assert chain_members(records, "o") == {"o"}


def trace(label: str, seed: int, total: float, withheld=(), eligible=("good", "bad", "flat"), entries=(), book=7,
          directory="run/traces/i0") -> TraceAftermath:
    return TraceAftermath(f"{directory}/{label}.json", label, tuple(eligible), tuple(entries), seed, total, book,
                          tuple(withheld))


def test_ablation_pairs_episodes_by_directory_seed_and_book_version_and_decides_the_verdict():
    # Withholding "good" costs 10 a seed, withholding "bad" gains 4, withholding "flat" changes -1..+1.
    traces = []
    for seed in range(10):
        base = -50.0 - seed
        traces += [trace(f"evaluate-rulebook-{seed}", seed, base),
                   trace(f"without-good-{seed}", seed, base - 10 - seed % 3, withheld=("good",)),
                   trace(f"without-bad-{seed}", seed, base + 4 + seed % 2, withheld=("bad",)),
                   trace(f"without-flat-{seed}", seed, base + (seed % 3) - 1, withheld=("flat",))]
    # Not twins: another book version, another directory, a missing seed.
    traces += [trace("other-book", 0, -500.0, withheld=("good",), book=8),
               trace("other-dir", 0, -500.0, withheld=("good",), directory="other/traces/i0"),
               trace("no-twin", 99, -500.0, withheld=("good",))]
    eff = aggregate(traces)
    assert len(eff["good"].ablation) == 10 and min(eff["good"].ablation) >= 10
    assert eff["good"].episodes == 10  # episodes with a rule withheld count only as ablation pairs
    assert eff["good"].verdict(5, 5, 8) == RuleVerdict.HELPFUL
    assert eff["bad"].verdict(5, 5, 8) == RuleVerdict.HARMFUL
    assert eff["flat"].verdict(5, 5, 8) == RuleVerdict.INERT
    assert eff["good"].verdict(5, 5, 11) == RuleVerdict.INSUFFICIENT  # under the minimum pairs: no verdict
    assert eff["good"].ablation_p(8) == pytest.approx(2 / 2 ** 10)  # every sign pattern enumerated
    delta, low, high = eff["good"].ablation_difference()
    assert low <= delta <= high and low > 10


def test_ablation_verdict_overrides_the_decision_points():
    # Decision points say harmful (the window return after following is lower), the episodes say helpful:
    # the paired episodes measure the whole effect, so they decide.
    eff = RuleEfficacy("r", triggered=20, followed=10, ignored=10,
                       return_followed=[-5.0, -6.0] * 5, return_not=[-1.0, -2.0] * 5,
                       after_followed=[1] * 10, after_not=[1] * 10)
    assert eff.verdict(5, 5, 8) == RuleVerdict.INSUFFICIENT
    eff.ablation.extend([3.0, 5.0, 4.0, 6.0, 2.0, 4.0, 5.0, 3.0])
    assert eff.verdict(5, 5, 8) == RuleVerdict.HELPFUL
    assert eff.to_dict(5, 5, 8)["ablation_pairs"] == 8


def test_rules_judged_in_one_report_are_holm_corrected():
    from forge.rulebook.outcomes.efficacy import holm_adjusted

    # Alone, "edge" is helpful (sign-flip p = 8/256 = 0.031); beside two clear rules it ranks last and Holm
    # leaves it; with a second borderline rule both are multiplied by 2 and neither is significant.
    clear = [3.0, 5.0, 4.0, 6.0, 2.0, 4.0, 5.0, 3.0]
    rules = {"a": RuleEfficacy("a", ablation=list(clear)), "b": RuleEfficacy("b", ablation=[-x for x in clear]),
             "edge": RuleEfficacy("edge", ablation=[4.0, 4.0, 4.0, 4.0, 4.0, 4.0, -1.0, -1.0])}
    alone = rules["edge"].ablation_p(8)
    assert alone == pytest.approx(8 / 256) and rules["edge"].verdict(5, 5, 8) == RuleVerdict.HELPFUL
    adjusted = holm_adjusted(rules, 8)
    assert adjusted["a"] == pytest.approx(3 * 2 / 256) and adjusted["edge"] == pytest.approx(max(alone, adjusted["b"]))
    rules["more"] = RuleEfficacy("more", ablation=[4.0, 4.0, 4.0, 4.0, 4.0, 4.0, -2.0, -1.0])
    adjusted = holm_adjusted(rules, 8)  # two borderline rules now: each is multiplied by 2
    assert adjusted["edge"] == pytest.approx(2 * alone) and adjusted["edge"] >= 0.05
    assert rules["edge"].verdict(5, 5, 8, adjusted["edge"]) == RuleVerdict.INERT


def test_rules_to_ablate_are_the_triggered_ones_most_often_first():
    from forge.rulebook.outcomes.ablation import ablation_label, rules_to_ablate

    def entries(ref: str, held, n: int) -> list[Aftermath]:
        return [Aftermath(step, ref, held, None, 0.0, False) for step in range(n)]

    aftermath = entries("a@v1", True, 3) + entries("b@v2", None, 5) + entries("c@v1", False, 9) + entries("d@v1", True, 3)
    assert rules_to_ablate(aftermath, 4) == ["b", "a", "d"]  # c never held: withholding it changes nothing
    assert rules_to_ablate(aftermath, 2) == ["b", "a"]
    assert rules_to_ablate(aftermath, 0) == []
    assert ablation_label("0123456789abcdef", 3) == "evaluate-rulebook-without-0123456789-3"


def test_the_live_harm_figure_counts_injected_rules_an_operator_then_contradicted():
    """Issue 29, item 2: `forge rulebook stats` shows, from aftermath, the injections an operator contradicted: an
    override against the rule, or one that replaced an action following it; not an override that agrees."""
    from forge.rulebook.outcomes.review import EfficacyReport, VerdictSettings
    from forge.rulebook.model import RuleVersion

    steps = [
        # the agent followed "restore Op_Server0"; the operator replaced it: contradicted
        StepSeen(1, OP, "Monitor", -1.0, ("op@v1", "nu1@v1"), proposed="Restore Op_Server0"),
        # the operator restored User1 against "never restore User1": contradicted
        StepSeen(2, OP, "Restore User1", -1.0, ("op@v1", "nu1@v1"), proposed="Monitor"),
        # an override the rule agrees with
        StepSeen(3, OP, "Restore Op_Server0", -1.0, ("op@v1", "sem@v1"), proposed="Monitor"),
        StepSeen(4, OP, "Restore Op_Server0", -1.0, ("op@v1",)),  # nobody overrode
    ]
    entries = {(a.step, a.rule): a for a in episode_aftermath(steps, meanings(), window=1, threshold=-1.1)}
    assert entries[(1, "op@v1")].operator == "contradicted" and entries[(1, "nu1@v1")].operator == "agreed"
    assert entries[(2, "nu1@v1")].operator == "contradicted" and entries[(2, "op@v1")].operator == "agreed"
    assert entries[(3, "op@v1")].operator == "agreed" and entries[(3, "sem@v1")].operator is None
    assert entries[(4, "op@v1")].operator is None
    assert Aftermath.from_dict(entries[(1, "op@v1")].to_dict()) == entries[(1, "op@v1")]
    trace = TraceAftermath("t.json", "e", ("op", "nu1", "sem"), tuple(entries.values()))
    rules = aggregate([trace])
    assert (rules["op"].operator_contradicted, rules["op"].overridden) == (1, 3)
    assert (rules["nu1"].operator_contradicted, rules["nu1"].overridden) == (1, 2)
    heads = {r.rule_id: RuleVersion(r.rule_id, 1, r, "add", 1, None, 0.0) for r in (RESTORE_OP, NEVER_RESTORE_USER1, SEMANTIC)}
    heads["fix"] = RuleVersion("fix", 1, record("fix", None, None, corrects=("op",)), "add", 1, None, 0.0)
    report = EfficacyReport(("run",), (trace,), (), heads, rules | {"fix": RuleEfficacy("fix")}, VerdictSettings(1, 1, 24, 1))
    harm = report.live_harm()
    assert harm["contradicted_injections"] == 2 and harm["contradicted_rules"] == ["nu1", "op"]
    assert harm["overridden_injections"] == 5 and harm["corrected_rules"] == ["op"]  # (a semantic rule: no action to judge)
    assert report.to_dict()["live_harm"] == harm
