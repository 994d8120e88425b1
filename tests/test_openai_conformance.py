"""Conformance of the OpenAI-compatible path, run against each server alike: `forge serve` (the
surrogate over HTTP, always) and, when a URL variable names one (skipped otherwise: CI builds none),
llama.cpp's server (`FORGE_LLAMA_URL=http://127.0.0.1:8089/v1 FORGE_LLAMA_MODEL=smollm2-135m-instruct`,
after `scripts/local_model.sh start`), a vLLM server (`FORGE_VLLM_URL`, `FORGE_VLLM_MODEL`; its
`structured_outputs` parameter) and Ollama (`FORGE_OLLAMA_URL`, `FORGE_OLLAMA_MODEL`; `response_format`
json_schema). The OpenAI and Gemini APIs' own rules are in tests/test_api_conformance.py.

What is checked is what FORGE relies on: usage figures, stop sequences, `max_tokens` cut-offs with
`finish_reason=length`, 4xx errors as non-retried errors, a timeout as a timeout, constrained decoding
where the server has it, and concurrent calls held to the provider's concurrency limit. 5xx errors can
only be provoked on `forge serve` (scripted faults); llama.cpp has no way to ask for one.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass
from typing import Iterator, Optional

import httpx
import pytest

from forge.config import ProviderConfig, SurrogateConfig
from forge.llm.openai_provider import OpenAIProvider
from forge.llm.resilience import ResilientProvider, SharedLimits
from forge.llm.serve import ModelServer
from forge.llm.surrogate import SurrogateProvider
from forge.llm.types import Message, ProviderError, ProviderTimeout, TransientProviderError

# name -> (URL variable, model variable, default model, how the server spells constrained decoding)
SERVERS = {"llama.cpp": ("FORGE_LLAMA_URL", "FORGE_LLAMA_MODEL", "smollm2-135m-instruct", "json_object"),
           "vllm": ("FORGE_VLLM_URL", "FORGE_VLLM_MODEL", "Qwen/Qwen2.5-0.5B-Instruct", "vllm"),
           "ollama": ("FORGE_OLLAMA_URL", "FORGE_OLLAMA_MODEL", "qwen2.5:0.5b", "json_schema")}
PROMPT = [Message("system", "You are a helpful assistant."),
          Message("user", "Describe in three sentences what a firewall does on a network.")]


@dataclass
class Server:
    name: str
    base_url: str
    model: str
    structured_output: str  # how the server spells constrained decoding ("none": it has none)
    forge: Optional[ModelServer] = None  # for scripted faults and the server's own counts


@pytest.fixture(params=["forge-serve", *SERVERS])
def server(request) -> Iterator[Server]:
    if request.param == "forge-serve":
        with ModelServer(SurrogateProvider("surrogate", SurrogateConfig()), models=["forge-surrogate-1"]) as srv:
            yield Server("forge-serve", srv.openai_base_url, "forge-surrogate-1", "none", srv)
        return
    url_var, model_var, default_model, spelling = SERVERS[request.param]
    if not os.environ.get(url_var):
        pytest.skip(f"no {request.param} server configured (set {url_var}{', see scripts/local_model.sh' if request.param == 'llama.cpp' else ''})")
    yield Server(request.param, os.environ[url_var].rstrip("/"), os.environ.get(model_var, default_model), spelling)


def provider(server: Server, **overrides) -> OpenAIProvider:
    cfg = ProviderConfig(kind="openai", base_url=server.base_url, timeout_s=overrides.pop("timeout_s", 120.0),
                         structured_output=server.structured_output, **overrides)
    return OpenAIProvider("conformance", cfg)


def complete(server: Server, messages=PROMPT, **kwargs):
    return provider(server).complete(messages, model=server.model, temperature=0.0, seed=1, **kwargs)


def test_usage_counts_prompt_and_completion_tokens(server):
    answer = complete(server, max_tokens=40)
    assert answer.text.strip()
    assert answer.usage.prompt_tokens > 10 and 0 < answer.usage.completion_tokens <= 40
    longer = complete(server, [*PROMPT, Message("user", "And in one more sentence, what does a router do?")],
                      max_tokens=40)
    assert longer.usage.prompt_tokens > answer.usage.prompt_tokens  # counted, not a constant
    assert answer.finish_reason in ("stop", "length")


def test_max_tokens_cuts_the_reply_and_says_length(server):
    full = complete(server, max_tokens=60)
    cut = complete(server, max_tokens=3)
    assert cut.finish_reason == "length"
    assert cut.usage.completion_tokens <= 3 and len(cut.text) < len(full.text)


def test_a_stop_sequence_ends_the_reply_before_it(server):
    full = complete(server, max_tokens=60).text
    words = full.split()
    assert len(words) > 4, full
    marker = " " + words[3]  # a word the reply is known to reach (temperature 0, same seed)
    stopped = complete(server, max_tokens=60, stop=[marker]).text
    assert marker not in stopped
    assert full.startswith(stopped.rstrip()) and len(stopped) < len(full)


def test_a_malformed_request_is_refused_and_not_retried(server):
    raw = httpx.post(f"{server.base_url}/chat/completions", json={"model": server.model, "messages": "not a list"},
                     timeout=30)
    # forge serve: 400. llama-cpp-python: 500 with "validation error" in the body (a documented gap).
    assert raw.status_code == 400 or (server.name == "llama.cpp" and raw.status_code == 500)
    assert "error" in raw.json()  # an error body, not a crash page
    bad = provider(server)
    with pytest.raises(ProviderError) as caught:
        bad.complete([Message("user", "hi")], model=server.model, max_tokens=5, temperature="hot")  # type: ignore[arg-type]
    assert not isinstance(caught.value, TransientProviderError)  # never worth retrying, whatever the status
    assert "HTTP 400" in str(caught.value) or "could not validate" in str(caught.value)


def test_a_5xx_is_transient_with_its_retry_after(server):
    if server.forge is None:
        pytest.skip(f"{server.name} cannot be asked for a 5xx")
    server.forge.faults.fail_next(1, 503, retry_after=2)
    with pytest.raises(TransientProviderError) as caught:
        complete(server, max_tokens=5)
    assert caught.value.status == 503 and caught.value.retry_after_s == pytest.approx(2.0)
    assert complete(server, max_tokens=5).text  # the next call is served


def test_a_slow_answer_is_a_timeout(server):
    if server.forge is not None:
        server.forge.faults.delay_next(1, 2.0)
        timeout = 0.3
    else:
        timeout = 0.05  # a local server on a CPU: a 200-token answer takes seconds
    slow = provider(server, timeout_s=timeout)
    started = time.perf_counter()
    with pytest.raises(ProviderTimeout):
        slow.complete(PROMPT, model=server.model, max_tokens=200, temperature=0.0)
    assert time.perf_counter() - started < timeout + 1.5


def test_constrained_decoding_gives_json_of_the_schema_where_the_server_has_it(server):
    schema = {"type": "object", "additionalProperties": False, "required": ["action", "reason"],
              "properties": {"action": {"type": "string", "enum": ["Monitor", "Restore User1"]},
                             "reason": {"type": "string", "maxLength": 40}}}
    answer = complete(server, max_tokens=60, schema=schema)
    if server.structured_output == "none":
        return  # forge serve ignores response_format (documented); the agents read text replies too
    data = json.loads(answer.text)
    assert data["action"] in ("Monitor", "Restore User1") and isinstance(data["reason"], str)


def test_concurrent_calls_are_held_to_the_providers_concurrency_limit(server):
    cfg = ProviderConfig(kind="openai", base_url=server.base_url, timeout_s=120.0, max_concurrency=2)
    inner = OpenAIProvider("conformance", cfg)
    counting = _InFlight(inner)
    shared = ResilientProvider(counting, cfg, "conformance", limits=SharedLimits())
    answers: list = []
    threads = [threading.Thread(target=lambda k=k: answers.append(
        shared.complete([Message("user", f"Name one colour. ({k})")], model=server.model, max_tokens=8, seed=k)))
        for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert len(answers) == 6 and all(a.usage.completion_tokens > 0 for a in answers)
    assert counting.peak == 2  # never more than the limit, and the limit was used
    if server.forge is not None:
        assert server.forge.stats.max_in_flight <= 2


class _InFlight:
    """Counts calls in flight below the resilience layer (what the server sees at once)."""

    def __init__(self, inner):
        self.inner, self.name = inner, inner.name
        self.now = self.peak = 0
        self._lock = threading.Lock()
        self.enforces_timeout = True

    def complete(self, messages, **kwargs):
        with self._lock:
            self.now += 1
            self.peak = max(self.peak, self.now)
        try:
            time.sleep(0.05)  # long enough for the other threads to try to enter
            return self.inner.complete(messages, **kwargs)
        finally:
            with self._lock:
                self.now -= 1
