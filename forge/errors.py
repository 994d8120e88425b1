"""The root of every expected FORGE failure (standard library only: every layer may import it).

An expected failure is one a user can act on from its message: a bad key in a config, an unreachable
store, a rule that does not exist, a provider that refuses a key. `forge.cli.main` catches `ForgeError`
once and prints its first line; anything else is a bug and keeps its traceback.

The tree (each family lives next to the code that raises it; `+` marks an extra built-in base kept so
that `except ValueError` / `except KeyError` / `except RuntimeError` callers still work):

* ForgeError
  x UsageError                      - a command-line value the parser cannot check (forge.errors)
  x ConfigError       + ValueError  - forge.config
  x ProviderError     + RuntimeError - forge.llm.types
    - TransientProviderError
      . ProviderTimeout
    - AuthenticationError
    - RetryBudgetExhausted
  x BudgetExhausted   + RuntimeError - forge.llm.limiter
  x SlotWaitTimeout   + RuntimeError - forge.llm.limiter
  x IncomparableSessions + ValueError - forge.analysis.comparison
  x MemoryStoreError                - forge.memory.errors
    - ConcurrentUpdateError
    - MemoryFrozenError
    - UnknownInstanceError / UnknownVersionError / UnknownSnapshotError / UnknownItemError  + KeyError
    - CorruptMemoryError
    - StoreUnavailableError
  x RulebookError                   - forge.rulebook.model
    - UnknownRuleError  + KeyError
    - ConcurrentBookUpdate
    - PredicateError    + ValueError - forge.rulebook.language.predicate
    - CorrectionNotTaught           - forge.rulebook.authoring.teaching
  x EmbeddingError    + RuntimeError - forge.rulebook.retrieval.embed
  x ActionParseError  + ValueError  - forge.env.catalog
  x LocalRedisError   + RuntimeError - forge.plumbing.local_redis
  x TrackingError                   - forge.runs.tracking (an MLflow server that refuses or cannot be reached)
"""

from __future__ import annotations

__all__ = ["ForgeError", "UsageError"]


class ForgeError(Exception):
    """Base of every expected failure; its message alone tells the user what to fix."""


class UsageError(ForgeError):
    """A command-line value that argparse cannot check (an unknown role, an empty correction)."""
