"""A private random stream for code that only knows how to use the global `random` / `numpy.random`.

CybORG draws every random number from the process-wide generators. Two environments in one process
(or an agent that calls `random.random()`) would otherwise perturb each other's trajectories. A
`PrivateRandom` owns its own generator states and swaps them in only around the calls it guards, so
each environment sees exactly the stream its seed defines, whoever else runs in the process.
"""

from __future__ import annotations

import random
import threading
from contextlib import contextmanager
from typing import Iterator

import numpy as np

# Swapping global state is only safe when one guarded call runs at a time in the process.
_GLOBAL_RNG_LOCK = threading.RLock()


class PrivateRandom:
    def __init__(self, seed: int | None = None) -> None:
        self.reseed(seed)

    def reseed(self, seed: int | None) -> None:
        self._py_state = random.Random(seed).getstate()
        self._np_state = np.random.RandomState(None if seed is None else seed % 2**32).get_state()

    @contextmanager
    def active(self) -> Iterator[None]:
        with _GLOBAL_RNG_LOCK:
            outer_py, outer_np = random.getstate(), np.random.get_state()
            random.setstate(self._py_state)
            np.random.set_state(self._np_state)
            try:
                yield
            finally:
                self._py_state, self._np_state = random.getstate(), np.random.get_state()
                random.setstate(outer_py)
                np.random.set_state(outer_np)
