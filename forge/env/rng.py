"""A private random stream for code that only knows how to use the global `random` module.

CybORG draws every random number from the process-wide `random` generator (`random.choice(...)`,
`from random import choice`). Two environments in one process, or anything else in the process that
draws from `random`, would otherwise perturb each other's trajectories, and a worker process hosts
many instances, each stepping its environment in its own thread.

So CybORG's modules are *routed* (`route_module_randomness`): their references to the `random` module
and to its functions are replaced by ones that draw from the generator of the `PrivateRandom` active
in the calling thread (a thread-local; outside any `active()` block they use the global generator, as
before). Each environment then sees exactly the stream its seed defines, whatever other threads of the
process do at the same time, and no lock is needed. Nothing outside the routed modules is changed.

numpy's legacy global generator can be guarded too (`isolate_numpy=True`): its state is swapped in
around the guarded calls, under a process-wide lock (a cost on every step, scripts/bench/env_speed.py);
csle-cyborg 0.0.3 makes no `numpy.random` call (the tests perturb numpy's global state between steps
and check the trajectory is unchanged), so the environment leaves it off.
"""

from __future__ import annotations

import random
import sys
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional

import numpy as np

# Swapping numpy's global state is only safe when one guarded call runs at a time in the process.
_GLOBAL_RNG_LOCK = threading.RLock()
_active = threading.local()
_GLOBAL: random.Random = random._inst  # type: ignore[attr-defined]  # what random.choice & co. are bound to


def current_generator() -> random.Random:
    """The generator of the `PrivateRandom` active in this thread, else the global one."""
    return getattr(_active, "generator", None) or _GLOBAL


class _RoutedRandomModule:
    """Stands in for the `random` module inside a routed module: its functions draw from
    `current_generator()`; everything else (classes, constants) is the module's own."""

    def __getattr__(self, name: str) -> Any:
        value = getattr(random, name)
        if getattr(value, "__self__", None) is _GLOBAL:
            return getattr(current_generator(), name)
        return value


def _routed_function(name: str) -> Callable[..., Any]:
    def draw(*args: Any, **kwargs: Any) -> Any:
        return getattr(current_generator(), name)(*args, **kwargs)

    draw.__name__ = draw.__qualname__ = name
    draw.__forge_routed__ = True  # type: ignore[attr-defined]
    return draw


_ROUTED_MODULE = _RoutedRandomModule()
_routed: set[str] = set()


def route_module_randomness(prefix: str) -> int:
    """Route every loaded module named `prefix` or `prefix.*` (idempotent); the number newly routed.
    Call it again after more of those modules were imported (Cage2Env does, after building CybORG)."""
    count = 0
    for name, module in list(sys.modules.items()):
        if name in _routed or module is None or not (name == prefix or name.startswith(prefix + ".")):
            continue
        for attr, value in list(vars(module).items()):
            if value is random:
                setattr(module, attr, _ROUTED_MODULE)
            elif getattr(value, "__self__", None) is _GLOBAL and callable(value):
                setattr(module, attr, _routed_function(value.__name__))
        _routed.add(name)
        count += 1
    return count


def unrouted_references(prefix: str) -> list[str]:
    """`module.name` of every reference to the global `random` left in loaded `prefix` modules (tests)."""
    found = []
    for name, module in list(sys.modules.items()):
        if module is None or not (name == prefix or name.startswith(prefix + ".")):
            continue
        for attr, value in list(vars(module).items()):
            if value is random or (getattr(value, "__self__", None) is _GLOBAL and callable(value)):
                found.append(f"{name}.{attr}")
    return found


class PrivateRandom:
    def __init__(self, seed: Optional[int] = None, *, isolate_numpy: bool = False) -> None:
        self.isolate_numpy = isolate_numpy
        self.reseed(seed)

    def reseed(self, seed: Optional[int]) -> None:
        self.generator = random.Random(seed)
        self._np_state = (
            np.random.RandomState(None if seed is None else seed % 2**32).get_state() if self.isolate_numpy else None
        )

    @contextmanager
    def active(self) -> Iterator[None]:
        """Routed modules called from this thread draw from this stream until the block ends."""
        outer = getattr(_active, "generator", None)
        _active.generator = self.generator
        try:
            if self.isolate_numpy:
                with _GLOBAL_RNG_LOCK:
                    outer_np = np.random.get_state()
                    np.random.set_state(self._np_state)
                    try:
                        yield
                    finally:
                        self._np_state = np.random.get_state()
                        np.random.set_state(outer_np)
            else:
                yield
        finally:
            _active.generator = outer
