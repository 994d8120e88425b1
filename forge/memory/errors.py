"""What can go wrong with agent memory; every message names the instance, version or item at fault."""

from __future__ import annotations

from forge.errors import ForgeError


class MemoryStoreError(ForgeError):
    """Base of every memory error (not `MemoryError`, which is Python's out-of-memory)."""


class ConcurrentUpdateError(MemoryStoreError):
    """A compare-and-set lost: the instance's head moved since the writer read it."""

    def __init__(self, instance: str, expected_version: int, actual_version: int):
        super().__init__(
            f"memory of instance {instance!r} moved: expected head version {expected_version}, found {actual_version}"
        )
        self.instance = instance
        self.expected_version = expected_version
        self.actual_version = actual_version


class MemoryFrozenError(MemoryStoreError):
    """The instance graduated: its memory is frozen and accepts no further change."""

    def __init__(self, instance: str, version: int):
        super().__init__(f"memory of instance {instance!r} is frozen (since version {version}); it cannot change")
        self.instance = instance
        self.version = version


class UnknownInstanceError(MemoryStoreError, KeyError):
    def __init__(self, instance: str):
        super().__init__(f"unknown memory instance {instance!r}")
        self.instance = instance

    def __str__(self) -> str:  # KeyError would quote the whole message
        return self.args[0]


class UnknownVersionError(MemoryStoreError, KeyError):
    def __init__(self, instance: str, number: int, latest: int):
        super().__init__(f"instance {instance!r} has no memory version {number} (versions 1..{latest})")
        self.instance = instance
        self.number = number

    def __str__(self) -> str:
        return self.args[0]


class UnknownSnapshotError(MemoryStoreError, KeyError):
    def __init__(self, digest: str):
        super().__init__(f"no memory snapshot with digest {digest!r} in the store")
        self.digest = digest

    def __str__(self) -> str:
        return self.args[0]


class UnknownItemError(MemoryStoreError, KeyError):
    def __init__(self, instance: str, item_ids: list[str]):
        super().__init__(f"instance {instance!r} has no memory item {', '.join(map(repr, item_ids))} at its head")
        self.instance = instance
        self.item_ids = item_ids

    def __str__(self) -> str:
        return self.args[0]


class CorruptMemoryError(MemoryStoreError):
    """Stored bytes do not hash to the digest that names them, or a record cannot be parsed."""


class StoreUnavailableError(MemoryStoreError):
    """The store spec names nothing that can be opened (no such file, Redis unreachable)."""
