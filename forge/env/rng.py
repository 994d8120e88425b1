"""A private random stream for code that only knows how to use the global `random` module.

CybORG draws every random number from the process-wide `random` generator. Two environments in one
process (or an agent that calls `random.random()`) would otherwise perturb each other's trajectories.
A `PrivateRandom` owns its own generator state and swaps it in only around the calls it guards, so each
environment sees exactly the stream its seed defines, whoever else runs in the process.

numpy's legacy global generator can be guarded too (`isolate_numpy=True`), but swapping its state costs
about 90 us, half a CybORG step's budget; csle-cyborg 0.0.3 makes no `numpy.random` call (the tests
perturb numpy's global state between steps and check the trajectory is unchanged), so the environment
leaves it off.
"""

from __future__ import annotations

import random
import threading
from contextlib import contextmanager
from typing import Iterator, Optional

import numpy as np

# Swapping global state is only safe when one guarded call runs at a time in the process.
_GLOBAL_RNG_LOCK = threading.RLock()


class PrivateRandom:
    def __init__(self, seed: Optional[int] = None, *, isolate_numpy: bool = False) -> None:
        self.isolate_numpy = isolate_numpy
        self.reseed(seed)

    def reseed(self, seed: Optional[int]) -> None:
        self._py_state = random.Random(seed).getstate()
        self._np_state = (
            np.random.RandomState(None if seed is None else seed % 2**32).get_state() if self.isolate_numpy else None
        )

    @contextmanager
    def active(self) -> Iterator[None]:
        with _GLOBAL_RNG_LOCK:
            outer_py = random.getstate()
            random.setstate(self._py_state)
            if self.isolate_numpy:
                outer_np = np.random.get_state()
                np.random.set_state(self._np_state)
            try:
                yield
            finally:
                self._py_state = random.getstate()
                random.setstate(outer_py)
                if self.isolate_numpy:
                    self._np_state = np.random.get_state()
                    np.random.set_state(outer_np)
