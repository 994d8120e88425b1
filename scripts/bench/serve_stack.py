"""`forge serve` HTTP stacks side by side: the standard-library server FORGE ships vs uvicorn + ASGI.

    .venv/bin/python scripts/bench/serve_stack.py [--requests 1500] [--threads 8] [--seconds 3] [--warmup 100]

Each server runs in its own process (as `forge serve` does), so neither shares a GIL with the other or
with the clients. Both stacks front the same `ModelApp` (forge.llm.serve.app: key, limits, wire translation) over the
same fault-free surrogate model at zero latency, built as `forge serve` builds it. The uvicorn side is
a minimal ASGI adapter (no framework routing), with the pinned stack's parser (h11, asyncio loop) and,
when `httptools` and `uvloop` are importable (not FORGE dependencies: `pip install --target DIR
httptools uvloop` and put DIR on PYTHONPATH), also uvicorn's fastest configuration. The sync model call
runs on the thread pool, as any ASGI server must run it. Per stack, in alternating rounds so machine noise hits both alike:

  - sequential latency (p50, p90) and requests/s, through the real `openai` client
    (chat.completions.create) and through a bare http.client keep-alive connection;
  - throughput with `--threads` concurrent keep-alive clients for `--seconds`.

The figures are surrogate-model serving figures (no LLM involved).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import http.client
import json
import statistics
import threading
import time
from typing import Callable

import anyio.to_thread
import openai
import uvicorn

from forge.config import load_config
from forge.llm.registry import build_provider
from forge.llm.serve import ModelServer
from forge.llm.serve.app import Head, ModelApp
from forge.llm.serve.policy import ServePolicy

MODEL = "forge-surrogate-1"
PAYLOAD = {
    "model": MODEL,
    "messages": [
        {"role": "system", "content": "You are the Planner of a blue team defending a network."},
        {"role": "user", "content": "Observation: User2 shows a new connection. Choose the next action."},
    ],
    "temperature": 0.0,
    "max_tokens": 256,
}


class UvicornServer:
    """The same ModelApp as a bare ASGI app on uvicorn, on a background thread."""

    def __init__(self, app: ModelApp, *, fast: bool = False):
        self.app = app
        config = uvicorn.Config(
            self.asgi, host="127.0.0.1", port=0, log_level="warning", access_log=False, lifespan="off",
            http="httptools" if fast else "h11", loop="uvloop" if fast else "asyncio", interface="asgi3",
            limit_concurrency=app.policy.max_connections,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "UvicornServer":
        self.thread.start()
        while not self.server.started:
            time.sleep(0.01)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    async def asgi(self, scope: dict, receive: Callable, send: Callable) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        head = Head(scope["method"], scope["path"], scope["query_string"].decode("latin-1"), headers)
        reply = self.app.check(head)
        if reply is None:
            chunks, more = [], True
            while more:
                message = await receive()
                chunks.append(message.get("body", b""))
                more = message.get("more_body", False)
            reply = await anyio.to_thread.run_sync(self.app.answer, head, b"".join(chunks))
        data = json.dumps(reply.payload, separators=(",", ":")).encode()
        out = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
        out += [(k.encode(), v.encode()) for k, v in reply.headers]
        await send({"type": "http.response.start", "status": reply.status, "headers": out})
        await send({"type": "http.response.body", "body": data})


def sequential(port: int, n: int, via: str) -> list[float]:
    samples = []
    if via == "openai":
        client = openai.OpenAI(api_key="bench", base_url=f"http://127.0.0.1:{port}/v1", max_retries=0)

        def call() -> None:
            client.chat.completions.create(**PAYLOAD)
    else:
        conn = http.client.HTTPConnection("127.0.0.1", port)
        body = json.dumps(PAYLOAD).encode()

        def call() -> None:
            conn.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
            response = conn.getresponse()
            json.loads(response.read())
            assert response.status == 200, response.status
    for _ in range(n):
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    return samples


def concurrent(port: int, threads: int, seconds: float) -> float:
    body = json.dumps(PAYLOAD).encode()
    counts = [0] * threads
    stop = time.perf_counter() + seconds

    def worker(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port)
        while time.perf_counter() < stop:
            conn.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
            response = conn.getresponse()
            response.read()
            if response.status == 200:
                counts[i] += 1
        conn.close()

    started = time.perf_counter()
    pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return sum(counts) / (time.perf_counter() - started)


STACKS = ("stdlib", "uvicorn h11", "uvicorn httptools")


def serve(stack: str) -> None:
    """Child process: serve the surrogate on `stack`, print the port, run until stdin closes."""
    cfg = load_config(overrides=["surrogate.latency_ms=0", "faults.enabled=false"])
    provider = build_provider("surrogate", cfg)
    if stack == "stdlib":
        server = ModelServer(provider, models=[MODEL])
    else:
        server = UvicornServer(ModelApp(provider, ServePolicy((MODEL,))), fast=stack == "uvicorn httptools")
    with server:
        print(f"PORT {server.port}", flush=True)
        sys.stdin.read()


def available(stack: str) -> bool:
    if stack != "uvicorn httptools":
        return True
    try:
        import httptools  # noqa: F401
        import uvloop  # noqa: F401
    except ImportError:
        return False
    return True


def start(stack: str) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([sys.executable, __file__, "--serve", stack], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("PORT "):
        proc.kill()
        raise SystemExit(f"the {stack} server did not start")
    return proc, int(line.split()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=1500, help="sequential requests per stack and client")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--warmup", type=int, default=100, help="requests per stack and client kind before timing")
    parser.add_argument("--serve", choices=STACKS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve(args.serve)

    names = [s for s in STACKS if available(s)]
    results = {s: {"openai": [], "bare": [], "rps_conc": []} for s in names}
    procs, ports = {}, {}
    try:
        for name in names:
            procs[name], ports[name] = start(name)
        for port in ports.values():  # warm-up
            sequential(port, args.warmup, "openai")
            sequential(port, args.warmup, "bare")
        for round_ in range(args.rounds):
            order = names if round_ % 2 == 0 else list(reversed(names))
            for name in order:
                for via in ("openai", "bare"):
                    results[name][via] += sequential(ports[name], args.requests // args.rounds, via)
                results[name]["rps_conc"].append(concurrent(ports[name], args.threads, args.seconds / args.rounds))
    finally:
        for proc in procs.values():
            proc.communicate(timeout=15)  # closing stdin stops it

    def pct(xs: list[float], q: float) -> float:
        return statistics.quantiles(xs, n=100)[q - 1] * 1000 if q != 50 else statistics.median(xs) * 1000

    def rps(xs: list[float]) -> float:
        return len(xs) / sum(xs)

    rows = {
        "openai client p50 (ms)": lambda r: pct(r["openai"], 50),
        "openai client p90 (ms)": lambda r: pct(r["openai"], 90),
        "openai client seq. req/s": lambda r: rps(r["openai"]),
        "bare http p50 (ms)": lambda r: pct(r["bare"], 50),
        "bare http p90 (ms)": lambda r: pct(r["bare"], 90),
        "bare http seq. req/s": lambda r: rps(r["bare"]),
        f"{args.threads} clients req/s": lambda r: statistics.mean(r["rps_conc"]),
    }
    print("forge serve HTTP stacks: surrogate model (not an LLM) at zero latency, same ModelApp, one process per")
    print(f"server, {args.requests} sequential requests per client kind, {args.rounds} alternating rounds")
    print(f"  {'':26s}" + "".join(f"{n:>20s}" for n in names) + "".join(f"{'stdlib/' + n:>27s}" for n in names[1:]))
    for label, get in rows.items():
        values = [get(results[n]) for n in names]
        print(f"  {label:26s}" + "".join(f"{v:20.3f}" if "ms" in label else f"{v:20.0f}" for v in values)
              + "".join(f"{values[0] / v:26.2f}x" for v in values[1:]))
    print("  ratios: latency below 1x and req/s above 1x favour the stdlib server")
    for other in names[1:]:
        wins = [
            (get(results["stdlib"]) < get(results[other])) if "ms" in label else (get(results["stdlib"]) > get(results[other]))
            for label, get in rows.items()
        ]
        print(f"  stdlib vs {other}: stdlib faster on {sum(wins)} of {len(wins)} figures")


if __name__ == "__main__":
    main()
