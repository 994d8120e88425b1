"""Which memory goes into which model call (`memory.injection: full | rulebook | none`).

An injection strategy is asked before every model call, with the calling role and the context the
call is about; it answers with the items to place in that role's system prompt and, optionally,
messages to prepend (the rulebook's stage-1 pair). Traces record the ids it returned. When the episode
ends it is asked what the trace should keep of it (`annotate_episode`: the rulebook's aftermath).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Protocol, Sequence

from forge.config import Injection
from forge.llm.types import Message, approx_tokens
from forge.rulebook.outcomes.aftermath import EpisodeNotes, StepSeen

if TYPE_CHECKING:
    from forge.memory.model import MemorySnapshot


@dataclass(frozen=True)
class InjectedItem:
    id: str
    kind: str  # "rule" | "example"
    text: str
    title: str | None = None


@dataclass(frozen=True)
class InjectedMemory:
    items: tuple[InjectedItem, ...] = ()
    prefix: tuple[Message, ...] = ()  # prepended after the system prompt (rulebook stage 1)
    prefix_ids: tuple[str, ...] = ()  # what the prefix delivers (rule refs), for the trace

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(item.id for item in self.items)

    @property
    def all_ids(self) -> tuple[str, ...]:
        """Everything learned that reached the call: the prefix's rules, then the system prompt's items."""
        return (*self.prefix_ids, *(i for i in self.ids if i not in self.prefix_ids))

    @property
    def tokens(self) -> int:
        """Memory tokens this injection adds to a call (chars / 4, like every estimate here)."""
        return sum(approx_tokens(item.text) + approx_tokens(item.title or "") for item in self.items) + sum(
            approx_tokens(m.content) for m in self.prefix
        )

    def of_kind(self, kind: str) -> list[InjectedItem]:
        return [item for item in self.items if item.kind == kind]


class MemoryInjection(Protocol):
    mode: str

    def start_episode(self, initial_context: str) -> None: ...

    def for_call(self, role: str, context: str) -> InjectedMemory: ...

    def annotate_episode(self, steps: Sequence[StepSeen], *, complete: bool) -> EpisodeNotes:
        """What the trace keeps of this episode's injections, asked once when the episode ends (`complete`:
        it ran to its horizon rather than stopping at a failure)."""
        ...


class NoInjection:
    """Nothing learned reaches the prompt (zero-shot, and the `none` arm of `forge evaluate`)."""

    mode = "none"

    def start_episode(self, initial_context: str) -> None:
        pass

    def for_call(self, role: str, context: str) -> InjectedMemory:
        return InjectedMemory()

    def annotate_episode(self, steps: Sequence[StepSeen], *, complete: bool) -> EpisodeNotes:
        return EpisodeNotes()


@dataclass
class FullInjection:
    """The paper's behaviour: every rule and example of the role, in every call of that role."""

    snapshot: object  # forge.memory.model.MemorySnapshot
    mode: str = "full"
    _cache: dict[str, InjectedMemory] = field(default_factory=dict)

    def start_episode(self, initial_context: str) -> None:
        pass

    def for_call(self, role: str, context: str) -> InjectedMemory:
        if role not in self._cache:
            items = [
                InjectedItem(item.id, kind, item.text, item.title)
                for kind in ("rule", "example")
                for item in self.snapshot.items_for(role, kind)
            ]
            self._cache[role] = InjectedMemory(items=tuple(items))
        return self._cache[role]

    def annotate_episode(self, steps: Sequence[StepSeen], *, complete: bool) -> EpisodeNotes:
        return EpisodeNotes()  # the same items at every call: nothing per step to judge


def plain_injection_factory(mode: Injection) -> Callable[["MemorySnapshot"], "MemoryInjection"]:
    """The injection of `memory.injection: full | none`, per memory snapshot. `rulebook` needs a store
    connection and the model clients: forge.wiring.injection_factory_for builds that factory and the
    caller hands it down (`InstanceLearner(injection_factory=...)`)."""
    if mode is Injection.none:
        return lambda snapshot: NoInjection()
    if mode is Injection.full:
        return FullInjection

    def needs_wiring(snapshot: "MemorySnapshot") -> MemoryInjection:
        raise ValueError("memory.injection=rulebook: pass the injection factory that "
                         "forge.wiring.injection_factory_for builds")

    return needs_wiring
