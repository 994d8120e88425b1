"""Sessions on record: every model call's request and reply, content-addressed, for exact replay.

`RecordingProvider` wraps the provider a role calls (outside retries and the session limiter, so a
served call costs nothing and counts against no budget). Modes (`record.mode`):
- `record`: call the model and keep each request and reply;
- `replay`: answer only from the record, never call the model; a request not on record is an error
  (`ReplayMiss`), because a replay that quietly called the model would not be a replay;
- `read_through`: answer from the record where it can, call (and record) the rest.

The key of a call is the SHA-256 of its request as sent (provider name, model, messages, temperature,
max_tokens, seed, stop sequences, JSON schema), the unit of work it belongs to (instance, phase, stage:
`begin_unit`) and the draw's index: how many times this exact request was made before in that unit.
The agents seed each call from its place in the episode (episode seed, step, role, turn), so the key
does not depend on which worker hosted the instance, on how instances were packed, or on the order in
which they ran; and two instances asking the same thing each get their own reply back.

Stores: SQLite (`<runs_dir>/calls.db` by default, beside the study's MLflow database) or Redis (a
cluster). Records are written once (the first reply for a key stays), so concurrent recorders agree.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Optional, Protocol, Sequence

from forge.config import StoreKind
from forge.errors import ForgeError
from forge.llm.types import Completion, Message, Provider, Usage
from forge.sqlite_db import SqliteDatabase

if TYPE_CHECKING:
    from forge.config import ForgeConfig

MODES = ("off", "record", "replay", "read_through")
SQLITE_FILE = "calls.db"
_REDIS_PREFIX = "forge:calls:"


class ReplayMiss(ForgeError, LookupError):
    """Replay met a request that is not on record (a different configuration, prompt or model)."""


class CallStore(Protocol):
    spec: str

    def get(self, key: str) -> Optional[dict]: ...

    def put(self, key: str, reply: dict) -> None: ...

    def close(self) -> None: ...


class SqliteCallStore:
    def __init__(self, path: str | Path):
        self.spec = str(path)
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = SqliteDatabase(path, label="call record")
        self._db.ensure_schema(["CREATE TABLE IF NOT EXISTS calls (key TEXT PRIMARY KEY, reply TEXT NOT NULL)",
                                "CREATE TABLE IF NOT EXISTS calls_meta (key TEXT PRIMARY KEY, value TEXT)"],
                               "calls_meta", "1")

    def get(self, key: str) -> Optional[dict]:
        row = self._db.connection().execute("SELECT reply FROM calls WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, reply: dict) -> None:
        with self._db.write() as conn:
            conn.execute("INSERT OR IGNORE INTO calls (key, reply) VALUES (?, ?)", (key, json.dumps(reply)))

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
        self._client.set(_REDIS_PREFIX + key, json.dumps(reply), nx=True)

    def close(self) -> None:
        self._client.close()


def open_call_store(spec: str) -> CallStore:
    """`redis://...` or a SQLite file path."""
    if spec.startswith(("redis://", "rediss://", "unix://")):
        return RedisCallStore(spec)
    return SqliteCallStore(spec)


def record_store_spec(cfg: "ForgeConfig") -> str:
    """`record.store`, else the memory's Redis on a cluster, else `<runs_dir>/calls.db` beside the study's
    MLflow database."""
    if cfg.record.store:
        return cfg.record.store
    if cfg.memory.store is StoreKind.redis:
        return cfg.memory.redis_url
    return str(Path(cfg.run.runs_dir) / SQLITE_FILE)


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

    def __init__(self, inner: Provider, store: CallStore, mode: str, *, name: str):
        if mode not in MODES[1:]:
            raise ValueError(f"record.mode must be one of {', '.join(MODES[1:])} here, got {mode!r}")
        self.inner = inner
        self.store = store
        self.mode = mode
        self.name = name
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
            key = f"{digest}#{self._unit}#{draw}"
        if self.mode != "record":
            kept = self.store.get(key)
            if kept is not None:
                completion = _completion(kept)
                with self._lock:
                    self.stats.hits += 1
                    self.stats.prompt_tokens_saved += completion.usage.prompt_tokens
                    self.stats.completion_tokens_saved += completion.usage.completion_tokens
                return completion
            if self.mode == "replay":
                raise ReplayMiss(f"replay: no recorded reply for a {model!r} call of provider {self.name!r} "
                                 f"(request {digest[:16]}, draw {draw}) in {self.store.spec}; the session differs "
                                 f"from the recorded one (configuration, prompts or model), or was never recorded")
        completion = self.inner.complete(messages, model=model, temperature=temperature, max_tokens=max_tokens,
                                         seed=seed, stop=stop, **extra)
        self.store.put(key, _reply(completion))
        with self._lock:
            self.stats.misses += 1
        return completion

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()
        self.store.close()


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
