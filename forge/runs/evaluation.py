"""The champion's memory, frozen, played under each injection mode on the same seeds: what
`forge evaluate` shows and writes.

One call, `compare_injection_modes`, plays every episode (traces go to
`<run_dir>/traces/<instance>/evaluate-<mode>-<i>.json`, as the learner writes them) and returns the
returns and token counts per mode; rendering and the report files are the command's. After the
rulebook mode it replays the same seeds once per triggered rule, that rule withheld
(forge.rulebook.outcomes.ablation; `rulebook.ablation_max_rules`), so `forge rulebook stats` can judge each rule
by the paired difference of episode returns.
"""

from __future__ import annotations

import statistics
import time
from itertools import count
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from agents.injection import FullInjection, NoInjection
from forge.config import Injection
from forge.memory import MemorySnapshot
from forge.protocol.inner_loop import InstanceLearner
from forge.rulebook.outcomes import play_ablations, rules_to_ablate
from forge.rulebook.outcomes import paired_difference
from forge.rulebook.outcomes.aftermath import Aftermath
from forge.injection_factory import RulebookInjectionFactory
from forge.plumbing.seeding import derive_seed
from forge.analysis.stats import ReturnStats
from forge.wiring import RunMemory, build_clients, model_label

MODES = tuple(mode.value for mode in Injection)  # full, rulebook, none


@dataclass
class ModeResult:
    mode: str
    returns: list[float] = field(default_factory=list)
    memory_tokens: list[int] = field(default_factory=list)  # per step, over all episodes
    prompt_tokens: list[int] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def memory_per_step(self) -> float:
        return statistics.fmean(self.memory_tokens) if self.memory_tokens else 0.0

    @property
    def prompt_per_step(self) -> float:
        return statistics.fmean(self.prompt_tokens) if self.prompt_tokens else 0.0

    def stats(self) -> ReturnStats:
        return ReturnStats.of(self.returns)

    def to_dict(self) -> dict:
        s = self.stats()
        return {"mode": self.mode, "episodes": s.n, "return_mean": s.mean, "return_sd": s.sd, "return_min": s.min,
                "return_max": s.max, "returns": self.returns, "memory_tokens_per_step": self.memory_per_step,
                "prompt_tokens_per_step": self.prompt_per_step, "wall_s": self.wall_s}


@dataclass(frozen=True)
class Ablation:
    """One rule withheld from the book on the evaluation's seeds, paired with the book as it is."""

    rule: str  # `<rule id>@v<n>`
    directive: str
    returns_without: tuple[float, ...]
    differences: tuple[float, ...]  # per seed: return with the book - return without the rule

    def interval(self) -> tuple[float, Optional[float], Optional[float]]:
        """The mean difference with its 95% bootstrap interval (as `forge rulebook stats` computes it)."""
        return paired_difference(self.differences)

    def to_dict(self) -> dict:
        mean, low, high = self.interval()
        return {"rule": self.rule, "directive": self.directive, "returns_without": list(self.returns_without),
                "differences": list(self.differences), "mean": mean, "low": low, "high": high}


@dataclass(frozen=True)
class InjectionComparison:
    found: RunMemory
    snapshot: MemorySnapshot
    seeds: tuple[int, ...]  # the same for every mode
    model: str
    results: dict[str, ModeResult]  # by mode, in the order asked
    ablations: tuple[Ablation, ...] = ()  # rulebook mode: the triggered rules, most triggered first


def evaluation_seeds(found: RunMemory, episodes: int) -> tuple[int, ...]:
    return tuple(derive_seed(found.cfg.protocol.seed, "evaluate", i) for i in range(episodes))


def compare_injection_modes(
    found: RunMemory,
    snapshot: MemorySnapshot,
    modes: Sequence[str],
    episodes: int,
    *,
    rulebook_spec: Optional[str] = None,
    namespace: str = "forge",
    operator_rules: bool = False,
    on_progress: Optional[Callable[[str, int, int], None]] = None,
) -> InjectionComparison:
    """Play `episodes` frozen episodes of `snapshot` (`found`'s memory) under each of `modes` (among MODES).

    `on_progress(what, done, total)` is called after each episode (`what` is the mode, or "ablation: ..."
    for the rulebook's ablation episodes) and around the rulebook's compilation of the memory (`what` is
    "rulebook: compiling the memory"); it must not raise."""
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        raise ValueError(f"unknown injection mode {unknown[0]!r} (modes: {', '.join(MODES)})")
    report = on_progress or (lambda what, done, total: None)
    cfg = found.cfg
    clients, _ = build_clients(cfg)
    learner = InstanceLearner(instance=found.instance, session=found.session, cfg=cfg, clients=clients,
                              memory=found.memory, run_dir=found.run.path)
    seeds = evaluation_seeds(found, episodes)
    results: dict[str, ModeResult] = {}
    aftermath: list[Aftermath] = []  # of the rulebook episodes: which rules reached a decision point
    for mode in modes:
        started = time.perf_counter()
        if mode == "rulebook":
            compiling = "rulebook: compiling the memory"
            report(compiling, 0, 1)
            factory = RulebookInjectionFactory(cfg, rulebook_spec, run_dir=found.run.path, actor=found.actor,
                                               clients=clients, namespace=namespace, include_users=operator_rules)
            injection = injection_book = factory(snapshot)
            report(compiling, 1, 1)
        result = ModeResult(mode)
        report(mode, 0, len(seeds))
        for i, seed in enumerate(seeds):
            if mode == "full":
                injection = FullInjection(snapshot)
            elif mode == "none":
                injection = NoInjection()
            episode = learner.play_frozen(seed, label=f"evaluate-{mode}-{i}", injection=injection)
            if mode == "rulebook":
                aftermath.extend(episode.aftermath)
            result.returns.append(episode.total_return)
            result.memory_tokens.extend(step.memory_tokens for step in episode.steps)
            result.prompt_tokens.extend(step.prompt_tokens for step in episode.steps)
            report(mode, i + 1, len(seeds))
        result.wall_s = time.perf_counter() - started
        results[mode] = result
    ablations: tuple[Ablation, ...] = ()
    if "rulebook" in results:
        ablations = _ablate(learner, factory, injection_book.book, snapshot, seeds, aftermath,
                            results["rulebook"].returns, cfg.rulebook.ablation_max_rules, report)
    return InjectionComparison(found, snapshot, seeds, model_label(cfg), results, ablations)


def _ablate(learner: InstanceLearner, factory: RulebookInjectionFactory, book, snapshot: MemorySnapshot, seeds: Sequence[int],
            aftermath: list[Aftermath], with_book: list[float], limit: int,
            report: Callable[[str, int, int], None]) -> tuple[Ablation, ...]:
    """The rulebook's triggered rules, each withheld in turn on the same seeds (forge.rulebook.outcomes.ablation)."""
    rules = rules_to_ablate(aftermath, limit)
    if not rules:
        return ()
    what, total, played = f"ablation: {len(rules)} rules withheld one at a time", len(rules) * len(seeds), count(1)
    report(what, 0, total)
    without = play_ablations(lambda seed, label, injection: learner.play_frozen(seed, label=label, injection=injection),
                             lambda withheld: factory(snapshot, withheld=withheld), seeds, rules,
                             lambda rule: report(what, next(played), total))
    heads = book.heads()
    return tuple(Ablation(heads[rule].ref, heads[rule].record.directive, tuple(returns),
                          tuple(a - b for a, b in zip(with_book, returns)))
                 for rule, returns in without.items())
