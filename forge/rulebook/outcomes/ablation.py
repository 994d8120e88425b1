"""Which rules an evaluation ablates: a pure choice from the aftermath of the episodes played with the
book as it is.

Withholding a rule that never reached a decision point changes nothing in a seeded episode, so only
rules that were injected where their trigger held (or that have no predicate) are worth the extra
episodes; the most often triggered go first, at most `limit` of them (`rulebook.ablation_max_rules`,
0 = none), because every ablated rule costs one more episode per seed.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Iterable, Sequence

from forge.rulebook.outcomes.aftermath import Aftermath


def ablation_label(rule_id: str, episode: int) -> str:
    """The trace label of episode `episode` played without `rule_id`."""
    return f"evaluate-rulebook-without-{rule_id[:10]}-{episode}"


def rules_to_ablate(aftermath: Iterable[Aftermath], limit: int) -> list[str]:
    """Rule ids worth ablating, most triggered first (ties by id), at most `limit`."""
    if limit <= 0:
        return []
    triggered = Counter(entry.rule_id for entry in aftermath if entry.held is not False)
    return [rule for rule, _ in sorted(triggered.items(), key=lambda kv: (-kv[1], kv[0]))][:limit]


def play_ablations(
    play: Callable[[int, str, object], object],
    injection_without: Callable[[frozenset[str]], object],
    seeds: Sequence[int],
    rules: Sequence[str],
    on_episode: Callable[[str], None] = lambda rule: None,
) -> dict[str, list[float]]:
    """Replay `seeds` once per rule in `rules`, that rule withheld; per rule, the episode returns.

    `play(seed, label, injection)` plays one frozen episode and returns its result (with
    `total_return`); `injection_without(withheld)` builds the rulebook injection without those rules.
    The traces the episodes write carry `withheld`, which is how `forge rulebook stats` pairs them with
    the same seeds played with the book as it is.
    """
    returns: dict[str, list[float]] = {}
    for rule in rules:
        injection = injection_without(frozenset({rule}))
        for i, seed in enumerate(seeds):
            result = play(seed, ablation_label(rule, i), injection)
            returns.setdefault(rule, []).append(float(result.total_return))
            on_episode(rule)
    return returns
