"""Compare-and-set writers retry here: the one loop that re-plans a write after another writer won.

Standard library only, so both the memory manager and the rulebook (and anything below them) can use it.
"""

from __future__ import annotations

import time
from typing import Callable, Optional, TypeVar

T = TypeVar("T")


def retry_on_conflict(
    attempt: Callable[[], T],
    conflict: type[BaseException],
    max_attempts: int,
    *,
    pause: Optional[Callable[[int], float]] = None,
) -> T:
    """`attempt()` until it does not raise `conflict`, at most `max_attempts` times; the last conflict is
    re-raised. `attempt` must re-read what it plans from (it is called again after a lost race).
    `pause(tries)` gives the seconds to sleep before the next try (none if not given)."""
    for tries in range(max_attempts):
        try:
            return attempt()
        except conflict:
            if tries == max_attempts - 1:
                raise
            if pause is not None:
                time.sleep(pause(tries))
    raise ValueError(f"max_attempts must be >= 1, got {max_attempts}")
