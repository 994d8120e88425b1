"""Session limiter overhead: what taking and giving back a session-wide slot adds to one model call.

    PYTHONPATH=$PWD .venv/bin/python scripts/bench/limiter_overhead.py [--iterations 2000] [--workers 4]

Starts local Ray as a session does (or joins the cluster at RAY_ADDRESS) and the session limiter actor (forge.llm.limiter), then times, side by side in one
run, from inside a Ray worker (where instances make their calls):

  (a) in-process only: `ResilientProvider` around an instant in-process provider, no limiter installed;
  (b) session limiter: the same provider with the limiter installed (one blocking acquire round trip per
      attempt, the release sent without waiting).

It prints the per-call figures of (a) and (b) and their difference, the per-call cost of the limiter.
With `--workers N`, N workers call at once through one limiter, to show its cost under contention.
"""

from __future__ import annotations

import argparse
import statistics
import time

import ray

from forge.config import ProviderConfig
from forge.llm.limiter import BudgetLimits, start_session_limiter


@ray.remote(num_cpus=0.1)
class Bench:
    def __init__(self, session: str, use_limiter: bool):
        from forge.llm.limiter import install_session_limiter, uninstall_session_limiter
        from forge.llm.resilience import ResilientProvider, SharedLimits
        from forge.llm.types import Completion, Usage

        class Instant:
            enforces_timeout = True

            def complete(self, messages, *, model, **_):
                return Completion(text="ok", usage=Usage(10, 2), model=model)

        if use_limiter:
            assert install_session_limiter(session)
        else:
            uninstall_session_limiter()
        cfg = ProviderConfig(kind="openai", base_url="http://127.0.0.1:1/v1", max_concurrency=64, timeout_s=0)
        self.provider = ResilientProvider(Instant(), cfg, "bench", limits=SharedLimits())

    def run(self, iterations: int) -> list[float]:
        from forge.llm.types import Message

        messages = [Message("user", "hello")]
        for _ in range(20):  # warm-up
            self.provider.complete(messages, model="m")
        samples = []
        for _ in range(iterations):
            started = time.perf_counter()
            self.provider.complete(messages, model="m")
            samples.append(time.perf_counter() - started)
        return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    from forge.config import load_config
    from workers.ray_runtime import connect_ray

    connect_ray(load_config())  # a session's own start (retried on a loaded machine), or RAY_ADDRESS's cluster
    limiter = start_session_limiter("bench", BudgetLimits(max_usd=1e9))
    try:
        rows = []
        for label, use, n in (("in-process only, 1 worker", False, 1), ("session limiter, 1 worker", True, 1),
                              (f"in-process only, {args.workers} workers", False, args.workers),
                              (f"session limiter, {args.workers} workers", True, args.workers)):
            workers = [Bench.remote("bench", use) for _ in range(n)]
            samples = [s for batch in ray.get([w.run.remote(args.iterations) for w in workers]) for s in batch]
            for w in workers:
                ray.kill(w)
            rows.append((label, statistics.median(samples) * 1e3, statistics.quantiles(samples, n=100)[98] * 1e3))
        print(f"{'configuration':<34} {'median ms/call':>15} {'p99 ms/call':>12}")
        for label, median, p99 in rows:
            print(f"{label:<34} {median:>15.3f} {p99:>12.3f}")
        calls = ray.get(limiter.figures.remote())["spent"]["calls"]
        print(f"limiter calls counted: {calls}")
        print(f"limiter overhead per call, 1 worker: {rows[1][1] - rows[0][1]:.3f} ms (median); "
              f"{args.workers} workers: {rows[3][1] - rows[2][1]:.3f} ms")
    finally:
        ray.kill(limiter)
        ray.shutdown()


if __name__ == "__main__":
    main()
