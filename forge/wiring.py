"""The composition root: building the parts of a session from its configuration (models, stores,
memory injection, labels) and handing them down. Lower layers take what they need as arguments or
factories and never import this module (tests/test_import_layers.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional, Sequence

from agents.injection import MemoryInjection, plain_injection_factory
from forge.config import LEARNER_ROLES, ROLES, ForgeConfig, Injection, ProviderKind, StoreKind, load_config
from forge.llm.accounting import ModelClient, UsageLedger, model_clients
from forge.memory import MemoryManager, MemorySnapshot, open_store
from forge.protocol.ledger import SessionLedger
from forge.rulebook.model import RulebookError
from forge.runs.rundir import RunDirectory
from forge.plumbing.storage import is_uri

if TYPE_CHECKING:
    from agents.defender import Defender
    from forge.env import Cage2Env


def build_clients(cfg: ForgeConfig, ledger: Optional[UsageLedger] = None) -> tuple[dict[str, ModelClient], UsageLedger]:
    ledger = ledger or UsageLedger()
    return model_clients(cfg, ledger), ledger


def open_memory(cfg: ForgeConfig, run_path: str, session: str) -> MemoryManager:
    """The session's memory: SQLite in the run directory by default, or the configured Redis server."""
    if cfg.memory.store is StoreKind.redis:
        return MemoryManager(open_store(cfg.memory.redis_url, namespace=f"forge:{session}"))
    return MemoryManager(open_store(run_path))


def ledger_spec(cfg: ForgeConfig, run_path: str) -> str:
    """The session ledger lives beside the memory: in the run's SQLite file, or in the configured Redis."""
    return cfg.memory.redis_url if cfg.memory.store is StoreKind.redis else run_path


def open_ledger(cfg: ForgeConfig, run_path: str, session: str) -> SessionLedger:
    return SessionLedger.open(ledger_spec(cfg, run_path), session)


def injection_factory_for(
    cfg: ForgeConfig, *, run_dir=None, actor: Optional[str] = None, clients=None
) -> Callable[[MemorySnapshot], MemoryInjection]:
    """How a memory snapshot reaches the prompts, per `memory.injection`: all of it (`full`), nothing
    (`none`), or what the decision-context rulebook retrieves for each call (`rulebook`; the snapshot's
    items are compiled into `rulebook.store` first, with `clients` or, if not given, clients built from
    `cfg` on first need). The rulebook factory holds a store connection: build it where it is used
    (inside the Ray actor), never ship it."""
    if cfg.memory.injection is not Injection.rulebook:
        return plain_injection_factory(cfg.memory.injection)
    from forge.injection_factory import RulebookInjectionFactory  # lazy: cold start (the compiler, the agents)

    source = clients if clients is not None else (lambda: build_clients(cfg)[0])
    return RulebookInjectionFactory(cfg, cfg.rulebook.store, run_dir=run_dir, actor=actor, clients=source)


@dataclass(frozen=True)
class RunMemory:
    """The memory a command compiles or evaluates: a run directory's configuration, memory and instance."""

    run: RunDirectory
    cfg: ForgeConfig
    memory: MemoryManager
    instance: str
    chosen_by: str  # "ledger champion" | "--instance"

    @property
    def session(self) -> str:
        return self.run.session_id

    @property
    def key(self) -> str:
        return f"{self.session}/{self.instance}"

    @property
    def actor(self) -> str:
        return self.key

    def snapshot(self) -> MemorySnapshot:
        return self.memory.snapshot(self.key)


def build_defender(cfg: ForgeConfig, clients: dict[str, ModelClient], snapshot: MemorySnapshot) -> tuple["Cage2Env", "Defender"]:
    """One environment and a defender that plays `snapshot` under `cfg.memory.injection` (a single
    episode outside a session: `forge episode`)."""
    # lazy: cold start (CybORG's import, which every other command importing wiring would pay)
    from agents.defender import Defender
    from forge.env import Cage2Env

    env = Cage2Env(red_agent=cfg.env.red_agent.value, max_steps=cfg.env.max_steps)
    injection = injection_factory_for(cfg, clients=clients)(snapshot)
    return env, Defender(clients, injection, cfg.agent, cfg.env.max_steps)


def open_run_memory(run_path: str | Path, instance: Optional[str] = None, overrides: Sequence[str] = ()) -> RunMemory:
    """The run's configuration (with `overrides`), its memory, and the instance to use: `instance` if
    given, else the session ledger's champion. Errors name the run directory and the known instances."""
    if not is_uri(run_path) and not Path(run_path).is_dir():
        raise RulebookError(f"run directory {str(run_path)!r} does not exist")
    run = RunDirectory.open(run_path)  # a path, or a storage URI (pulled into a working copy)
    cfg = with_served_labels(load_config(run.config_path, overrides=list(overrides)) if overrides else run.load_config())
    memory = open_memory(cfg, str(run.path), run.session_id)
    prefix = f"{run.session_id}/"
    known = sorted(k[len(prefix):] for k in memory.instances() if k.startswith(prefix))
    listed = ", ".join(known) or "none"
    if instance is None:
        ledger = open_ledger(cfg, str(run.path), run.session_id)
        try:
            champion = ledger.champion()
        finally:
            ledger.close()
        if champion is None:
            raise RulebookError(f"the session ledger of {run.path} names no champion; "
                                f"pick the memory with --instance (instances with memory: {listed})")
        instance, chosen_by = champion, "ledger champion"
    else:
        chosen_by = "--instance"
    if memory.head(f"{run.session_id}/{instance}") is None:
        raise RulebookError(f"instance {instance!r} has no memory in {run.path} (instances with memory: {listed})")
    return RunMemory(run, cfg, memory, instance, chosen_by)


def uses_surrogate(cfg: ForgeConfig) -> bool:
    """Whether a role's model is the surrogate: in-process, or served (`providers.<name>.serves_surrogate`)."""
    return any(p.kind == ProviderKind.surrogate or p.serves_surrogate
               for p in (cfg.providers[cfg.models.for_role(r).provider] for r in ROLES + LEARNER_ROLES))


def with_served_labels(cfg: ForgeConfig) -> ForgeConfig:
    """`cfg` with every OpenAI-compatible provider whose endpoint says it serves FORGE's surrogate (`forge
    serve`: GET /v1/models owned_by "forge-surrogate") marked `serves_surrogate`: its results are surrogate
    results, and every output labels them so (CLI, reports, plots, MLflow tags). The label is decided here,
    once, where a command or a session starts, and kept with the run (config.yaml, the ledger's meta)."""
    models_of: dict[str, set[str]] = {}
    for role in ROLES + LEARNER_ROLES:
        model = cfg.models.for_role(role)
        models_of.setdefault(model.provider, set()).add(model.model)
    asked = {name: sorted(models) for name, models in models_of.items()
             if cfg.providers[name].kind == ProviderKind.openai and cfg.providers[name].base_url
             and not cfg.providers[name].serves_surrogate}
    if not asked:
        return cfg
    from forge.llm.openai_provider import declares_surrogate  # lazy: cold start (the HTTP client's import)

    marked = {name: replace(cfg.providers[name], serves_surrogate=True) for name, models in asked.items()
              if declares_surrogate(name, cfg.providers[name], models)}
    return replace(cfg, providers={**cfg.providers, **marked}) if marked else cfg


def model_caveat(cfg: ForgeConfig) -> Optional[str]:
    """What every result of this configuration must say about its model: the surrogate's label, or the
    providers' `caveat` (e.g. a 135M-parameter integration model); None for a plain model."""
    if uses_surrogate(cfg):
        return "SURROGATE: scripted stand-in, not an LLM"
    caveats = sorted({c for r in ROLES + LEARNER_ROLES if (c := cfg.providers[cfg.models.for_role(r).provider].caveat)})
    return "; ".join(caveats) or None


def model_label(cfg: ForgeConfig) -> str:
    """The model as reports name it; surrogate and integration-model results are always labelled as such."""
    names = sorted({cfg.models.for_role(r).model for r in ROLES + LEARNER_ROLES})
    label = ", ".join(names)
    caveat = model_caveat(cfg)
    return f"{label} [{caveat}]" if caveat else label
