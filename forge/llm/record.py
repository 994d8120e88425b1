"""Sessions on record: every model call's request and reply, content-addressed, for exact replay.

`RecordingProvider` wraps the provider a role calls (outside retries and the session limiter, so a
served call costs nothing and counts against no budget). Modes (`record.mode`):
- `record`: call the model and keep each request and reply; a call already on record for this session
  (a unit of work redone after a worker's death, the session recorded again) is answered from the
  record, so the record always holds what the kept results were made from;
- `replay`: answer only from the record, never call the model; a request not on record is an error
  (`ReplayMiss`), because a replay that quietly called the model would not be a replay;
- `read_through`: answer from the record where it can, call (and record) the rest.

The key of a call is what makes it unique: the SHA-256 of its request as sent (provider name, model,
messages, temperature, max_tokens, seed, stop sequences, JSON schema); the session's scope
(`record_scope`: a digest of the session's name, its study arm and its configuration, so two sessions,
two arms of a study or two configurations never share a key even where their prompts agree); the unit
of work it belongs to (instance, phase, stage: `begin_unit`); and the draw's index (how many times
this exact request was made before in that unit). The agents seed each call from its place in the
episode (episode seed, step, role, turn), so the key does not depend on which worker hosted the
instance, on how instances were packed, or on the order in which they ran.

A call that failed (a `ProviderError` after the provider's retries) is recorded too, and replayed as
the same error with the same retry count: a replay fails where the original failed, the same way.

Stores: SQLite (`<runs_dir>/calls.db` by default, beside the study's MLflow database) or Redis (a
cluster). A key is written once; a different reply for a key already on record is refused
(`RecordConflict`, naming the key and the store), never written over.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping, Optional, Protocol, Sequence

from forge.config import (BudgetConfig, ForgeConfig, RayConfig, RecordConfig, RunConfig, StoreKind, TrackingConfig,
                          to_flat_dict)
from forge.errors import ForgeError
from forge.llm.types import (AuthenticationError, Completion, Message, Provider, ProviderError, ProviderTimeout,
                             RetryBudgetExhausted, TransientProviderError, Usage)
from forge.plumbing.redact import mask_url
from forge.plumbing.sqlite_db import SqliteDatabase

MODES = ("off", "record", "replay", "read_through")
SQLITE_FILE = "calls.db"
_REDIS_PREFIX = "forge:calls:"
# 2: keys carry the session's scope (record_scope) and failed calls are recorded.
SCHEMA = "2"


class ReplayMiss(ForgeError, LookupError):
    """Replay met a request that is not on record (a different configuration, prompt or model)."""


class RecordConflict(ForgeError, RuntimeError):
    """A reply for a key already on record differs from the one kept: the record is never written over.
    Not a ProviderError: the agents survive a failed model call, but a record that would lie must stop the unit."""


class CallStore(Protocol):
    spec: str

    def get(self, key: str) -> Optional[dict]: ...

    def put(self, key: str, reply: dict) -> None:
        """Keep `reply` under `key` unless the key is on record; a different reply there is a RecordConflict."""
        ...

    def close(self) -> None: ...


class SqliteCallStore:
    def __init__(self, path: str | Path):
        self.spec = str(path)
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = SqliteDatabase(path, label="call record")
        found = self._db.ensure_schema(["CREATE TABLE IF NOT EXISTS calls (key TEXT PRIMARY KEY, reply TEXT NOT NULL)",
                                        "CREATE TABLE IF NOT EXISTS calls_meta (key TEXT PRIMARY KEY, value TEXT)"],
                                       "calls_meta", SCHEMA)
        if found != SCHEMA:
            self._db.close()
            raise RecordConflict(f"call record {path} has schema {found}, this FORGE reads {SCHEMA} (its keys name "
                                 f"the session, arm and configuration): record into a new record.store")

    def get(self, key: str) -> Optional[dict]:
        row = self._db.connection().execute("SELECT reply FROM calls WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, reply: dict) -> None:
        with self._db.write() as conn:
            conn.execute("INSERT OR IGNORE INTO calls (key, reply) VALUES (?, ?)", (key, json.dumps(reply)))
            (kept,) = conn.execute("SELECT reply FROM calls WHERE key = ?", (key,)).fetchone()
        refuse_a_different_reply(key, json.loads(kept), reply, self.spec)

    def keys(self) -> list[str]:
        return [r[0] for r in self._db.connection().execute("SELECT key FROM calls ORDER BY key")]

    def close(self) -> None:
        self._db.close()


class RedisCallStore:
    def __init__(self, url: str):
        import redis  # lazy: only a cluster's record needs it

        self.spec = url
        self._client = redis.Redis.from_url(url)

    def get(self, key: str) -> Optional[dict]:
        raw = self._client.get(_REDIS_PREFIX + key)
        return json.loads(raw) if raw else None

    def put(self, key: str, reply: dict) -> None:
        if not self._client.set(_REDIS_PREFIX + key, json.dumps(reply), nx=True):
            refuse_a_different_reply(key, self.get(key) or {}, reply, self.spec)

    def close(self) -> None:
        self._client.close()


def refuse_a_different_reply(key: str, kept: dict, reply: dict, spec: str) -> None:
    """The same reply again (a concurrent recorder of the same call) is fine; another one is refused."""
    if _content(kept) != _content(reply):
        raise RecordConflict(
            f"call record {mask_url(spec)} already holds a different reply for key {key[:16]}...#{key.split('#', 1)[1]} "
            f"(kept: {_summary(kept)}; new: {_summary(reply)}): a record is never written over; two recorders of "
            f"one session raced, or the record was edited")


def _content(reply: dict) -> dict:
    return {k: v for k, v in reply.items() if k != "latency_s"}  # how long a call took is not what it said


def _summary(reply: dict) -> str:
    if "error" in reply:
        return f"{reply['error'].get('type')}: {str(reply['error'].get('message'))[:60]!r}"
    return repr(str(reply.get("text", ""))[:60])


def open_call_store(spec: str) -> CallStore:
    """`redis://...` or a SQLite file path."""
    if spec.startswith(("redis://", "rediss://", "unix://")):
        return RedisCallStore(spec)
    return SqliteCallStore(spec)


def record_store_spec(cfg: ForgeConfig) -> str:
    """`record.store`, else the memory's Redis on a cluster, else `<runs_dir>/calls.db` beside the study's
    MLflow database."""
    if cfg.record.store:
        return cfg.record.store
    if cfg.memory.store is StoreKind.redis:
        return cfg.memory.redis_url
    return str(Path(cfg.run.runs_dir) / SQLITE_FILE)


# What a session's configuration holds that does not change what its calls are asked or answered: where
# and how it runs, how its calls travel (providers: kind, URL, timeouts, retries, prices; the request
# digest names the provider and the model), its budget, and how many stages it runs (a session extended
# by a stage makes the same calls in its first stages). A replay with no model listening, or a study
# resumed elsewhere, keeps the scope.
_SCOPE_NEUTRAL = {"run": RunConfig(), "record": RecordConfig(), "tracking": TrackingConfig(), "ray": RayConfig(),
                  "budget": BudgetConfig(), "providers": {}}


def _experiment(cfg: ForgeConfig) -> dict[str, Any]:
    experiment = replace(cfg, **_SCOPE_NEUTRAL, memory=replace(cfg.memory, store=StoreKind.sqlite, redis_url=""),
                         protocol=replace(cfg.protocol, num_stages=0), rulebook=replace(cfg.rulebook, store=None))
    return to_flat_dict(experiment)


def record_scope(cfg: ForgeConfig, session: Optional[str] = None) -> str:
    """The digest of what makes one session's calls its own: its name (`session`, else run.name), its
    study arm (run.arm) and its configuration: the settings that differ from the defaults, but for
    `_SCOPE_NEUTRAL`'s sections, the memory's store and the number of stages. Only what is set counts, so
    a setting FORGE adds later (at its default) leaves every record readable."""
    defaults = _experiment(ForgeConfig())
    settings = {k: v for k, v in _experiment(cfg).items() if k not in defaults or defaults[k] != v}
    body = {"session": session or cfg.run.name, "arm": cfg.run.arm, "settings": settings}
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()[:16]


def request_digest(provider: str, messages: Sequence[Message], params: Mapping[str, Any]) -> str:
    """The content address of a request: canonical JSON of everything that shapes the reply."""
    body = {"provider": provider, "messages": [[m.role, m.content] for m in messages],
            **{k: (list(v) if isinstance(v, tuple) else v) for k, v in sorted(params.items())}}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


@dataclass
class RecordStats:
    hits: int = 0
    misses: int = 0  # calls sent to the model (record, read_through)
    prompt_tokens_saved: int = 0
    completion_tokens_saved: int = 0


class RecordingProvider:
    """A provider behind a call record (see the module docstring). Safe to share across threads."""

    def __init__(self, inner: Provider, store: CallStore, mode: str, *, name: str, scope: str = ""):
        if mode not in MODES[1:]:
            raise ValueError(f"record.mode must be one of {', '.join(MODES[1:])} here, got {mode!r}")
        self.inner = inner
        self.store = store
        self.mode = mode
        self.name = name
        self.scope = scope  # record_scope: the session whose calls these are
        self.stats = RecordStats()
        self._draws: Counter = Counter()
        self._unit = ""
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"RecordingProvider({self.inner!r}, mode={self.mode!r}, store={self.store.spec!r})"

    def begin_unit(self, unit: str) -> None:
        """A unit of work starts (`unit` names it: instance, phase, stage); draw indices count from zero
        again. Idempotent: a unit redone after a worker's death meets the same keys."""
        with self._lock:
            self._draws.clear()
            self._unit = unit

    def complete(self, messages: Sequence[Message], *, model: str, temperature: float = 0.0, max_tokens: int = 512,
                 seed: Optional[int] = None, stop: Optional[Sequence[str]] = None, **extra: Any) -> Completion:
        params = {"model": model, "temperature": temperature, "max_tokens": max_tokens, "seed": seed,
                  "stop": list(stop) if stop else None, **extra}
        digest = request_digest(self.name, messages, params)
        with self._lock:
            draw = self._draws[digest]
            self._draws[digest] += 1
            key = f"{digest}#{self.scope}#{self._unit}#{draw}"
        kept = self.store.get(key)
        if kept is not None:
            return self._served(kept)
        if self.mode == "replay":
            raise ReplayMiss(f"replay: no recorded reply for a {model!r} call of provider {self.name!r} "
                             f"(request {digest[:16]}, session scope {self.scope or '-'}, unit {self._unit or '-'}, "
                             f"draw {draw}) in {mask_url(self.store.spec)}; the session differs from the recorded "
                             f"one (name, arm, configuration, prompts or model), or was never recorded")
        try:
            completion = self.inner.complete(messages, model=model, temperature=temperature, max_tokens=max_tokens,
                                             seed=seed, stop=stop, **extra)
        except ProviderError as exc:
            self.store.put(key, _failure(exc))
            with self._lock:
                self.stats.misses += 1
            raise
        self.store.put(key, _reply(completion))
        with self._lock:
            self.stats.misses += 1
        return completion

    def _served(self, kept: dict) -> Completion:
        with self._lock:
            self.stats.hits += 1
        if "error" in kept:
            raise _error(kept["error"])
        completion = _completion(kept)
        with self._lock:
            self.stats.prompt_tokens_saved += completion.usage.prompt_tokens
            self.stats.completion_tokens_saved += completion.usage.completion_tokens
        return completion

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()
        self.store.close()


# The errors a failed call is replayed as (by name; any other ProviderError is replayed as ProviderError).
_ERRORS = {cls.__name__: cls for cls in (ProviderError, TransientProviderError, ProviderTimeout, AuthenticationError,
                                         RetryBudgetExhausted)}


def _failure(exc: ProviderError) -> dict:
    name = type(exc).__name__ if type(exc).__name__ in _ERRORS else ProviderError.__name__
    return {"error": {"type": name, "message": str(exc), "retries": int(getattr(exc, "retries", 0))}}


def _error(failure: dict) -> ProviderError:
    exc = _ERRORS.get(str(failure.get("type")), ProviderError)(str(failure.get("message", "")))
    exc.retries = int(failure.get("retries", 0))
    exc.replayed = True
    return exc


def _reply(completion: Completion) -> dict:
    return {"text": completion.text, "prompt_tokens": completion.usage.prompt_tokens,
            "completion_tokens": completion.usage.completion_tokens,
            "cached_prompt_tokens": completion.usage.cached_prompt_tokens, "model": completion.model,
            "finish_reason": completion.finish_reason, "latency_s": round(completion.latency_s, 4),
            "reasoning_tokens": completion.usage.reasoning_tokens, "refusal": completion.refusal,
            "raw_finish_reason": completion.raw_finish_reason}


def _completion(reply: dict) -> Completion:
    usage = Usage(int(reply.get("prompt_tokens", 0)), int(reply.get("completion_tokens", 0)),
                  int(reply.get("cached_prompt_tokens", 0)), int(reply.get("reasoning_tokens", 0)))
    return Completion(text=str(reply.get("text", "")), usage=usage, model=str(reply.get("model", "")),
                      latency_s=0.0, finish_reason=reply.get("finish_reason"), replayed=True,
                      refusal=reply.get("refusal"), raw_finish_reason=reply.get("raw_finish_reason"))


def recorders_of(clients: Mapping[str, Any]) -> list[RecordingProvider]:
    """The distinct recorders under a set of model clients (one per provider object)."""
    found: dict[int, RecordingProvider] = {}
    for client in clients.values():
        provider = getattr(client, "provider", None)
        if isinstance(provider, RecordingProvider):
            found[id(provider)] = provider
    return list(found.values())
