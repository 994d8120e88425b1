"""The Ray side of a session: connecting to (or starting) Ray, the worker processes that host the
instances, and how a failed unit of work is told apart from a bug.

Instances are packed into worker processes (`ray.instances_per_worker`, workers/packing.py). Ray restarts
a dead worker itself (`ray.max_restarts`), with all of its instances; the pool makes a fresh one when Ray
has given up.
"""

from __future__ import annotations

import logging
import os
import signal
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator, Optional

import ray

from forge.config import ForgeConfig, StoreKind, rulebook_location, to_yaml
from forge.memory.errors import StoreUnavailableError
from workers.instance_actor import host_class
from workers.packing import instances_per_worker, pack


def connect_ray(cfg: ForgeConfig) -> None:
    if ray.is_initialized():
        return
    address = cfg.ray.address or os.environ.get("RAY_ADDRESS")
    if address:
        ray.init(address=address, logging_level="WARNING")
    else:
        # Ray enables token authentication for a new local cluster and warns on stderr that it did; the
        # notice is no news for a cluster this process starts and stops (its other warnings still show).
        logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)
        _start_local_ray()


# Ray gives a new node's raylet a fixed 30 s to register with the GCS; a loaded machine (a test suite in
# several processes, other sessions) sometimes misses it, and the whole session would fail before any work.
LOCAL_RAY_ATTEMPTS = 3


def _start_local_ray() -> None:
    for attempt in range(1, LOCAL_RAY_ATTEMPTS + 1):
        before = _descendants(os.getpid())
        try:
            ray.init(num_cpus=os.cpu_count(), include_dashboard=False, logging_level="WARNING",
                     configure_logging=True, log_to_driver=True)
            return
        except Exception as exc:  # noqa: BLE001 - Ray raises a bare Exception for this one
            if "timed out during startup" not in str(exc) or attempt == LOCAL_RAY_ATTEMPTS:
                raise
        # The failed attempt's GCS and raylet are this process's children that Ray no longer tracks.
        for pid in _descendants(os.getpid()) - before:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _descendants(root: int) -> set[int]:
    """The processes below `root` (from /proc; empty where there is none)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, ppid in parents.items() if ppid in frontier} - found
        found |= frontier
    return found


def causes(exc: BaseException) -> Iterator[BaseException]:
    """`exc` as Ray delivers a worker's error (its cause inside a RayTaskError), then what caused that."""
    cause: Optional[BaseException] = getattr(exc, "cause", None) if isinstance(exc, ray.exceptions.RayTaskError) else exc
    seen = set()
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        yield cause
        cause = cause.__cause__ or cause.__context__


def retryable_failure(exc: BaseException) -> Optional[str]:
    """Why a unit of work may be redone: "worker_death" (its process died), "worker_store_error" (it
    raised because the memory store was unreachable), or None (a real error: redoing it would fail again)."""
    if isinstance(exc, ray.exceptions.RayActorError):
        return "worker_death"
    if any(isinstance(cause, StoreUnavailableError) or _is_redis_connection_error(cause) for cause in causes(exc)):
        return "worker_store_error"
    return None


def _is_redis_connection_error(exc: BaseException) -> bool:
    try:
        import redis  # lazy: only a Redis store raises its errors; a SQLite session never loads redis
    except ImportError:  # pragma: no cover - redis is a dependency
        return False
    return isinstance(exc, (redis.ConnectionError, redis.TimeoutError))


def as_completed(pending: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """Each key of `pending` with its object ref, as the refs complete (one `ray.wait` at a time); a key
    put back into `pending` while iterating (work resubmitted) is waited for again."""
    while pending:
        ready, _ = ray.wait(list(pending.values()), num_returns=1)
        key = next(k for k, ref in pending.items() if ref == ready[0])
        yield key, pending.pop(key)


class WorkerPool:
    """The worker processes of one session, each hosting a group of its instances (workers/instance_actor.py)."""

    def __init__(self, cfg: ForgeConfig, session: str, run_path: Path) -> None:
        self.cfg = cfg
        self.session = session
        self.run_path = run_path
        self._hosts: list[Any] = []  # Ray actor handles, one per group
        self._groups: list[list[str]] = []
        self._host_of: dict[str, int] = {}
        self.pids: dict[int, int] = {}  # host index -> its process id (benchmarks sample their RSS)
        self.processes: dict[int, str] = {}  # host index -> its process as its leases name it (pid and node)

    def spawn(self, instances: list[str]) -> int:
        """Instances packed into worker processes (`ray.instances_per_worker`; 0: workers/packing.py); the
        most instances one process hosts."""
        cpus = ray.cluster_resources().get("CPU", os.cpu_count() or 1)
        per_worker = instances_per_worker(len(instances), self.cfg.ray.instances_per_worker, cpus)
        self._groups = pack(instances, per_worker)
        self._host_of = {i: k for k, group in enumerate(self._groups) for i in group}
        self._hosts = [self._new_host(group) for group in self._groups]
        self.pids = dict(enumerate(ray.get([h.ping.remote() for h in self._hosts])))
        self.processes = dict(enumerate(ray.get([h.process.remote() for h in self._hosts])))
        return per_worker

    @property
    def size(self) -> int:
        return len(self._hosts)

    def host(self, instance: str) -> Any:
        return self._hosts[self._host_of[instance]]

    def nodes(self) -> dict[str, str]:
        """instance -> the Ray node its worker runs on."""
        on_node = ray.get([h.node_id.remote() for h in self._hosts])
        return {i: on_node[k] for i, k in self._host_of.items()}

    def respawn(self, instance: str) -> Optional[str]:
        """The worker of `instance` answering again: restarted by Ray, or made anew if Ray gave up. The dead
        process as its leases name it, when another process took its place (its slots can be reclaimed)."""
        k = self._host_of[instance]
        before = self.processes.get(k)
        try:
            self.pids[k] = ray.get(self._hosts[k].ping.remote(), timeout=60)  # restarted by Ray and answering
        except Exception:
            self._hosts[k] = self._new_host(self._groups[k])
            self.pids[k] = ray.get(self._hosts[k].ping.remote(), timeout=60)
        self.processes[k] = ray.get(self._hosts[k].process.remote(), timeout=60)
        return before if before is not None and self.processes[k] != before else None

    def kill(self) -> None:
        for host in self._hosts:
            ray.kill(host)
        self._hosts.clear()

    def _new_host(self, group: list[str]):
        cfg = self.cfg
        cls = host_class(cfg.ray.num_cpus_per_instance, cfg.ray.max_restarts, len(group))
        # The session's own rulebook (unless one is named), resolved here: a worker has no run directory.
        rulebook = replace(cfg.rulebook, store=rulebook_location(cfg, self.run_path))
        # Workers get the SQLite store's path only when it is the memory store (one machine); never the run directory.
        sqlite_path = str(self.run_path) if cfg.memory.store is StoreKind.sqlite else None
        return cls.remote(group, self.session, to_yaml(replace(cfg, rulebook=rulebook)), sqlite_path)
