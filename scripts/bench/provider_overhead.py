"""Provider overhead: a bare HTTP POST against our full client stack, on the same local server, in one run.

    .venv/bin/python scripts/bench/provider_overhead.py [--iterations 3000]

The server (forge.llm.serve, in-process) fronts an instant provider, so each measurement is pure
client + loopback + server cost. Per iteration, in turn (so machine noise hits all alike):

  (a) bare: http.client on one keep-alive connection, the same JSON body our stack sends, answer parsed;
  (b) ours: ModelClient -> ResilientProvider -> OpenAIProvider (the `openai` client) -> server, with
      usage recorded in a UsageLedger.

Targets: (b)/(a) under 1.5x and (b)-(a) under 2 ms. For attribution it also times the openai client's
call alone (the exact request OpenAIProvider makes) and, for reference, the SDK's typed
`chat.completions.create`, which OpenAIProvider does not use.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import time
from typing import Callable

import openai

from forge.config import ModelConfig, ProviderConfig
from forge.llm.accounting import ModelClient, UsageLedger
from forge.llm.openai_provider import OpenAIProvider
from forge.llm.resilience import ResilientProvider, SharedLimits
from forge.llm.serve import ModelServer
from forge.llm.types import Completion, Message, Usage

MODEL = "bench-1"
MESSAGES = [
    Message("system", "You are the Planner of a blue team defending a network."),
    Message("user", "Observation: User2 shows a new connection. Choose the next action."),
]


class InstantProvider:
    name = "instant"

    def complete(self, messages, *, model, temperature=0.0, max_tokens=512, seed=None, stop=None):
        return Completion(text="Action: Analyse User2", usage=Usage(30, 5), model=model)


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=3000)
    parser.add_argument("--warmup", type=int, default=200)
    args = parser.parse_args()

    with ModelServer(InstantProvider(), models=[MODEL]) as server:
        payload = {
            "model": MODEL,
            "messages": [{"role": m.role, "content": m.content} for m in MESSAGES],
            "temperature": 0.0,
            "max_tokens": 512,
        }
        body = json.dumps(payload).encode()
        conn = http.client.HTTPConnection("127.0.0.1", server.port)

        def bare() -> None:
            conn.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
            json.loads(conn.getresponse().read())

        cfg = ProviderConfig(kind="openai", base_url=server.openai_base_url)
        provider = ResilientProvider(OpenAIProvider("bench", cfg), cfg, "bench", limits=SharedLimits())
        ledger = UsageLedger()
        client = ModelClient("planner", provider, ModelConfig(provider="bench", model=MODEL), ledger)

        def ours() -> None:
            client.complete(MESSAGES)

        sdk = openai.OpenAI(api_key="bench", base_url=server.openai_base_url, max_retries=0)

        def sdk_post() -> None:
            sdk.post("/chat/completions", body=payload, cast_to=dict)

        def sdk_create() -> None:
            sdk.chat.completions.create(**payload)

        contenders: dict[str, Callable[[], None]] = {
            "bare": bare, "ours": ours, "sdk_post": sdk_post, "sdk_create": sdk_create,
        }
        samples: dict[str, list[float]] = {name: [] for name in contenders}
        for i in range(args.warmup + args.iterations):
            for name, fn in contenders.items():
                started = time.perf_counter()
                fn()
                elapsed = time.perf_counter() - started
                if i >= args.warmup:
                    samples[name].append(elapsed)
        conn.close()
        connections = server.stats.connections

    m = {name: median_ms(values) for name, values in samples.items()}
    ratio = m["ours"] / m["bare"]
    overhead = m["ours"] - m["bare"]
    total = ledger.total()
    print(f"provider overhead: {args.iterations} interleaved iterations after {args.warmup} warm-up, medians")
    print(f"  (a) bare HTTP POST, http.client keep-alive      {m['bare']:7.3f} ms")
    print(f"  (b) our stack (ModelClient+Resilient+OpenAI)    {m['ours']:7.3f} ms")
    print(f"  ratio (b)/(a)                                   {ratio:7.2f} x   target < 1.5x: {'met' if ratio < 1.5 else 'MISSED'}")
    print(f"  overhead (b)-(a)                                {overhead:7.3f} ms  target < 2 ms: {'met' if overhead < 2 else 'MISSED'}")
    print("  attribution:")
    print(f"    openai client alone, same request as (b)      {m['sdk_post']:7.3f} ms")
    print(f"    our layer on top of the openai client         {m['ours'] - m['sdk_post']:7.3f} ms")
    print(f"    SDK typed chat.completions.create (unused)    {m['sdk_create']:7.3f} ms")
    print(f"  ledger: {total.calls} calls recorded, {total.prompt_tokens} prompt tokens; server saw {connections} connections")


if __name__ == "__main__":
    main()
