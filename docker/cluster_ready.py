"""Wait, from inside the ray-head container, until the compose cluster can take a session: the MLflow server
answers and the Ray cluster has its head and NODES - 1 worker nodes alive (docker/check.sh pipes this file to
`python - NODES`). Exits 1 after five minutes, saying what was still missing.
"""

from __future__ import annotations

import sys
import time
import urllib.request

import ray

expected = int(sys.argv[1])
deadline = time.monotonic() + 300
missing = "nothing tried yet"
while time.monotonic() < deadline:
    try:
        urllib.request.urlopen("http://mlflow:5000/health", timeout=5)
    except OSError as exc:
        missing = f"the MLflow server (http://mlflow:5000/health: {exc})"
        time.sleep(2)
        continue
    try:
        if not ray.is_initialized():
            ray.init(address="auto", logging_level="ERROR", log_to_driver=False)
        alive = sum(1 for n in ray.nodes() if n["Alive"])
    except Exception as exc:  # noqa: BLE001 - the head is still starting: Ray says so in its own words
        missing = f"the Ray head ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})"
        time.sleep(2)
        continue
    if alive >= expected:
        print(f"cluster ready: MLflow answers, {alive} Ray nodes alive")
        sys.exit(0)
    missing = f"Ray nodes: {alive} of {expected} alive"
    time.sleep(2)
print(f"cluster not ready after 300 s: waiting for {missing}", file=sys.stderr)
sys.exit(1)
