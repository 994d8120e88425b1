"""Every seed in a session is derived from `protocol.seed` and names, so runs are reproducible piecewise."""

from __future__ import annotations

import hashlib

# The seed of every bootstrap and permutation test (forge.analysis.stats): same seed, same intervals. Kept here, with
# no numpy, so that parsers can show it as a default without importing the statistics.
BOOTSTRAP_SEED = 0


def derive_seed(base: int, *parts: object) -> int:
    """A 31-bit seed from a base seed and any labels (`derive_seed(0, "train", "i03", 2)`)."""
    digest = hashlib.sha256(":".join(str(p) for p in (base, *parts)).encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF
