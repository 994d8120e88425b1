"""Building the parts of a session from its configuration: models, memory, labels."""

from __future__ import annotations

from typing import Callable, Optional

from agents.injection import FullInjection, MemoryInjection, NoInjection
from forge.config import LEARNER_ROLES, ROLES, ForgeConfig, Injection, StoreKind
from forge.llm.accounting import ModelClient, UsageLedger, model_clients
from forge.memory import MemoryManager, MemorySnapshot, open_store
from forge.protocol.ledger import SessionLedger


def build_clients(cfg: ForgeConfig, ledger: Optional[UsageLedger] = None) -> tuple[dict[str, ModelClient], UsageLedger]:
    ledger = ledger or UsageLedger()
    return model_clients(cfg, ledger), ledger


def open_memory(cfg: ForgeConfig, run_path: str, session: str) -> MemoryManager:
    """The session's memory: SQLite in the run directory by default, or the configured Redis server."""
    if cfg.memory.store is StoreKind.redis:
        return MemoryManager(open_store(cfg.memory.redis_url, namespace=f"forge:{session}"))
    return MemoryManager(open_store(run_path))


def open_ledger(cfg: ForgeConfig, run_path: str, session: str) -> SessionLedger:
    """The session ledger lives beside the memory: in the run's SQLite file, or in the configured Redis."""
    spec = cfg.memory.redis_url if cfg.memory.store is StoreKind.redis else run_path
    return SessionLedger.open(spec, session)


def injection_factory_for(
    cfg: ForgeConfig, *, run_dir=None, actor: Optional[str] = None, clients=None
) -> Callable[[MemorySnapshot], MemoryInjection]:
    """How a memory snapshot reaches the prompts, per `memory.injection`: all of it (`full`), nothing
    (`none`), or what the decision-context rulebook retrieves for each call (`rulebook`; the snapshot's
    items are compiled into `rulebook.store` first). The rulebook factory holds a store connection:
    build it where it is used (inside the Ray actor), never ship it."""
    if cfg.memory.injection is Injection.none:
        return lambda snapshot: NoInjection()
    if cfg.memory.injection is Injection.full:
        return FullInjection
    from forge.rulebook import rulebook_injection_factory

    return rulebook_injection_factory(cfg, cfg.rulebook.store, run_dir=run_dir, actor=actor, clients=clients)


def uses_surrogate(cfg: ForgeConfig) -> bool:
    return any(cfg.providers[cfg.models.for_role(r).provider].kind == "surrogate" for r in ROLES + LEARNER_ROLES)


def model_label(cfg: ForgeConfig) -> str:
    """The model as reports name it; surrogate results are always labelled as such."""
    names = sorted({cfg.models.for_role(r).model for r in ROLES + LEARNER_ROLES})
    label = ", ".join(names)
    return f"{label} [SURROGATE: scripted stand-in, not an LLM]" if uses_surrogate(cfg) else label
