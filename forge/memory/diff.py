"""What changed between two memory snapshots, by item id."""

from __future__ import annotations

from dataclasses import dataclass

from forge.memory.model import MemoryItem, MemorySnapshot


@dataclass(frozen=True)
class ItemChange:
    before: MemoryItem
    after: MemoryItem

    def fields(self) -> tuple[str, ...]:
        """Names of the fields that differ (the text itself never does: it defines the id)."""
        names = ("text", "title", "support", "seq", "provenance")
        return tuple(name for name in names if getattr(self.before, name) != getattr(self.after, name))


@dataclass(frozen=True)
class MemoryDiff:
    added: tuple[MemoryItem, ...]
    removed: tuple[MemoryItem, ...]
    changed: tuple[ItemChange, ...]
    withdrawn: tuple[str, ...] = ()  # ids newly barred from coming back
    reinstated: tuple[str, ...] = ()  # ids no longer barred

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed or self.withdrawn or self.reinstated)

    def render(self) -> str:
        """Plain text, one line per item: `+` added, `-` removed, `~` changed."""
        if self.empty:
            return "no changes"
        lines = []
        for sign, items in (("+", self.added), ("-", self.removed)):
            lines += [f"{sign} {_label(item)}: {_one_line(item)}" for item in items]
        for change in self.changed:
            details = []
            for name in change.fields():
                before, after = getattr(change.before, name), getattr(change.after, name)
                if name == "provenance":
                    before, after = before.summary() or "-", after.summary() or "-"
                details.append(f"{name} {before} -> {after}")
            lines.append(f"~ {_label(change.after)}: {_one_line(change.after)} ({'; '.join(details)})")
        lines += [f"x withdrawn {item_id}" for item_id in self.withdrawn]
        lines += [f"o reinstated {item_id}" for item_id in self.reinstated]
        return "\n".join(lines)


def _label(item: MemoryItem) -> str:
    return f"{item.role}/{item.kind} {item.id}"


def _one_line(item: MemoryItem, limit: int = 160) -> str:
    text = " ".join(item.text.split())
    if item.title:
        text = f"[{item.title}] {text}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def diff_snapshots(before: MemorySnapshot, after: MemorySnapshot) -> MemoryDiff:
    """Items are matched by id; each list is in the snapshots' canonical order."""
    return MemoryDiff(
        added=tuple(item for item in after.items if item.id not in before),
        removed=tuple(item for item in before.items if item.id not in after),
        changed=tuple(
            ItemChange(before.by_id[item.id], item)
            for item in after.items
            if item.id in before and before.by_id[item.id] != item
        ),
        withdrawn=tuple(sorted(after.withdrawn - before.withdrawn)),
        reinstated=tuple(sorted(before.withdrawn - after.withdrawn)),
    )
