"""Remembering the rule language's pure readings by their arguments.

The checks, the gate and the compiler ask the same readings of the same words and frozen predicates again and again
(dc-bench blind-27 with the reference compilations: a million calls of `implies` for 48 thousand distinct arguments),
so the slow ones are remembered. The memory is bounded, and an argument that cannot be hashed is answered without it.
"""
from __future__ import annotations

from functools import lru_cache, wraps
from typing import Callable, TypeVar

Reading = TypeVar("Reading", bound=Callable)


def remembered(maxsize: int) -> Callable[[Reading], Reading]:
    """A decorator: `function` remembered (at most `maxsize` answers) where its arguments can be hashed."""
    def remember(function: Reading) -> Reading:
        memory = lru_cache(maxsize=maxsize)(function)

        @wraps(function)
        def call(*args, **kwargs):
            try:
                return memory(*args, **kwargs)
            except TypeError:  # an argument that cannot be hashed: read it again
                return function(*args, **kwargs)

        call.cache_info = memory.cache_info
        return call
    return remember
