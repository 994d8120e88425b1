"""The session ledger: what a session has finished, so a killed driver resumes without redoing it.

One JSON document per key, per session, in the same store as the memory (the run's SQLite file, or
Redis at scale). A stage is recorded once, after all of its work is durable (memory versions are
written first), so a stage is either in the ledger with every outcome or not at all:

    meta            condition, instances, stages, config digest, model label, MLflow run ids, and
                    `faults`: every infrastructure fault the driver saw (worker death, driver restart,
                    store restart), appended the moment it is seen
    stage:<n>       checkpoint returns, graduates, champion, broadcast, memory heads, tokens, attempts,
                    provider faults, and whether it was applied and logged to MLflow
    evaluation      the final frozen evaluation per instance
    status          running | finished | budget_exhausted
    spending        the session's spending, committed by the limiter with every charge (never lowered)
    progress        the phase the driver is in (where a killed driver stopped)
    done:<name>     one-off steps that are finished (the final MLflow logging)
    store           the identity of the Redis server last seen (a change means it restarted)
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from forge.plumbing.sqlite_db import SqliteDatabase


@dataclass
class StageRecord:
    stage: int
    active_before: list[str]
    checkpoint: dict[str, float]  # instance -> checkpoint return (mean over checkpoint runs)
    graduated: list[str]  # newly frozen this stage
    champion: Optional[str]  # whose memory was broadcast (None: no broadcast)
    broadcast_to: list[str]
    memory: dict[str, dict[str, Any]]  # instance -> {"version": n, "digest": d, "rules": r, "examples": e}
    failures: dict[str, int]  # instance -> failures triggered this stage
    tokens: dict[str, dict[str, dict[str, int]]]  # instance -> role -> {"prompt": p, "completion": c, "calls": k}
    retries: dict[str, int] = field(default_factory=dict)  # instance -> times its stage work was retried
    wall_s: float = 0.0
    work_s: dict[str, float] = field(default_factory=dict)  # instance -> seconds inside its worker (train + checkpoint)
    applied: bool = False  # freezes and broadcast carried out (then `memory` holds the heads after them)
    attempts: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # instance -> attempt summaries
    faults: dict[str, dict[str, int]] = field(default_factory=dict)  # instance -> provider fault kind -> count
    logged: bool = False  # its MLflow metrics and artifacts are all written

    @property
    def active_after(self) -> list[str]:
        return [i for i in self.active_before if i not in self.graduated]


@dataclass
class EvaluationRecord:
    returns: dict[str, list[float]]  # instance -> episode returns
    seeds: list[int]
    tokens: dict[str, dict[str, dict[str, int]]]
    faults: dict[str, dict[str, int]] = field(default_factory=dict)  # instance -> provider fault kind -> count
    retries: dict[str, int] = field(default_factory=dict)  # instance -> times its evaluation was redone


class _SqliteDocs:
    def __init__(self, path: Path) -> None:
        self._db = SqliteDatabase(path, label="session ledger")
        with self._db.write() as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS ledger (session TEXT, key TEXT, doc TEXT, written REAL, PRIMARY KEY (session, key))"
            )

    def put(self, session: str, key: str, doc: str) -> None:
        with self._db.write() as conn:
            conn.execute("INSERT OR REPLACE INTO ledger VALUES (?, ?, ?, ?)", (session, key, doc, time.time()))

    def get(self, session: str, key: str) -> Optional[str]:
        row = self._db.connection().execute("SELECT doc FROM ledger WHERE session=? AND key=?", (session, key)).fetchone()
        return row[0] if row else None

    def keys(self, session: str) -> list[str]:
        rows = self._db.connection().execute("SELECT key FROM ledger WHERE session=? ORDER BY key", (session,))
        return [r[0] for r in rows]

    def merge(self, session: str, key: str, combine: Callable[[Optional[str]], str]) -> str:
        """Read, combine and write one document in one transaction (no other writer in between)."""
        with self._db.write() as conn:
            row = conn.execute("SELECT doc FROM ledger WHERE session=? AND key=?", (session, key)).fetchone()
            doc = combine(row[0] if row else None)
            conn.execute("INSERT OR REPLACE INTO ledger VALUES (?, ?, ?, ?)", (session, key, doc, time.time()))
        return doc

    def identity(self) -> Optional[str]:
        return None  # a file does not restart

    def close(self) -> None:
        self._db.close()


class _RedisDocs:
    def __init__(self, url: str) -> None:
        import redis
        from redis.backoff import ExponentialWithJitterBackoff
        from redis.retry import Retry

        # Rides out a Redis restart (some seconds of refused connections, then LOADING) instead of
        # failing the driver on its first refused write.
        self._redis = redis.Redis.from_url(
            url, retry=Retry(ExponentialWithJitterBackoff(base=0.05, cap=2.0), retries=12),
            retry_on_error=[redis.ConnectionError, redis.TimeoutError])

    def put(self, session: str, key: str, doc: str) -> None:
        self._redis.hset(f"forge:ledger:{session}", key, doc)

    def get(self, session: str, key: str) -> Optional[str]:
        raw = self._redis.hget(f"forge:ledger:{session}", key)
        return raw.decode() if raw is not None else None

    def keys(self, session: str) -> list[str]:
        return sorted(k.decode() for k in self._redis.hkeys(f"forge:ledger:{session}"))

    def merge(self, session: str, key: str, combine: Callable[[Optional[str]], str]) -> str:
        """Read, combine and write one field optimistically (WATCH): retried if another writer came between."""
        import redis

        name = f"forge:ledger:{session}"
        with self._redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(name)
                    raw = pipe.hget(name, key)
                    doc = combine(raw.decode() if raw is not None else None)
                    pipe.multi()
                    pipe.hset(name, key, doc)
                    pipe.execute()
                    return doc
                except redis.WatchError:
                    continue

    def identity(self) -> Optional[str]:
        """The server's run id: Redis draws a new one at every start."""
        return str(self._redis.info("server").get("run_id"))

    def close(self) -> None:
        self._redis.close()


class SessionLedger:
    def __init__(self, docs, session: str) -> None:
        self._docs = docs
        self.session = session

    @classmethod
    def open(cls, spec: str, session: str) -> "SessionLedger":
        """`spec`: a run directory or .db file (SQLite), or a redis:// URL."""
        if spec.startswith("redis://") or spec.startswith("rediss://"):
            return cls(_RedisDocs(spec), session)
        path = Path(spec)
        if path.is_dir() or not path.suffix:
            path = path / "forge.db"
        return cls(_SqliteDocs(path), session)

    def close(self) -> None:
        self._docs.close()

    def _put(self, key: str, value: Any) -> None:
        self._docs.put(self.session, key, json.dumps(value, sort_keys=True))

    def _get(self, key: str) -> Any:
        raw = self._docs.get(self.session, key)
        return None if raw is None else json.loads(raw)

    # -- session ----------------------------------------------------------------------------------

    def start(self, meta: dict[str, Any]) -> None:
        existing = self._get("meta")
        if existing is not None and existing.get("config_digest") != meta.get("config_digest"):
            raise ValueError(
                f"session {self.session} was started with a different configuration "
                f"({existing.get('config_digest')} != {meta.get('config_digest')}); start a new run instead"
            )
        if existing is None:
            self._put("meta", meta)
        self._put("status", "running")

    def meta(self) -> dict[str, Any]:
        return self._get("meta") or {}

    def update_meta(self, meta: dict[str, Any]) -> None:
        self._put("meta", meta)

    def status(self) -> Optional[str]:
        return self._get("status")

    def finish(self) -> None:
        self._put("status", "finished")

    def set_status(self, status: str) -> None:
        """A stop other than finishing (e.g. budget_exhausted); `start` sets running again on resume."""
        self._put("status", status)

    # -- stages -----------------------------------------------------------------------------------

    def record_stage(self, record: StageRecord) -> None:
        self._put(f"stage:{record.stage:03d}", asdict(record))

    def stages(self) -> list[StageRecord]:
        keys = [k for k in self._docs.keys(self.session) if k.startswith("stage:")]
        return [StageRecord(**self._get(k)) for k in keys]

    def last_stage(self) -> Optional[StageRecord]:
        stages = self.stages()
        return stages[-1] if stages else None

    def graduates(self) -> list[str]:
        return [i for record in self.stages() for i in record.graduated]

    # -- spending (written by the session limiter as it charges) --------------------------------------

    def spending(self) -> dict[str, Any]:
        doc = self._get("spending") or {"spent": dict(self.meta().get("spent") or {})}
        return doc["spent"]

    def open_leases(self) -> dict[str, Any]:
        """The model calls in flight when spending was last committed (lease id -> its endpoint, holder and
        estimates, as forge.llm.limiter.OpenLeases keeps them)."""
        return (self._get("spending") or {}).get("open_leases", {})

    def commit_spending(self, spent: dict[str, Any], open_leases: Optional[dict[str, Any]] = None) -> dict[str, Any]:
        """Keeps, figure by figure, the larger of `spent` and what is kept: a write never lowers spending
        (a limiter restarted from stale figures, or a late writer, cannot undo a charge). `open_leases`
        (None: unchanged) are the calls in flight, charged by the next limiter if this one dies."""
        def combine(raw: Optional[str]) -> str:
            doc = json.loads(raw) if raw else {"spent": {}, "open_leases": {}}
            kept = doc["spent"]
            doc["spent"] = {k: max(v, kept.get(k, v)) for k, v in {**kept, **spent}.items()}
            if open_leases is not None:
                doc["open_leases"] = open_leases
            return json.dumps(doc, sort_keys=True)

        return json.loads(self._docs.merge(self.session, "spending", combine))["spent"]

    # -- progress, faults and one-off steps ---------------------------------------------------------

    def set_progress(self, phase: str, stage: int = 0) -> None:
        self._put("progress", {"phase": phase, "stage": stage})

    def progress(self) -> Optional[dict[str, Any]]:
        return self._get("progress")

    def record_fault(self, kind: str, **details: Any) -> None:
        """An infrastructure fault the driver saw, written at once (a later crash must not lose it). Kept in
        `meta`, so that whatever reads the session's meta (reports) has them without another look-up."""
        meta = self.meta()
        meta["faults"] = [*meta.get("faults", []), {"kind": kind, "at": round(time.time(), 3), **details}]
        self.update_meta(meta)

    def faults(self) -> list[dict[str, Any]]:
        return list(self.meta().get("faults", []))

    def mark_done(self, step: str) -> None:
        self._put(f"done:{step}", True)

    def is_done(self, step: str) -> bool:
        return bool(self._get(f"done:{step}"))

    def store_identity(self) -> Optional[str]:
        """Who holds the ledger now (Redis: its run id); None for a file."""
        return self._docs.identity()

    def last_store_identity(self) -> Optional[str]:
        return self._get("store")

    def set_store_identity(self, identity: str) -> None:
        self._put("store", identity)

    # -- evaluation -------------------------------------------------------------------------------

    def record_evaluation(self, record: EvaluationRecord) -> None:
        self._put("evaluation", asdict(record))

    def evaluation(self) -> Optional[EvaluationRecord]:
        data = self._get("evaluation")
        return EvaluationRecord(**data) if data else None

    def champion(self) -> Optional[str]:
        """The session's best instance: highest final-evaluation mean (ties: name), else the last stage champion,
        else the best last checkpoint."""
        evaluation = self.evaluation()
        if evaluation and evaluation.returns:
            return max(sorted(evaluation.returns), key=lambda i: sum(evaluation.returns[i]) / len(evaluation.returns[i]))
        stages = self.stages()
        for record in reversed(stages):
            if record.champion:
                return record.champion
        if stages and stages[-1].checkpoint:
            checkpoint = stages[-1].checkpoint
            return max(sorted(checkpoint), key=checkpoint.get)
        return None
