"""One instance's failure-triggered learning loop (Algorithm 1) with a frozen evaluation before and
after on the same seeds: what `forge reflexion` runs and shows.

`run_reflexion` does the work and reports through callbacks (the phase it is in, each stage's
attempts, each evaluation); rendering is the command's, as in forge.runs.evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from forge.config import ForgeConfig
from forge.llm.accounting import RoleUsage
from forge.memory import MemorySnapshot
from forge.protocol.inner_loop import InstanceLearner, StageTraining
from forge.protocol.seeds import evaluation_seeds, training_seed
from forge.runs.rundir import RunDirectory
from forge.analysis.stats import ReturnStats
from forge.wiring import build_clients, injection_factory_for, model_label, open_memory


@dataclass(frozen=True)
class ReflexionResult:
    run_dir: RunDirectory
    instance: str
    model: str
    before: Optional[ReturnStats]  # the empty memory on the evaluation seeds (None: no evaluation episodes)
    after: Optional[ReturnStats]  # the learned memory on the same seeds
    stages: tuple[StageTraining, ...]
    snapshot: MemorySnapshot  # the memory the loop ended with
    tokens_by_role: dict[str, RoleUsage]

    def to_dict(self) -> dict:
        return {"instance": self.instance, "zero_shot": self.before.as_dict() if self.before else None,
                "after": self.after.as_dict() if self.after else None, "memory_digest": self.snapshot.digest,
                "model": self.model}


def run_reflexion(
    cfg: ForgeConfig,
    instance: str,
    eval_episodes: int,
    *,
    on_phase: Callable[[str], None] = lambda text: None,
    on_stage: Callable[[StageTraining], None] = lambda training: None,
    on_evaluated: Callable[[str, ReturnStats], None] = lambda label, stats: None,
) -> ReflexionResult:
    """`cfg.protocol.num_stages` stages of up to `max_attempts` attempts for `instance`, in a new run
    directory; its report goes to `reports/reflexion.json`. The callbacks must not raise: `on_phase`
    before each evaluation and stage, `on_stage` after each stage, `on_evaluated` after each evaluation."""
    run_dir = RunDirectory.create(cfg, name=cfg.run.name)
    memory = open_memory(cfg, str(run_dir.path), run_dir.session_id)
    clients, ledger = build_clients(cfg)
    factory = injection_factory_for(cfg, run_dir=run_dir.path, actor=f"{run_dir.session_id}/{instance}", clients=clients)
    learner = InstanceLearner(instance=instance, session=run_dir.session_id, cfg=cfg, clients=clients,
                              memory=memory, run_dir=run_dir.path, injection_factory=factory)
    eval_seeds = evaluation_seeds(cfg, eval_episodes)

    def evaluate(label: str) -> Optional[ReturnStats]:
        if not eval_seeds:
            return None
        on_phase(f"{label}: {len(eval_seeds)} frozen episodes")
        returns = [learner.play_frozen(seed, label=f"{label}-{i}").total_return for i, seed in enumerate(eval_seeds)]
        stats = ReturnStats.of(returns)
        on_evaluated(label, stats)
        return stats

    before = evaluate("zero-shot")
    stages = []
    for stage in range(1, cfg.protocol.num_stages + 1):
        seed = training_seed(cfg, instance, stage)
        on_phase(f"stage {stage}: training on seed {seed}")
        stages.append(learner.train_stage(stage, seed))
        on_stage(stages[-1])
    after = evaluate("after learning")
    result = ReflexionResult(run_dir, instance, model_label(cfg), before, after, tuple(stages), learner.snapshot(),
                             ledger.totals_by_role())
    run_dir.write_json("reports/reflexion.json", result.to_dict())
    return result
