"""FORGE sessions against `forge serve` (the surrogate behind a real OpenAI-compatible HTTP endpoint, made
slow so that faults land mid-call), with the session limiter, a budget and injected provider faults on,
and one infrastructure fault: workers SIGKILLed while they hold slots, the limiter actor SIGKILLed, or the
driver SIGKILLed mid-stage (then `forge resume`). Used by the network rows of tests/test_fault_matrix.py;
runnable on its own for larger figures (the surrogate stands in for a model: machinery, not LLM results):

    PYTHONPATH=$PWD .venv/bin/python -m tests.served_chaos --instances 10 --kill-workers 3 --max-concurrency 2

Everything runs as separate processes (server, driver, resumed driver) under wall-time bounds, so a hang
shows up as a bound exceeded, never as a test that never returns. A watcher thread samples the ledger's
spending throughout (it must never go down) and lands the faults: it asks the session's limiter which
worker processes hold slots at that moment and SIGKILLs those, so each kill is mid-call by construction.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parents[1]
SESSION = "served"
SPEND_FIELDS = ("prompt_tokens", "completion_tokens", "usd", "calls", "failed_calls", "failed_prompt_tokens")


def small(instances: int, stages: int) -> list[str]:
    return [
        f"protocol.num_instances={instances}", f"protocol.num_stages={stages}", "protocol.max_attempts=2",
        "protocol.checkpoint_runs=1", "protocol.num_evaluation_runs=1", "env.max_steps=10", "protocol.theta=1.0",
        "ray.instances_per_worker=1", "tracking.enabled=false",
    ]


def served(base_url: str, cap: int, budget_usd: float, lease_s: float) -> list[str]:
    return [
        "providers.served.kind=openai", f"providers.served.base_url={base_url}", f"providers.served.max_concurrency={cap}",
        "providers.served.backoff_initial_s=0.05", "providers.served.backoff_max_s=0.2",
        "providers.served.retry_budget=1000000", "providers.served.timeout_s=60", "providers.served.slot_wait_s=300",
        "providers.served.price_in_per_mtok=2.5", "providers.served.price_out_per_mtok=10",
        "models.default.provider=served", "models.default.model=forge-surrogate-1", f"budget.max_usd={budget_usd}",
        f"ray.slot_lease_s={lease_s}",
        "faults.enabled=true", "faults.seed=11", "faults.transient_error_rate=0.1", "faults.malformed_rate=0.05",
    ]


class ForgeServe:
    """`forge serve` in its own process: the surrogate, every answer `latency_ms` late."""

    def __init__(self, latency_ms: int, log: Path) -> None:
        from forge.plumbing.local_redis import free_port

        self.port = free_port()
        self.latency_ms = latency_ms
        self.log = log
        self.proc: Optional[subprocess.Popen] = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> "ForgeServe":
        import urllib.request

        self.proc = subprocess.Popen(
            [sys.executable, "-m", "forge.cli", "serve", str(ROOT / "configs" / "forge.yaml"), "--port", str(self.port),
             f"surrogate.latency_ms={self.latency_ms}", "--max-connections", "256"],
            cwd=ROOT, env=_env(), stdout=self.log.open("w"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"{self.base_url}/models", timeout=1).read()
                return self
            except OSError:
                time.sleep(0.2)
        self.__exit__()
        raise RuntimeError(f"forge serve did not answer on port {self.port}: {self.log.read_text()[-2000:]}")

    def __exit__(self, *exc: Any) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def _env(ray_address: Optional[str] = None) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    if ray_address:
        env["RAY_ADDRESS"] = ray_address
    return env


def _limiter(session: str, timeout_s: float = 120.0):
    """The session's limiter actor, whatever namespace its driver runs in."""
    import ray

    from forge.llm.limiter import limiter_name

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for entry in ray.util.list_named_actors(all_namespaces=True):
            if entry["name"] == limiter_name(session):
                try:
                    return ray.get_actor(entry["name"], namespace=entry["namespace"])
                except ValueError:
                    break
        time.sleep(0.2)
    raise RuntimeError(f"no limiter for session {session} within {timeout_s:.0f} s")


def _holder_pid(holder: str) -> int:
    return int(holder.split()[1])  # "pid 123 on host: i03 training:1"


@dataclass
class Watch:
    """What the watcher saw: spending samples (in order), the faults it landed, anything that went wrong."""

    samples: list[dict[str, Any]] = field(default_factory=list)
    landed: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def decreases(self) -> list[str]:
        """Every place a spending figure went down between two samples (empty: monotone)."""
        found = []
        for before, after in zip(self.samples, self.samples[1:]):
            for key in SPEND_FIELDS:
                if after.get(key, 0) < before.get(key, 0):
                    found.append(f"{key} {before.get(key)} -> {after.get(key)}")
        return found


class Watcher(threading.Thread):
    def __init__(self, run_path: Path, action: str, count: int = 1) -> None:
        super().__init__(daemon=True, name="served-chaos-watcher")
        self.run_path, self.action, self.count = run_path, action, count
        self.watch = Watch()
        self.stop = threading.Event()
        self.driver: Optional[subprocess.Popen] = None  # set for action "driver"

    def _sample(self) -> None:
        from forge.protocol.ledger import SessionLedger

        if not (self.run_path / "forge.db").exists():
            return
        ledger = SessionLedger.open(str(self.run_path), SESSION)
        try:
            spent = ledger.spending()
        finally:
            ledger.close()
        if spent and (not self.watch.samples or spent != self.watch.samples[-1]):
            self.watch.samples.append(spent)

    def run(self) -> None:
        try:
            self._run()
        except Exception as exc:  # noqa: BLE001 - reported by the caller's checks
            self.watch.errors.append(f"{type(exc).__name__}: {exc}")

    def _run(self) -> None:
        import ray

        limiter = _limiter(SESSION) if self.action != "none" else None
        killed: set[int] = set()
        next_fault = time.monotonic() + 3.0  # let the session get going first
        while not self.stop.is_set():
            self._sample()
            if limiter is not None and len(self.watch.landed) < self.count and time.monotonic() >= next_fault:
                figures = ray.get(limiter.figures.remote(), timeout=30)
                held = sorted(set(figures["held"].values()))
                if held and self._land(figures, held, killed):
                    next_fault = time.monotonic() + 4.0
                    if self.action != "workers":
                        limiter = None
            time.sleep(0.1)
        self._sample()

    def _land(self, figures: dict[str, Any], held: list[str], killed: set[int]) -> bool:
        spent = dict(figures["spent"])
        if self.action == "workers":
            pids = [p for p in dict.fromkeys(_holder_pid(h) for h in held) if p not in killed]
            if not pids:
                return False
            os.kill(pids[0], signal.SIGKILL)
            killed.add(pids[0])
            # What the dead process still held: its call may have ended between the figures above and the
            # signal (on a loaded machine it often has), and a release it sent just before dying can reach the
            # limiter a little later. So a moment after the kill: its leases still held, plus those the limiter
            # reclaimed in that moment (the driver's reclaim or an expiry), were held at its death and must come back.
            import ray

            time.sleep(1.0)
            after = ray.get(_limiter(SESSION).figures.remote(), timeout=30)
            still = sum(1 for h in after["held"].values() if _holder_pid(h) == pids[0])
            taken_since = sum(after["reclaimed"].values()) - sum(figures["reclaimed"].values())
            mine = sum(1 for h in figures["held"].values() if _holder_pid(h) == pids[0])
            at_death = min(mine, still + max(0, taken_since))
            self.watch.landed.append({"killed": "worker", "pid": pids[0], "held": held, "held_at_death": at_death,
                                      "spent": spent})
        elif self.action == "limiter":
            os.kill(figures["pid"], signal.SIGKILL)
            self.watch.landed.append({"killed": "limiter", "pid": figures["pid"], "held": held, "spent": spent})
        elif self.action == "driver":
            self.driver.send_signal(signal.SIGKILL)
            self.watch.landed.append({"killed": "driver", "pid": self.driver.pid, "held": held, "spent": spent})
        return True


@dataclass
class ServedRun:
    status: Optional[str]
    returncodes: list[int]
    wall_s: float
    watch: Watch
    spent: dict[str, Any]
    meta: dict[str, Any]
    faults: dict[str, Any]
    stages: int
    evaluated: list[str]
    logs: str


def run_served_session(tmp: Path, ray_address: str, action: str, *, instances: int = 3, stages: int = 2, kills: int = 1,
                       cap: int = 2, budget_usd: float = 5.0, latency_ms: int = 200, lease_s: float = 3.0,
                       bound_s: float = 900.0) -> ServedRun:
    """One session with one kind of fault (`workers`, `limiter`, `driver` or `none`), to its end."""
    runs = tmp / "runs"
    run_path = runs / SESSION
    started = time.monotonic()
    codes: list[int] = []
    logs = tmp / "driver.log"
    with ForgeServe(latency_ms, tmp / "serve.log") as server:
        args = ["run", str(ROOT / "configs" / "forge.yaml"), *small(instances, stages),
                *served(server.base_url, cap, budget_usd, lease_s), f"run.runs_dir={runs}", f"run.name={SESSION}"]
        watcher = Watcher(run_path, action, kills)
        with logs.open("w") as out:
            driver = subprocess.Popen([sys.executable, "-m", "forge.cli", *args], cwd=ROOT, env=_env(ray_address),
                                      stdout=out, stderr=subprocess.STDOUT)
            watcher.driver = driver
            watcher.start()
            try:
                codes.append(driver.wait(timeout=bound_s))
                if action == "driver":
                    resumed = subprocess.run([sys.executable, "-m", "forge.cli", "resume", str(run_path)], cwd=ROOT,
                                             env=_env(ray_address), stdout=out, stderr=subprocess.STDOUT,
                                             timeout=max(1.0, bound_s - (time.monotonic() - started)))
                    codes.append(resumed.returncode)
            except subprocess.TimeoutExpired:
                driver.kill()
                codes.append(-999)  # the bound was exceeded: a hang
            finally:
                watcher.stop.set()
                watcher.join(timeout=30)
    return _observe(run_path, codes, time.monotonic() - started, watcher.watch, logs.read_text())


def _observe(run_path: Path, codes: list[int], wall_s: float, watch: Watch, logs: str) -> ServedRun:
    from forge.protocol.ledger import SessionLedger

    ledger = SessionLedger.open(str(run_path), SESSION)
    try:
        evaluation = ledger.evaluation()
        summary_path = run_path / "reports" / "summary.json"
        faults = json.loads(summary_path.read_text())["faults"] if summary_path.exists() else {}
        return ServedRun(status=ledger.status(), returncodes=codes, wall_s=wall_s, watch=watch,
                         spent=ledger.spending(), meta=ledger.meta(), faults=faults, stages=len(ledger.stages()),
                         evaluated=sorted(evaluation.returns) if evaluation else [], logs=logs)
    finally:
        ledger.close()


def describe(run: ServedRun, budget_usd: float) -> str:
    spent = run.spent
    deaths = run.faults.get("workers", {}).get("deaths", {})
    return (f"status {run.status} (exit {run.returncodes}) in {run.wall_s:.0f} s; spent USD {spent.get('usd', 0):.4f} of "
            f"{budget_usd:g} ({spent.get('calls')} calls, {spent.get('prompt_tokens')} prompt + "
            f"{spent.get('completion_tokens')} completion tokens; of which failed attempts {spent.get('failed_calls')} "
            f"calls, {spent.get('failed_prompt_tokens')} prompt tokens); {len(run.watch.samples)} spending samples, "
            f"{len(run.watch.decreases())} decreases; slots reclaimed {run.meta.get('slots_reclaimed', 0)}; worker "
            f"deaths {deaths}; driver restarts {run.faults.get('driver', {}).get('restarts', 0)}; "
            f"faults landed: {[(f['killed'], f['pid'], len(f['held'])) for f in run.watch.landed]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instances", type=int, default=10)
    parser.add_argument("--stages", type=int, default=2)
    parser.add_argument("--kill-workers", type=int, default=3)
    parser.add_argument("--max-concurrency", type=int, default=2)
    parser.add_argument("--budget-usd", type=float, default=5.0)
    parser.add_argument("--latency-ms", type=int, default=200)
    parser.add_argument("--dir", default=None, help="where the run goes (default: a new temporary directory)")
    args = parser.parse_args()
    import tempfile

    import ray

    tmp = Path(args.dir or tempfile.mkdtemp(prefix="forge-served-chaos-"))
    tmp.mkdir(parents=True, exist_ok=True)
    ray.init(num_cpus=os.cpu_count(), include_dashboard=False, logging_level="WARNING",
             _temp_dir=str(tmp / "ray"))
    try:
        run = run_served_session(tmp, ray.get_runtime_context().gcs_address, "workers", instances=args.instances,
                                 stages=args.stages, kills=args.kill_workers, cap=args.max_concurrency,
                                 budget_usd=args.budget_usd, latency_ms=args.latency_ms, bound_s=3600)
    finally:
        ray.shutdown()
    print(f"{args.instances} instances x {args.stages} stages against forge serve (surrogate, {args.latency_ms} ms a call), "
          f"max_concurrency={args.max_concurrency}, budget.max_usd={args.budget_usd:g}, {args.kill_workers} workers "
          f"SIGKILLed mid-call; run in {tmp}")
    print(describe(run, args.budget_usd))
    for fault in run.watch.landed:
        print(f"  killed {fault['killed']} pid {fault['pid']} while slots were held by: {'; '.join(fault['held'])}")
    return 0 if run.status == "finished" and not run.watch.decreases() else 1


if __name__ == "__main__":
    sys.exit(main())
