"""How instances are packed into Ray worker processes (`ray.instances_per_worker`).

A worker process costs ~150 MB before it hosts anything (Python, Ray, forge, CybORG); an instance in
it costs a few MB. Model calls are I/O-bound, so one process can serve many instances from threads,
but the CPU-bound parts of a step (the simulator, prompt building, parsing) share that process's GIL.
The automatic choice (0) therefore keeps at least `2 x cluster CPUs` processes (at least 4), so every
core has work while others wait on their models, and packs the instances evenly over them; a
population no larger than that gets a process per instance, as before. Packing never changes results:
each instance has its own seeds, environment random stream, models and memory.
"""

from __future__ import annotations

import math

MIN_WORKERS = 4


def instances_per_worker(num_instances: int, setting: int, cluster_cpus: float) -> int:
    """`setting` (ray.instances_per_worker) if positive, else the automatic choice described above."""
    if setting < 0:
        raise ValueError(f"ray.instances_per_worker must be >= 0 (0: automatic), got {setting}")
    if num_instances < 1:
        return 1
    if setting > 0:
        return min(setting, num_instances)
    workers = min(num_instances, max(MIN_WORKERS, 2 * int(math.ceil(cluster_cpus))))
    return math.ceil(num_instances / workers)


def pack(instances: list[str], per_worker: int) -> list[list[str]]:
    """Consecutive groups of at most `per_worker` instances, spread evenly (sizes differ by at most one)."""
    if per_worker < 1:
        raise ValueError(f"per_worker must be >= 1, got {per_worker}")
    workers = math.ceil(len(instances) / per_worker) if instances else 0
    groups, start = [], 0
    for k in range(workers):
        size = len(instances) // workers + (1 if k < len(instances) % workers else 0)
        groups.append(instances[start:start + size])
        start += size
    return groups
