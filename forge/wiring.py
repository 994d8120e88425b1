"""Building the parts of a session from its configuration: models, memory, labels."""

from __future__ import annotations

from typing import Optional

from forge.config import LEARNER_ROLES, ROLES, ForgeConfig, StoreKind
from forge.llm.accounting import ModelClient, UsageLedger, model_clients
from forge.memory import MemoryManager, open_store


def build_clients(cfg: ForgeConfig, ledger: Optional[UsageLedger] = None) -> tuple[dict[str, ModelClient], UsageLedger]:
    ledger = ledger or UsageLedger()
    return model_clients(cfg, ledger), ledger


def open_memory(cfg: ForgeConfig, run_path: str, session: str) -> MemoryManager:
    """The session's memory: SQLite in the run directory by default, or the configured Redis server."""
    if cfg.memory.store is StoreKind.redis:
        return MemoryManager(open_store(cfg.memory.redis_url, namespace=f"forge:{session}"))
    return MemoryManager(open_store(run_path))


def uses_surrogate(cfg: ForgeConfig) -> bool:
    return any(cfg.providers[cfg.models.for_role(r).provider].kind == "surrogate" for r in ROLES + LEARNER_ROLES)


def model_label(cfg: ForgeConfig) -> str:
    """The model as reports name it; surrogate results are always labelled as such."""
    names = sorted({cfg.models.for_role(r).model for r in ROLES + LEARNER_ROLES})
    label = ", ".join(names)
    return f"{label} [SURROGATE: scripted stand-in, not an LLM]" if uses_surrogate(cfg) else label
