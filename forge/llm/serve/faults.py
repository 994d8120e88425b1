"""Server-side fault scripting and counters: what tests use to make `forge serve` misbehave and to watch it.

A `FaultPlan` is consumed in arrival order by model-call requests (429 + Retry-After, 5xx, slow
answers, refusals and blocks); `ServerStats` records what arrived, how it was answered and how many connections were open.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Optional


@dataclass(frozen=True)
class PlannedFault:
    """What the server does to one model-call request instead of (or before) answering it."""

    status: Optional[int] = None  # answer with this error status instead of calling the provider
    retry_after: Optional[str] = None  # Retry-After header value sent with `status`
    delay_s: float = 0.0  # wait this long first (a slow model; lets client timeouts fire)
    message: Optional[str] = None  # error message in the body (default: "injected fault: HTTP <status>")
    # answer with this ending instead of asking the model (forge.llm.serve.emulation.SCRIPTED): "refusal"
    # (OpenAI's message.refusal / Gemini's SAFETY), "content_filter", "SAFETY", "RECITATION", "PROMPT_BLOCKED"
    outcome: Optional[str] = None


class FaultPlan:
    """Faults for the next model-call requests, consumed in arrival order (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queue: deque[PlannedFault] = deque()
        self._every_delay_s = 0.0

    def add(self, fault: PlannedFault, times: int = 1) -> "FaultPlan":
        with self._lock:
            self._queue.extend([fault] * times)
        return self

    def fail_next(
        self, times: int, status: int, *, retry_after: Optional[float | str] = None, message: Optional[str] = None
    ) -> "FaultPlan":
        header = None if retry_after is None else (retry_after if isinstance(retry_after, str) else f"{retry_after:g}")
        return self.add(PlannedFault(status=status, retry_after=header, message=message), times)

    def refuse_next(self, times: int, outcome: str = "refusal", message: Optional[str] = None) -> "FaultPlan":
        """The next model calls end as refused or blocked, in the emulated API's words."""
        return self.add(PlannedFault(outcome=outcome, message=message), times)

    def delay_next(self, times: int, seconds: float) -> "FaultPlan":
        return self.add(PlannedFault(delay_s=seconds), times)

    def delay_every(self, seconds: float) -> "FaultPlan":
        """Every request not otherwise faulted waits `seconds` (a uniformly slow model)."""
        with self._lock:
            self._every_delay_s = seconds
        return self

    def clear(self) -> None:
        with self._lock:
            self._queue.clear()
            self._every_delay_s = 0.0

    def take(self) -> Optional[PlannedFault]:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
            return PlannedFault(delay_s=self._every_delay_s) if self._every_delay_s > 0 else None


@dataclass
class ServerStats:
    """What the server saw.

    Model-call requests: arrival times (monotonic), answer statuses, peak concurrency. Connections:
    accepted, refused at the connection cap, open now and at peak. `body_bytes_read`: request-body
    bytes the server actually read (a refused request reads none).
    """

    arrivals: list[float] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    connections: int = 0  # TCP connections accepted and served: shows whether clients reuse theirs
    refused_connections: int = 0  # answered 503 at once because `max_connections` were open
    open_connections: int = 0
    peak_connections: int = 0
    body_bytes_read: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def requests(self) -> int:
        with self._lock:
            return len(self.arrivals)

    def gaps(self) -> list[float]:
        """Seconds between consecutive arrivals: what a client's backoff looked like from here."""
        with self._lock:
            times = list(self.arrivals)
        return [b - a for a, b in zip(times, times[1:])]

    def reset(self) -> None:
        with self._lock:
            self.arrivals.clear()
            self.statuses.clear()
            self.in_flight = 0
            self.max_in_flight = 0
            self.connections = 0
            self.refused_connections = 0
            self.peak_connections = self.open_connections
            self.body_bytes_read = 0

    def enter(self) -> None:
        with self._lock:
            self.arrivals.append(time.monotonic())
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def leave(self, status: int) -> None:
        with self._lock:
            self.in_flight -= 1
            self.statuses.append(status)

    def record(self, status: int) -> None:
        """A model-call request answered without reaching the model (e.g. a 401)."""
        self.enter()
        self.leave(status)

    def read_body(self, size: int) -> None:
        with self._lock:
            self.body_bytes_read += size

    def try_open_connection(self, cap: int) -> bool:
        """Count a new connection if fewer than `cap` are open; False (and counted as refused) if not."""
        with self._lock:
            if self.open_connections >= cap:
                self.refused_connections += 1
                return False
            self.open_connections += 1
            self.connections += 1
            self.peak_connections = max(self.peak_connections, self.open_connections)
            return True

    def close_connection(self) -> None:
        with self._lock:
            self.open_connections -= 1
