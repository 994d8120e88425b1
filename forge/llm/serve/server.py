"""`ModelServer`: the lifecycle of one served endpoint (start on a free port, serve, stop promptly)."""

from __future__ import annotations

import threading
from typing import Any, Optional, Sequence

from forge.config import ConfigError
from forge.llm.serve.app import ModelApp
from forge.llm.serve.faults import FaultPlan, ServerStats
from forge.llm.serve.http import StdlibHTTPServer
from forge.llm.serve.policy import (
    DEFAULT_IDLE_TIMEOUT_S,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_MAX_TOKENS,
    ServePolicy,
    bind_refusal,
)
from forge.llm.types import Provider, Secret


class ModelServer:
    """Serves `provider` over HTTP on `host:port` (port 0: a free one; read `.port` after `start()`).

    Only `models` are served (others: 404 naming them); answers are capped at `max_tokens`.
    `required_key`: when set, clients must present it (Bearer, `x-goog-api-key` or `?key=`), else 401;
    without one, only a loopback address may be bound (`ConfigError` otherwise).
    `faults` scripts misbehaviour for tests; `stats` counts what arrived. `pass_schema`: a request's reply
    schema is passed on to the provider (one that decodes under a schema); else only checked.
    `owned_by`: what GET /v1/models says owns the models (`SURROGATE_OWNER` when `provider` is the surrogate).
    """

    def __init__(
        self,
        provider: Provider,
        *,
        models: Sequence[str],
        host: str = "127.0.0.1",
        port: int = 0,
        required_key: Optional[Secret] = None,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
        idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S,
        pass_schema: bool = False,
        owned_by: str = "forge",
    ):
        refusal = bind_refusal(host, required_key is not None)
        if refusal is not None:
            raise ConfigError(refusal)
        try:
            policy = ServePolicy(
                tuple(models), max_tokens=max_tokens, max_body_bytes=max_body_bytes,
                max_connections=max_connections, idle_timeout_s=idle_timeout_s,
            )
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        self.host = host
        self.faults = FaultPlan()
        self.stats = ServerStats()
        self._stopping = threading.Event()
        self.app = ModelApp(
            provider, policy, required_key=required_key, faults=self.faults, stats=self.stats, stopping=self._stopping,
            pass_schema=pass_schema, owned_by=owned_by,
        )
        self._requested_port = port
        self._httpd: Optional[StdlibHTTPServer] = None
        self._thread: Optional[threading.Thread] = None

    def __repr__(self) -> str:
        state = f"{self.url}" if self._httpd else "stopped"
        return f"ModelServer(provider={self.app.provider_label!r}, {state})"

    @property
    def models(self) -> tuple[str, ...]:
        return self.app.policy.models

    @property
    def policy(self) -> ServePolicy:
        return self.app.policy

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the server is not running")
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        """The root URL; OpenAI clients want `url + "/v1"`, google-genai wants `url` as its base_url."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def openai_base_url(self) -> str:
        return self.url + "/v1"

    def start(self) -> "ModelServer":
        """Bind and serve on a background thread. Idempotent."""
        if self._httpd is not None:
            return self
        self._stopping.clear()
        self._httpd = StdlibHTTPServer((self.host, self._requested_port), self.app)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="forge-serve", daemon=True
        )
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Blocking variant for the CLI (Ctrl-C stops it)."""
        self.start()
        assert self._thread is not None
        try:
            while self._thread.is_alive():
                self._thread.join(0.5)
        finally:
            self.stop()

    def stop(self) -> None:
        """Stop accepting, wake requests held in an injected delay, drop open connections. Idempotent."""
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        self._stopping.set()
        httpd.shutdown()
        httpd.drop_connections()
        httpd.server_close()
        if self._thread is not None:
            self._thread.join(5)

    def __enter__(self) -> "ModelServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
